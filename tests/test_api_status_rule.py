"""One rule for the API's success statuses, everywhere: 201 Created when the request made a new resource (its
address in Location when the caller may read it), 200 when it changed or acted on one that exists or answered
a question, 204 when there is nothing to answer; 202 is not used (queued work is itself a new resource)."""

from __future__ import annotations

import pytest
import yaml
from django.test import Client
from rest_framework.test import APIClient

from community.models import Report
from contributions.models import GameRole

from .support.clients import token_client as token_api
from .support.community import make_deck
from .support.editor_work import post
from .synthetic_decks import card
from .users import PASSWORD, make_editor, make_user

pytestmark = pytest.mark.django_db


def session_api(user=None) -> APIClient:
    client = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    if user is not None:
        client.force_authenticate(user)
    return client


def a_deck(owner):
    cards = {key: card("shadowera", key) for key in ("Test Hero 01", "Test Ally 01")}
    return make_deck(owner, cards)


def test_a_report_is_a_new_resource_201(synthetic_cards):
    author, reader = make_user("synthetic-author"), make_user("synthetic-reader")
    deck = a_deck(author)
    published = session_api(author).post("/api/community/publications/", {"deck": deck.pk}, format="json")
    assert published.status_code == 201, published.content
    pk = published.json()["id"]
    reported = session_api(reader).post(f"/api/community/publications/{pk}/reports/", {"reason": "spam"}, format="json")
    assert reported.status_code == 201, reported.content
    assert Report.objects.filter(pk=reported.json()["id"]).exists()


def test_a_moderation_action_is_a_new_log_entry_201_with_the_log_address(synthetic_cards, staff):
    author = make_user("synthetic-author")
    deck = a_deck(author)
    pk = session_api(author).post("/api/community/publications/", {"deck": deck.pk}, format="json").json()["id"]
    acted = session_api(staff).post(
        "/api/community/moderation/actions/", {"action": "hide", "publication": pk, "reason": "test"}, format="json"
    )
    assert acted.status_code == 201, acted.content
    assert acted["Location"].endswith("/api/community/moderation/actions/")


def test_a_token_is_a_new_resource_201_with_its_address():
    make_user("synthetic-token-user")
    client = Client()
    made = client.post("/api/accounts/token/", {"username": "synthetic-token-user", "password": PASSWORD})
    assert made.status_code == 201, made.content
    assert made["Location"].endswith(f"/api/accounts/tokens/{made.json()['token_key']}/")
    revoked = client.delete(made["Location"], HTTP_AUTHORIZATION=f"Token {made.json()['token']}")
    assert revoked.status_code == 204


def test_a_block_is_new_once_then_changed():
    from cards.models import Game
    from cards.services import sync_games

    sync_games()
    game = Game.objects.get(slug="suikoden")
    editor, player = make_editor(game, "synthetic-editor"), make_user("synthetic-player")
    block = f"/api/contributions/games/suikoden/blocked-users/{player.pk}/"
    first = post(token_api(editor), block, {"note": "one"})
    assert first.status_code == 201, first.content
    assert first["Location"].endswith(block)
    again = post(token_api(editor), block, {"note": "two"})
    assert again.status_code == 200 and again.json()["note"] == "two"
    assert GameRole.objects.get(user=player, game=game).role == GameRole.Role.BLOCKED


def test_the_schema_documents_one_success_status_per_operation_and_never_202(client):
    schema = yaml.safe_load(client.get("/api/schema/").content)
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            if method not in ("post", "put", "patch", "delete"):
                continue
            successes = {code for code in operation["responses"] if code.startswith("2")}
            assert "202" not in successes, (method, path)
            assert successes, (method, path)
            if method == "delete":
                assert successes <= {"200", "204"}, (method, path)
