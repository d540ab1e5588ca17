"""``owned:`` in ``GET /api/cards/`` answers for whoever the request's credentials name (a token or a session),
as on the search page; without credentials it is the query error it was. Answers that depend on who asks are
never answered from another user's (or an earlier collection's) ETag or cached page."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts import services as account_services
from collection import services

from .synthetic_decks import card
from .users import make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def collectors(synthetic_cards):
    first, second = make_user("synthetic-collector-1"), make_user("synthetic-collector-2")
    services.set_count(first, card("shadowera", "Test Ally 01"), 3)
    services.set_count(second, card("shadowera", "Test Ally 02"), 1)
    return first, second


def token_of(user) -> str:
    return f"Token {account_services.token_create(user=user)[1]}"


def found(response) -> set[str]:
    assert response.status_code == 200, response.content
    return {row["key"] for row in response.json()["results"]}


def test_a_token_user_searches_their_own_collection(collectors):
    first, second = collectors
    client = Client()
    assert found(client.get("/api/cards/", {"q": "owned:yes"}, HTTP_AUTHORIZATION=token_of(first))) == {"Test Ally 01"}
    assert found(client.get("/api/cards/", {"q": "owned:yes"}, HTTP_AUTHORIZATION=token_of(second))) == {"Test Ally 02"}


def test_a_session_user_searches_their_own_collection(collectors):
    first, _second = collectors
    client = Client()
    client.force_login(first)
    assert found(client.get("/api/cards/", {"q": "game:shadowera owned>=2"})) == {"Test Ally 01"}


def test_without_credentials_owned_is_a_query_error(collectors):
    response = Client().get("/api/cards/", {"q": "owned:yes"})
    assert response.status_code == 400
    assert response.json()["reason"] == "needs_account"


def test_one_users_answer_is_not_revalidated_for_another_or_after_a_change(collectors):
    first, second = collectors
    client = Client()
    answer = client.get("/api/cards/", {"q": "owned:yes"}, HTTP_AUTHORIZATION=token_of(first))
    assert answer.status_code == 200
    assert "Authorization" in answer.get("Vary", "")
    etag = answer.get("ETag")
    services.set_count(first, card("shadowera", "Test Hero 01"), 1)
    headers = {"HTTP_IF_NONE_MATCH": etag} if etag else {}
    again = client.get("/api/cards/", {"q": "owned:yes"}, HTTP_AUTHORIZATION=token_of(first), **headers)
    assert found(again) == {"Test Ally 01", "Test Hero 01"}
    other = client.get("/api/cards/", {"q": "owned:yes"}, HTTP_AUTHORIZATION=token_of(second), **headers)
    assert found(other) == {"Test Ally 02"}


def test_anonymous_searches_keep_their_etag(synthetic_cards):
    answer = Client().get("/api/cards/", {"q": "game:shadowera"})
    assert answer.status_code == 200 and answer.get("ETag")
    assert Client().get("/api/cards/", {"q": "game:shadowera"}, HTTP_IF_NONE_MATCH=answer["ETag"]).status_code == 304
