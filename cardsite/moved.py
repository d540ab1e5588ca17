"""Old addresses of pages that moved: each answers with a permanent redirect to the page's new address.

``moved(old_prefix, "app.urls")`` takes every pattern of a URLconf as it is now mounted and answers the same
routes under the old prefix, redirecting to the pattern's name (so the old address follows the page wherever its
name leads). A page read with GET or HEAD is redirected with 301, keeping the query string; any other method is
redirected with 308, so that the method and the body survive (``api=True``: always 308, as a client of the API
may send a body with any method). The redirect writes nothing, so it needs no CSRF token; the new address checks
it as before.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module

from django.http import HttpRequest
from django.http.response import HttpResponseRedirectBase
from django.urls import URLPattern, path, reverse
from django.urls.resolvers import RoutePattern
from django.views.decorators.csrf import csrf_exempt

SAFE_METHODS = frozenset({"GET", "HEAD"})


class MovedPermanently(HttpResponseRedirectBase):
    status_code = 301


class PermanentRedirect(HttpResponseRedirectBase):
    """308: as 301, but the client repeats the same method with the same body."""

    status_code = 308


def moved_view(to: str, *, api: bool = False) -> Callable[..., HttpResponseRedirectBase]:
    """A view that redirects to the URL named ``to``, with the captured arguments and the query string."""

    @csrf_exempt
    def view(request: HttpRequest, **kwargs: object) -> HttpResponseRedirectBase:
        url = reverse(to, kwargs=kwargs)
        query = request.META.get("QUERY_STRING", "")
        if query:
            url = f"{url}?{query}"
        if api or request.method not in SAFE_METHODS:
            return PermanentRedirect(url)
        return MovedPermanently(url)

    view.moved_to = to  # type: ignore[attr-defined]  # read by the URL map
    return view


def moved(
    old_prefix: str, urlconf: str, *, api: bool = False, only: Callable[[str], bool] | None = None
) -> list[URLPattern]:
    """Redirects from ``old_prefix`` + each route of ``urlconf`` (``only``: the routes it accepts) to its name."""
    module = import_module(urlconf)
    namespace = getattr(module, "app_name", None)
    patterns = []
    for pattern in module.urlpatterns:
        if not isinstance(pattern, URLPattern) or not isinstance(pattern.pattern, RoutePattern) or not pattern.name:
            continue
        route = str(pattern.pattern)
        if only is not None and not only(route):
            continue
        name = f"{namespace}:{pattern.name}" if namespace else pattern.name
        patterns.append(path(old_prefix + route, moved_view(name, api=api)))
    return patterns
