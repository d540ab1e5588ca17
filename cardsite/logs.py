"""Logging helpers: make Django's log records safe and useful for the JSON formatter."""

from __future__ import annotations

import logging
import re
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
