"""The root URLconf. A URL's first segment names the app that answers it (for the API, the segment after ``api/``);
each app declares its segments as ``url_prefixes`` on its ``AppConfig``, and ``python manage.py urlmap --check``
(run by ``tests/test_url_map.py``) holds every pattern to it. The ground keeps ``admin/``, ``i18n/``,
``healthz/``, the API's ``schema/`` and ``docs/``, and static and uploaded files.

Pages that moved to their app's segment keep their names; their old addresses redirect (``cardsite.moved``: 301
for GET, 308 for the API and for other methods). Those redirects are tried after every live pattern of their
old segment, so that they never hide a page.
"""

from django.contrib import admin
from django.urls import include, path, re_path, register_converter

from . import errorpages, views
from .api_inputs import PathSegmentConverter
from .moved import moved

register_converter(PathSegmentConverter, "segment")

SIMULATOR_FEATURES = [  # simulator.urls: where each feature's pages were before they moved under simulator/
    ("decks/", "simulator.goldfish.urls"),
    ("games/<slug:game>/compare/", "simulator.comparisons.urls"),
    ("games/<slug:game>/strategies/", "simulator.strategies.urls"),
    ("games/<slug:game>/play/", "simulator.seated.urls"),
    ("games/<slug:game>/search/", "simulator.searches.urls"),
    ("games/<slug:game>/setups/", "simulator.setups.urls"),
]


def _moved_api(urlconf: str) -> list:
    return moved("api/", urlconf, api=True)


def _was_under_games(route: str) -> bool:
    return route.startswith("games/")


def _not_an_alias(route: str) -> bool:
    return not route.startswith("notifications/")  # community's old names of the inbox: /notifications/ is live


urlpatterns = [
    path("healthz/", views.healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("i18n/setlang/", views.set_language, name="set_language"),
    path("api/simulator/", include("simulator.api.urls")),
    path("api/decks/", include("decks.api.urls")),
    path("api/collection/", include("collection.api.urls")),
    path("api/", include("notifications.api")),
    path("api/community/", include("community.api.urls")),
    path("api/accounts/", include("accounts.api.urls")),
    path("api/", include("cards.api.urls")),
    path("api/contributions/", include("contributions.api.urls")),
    path("api/", include("readings.api.urls")),
    # The API's old addresses, before they moved to their app's segment.
    *_moved_api("simulator.api.urls"),
    *_moved_api("community.api.urls"),
    *_moved_api("accounts.api.urls"),
    *_moved_api("contributions.api.urls"),
    # Whatever else ends in a slash under api/ is a JSON 404, in DEBUG too (whose own 404 page is HTML);
    # a path without its final slash is still redirected to it first (APPEND_SLASH), as everywhere.
    re_path(r"^api/(?:.*/)?$", errorpages.not_found, name="api-not-found"),
    path("accounts/", include("accounts.urls")),
    path("collection/", include("collection.urls")),
    path("notifications/", include("notifications.urls")),
    path("community/", include("community.urls")),
    path("decks/", include("decks.urls")),
    path("decks/", include("decks.decklists.urls")),
    path("simulator/", include("simulator.urls")),
    path("readings/", include("readings.urls")),
    path("contributions/", include("contributions.urls")),
    # Old addresses of pages that moved to their app's segment (before the card page's <path:key>, which would
    # take an old ".../cards/<key>/edit/" for a key).
    *moved("", "community.urls", only=_not_an_alias),
    *(pattern for old, urlconf in SIMULATOR_FEATURES for pattern in moved(old, urlconf)),
    *moved("contributions/", "readings.urls"),
    *moved("", "contributions.urls", only=_was_under_games),
    path("", include("cards.urls")),
]

handler400 = "cardsite.errorpages.bad_request"
handler403 = "cardsite.errorpages.forbidden"
handler404 = "cardsite.errorpages.not_found"
handler500 = "cardsite.errorpages.server_error"
