"""A link that shares a deck or a strategy is a secret: whoever reads the access log or the site's own log
must not be able to open what was shared. The same redaction serves gunicorn's log and the site's."""

from __future__ import annotations

import logging
from datetime import timedelta
from types import SimpleNamespace

import pytest
from django.test import Client, RequestFactory

from cardsite.gunicorn_logging import JsonLogger, TextLogger
from cardsite.logs import RequestFilter

SECRET = "SyntheticShareToken0123"


def environ(path: str, query: str = "", referer: str = "") -> dict[str, str]:
    return {
        "REMOTE_ADDR": "203.0.113.20",
        "REQUEST_METHOD": "GET",
        "PATH_INFO": path,
        "QUERY_STRING": query,
        "RAW_URI": f"{path}?{query}" if query else path,
        "SERVER_PROTOCOL": "HTTP/1.1",
        "HTTP_REFERER": referer,
        "HTTP_USER_AGENT": "synthetic-agent",
    }


class Kept(logging.Handler):
    """The lines a handler of gunicorn's own would write (not the site's handlers, which redact on their own)."""

    def __init__(self) -> None:
        super().__init__()
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(f"{record.getMessage()} {record.__dict__}")


def gunicorn_logger(cls: type) -> list[str]:
    """What gunicorn's access log (configured as the site configures it) writes for three shared-link requests:
    each line with every field the JSON formatter would add."""
    from gunicorn.config import Config

    config = Config()
    config.set("accesslog", "-")
    logger = cls(config)
    kept = Kept()
    logger.access_log.addHandler(kept)
    logger.access_log.propagate = False
    response = SimpleNamespace(status="200 OK", sent=10, headers=[])
    request = SimpleNamespace(headers=[])
    try:
        for env in (
            environ(f"/simulator/decks/shared/{SECRET}/odds/"),
            environ("/decks/12/versions/", f"page=2&token={SECRET}"),
            environ("/static/site.css", referer=f"http://localhost/games/x/strategies/shared/{SECRET}/"),
        ):
            logger.access(response, request, env, timedelta(milliseconds=5))
    finally:
        logger.access_log.removeHandler(kept)
    return kept.lines


@pytest.mark.parametrize("cls", [JsonLogger, TextLogger])
def test_gunicorns_access_log_never_holds_a_share_token(cls):
    lines = gunicorn_logger(cls)
    assert len(lines) == 3
    assert all(SECRET not in line for line in lines)
    assert "/simulator/decks/shared/[redacted]/odds/" in lines[0]
    assert "page=2&token=[redacted]" in lines[1]


@pytest.mark.parametrize("cls", [JsonLogger, TextLogger])
def test_gunicorns_error_log_never_holds_a_share_token(cls):
    from gunicorn.config import Config

    logger = cls(Config())
    kept = Kept()
    logger.error_log.addHandler(kept)
    logger.error_log.propagate = False
    try:
        # What gunicorn logs for a request whose handling failed.
        logger.exception("Error handling request %s", f"/decks/shared/{SECRET}/?token={SECRET}")
    finally:
        logger.error_log.removeHandler(kept)
    assert kept.lines and all(SECRET not in line for line in kept.lines)


def test_the_sites_log_never_holds_a_share_token(caplog, db):
    # A shared link that answers 404 (a link since replaced) is logged by Django as "Not Found: <path>".
    with caplog.at_level(logging.WARNING, logger="django.request"):
        Client().get(f"/decks/shared/{SECRET}/")
    request_filter = RequestFilter()
    records = [record for record in caplog.records if record.name == "django.request"]
    assert records
    for record in records:
        request_filter.filter(record)
        assert SECRET not in record.getMessage()
        assert SECRET not in str(getattr(record, "request", ""))
    # The request a record carries keeps its path, without the token.
    record = logging.LogRecord("cardsite", logging.WARNING, __file__, 1, "x", (), None)
    record.request = RequestFactory().get(f"/simulator/decks/shared/{SECRET}/simulate/")
    request_filter.filter(record)
    assert record.request["path"] == "/simulator/decks/shared/[redacted]/simulate/"
