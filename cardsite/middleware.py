"""The site's own middleware: every request's statements are time-limited, and a database that
cannot answer (read-only, full disk, unreachable, too slow) gets a clear 503 rather than a 500; a body over
Django's limits gets the site's error answer (JSON under /api/), in DEBUG too."""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Any

from django.conf import settings
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent
from django.http import HttpRequest, HttpResponse

from . import db, errorpages

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
        request._mark_post_parse_error()
        response = errorpages.bad_request(request, exception)
        security = logging.getLogger(f"django.security.{exception.__class__.__name__}")
        security.warning(str(exception), extra={"status_code": response.status_code, "request": request})
        return response
