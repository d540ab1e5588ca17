"""The site's own endpoints: health, and the language switcher."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponseRedirect, JsonResponse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import check_for_language
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods

from . import health


@require_http_methods(["GET", "POST"])
def set_language(request: HttpRequest) -> HttpResponseRedirect:
    """Remember the reader's interface language (a cookie) and go back to ``next``.

    Django's own view takes only POST, so every page would carry a CSRF token for the switcher, and
    no page could be cached whole for readers. Choosing a language changes nothing but that cookie,
    so a GET (a link, a form without a token) is enough.
    """
    data = request.POST if request.method == "POST" else request.GET
    target = data.get("next") or "/"
    if not url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        target = "/"
    response = HttpResponseRedirect(target)
    language = data.get("language", "")
    if check_for_language(language):
        response.set_cookie(
            settings.LANGUAGE_COOKIE_NAME,
            language,
            max_age=settings.LANGUAGE_COOKIE_AGE,
            path=settings.LANGUAGE_COOKIE_PATH,
            domain=settings.LANGUAGE_COOKIE_DOMAIN,
            secure=settings.LANGUAGE_COOKIE_SECURE,
            httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
            samesite=settings.LANGUAGE_COOKIE_SAMESITE,
        )
    return response


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """200 while the site can serve pages (``ok`` or ``degraded``), 503 when its database cannot be read."""
    status, checks = health.report()
    return JsonResponse({"status": status, "checks": checks}, status=503 if status == "down" else 200)
