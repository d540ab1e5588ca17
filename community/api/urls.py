"""URLs of the public deck space's API, included under ``api/`` with the namespace ``community_api``:
``publications/`` (list, publish), ``publications/<id>/`` and its ``like/``, ``favourite/``, ``copy/``,
``comments/``, ``reports/``; ``moderation/reports/`` and
``moderation/actions/`` (staff)."""

from rest_framework.routers import SimpleRouter

from .views import ModerationViewSet, PublicationViewSet

app_name = "community_api"

router = SimpleRouter(use_regex_path=False)
router.register("publications", PublicationViewSet, basename="publication")
router.register("moderation", ModerationViewSet, basename="moderation")

urlpatterns = router.urls
