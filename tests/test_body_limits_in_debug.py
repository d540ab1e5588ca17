"""A body over Django's limits under /api/ answers the API's JSON error shape, with DEBUG on as off (Django's own
answer in DEBUG is its HTML debug page): 413 naming the limit for a body too large, 400 for too many fields;
nothing is written. Pages keep their own error page."""

from __future__ import annotations

import pytest
from django.test import Client

from decks.models import Deck

from .users import make_user

pytestmark = pytest.mark.django_db

TEN_MB = b'{"name": "' + b"a" * 10_000_000 + b'"}'


@pytest.fixture(params=[True, False], ids=["debug", "production"])
def debug(request, settings):
    settings.DEBUG = request.param
    return request.param


@pytest.mark.parametrize(
    "path", ["/api/decks/", "/api/decks/validate/", "/api/accounts/token/", "/api/contributions/change-sets/"]
)
def test_a_ten_megabyte_json_body_is_a_json_413(debug, path):
    client = Client(raise_request_exception=False, HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(make_user("synthetic-sender"))
    response = client.post(path, TEN_MB, content_type="application/json")
    assert response.status_code == 413
    assert response["Content-Type"] == "application/json"
    body = response.json()
    assert body["code"] == "body_too_large" and "1 MB" in body["detail"]
    assert not Deck.objects.exists()


def test_a_token_request_and_an_anonymous_one_alike(debug):
    client = Client(raise_request_exception=False)
    response = client.post(
        "/api/accounts/token/", b"username=" + b"a" * 2_000_000, content_type="application/x-www-form-urlencoded"
    )
    assert response.status_code == 413 and response.json()["code"] == "body_too_large"


def test_too_many_form_fields_is_a_json_400(debug):
    client = Client(raise_request_exception=False)
    fields = "&".join(f"f{n}=1" for n in range(1500))
    response = client.post("/api/accounts/token/", fields, content_type="application/x-www-form-urlencoded")
    assert response.status_code == 400 and response.json()["code"] == "bad_request"


def test_a_page_keeps_its_error_page():
    client = Client(raise_request_exception=False, HTTP_ACCEPT_LANGUAGE="en")
    response = client.post(
        "/accounts/login/", b"username=" + b"a" * 2_000_000, content_type="application/x-www-form-urlencoded"
    )
    assert response.status_code == 413
    assert response["Content-Type"].startswith("text/html")
    assert "1 MB" in response.content.decode()
