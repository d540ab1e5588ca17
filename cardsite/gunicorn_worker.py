"""gunicorn's worker for the site (``worker_class`` in ``cardsite/gunicorn.conf.py``): gunicorn's threaded worker,
whose answers to requests it cannot hand to Django come in the site's shape instead of gunicorn's bare HTML.

gunicorn refuses some requests before the application sees them: a request line over its maximum (414), headers
over its limits (431), and a request line or header that is not valid HTTP, a NUL or control character in a
header among them (400). Its own answer is a bare HTML page in English. Here the same statuses come back as the
site answers errors (``cardsite.errorpages``): the API's JSON error body (``detail``, ``code``, ``errors``) for a
path under /api/ and for a request whose path could not be read (a request line too long), and the site's
standalone error page otherwise, in the language the request's Accept-Language asks for when gunicorn read it
(the site's default language when the headers themselves could not be read).
Everything else (an application failure gunicorn catches, a broken proxy line, TLS) is gunicorn's as before.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from gunicorn import util
from gunicorn.http.errors import (
    InvalidHeader,
    InvalidHeaderName,
    InvalidHTTPVersion,
    InvalidRequestLine,
    InvalidRequestMethod,
    LimitRequestHeaders,
    LimitRequestLine,
    ObsoleteFolding,
)
from gunicorn.http.message import Request
from gunicorn.http.parser import RequestParser
from gunicorn.http.wsgi import Response, default_environ
from gunicorn.workers.gthread import ThreadWorker

STATUSES: dict[type[Exception], tuple[int, str]] = {
    LimitRequestLine: (414, "URI Too Long"),
    LimitRequestHeaders: (431, "Request Header Fields Too Large"),
}
UNREADABLE = (
    InvalidHeader,
    InvalidHeaderName,
    InvalidRequestLine,
    InvalidRequestMethod,
    InvalidHTTPVersion,
    ObsoleteFolding,
)
API_PREFIX = "/api/"


def _status(exc: Exception) -> tuple[int, str] | None:
    for kind, status in STATUSES.items():
        if isinstance(exc, kind):
            return status
    return (400, "Bad Request") if isinstance(exc, UNREADABLE) else None


def _header(req: Any, name: str) -> str:
    for header, value in getattr(req, "headers", None) or []:
        if header.upper() == name:
            return value
    return ""


def site_error(status: int, path: str | None, accept_language: str = "") -> tuple[str, bytes]:
    """The content type and body the site answers ``status`` with (``cardsite.errorpages``)."""
    from django.conf import settings
    from django.template.loader import render_to_string
    from django.utils import translation
    from django.utils.translation.trans_real import get_supported_language_variant, parse_accept_lang_header

    from .errorpages import malformed_request_answer

    language = settings.LANGUAGE_CODE
    for code, _quality in parse_accept_lang_header(accept_language):
        try:
            language = get_supported_language_variant(code)
            break
        except LookupError:
            continue
    with translation.override(language):
        title, message, code = malformed_request_answer(status)
        if path is None or path.startswith(API_PREFIX):
            body = json.dumps({"detail": str(message), "code": code, "errors": {}}, ensure_ascii=False)
            return "application/json", body.encode()
        page = render_to_string("error_standalone.html", {"title": title, "message": message, "status": status})
        return "text/html; charset=utf-8", page.encode()


class SiteRequest(Request):
    """gunicorn's request, which hands itself to a header error it raises: its path (the request line was read
    before the headers) then decides between the JSON and the page answer."""

    def parse(self, unreader: Any) -> Any:
        try:
            return super().parse(unreader)
        except (LimitRequestHeaders, *UNREADABLE) as exc:
            if getattr(exc, "req", None) is None:
                exc.req = self
            raise


class SiteWorker(ThreadWorker):
    def init_process(self) -> None:
        # Only in this worker's process: every request it reads is a SiteRequest.
        RequestParser.mesg_class = SiteRequest
        super().init_process()

    def handle_error(self, req: Any, client: Any, addr: Any, exc: Exception) -> None:
        status = _status(exc)
        if status is None:
            super().handle_error(req, client, addr, exc)
            return
        request_start = datetime.now()
        addr = addr or ("", -1)  # a unix socket
        req = req or getattr(exc, "req", None)  # a bad header: gunicorn keeps the request read so far
        self.log.warning("Invalid request from ip=%s: %s", addr[0], exc)  # as gunicorn logs it
        status_int, reason = status
        try:
            content_type, body = site_error(status_int, getattr(req, "path", None), _header(req, "ACCEPT-LANGUAGE"))
        except Exception:  # the site's answer must not cost the client gunicorn's
            self.log.exception("The site's error answer failed; gunicorn's is sent.")
            super().handle_error(req, client, addr, exc)
            return
        if req is not None:
            environ = default_environ(req, client, self.cfg)
            environ["REMOTE_ADDR"], environ["REMOTE_PORT"] = addr[0], str(addr[1])
            response = Response(req, client, self.cfg)
            response.status = f"{status_int} {reason}"
            response.response_length = len(body)
            self.log.access(response, req, environ, datetime.now() - request_start)
        head = (
            f"HTTP/1.1 {status_int} {reason}\r\nConnection: close\r\nContent-Type: {content_type}\r\n"
            f"Content-Length: {len(body)}\r\nX-Content-Type-Options: nosniff\r\n\r\n"
        ).encode("latin-1")
        try:
            util.write_nonblock(client, head + body)
        except Exception:
            self.log.debug("Failed to send error message.")
