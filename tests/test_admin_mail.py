"""The admins' mail carries errors worth reading: an answer the site degrades to on purpose (503 while the database
is read-only, 429) is logged and not mailed, and a flood of one error is one mail per period, while a new error is
mailed at once. Synthetic users and errors only."""

from __future__ import annotations

import logging

import pytest
from django.core.cache import cache
from django.test import Client
from django.utils.log import AdminEmailHandler
from django.utils.module_loading import import_string

from .support.database import read_only_database
from .users import PASSWORD, make_user


def _mail_handler(settings) -> logging.Handler:
    """The ``mail_admins`` handler as the site's LOGGING setting declares it (with its filters)."""
    spec = dict(settings.LOGGING["handlers"]["mail_admins"])
    handler = import_string(spec.pop("class"))(include_html=spec.pop("include_html", False))
    handler.setLevel(spec.pop("level"))
    for name in spec.pop("filters", []):
        declared = dict(settings.LOGGING["filters"][name])
        handler.addFilter(import_string(declared.pop("()"))(**declared))
    return handler


@pytest.fixture
def admins(settings, mailoutbox):
    """ADMINS set, and Django's request errors mailed to them as a server started with ADMINS set mails them."""
    settings.ADMINS = [("Synthetic Admin", "admin@example.com")]
    settings.ERROR_MAIL_INTERVAL = 600
    logger = logging.getLogger("django.request")
    kept = [handler for handler in logger.handlers if isinstance(handler, AdminEmailHandler)]
    for handler in kept:
        logger.removeHandler(handler)
    handler = _mail_handler(settings)
    logger.addHandler(handler)
    yield mailoutbox
    logger.removeHandler(handler)
    for handler in kept:
        logger.addHandler(handler)


@pytest.mark.django_db(transaction=True)
def test_requests_refused_by_a_read_only_database_are_logged_not_mailed(admins, caplog):
    make_user("synthetic-reader")
    with read_only_database():
        for _attempt in range(3):
            answer = Client().post("/accounts/login/", {"username": "synthetic-reader", "password": PASSWORD})
            assert answer.status_code == 503
    assert admins == []
    assert sum("Service Unavailable" in record.getMessage() for record in caplog.records) == 3


def test_too_many_requests_are_not_mailed(admins):
    logging.getLogger("django.request").error("Too Many Requests: %s", "/api/cards/", extra={"status_code": 429})
    assert admins == []


def _failing(monkeypatch, error: Exception) -> None:
    from cardsite import health

    def report():
        raise error

    monkeypatch.setattr(health, "report", report)


@pytest.mark.django_db
def test_a_flood_of_one_error_is_one_mail_per_period_and_a_new_error_is_mailed_at_once(admins, monkeypatch):
    client = Client(raise_request_exception=False)
    _failing(monkeypatch, RuntimeError("synthetic failure"))
    for _attempt in range(3):
        assert client.get("/healthz/").status_code == 500
    assert len(admins) == 1 and "/healthz/" in admins[0].subject

    _failing(monkeypatch, KeyError("synthetic"))  # another kind of error: mailed although the first is muted
    assert client.get("/healthz/").status_code == 500
    assert client.get("/healthz/").status_code == 500
    assert len(admins) == 2

    cache.clear()  # the period is over
    _failing(monkeypatch, RuntimeError("synthetic failure"))
    assert client.get("/healthz/").status_code == 500
    assert len(admins) == 3


@pytest.mark.django_db
def test_an_interval_of_0_mails_every_error(admins, settings, monkeypatch):
    settings.ERROR_MAIL_INTERVAL = 0
    _failing(monkeypatch, RuntimeError("synthetic failure"))
    client = Client(raise_request_exception=False)
    for _attempt in range(2):
        assert client.get("/healthz/").status_code == 500
    assert len(admins) == 2
