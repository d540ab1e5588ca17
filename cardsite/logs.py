"""Logging helpers: make Django's log records safe and useful for the JSON formatter, and keep the admins' mail
to errors worth a mail."""

from __future__ import annotations

import hashlib
import logging
import re
import time
from pathlib import Path
from typing import Any

from django.utils.functional import empty

from .clients import client_address

REDACTED = "[redacted]"
# A link that shares a deck or a strategy holds its token, as a path segment (/decks/shared/<token>/,
# /games/<game>/strategies/shared/<token>/) or as ?token=<token> (a deck's pages, its versions, the
# API). Whoever reads the log must not be able to open what was shared.
_SHARED_SEGMENT = re.compile(r"(/shared/)[^/?#\s\"']+")
_TOKEN_PARAMETER = re.compile(r"((?:^|[?&;])token=)[^&;#\s\"']*", re.IGNORECASE)


def redact(text: Any) -> Any:
    """``text`` (a path, a query string, a URL, a request line) with share-link tokens replaced.

    Used by every log that writes an address: gunicorn's access log (``cardsite.gunicorn_logging``) and
    the site's own records (``RequestFilter``). Anything but a string is given back as it is."""
    if not isinstance(text, str) or ("shared/" not in text and "token=" not in text.lower()):
        return text
    return _TOKEN_PARAMETER.sub(rf"\g<1>{REDACTED}", _SHARED_SEGMENT.sub(rf"\g<1>{REDACTED}", text))


class RedactFilter(logging.Filter):
    """Share-link tokens out of a record's arguments (Django's "Not Found: <path>", runserver's request line,
    gunicorn's "Error handling request <uri>")."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(redact(arg) for arg in record.args)
        elif isinstance(record.args, dict):
            record.args = {key: redact(value) for key, value in record.args.items()}
        return True


class RequestFilter(RedactFilter):
    """Replace the ``request`` object Django attaches to a record by what a reader of the log needs.

    The JSON formatter writes every extra attribute of a record; a request object would come out
    as its repr (or, worse, with its headers). Method, path, status, user id and client address are
    kept; cookies, bodies and other headers never reach the log. Share-link tokens are redacted, in the
    path and in the message's arguments (Django's "Not Found: <path>", runserver's request line).
    """

    def filter(self, record: logging.LogRecord) -> bool:
        super().filter(record)
        request = getattr(record, "request", None)
        if request is not None and hasattr(request, "META"):
            record.request = {
                "method": request.method,
                "path": redact(request.path),
                "client": client_address(request),
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
