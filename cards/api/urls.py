"""URLs of the API, included under ``api/`` with the namespace ``api``."""

from django.urls import path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from cardsite.pagecache import cached_for_readers

from . import views
from .caching import content_etag

app_name = "api"
readers = cached_for_readers("cards")  # whole answers to anonymous reads (cardsite.pagecache)

urlpatterns = [
    path("games/", readers(views.GameListView.as_view()), name="game-list"),
    path("games/<slug:game>/", readers(views.GameDetailView.as_view()), name="game-detail"),
    path("games/<slug:game>/glossary/", readers(views.GlossaryView.as_view()), name="game-glossary"),
    path("games/<slug:game>/missing/", readers(views.GameMissingView.as_view()), name="game-missing"),
    path("cards/", readers(views.CardSearchView.as_view()), name="card-list"),
    path("cards/<slug:game>/<segment:key>/", readers(views.CardDetailView.as_view()), name="card-detail"),
    path("schema/", content_etag(SpectacularAPIView.as_view()), name="schema"),
    # The split view serves its start-up script from docs/?script rather than inline, so the page itself
    # (no CSRF token in it) has a stable ETag and needs no inline script.
    path("docs/", content_etag(SpectacularSwaggerSplitView.as_view(url_name="api:schema")), name="docs"),
]
