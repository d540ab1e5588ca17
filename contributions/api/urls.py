"""URLs of the contributions API, included under ``api/`` with the namespace ``contributions_api``.

``change-sets/`` the user's own (GET) and submit (POST); ``change-sets/<id>/`` one change set (GET);
``change-sets/<id>/accept/`` and ``…/reject/`` review it (POST, editors); ``review-queue/`` what waits
for the user's review (GET, editors); ``review-queue/seed-conflicts/`` the seed conflicts waiting (GET,
editors), ``seed-conflicts/<id>/resolve/`` settle one (POST, editors) and ``images/`` upload a picture (POST,
multipart).
"""

from django.urls import path
from rest_framework.routers import SimpleRouter

from .views import ChangeSetViewSet, ImageUploadView, ReviewQueueView, SeedConflictQueueView, SeedConflictResolveView

app_name = "contributions_api"

router = SimpleRouter(use_regex_path=False)  # path converters: ChangeSetViewSet.lookup_value_converter
router.register("change-sets", ChangeSetViewSet, basename="change-set")

urlpatterns = [
    *router.urls,
    path("review-queue/", ReviewQueueView.as_view(), name="review-queue"),
    path("review-queue/seed-conflicts/", SeedConflictQueueView.as_view(), name="seed-conflicts"),
    path("seed-conflicts/<int:conflict_id>/resolve/", SeedConflictResolveView.as_view(), name="seed-conflict-resolve"),
    path("images/", ImageUploadView.as_view(), name="image-upload"),
]
