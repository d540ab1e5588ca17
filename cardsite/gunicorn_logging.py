"""gunicorn's logs as JSON lines, like the site's own (``LOG_FORMAT=json``).

gunicorn formats its access log with a %-string, which cannot escape a quote in a user agent into
valid JSON; this logger hands the fields to python-json-logger instead. Query strings are logged
(they hold searches and parameters, never credentials: tokens travel in headers).
"""

from __future__ import annotations

import logging
import traceback
from typing import Any

from gunicorn.glogging import Logger
from pythonjsonlogger.json import JsonFormatter

FORMAT = "%(asctime)s %(levelname)s %(name)s %(message)s"
RENAMED = {"asctime": "time", "levelname": "level", "name": "logger"}


class JsonLogger(Logger):
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
            "client": environ.get("REMOTE_ADDR", ""),
            "method": environ.get("REQUEST_METHOD", ""),
            "path": environ.get("PATH_INFO", ""),
            "query": environ.get("QUERY_STRING", ""),
            "status": int(status),
            "bytes": getattr(resp, "sent", None),
            "ms": round(request_time.total_seconds() * 1000, 2),
            "agent": environ.get("HTTP_USER_AGENT", ""),
        }
        try:
            self.access_log.log(logging.INFO, "request", extra=fields)
        except Exception:
            self.error(traceback.format_exc())
