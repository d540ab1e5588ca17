"""URLs of the API, included under ``api/`` with the namespace ``api``."""

from django.urls import path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from . import views
from .caching import content_etag

app_name = "api"

urlpatterns = [
    path("games/", views.GameListView.as_view(), name="game-list"),
    path("games/<slug:game>/", views.GameDetailView.as_view(), name="game-detail"),
    path("games/<slug:game>/glossary/", views.GlossaryView.as_view(), name="game-glossary"),
    path("cards/", views.CardSearchView.as_view(), name="card-list"),
    path("cards/<slug:game>/<segment:key>/", views.CardDetailView.as_view(), name="card-detail"),
    path("schema/", content_etag(SpectacularAPIView.as_view()), name="schema"),
    # The split view serves its start-up script from docs/?script rather than inline, so the page itself
    # (no CSRF token in it) has a stable ETag and needs no inline script.
    path("docs/", content_etag(SpectacularSwaggerSplitView.as_view(url_name="api:schema")), name="docs"),
]
