"""URLs of the contributions API, included under ``api/`` with the namespace ``contributions_api``.

``change-sets/`` the user's own (GET) and submit (POST); ``change-sets/<id>/`` one change set (GET);
``change-sets/<id>/accept/`` and ``…/reject/`` review it (POST, editors); ``review-queue/`` what waits
for the user's review (GET, editors); ``review-queue/seed-conflicts/`` the seed conflicts waiting (GET,
editors), ``seed-conflicts/<id>/resolve/`` settle one (POST, editors) and ``images/`` upload a picture (POST,
multipart).

An editor's work beyond change sets, as on the site's pages: ``cards/<game>/<key>/history/`` a card's
revisions (GET, anyone), each with the ``id`` that ``cards/<game>/<key>/revert/`` undoes (POST, editors, with
the history's ``state_digest`` as ``seen``); ``games/<game>/deleted-cards/`` the deleted cards (GET, anyone)
and ``games/<game>/deleted-cards/<version_id>/restore/`` bring one back (POST, editors);
``games/<game>/blocked-users/<user_id>/`` block a user's contributions (POST, with a ``note``) or unblock
them (DELETE), editors.
"""

from django.urls import path
from rest_framework.routers import SimpleRouter

from .views import (
    CardHistoryView,
    CardRestoreView,
    CardRevertView,
    ChangeSetViewSet,
    DeletedCardsView,
    ImageUploadView,
    ReviewQueueView,
    SeedConflictQueueView,
    SeedConflictResolveView,
    UserBlockView,
)

app_name = "contributions_api"

router = SimpleRouter(use_regex_path=False)  # path converters: ChangeSetViewSet.lookup_value_converter
router.register("change-sets", ChangeSetViewSet, basename="change-set")

urlpatterns = [
    *router.urls,
    path("review-queue/", ReviewQueueView.as_view(), name="review-queue"),
    path("review-queue/seed-conflicts/", SeedConflictQueueView.as_view(), name="seed-conflicts"),
    path("seed-conflicts/<int:conflict_id>/resolve/", SeedConflictResolveView.as_view(), name="seed-conflict-resolve"),
    path("images/", ImageUploadView.as_view(), name="image-upload"),
    path("cards/<slug:game>/<segment:key>/history/", CardHistoryView.as_view(), name="card-history"),
    path("cards/<slug:game>/<segment:key>/revert/", CardRevertView.as_view(), name="card-revert"),
    path("games/<slug:game>/deleted-cards/", DeletedCardsView.as_view(), name="deleted-cards"),
    path("games/<slug:game>/deleted-cards/<int:version_id>/restore/", CardRestoreView.as_view(), name="card-restore"),
    path("games/<slug:game>/blocked-users/<int:user_id>/", UserBlockView.as_view(), name="user-block"),
]
