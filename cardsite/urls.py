from django.contrib import admin
from django.urls import include, path, re_path, register_converter

from . import errorpages, views
from .api_inputs import PathSegmentConverter

register_converter(PathSegmentConverter, "segment")

urlpatterns = [
    path("healthz/", views.healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("i18n/setlang/", views.set_language, name="set_language"),
    path("api/", include("simulator.api.urls")),
    path("api/decks/", include("decks.api.urls")),
    path("api/collection/", include("collection.api.urls")),
    path("api/", include("notifications.api")),
    path("api/", include("community.api.urls")),
    path("api/", include("accounts.api.urls")),
    path("api/", include("cards.api.urls")),
    path("api/", include("contributions.api.urls")),
    path("api/", include("readings.api.urls")),
    # Whatever else ends in a slash under api/ is a JSON 404, in DEBUG too (whose own 404 page is HTML);
    # a path without its final slash is still redirected to it first (APPEND_SLASH), as everywhere.
    re_path(r"^api/(?:.*/)?$", errorpages.not_found, name="api-not-found"),
    path("accounts/", include("accounts.urls")),
    path("collection/", include("collection.urls")),
    path("notifications/", include("notifications.urls")),
    path("", include("community.urls")),
    path("decks/", include("decks.urls")),
    path("decks/", include("decks.urls_decklist")),
    path("decks/", include("simulator.goldfish.urls")),
    path("", include("readings.urls")),
    path("games/<slug:game>/compare/", include("simulator.comparisons.urls")),
    path("games/<slug:game>/strategies/", include("simulator.strategies.urls")),
    path("games/<slug:game>/play/", include("simulator.seated.urls")),
    path("games/<slug:game>/search/", include("simulator.searches.urls")),
    path("games/<slug:game>/setups/", include("simulator.setups.urls")),
    path("", include("contributions.urls")),
    path("", include("cards.urls")),
]

handler400 = "cardsite.errorpages.bad_request"
handler403 = "cardsite.errorpages.forbidden"
handler404 = "cardsite.errorpages.not_found"
handler500 = "cardsite.errorpages.server_error"
