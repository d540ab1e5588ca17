"""Logging helpers: make Django's log records safe and useful for the JSON formatter."""

from __future__ import annotations

import logging

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
