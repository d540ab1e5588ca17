"""gunicorn's access log, as JSON lines like the site's own (``LOG_FORMAT=json``) or as text.

gunicorn formats its access log with a %-string, which cannot escape a quote in a user agent into
valid JSON; ``JsonLogger`` hands the fields to python-json-logger instead. Both loggers write the
client's address as the site counts it (``cardsite.clients``) and redact share-link tokens from the
path, the query and the referrer (``cardsite.logs.redact``): a link that shares a deck must not be
readable by whoever reads the log. Other query parameters are logged (searches, never credentials:
API tokens travel in headers).
"""

from __future__ import annotations

import logging
import traceback
from typing import Any

from gunicorn.glogging import Logger
from pythonjsonlogger.json import JsonFormatter

from .clients import client_address
from .logs import RedactFilter, redact

FORMAT = "%(asctime)s %(levelname)s %(name)s %(message)s"
RENAMED = {"asctime": "time", "levelname": "level", "name": "logger"}


class TextLogger(Logger):
    """gunicorn's text access log, with the client's address and without share-link tokens (its error log
    too: a request that fails is logged with its address)."""

    def setup(self, cfg: Any) -> None:
        super().setup(cfg)
        if not any(isinstance(found, RedactFilter) for found in self.error_log.filters):
            self.error_log.addFilter(RedactFilter())

    def atoms(self, resp: Any, req: Any, environ: dict[str, Any], request_time: Any) -> dict[str, Any]:
        atoms = super().atoms(resp, req, environ, request_time)
        # Every atom, not only the request line, the path, the query and the referrer: a format may name
        # any header or environ variable ({raw_uri}e, {referer}i).
        atoms = {name: redact(value) for name, value in atoms.items()}
        atoms["h"] = client_address(environ) or "-"
        return atoms


class JsonLogger(TextLogger):
    def setup(self, cfg: Any) -> None:
        super().setup(cfg)
        formatter = JsonFormatter(FORMAT, rename_fields=RENAMED)
        for log in (self.error_log, self.access_log):
            for handler in log.handlers:
                handler.setFormatter(formatter)

    def access(self, resp: Any, req: Any, environ: dict[str, Any], request_time: Any) -> None:
        if not self.access_log_enabled:
            return
        status = resp.status.split(None, 1)[0] if isinstance(resp.status, str) else resp.status
        fields = {
            "client": client_address(environ),
            "method": environ.get("REQUEST_METHOD", ""),
            "path": redact(environ.get("PATH_INFO", "")),
            "query": redact(environ.get("QUERY_STRING", "")),
            "status": int(status),
            "bytes": getattr(resp, "sent", None),
            "ms": round(request_time.total_seconds() * 1000, 2),
            "agent": environ.get("HTTP_USER_AGENT", ""),
        }
        try:
            self.access_log.log(logging.INFO, "request", extra=fields)
        except Exception:
            self.error(traceback.format_exc())
