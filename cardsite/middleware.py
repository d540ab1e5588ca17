"""The site's own middleware: every request's statements are time-limited, and a database that
cannot answer (read-only, full disk, unreachable, too slow) gets a clear 503 rather than a 500."""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.conf import settings
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
