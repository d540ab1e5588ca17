"""The site's own middleware: every request's statements are time-limited, and a database that
cannot answer (read-only, full disk, unreachable, too slow) gets a clear 503 rather than a 500; an API
request's ``?lang=`` sets the language of its answer."""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils import translation
from django.utils.translation import gettext as _

from . import db, errorpages
from .labels import LANGUAGES

# The query parameter that names the language of an API answer (every operation takes it).
LANGUAGE_PARAMETER = "lang"

logger = logging.getLogger("cardsite.database")


class DatabaseGuardMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        with db.guarded_connection(), db.statement_time_limit(settings.REQUEST_STATEMENT_TIMEOUT):
            return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        kind = db.failure_kind(exception)
        if kind is None:
            return None
        logger.warning("database %s: %s", kind, exception, extra={"request": request})
        return errorpages.database_failure(request, kind)


class ApiLanguageMiddleware:
    """``?lang=`` on any API request: the language of the whole answer (messages, labels, names), as though
    the request's Accept-Language had named it; a value that is not one of the site's languages is a 400
    (code ``invalid``, under ``errors.lang``) before any view runs, the same on every endpoint.

    After ``LocaleMiddleware`` (which it overrides) and before the page cache (whose keys hold the language).
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path.startswith(errorpages.API_PREFIX) and LANGUAGE_PARAMETER in request.GET:
            value = request.GET[LANGUAGE_PARAMETER]  # the last one, as every query parameter is read
            if value not in LANGUAGES:
                return _language_refused(value)
            translation.activate(value)
            request.LANGUAGE_CODE = value
        return self.get_response(request)


def _language_refused(value: str) -> HttpResponse:
    message = _("“%(value)s” is not a language of the site: %(languages)s.") % {
        "value": value,
        "languages": ", ".join(LANGUAGES),
    }
    body = {"detail": f"{LANGUAGE_PARAMETER}: {message}", "code": "invalid", "errors": {LANGUAGE_PARAMETER: [message]}}
    return JsonResponse(body, status=400)
