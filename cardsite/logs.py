"""Logging helpers: make Django's log records safe and useful for the JSON formatter, and keep the admins' mail
to errors worth a mail."""

from __future__ import annotations

import hashlib
import logging
import time
from pathlib import Path

from django.utils.functional import empty


class RequestFilter(logging.Filter):
    """Replace the ``request`` object Django attaches to a record by what a reader of the log needs.

    The JSON formatter writes every extra attribute of a record; a request object would come out
    as its repr (or, worse, with its headers). Method, path, status, user id and client address are
    kept; cookies, bodies and other headers never reach the log.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        request = getattr(record, "request", None)
        if request is not None and hasattr(request, "META"):
            record.request = {
                "method": request.method,
                "path": request.path,
                "client": request.META.get("REMOTE_ADDR", ""),
                "user": _user_id(request),
            }
        status = getattr(record, "status_code", None)
        if status is not None:
            record.status_code = int(status)
        return True


def _user_id(request) -> int | None:
    """The user's id if the request already looked them up; logging never queries the database."""
    user = request.__dict__.get("user")
    loaded = getattr(user, "_wrapped", user)
    if loaded is None or loaded is empty or not getattr(loaded, "is_authenticated", False):
        return None
    return loaded.pk


# The answers the site gives on purpose when it cannot do what was asked: too many requests, a database that is
# read-only, unreachable, too slow or too busy (cardsite.errorpages). They are logged; /healthz/ reports the state.
EXPECTED_STATUSES = frozenset({429, 503})

_local_marks: dict[str, float] = {}
_PROJECT = str(Path(__file__).resolve().parent.parent)


class AdminMailFilter(logging.Filter):
    """Which error records become a mail to the admins (the ``mail_admins`` handler).

    An expected degradation (``EXPECTED_STATUSES``) is never mailed. Any other error is mailed once per
    ``ERROR_MAIL_INTERVAL`` seconds for its kind: the exception's type and the place it was raised (else the
    logger, the place it logged and its message template), so that a flood of one error (every request while a
    table is missing) is one mail, and a new error is mailed at once. The marks are kept in the cache, shared by
    every process when it is Redis or files; a cache that fails falls back to the process's own memory.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "status_code", None) in EXPECTED_STATUSES:
            return False
        from django.conf import settings

        if not settings.ADMINS:
            return False  # nobody to mail: no mark either
        interval = int(getattr(settings, "ERROR_MAIL_INTERVAL", 600))
        if interval <= 0:
            return True
        key = "error-mail:" + hashlib.sha256(error_kind(record).encode()).hexdigest()[:32]
        try:
            from django.core.cache import cache

            return bool(cache.add(key, 1, timeout=interval))
        except Exception:  # an error mail must not fail because the cache is down
            now = time.monotonic()
            if _local_marks.get(key, 0.0) > now:
                return False
            _local_marks[key] = now + interval
            return True


def error_kind(record: logging.LogRecord) -> str:
    """What makes two error records "the same error": the exception's type and where it was raised (the deepest
    frame of the site's own code, so that one driver error met from two places is two errors), else the logger,
    the logging call's place and its message template (not the values put into it)."""
    if record.exc_info and record.exc_info[0] is not None:
        kind, _error, trace = record.exc_info
        place = own = None
        while trace is not None:
            filename = trace.tb_frame.f_code.co_filename
            place = f"{filename}:{trace.tb_lineno}"
            if filename.startswith(_PROJECT) and "-packages" not in filename:
                own = place
            trace = trace.tb_next
        return f"{kind.__module__}.{kind.__qualname__}@{own or place or record.pathname}"
    return f"{record.name}@{record.pathname}:{record.lineno}:{record.msg}"
