"""A client's address is the connection's, or the one the configured proxies name: never what the client
writes into X-Forwarded-For. Rotating that header escapes no per-address limit."""

from __future__ import annotations

import logging

import pytest
from django.contrib.auth import get_user_model
from django.test import Client, RequestFactory
from knox.models import AuthToken

from cardsite.clients import client_address
from cardsite.logs import RequestFilter

from .users import PASSWORD

pytestmark = pytest.mark.django_db


def rotating(count: int) -> list[str]:
    """As many made-up X-Forwarded-For values as requests (documentation addresses, RFC 5737)."""
    return [f"198.51.100.{index + 1}" for index in range(count)]


@pytest.fixture
def limits(settings):
    def set_limits(**rates: str) -> None:
        settings.RATE_LIMITS = {**settings.RATE_LIMITS, **rates}

    return set_limits


def test_rotating_the_header_does_not_escape_the_sign_up_limit(limits):
    limits(signup="2/hour")
    answers = []
    for index, forwarded in enumerate(rotating(3)):
        form = {"username": f"synthetic-signup-{index}", "password1": PASSWORD, "password2": PASSWORD}
        answers.append(Client(HTTP_X_FORWARDED_FOR=forwarded).post("/accounts/signup/", form).status_code)
    assert answers == [302, 302, 429]
    assert not get_user_model().objects.filter(username="synthetic-signup-2").exists()


def test_rotating_the_header_does_not_escape_the_token_limit(limits):
    limits(token="3/min")
    answers = [
        Client(HTTP_X_FORWARDED_FOR=forwarded)
        .post("/api/accounts/token/", {"username": "synthetic-nobody", "password": "wrong"})
        .status_code
        for forwarded in rotating(4)
    ]
    assert answers == [400, 400, 400, 429]
    assert not AuthToken.objects.exists()


def test_rotating_the_header_does_not_escape_the_login_limit(limits, owner):
    limits(login="3/min")
    answers = [
        Client(HTTP_X_FORWARDED_FOR=forwarded)
        .post("/accounts/login/", {"username": f"synthetic-sprayed-{index}", "password": "x"})
        .status_code
        for index, forwarded in enumerate(rotating(3))
    ]
    assert answers == [200, 200, 200]
    last = Client(HTTP_X_FORWARDED_FOR="198.51.100.99")
    assert last.post("/accounts/login/", {"username": "owner", "password": PASSWORD}).status_code == 429
    assert "_auth_user_id" not in last.session


def test_rotating_the_header_does_not_escape_the_lock_on_a_user_name(owner):
    for forwarded in rotating(5):
        Client(HTTP_X_FORWARDED_FOR=forwarded).post("/accounts/login/", {"username": "owner", "password": "wrong"})
    locked = Client(HTTP_X_FORWARDED_FOR="198.51.100.77")
    assert locked.post("/accounts/login/", {"username": "owner", "password": PASSWORD}).status_code == 429


def test_rotating_the_header_does_not_escape_the_search_limit(limits, synthetic_cards):
    limits(search="3/min")
    api = [Client(HTTP_X_FORWARDED_FOR=f).get("/api/cards/", {"q": "テスト"}).status_code for f in rotating(4)]
    assert api == [200, 200, 200, 429]
    page = Client(HTTP_X_FORWARDED_FOR="198.51.100.200").get("/search/", {"q": "テスト"})
    assert page.status_code == 429


def test_behind_a_trusted_proxy_the_hop_it_names_is_counted(limits, settings, synthetic_cards):
    settings.TRUSTED_PROXIES = ["10.0.0.1/32"]
    limits(search="2/min")

    def through_proxy(client_writes: str, connecting: str) -> int:
        # The proxy appends the address that connected to it to whatever the client wrote.
        proxy = Client(REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR=f"{client_writes}, {connecting}")
        return proxy.get("/api/cards/", {"q": "テスト"}).status_code

    assert [through_proxy(f, "203.0.113.7") for f in rotating(3)] == [200, 200, 429]
    # Another client behind the same proxy has a count of its own.
    assert through_proxy("198.51.100.1", "203.0.113.8") == 200


def test_client_address_reads_only_what_trusted_proxies_wrote(settings):
    factory = RequestFactory()
    direct = factory.get("/", REMOTE_ADDR="203.0.113.5", HTTP_X_FORWARDED_FOR="198.51.100.1")
    settings.TRUSTED_PROXIES = []
    assert client_address(direct) == "203.0.113.5"
    settings.TRUSTED_PROXIES = ["10.0.0.0/8"]
    # Not from a proxy: the header is the client's own writing.
    assert client_address(direct) == "203.0.113.5"
    # Two proxies in a row (10.0.0.2 forwarded to 10.0.0.1): the first address neither of them is.
    chained = factory.get("/", REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR="1.1.1.1, 203.0.113.9, 10.0.0.2")
    assert client_address(chained) == "203.0.113.9"
    # A WSGI environ (gunicorn's access log) is read the same way; a port and brackets are understood.
    assert client_address({"REMOTE_ADDR": "10.0.0.1", "HTTP_X_FORWARDED_FOR": "[2001:db8::1]:443"}) == "2001:db8::1"
    # Garbage where a proxy's address should be: no further than the last proxy.
    assert client_address({"REMOTE_ADDR": "10.0.0.1", "HTTP_X_FORWARDED_FOR": "not-an-address"}) == "10.0.0.1"


def test_logs_name_the_counted_client(settings):
    settings.TRUSTED_PROXIES = ["10.0.0.1"]
    request = RequestFactory().get("/", REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR="198.51.100.3, 203.0.113.4")
    record = logging.LogRecord("django.request", logging.WARNING, __file__, 1, "x", (), None)
    record.request = request
    RequestFilter().filter(record)
    assert record.request["client"] == "203.0.113.4"


def test_a_star_is_refused_as_the_proxy_list():
    from cardsite import env

    with pytest.raises(ValueError, match="FORWARDED_ALLOW_IPS"):
        env.trusted_proxies("FORWARDED_ALLOW_IPS", {"FORWARDED_ALLOW_IPS": "*"})
    assert env.trusted_proxies("FORWARDED_ALLOW_IPS", {"FORWARDED_ALLOW_IPS": "10.0.0.1, 10.2.0.0/16"}) == [
        "10.0.0.1/32",
        "10.2.0.0/16",
    ]
