"""What a view needs of the account it serves: shared by every app whose pages need one (decks,
contributions, reviews)."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, resolve_url
from django.utils.http import url_has_allowed_host_and_scheme
from django_htmx.http import HttpResponseClientRedirect

from cardsite.types import HtmxRequest


def same_site_path(request: HttpRequest, url: str | None) -> str:
    """The path of ``url`` if it points into this site, else ""."""
    if url and url_has_allowed_host_and_scheme(url, allowed_hosts={request.get_host()}):
        parts = urlsplit(url)
        return parts.path + (f"?{parts.query}" if parts.query else "")
    return ""


def account_required(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Log in first: a page comes back after login; a POST goes back to the page it came from; an htmx
    request is sent to the login page by HX-Redirect (a swap of the login form into a fragment would be wrong)."""

    @wraps(view)
    def wrapper(request: HtmxRequest, *args, **kwargs) -> HttpResponse:
        if request.user.is_authenticated:
            return view(request, *args, **kwargs)
        if request.htmx:
            back = same_site_path(request, request.htmx.current_url)
            return HttpResponseClientRedirect(redirect_to_login(back).url if back else resolve_url(settings.LOGIN_URL))
        if request.method in ("GET", "HEAD"):
            return redirect_to_login(request.get_full_path())
        back = same_site_path(request, request.headers.get("Referer"))
        return redirect_to_login(back) if back else redirect(settings.LOGIN_URL)

    return wrapper
