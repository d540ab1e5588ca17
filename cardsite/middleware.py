"""The site's own middleware: every request's statements are time-limited, and a database that
cannot answer (read-only, full disk, unreachable, too slow) gets a clear 503 rather than a 500; an API
request's ``?lang=`` sets the language of its answer; a body over Django's limits gets the site's error
answer (JSON under /api/), in DEBUG too."""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Any

from django.conf import settings
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.http.response import HttpResponseBase
from django.middleware.gzip import GZipMiddleware
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


def headers_over_limits(meta: Mapping[str, Any]) -> bool:
    """Whether the request's headers are more, or larger, than the site takes (``REQUEST_HEADER_FIELDS_MAX``,
    ``REQUEST_HEADER_FIELD_MAX_BYTES``, each counted as "Name: value"). The HTTP server's own limits are set above
    these (``cardsite/gunicorn.conf.py``), so that such a request gets the site's answer rather than the server's."""
    fields = [(name, value) for name, value in meta.items() if name.startswith("HTTP_")]
    fields += [(name, meta[name]) for name in ("CONTENT_TYPE", "CONTENT_LENGTH") if meta.get(name)]
    if len(fields) > settings.REQUEST_HEADER_FIELDS_MAX:
        return True
    limit = settings.REQUEST_HEADER_FIELD_MAX_BYTES
    return any(len(name) - 3 + len(str(value).encode("latin-1", "replace")) > limit for name, value in fields)


class RequestLimitsMiddleware:
    """A request whose headers are over the site's limits answers 431 (``headers_over_limits``); a body over
    ``DATA_UPLOAD_MAX_*`` answers the site's own error (``errorpages.bad_request``: 413 or 400,
    JSON under /api/ with the limit named), whatever DEBUG says.

    Django answers these itself, with its debug page when DEBUG is on; the API promises its JSON shape in DEBUG
    too. They are raised where the body is first read, which for the API is inside the view (DRF's parsers,
    its CSRF check), so ``process_exception`` sees them before Django's own handler does."""

    LIMITS = (RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent)

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if headers_over_limits(request.META):
            return errorpages.headers_too_large(request)
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, self.LIMITS):
            return None
        # As Django does: the body is not read again (that would raise again), and the refusal is logged where
        # Django logs it; as a warning, a client's mistake being nothing to mail the admins about.
        request._mark_post_parse_error()  # type: ignore[attr-defined]  # Django's own, private
        response = errorpages.bad_request(request, exception)
        security = logging.getLogger(f"django.security.{exception.__class__.__name__}")
        security.warning(str(exception), extra={"status_code": response.status_code, "request": request})
        return response


class CompressedTextMiddleware(GZipMiddleware):
    """Pages, JSON and other text compressed with gzip for a client that accepts it: a page is a third of its
    size or less, which a phone on a slow network feels (benchmarks/pages.py). Pictures and files already
    compressed (card images, PDFs, PNGs) go as they are. Django's gzip adds random bytes to each answer against
    BREACH, so pages that carry a CSRF token may be compressed too."""

    COMPRESSED_TYPES = ("text/", "application/json", "application/javascript", "application/problem+json")

    def process_response(self, request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
        if not response.get("Content-Type", "").startswith(self.COMPRESSED_TYPES):
            return response
        return super().process_response(request, response)
