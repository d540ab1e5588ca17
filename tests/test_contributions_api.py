"""The contributions API as a client program meets it: a change set submitted with a token, followed to its
decision, accepted by an editor; the same checks as the forms, in the request's language; a stale card
refused; the same permissions and limits as the pages.

Every card here is synthetic (keys SE9-…, names marked テスト), as in tests/test_contributions.py.
"""

from __future__ import annotations

import json

import pytest
from django.test import Client

from cards.models import Card, Game
from contributions.models import ChangeSet, GameRole

from .support.clients import token_client
from .support.contributions import _hero
from .users import make_user

pytestmark = pytest.mark.django_db


def post(client: Client, path: str, body: dict, **headers):
    return client.post(path, json.dumps(body), content_type="application/json", **headers)


def submission(*cards: dict, **more) -> dict:
    return {"game": "shadowera", "source_kind": "own_copy", "cards": list(cards), **more}


def test_a_player_submits_with_a_token_follows_the_state_and_an_editor_accepts(player_api, editor_api, game):
    response = post(
        player_api, "/api/contributions/change-sets/", submission(_hero(), source_detail="box 3", comment="from my box")
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert response["Location"] == body["url"] == f"http://testserver/api/contributions/change-sets/{body['id']}/"
    assert body["status"] == "pending" and body["author"] == "player" and body["decided_by"] is None
    assert body["html_url"] == f"http://testserver/contributions/{body['id']}/"
    (change,) = body["cards"]
    assert change["key"] == "SE9-HERO" and change["is_new"] and change["base"] is None
    assert change["proposed"]["fields"]["health"] == 30
    assert change["url"] is None  # not in the database while it waits
    assert not Card.objects.filter(key="SE9-HERO").exists()

    # Anyone may follow it; the author finds it in their own list.
    assert Client().get(response["Location"]).json()["status"] == "pending"
    assert [item["id"] for item in player_api.get("/api/contributions/change-sets/").json()["results"]] == [body["id"]]

    # The editor finds it in the queue and accepts it.
    queue = editor_api.get("/api/contributions/review-queue/?game=shadowera").json()
    assert [item["id"] for item in queue["results"]] == [body["id"]] and queue["results"][0]["card_count"] == 1
    accepted = post(editor_api, f"/api/contributions/change-sets/{body['id']}/accept/", {"reason": "matches my copy"})
    assert accepted.status_code == 200, accepted.json()
    decided = player_api.get(response["Location"]).json()
    assert decided["status"] == "accepted" and decided["decided_by"] == "shadowera-editor"
    assert decided["reason"] == "matches my copy" and decided["decided_at"]
    assert decided["cards"][0]["url"] == "http://testserver/api/cards/shadowera/SE9-HERO/"
    assert decided["cards"][0]["html_url"] == "http://testserver/games/shadowera/cards/SE9-HERO/"
    assert Card.objects.get(key="SE9-HERO").fields["health"] == 30
    assert editor_api.get("/api/contributions/review-queue/").json()["results"] == []
    # Reviewed once only.
    again = post(editor_api, f"/api/contributions/change-sets/{body['id']}/reject/", {"reason": "no"})
    assert again.status_code == 409 and again.json()["code"] == "already_reviewed"


def test_a_wrong_value_is_refused_naming_its_field_in_the_requests_language(player_api, game):
    bad = _hero()
    bad["fields"]["health"] = "strong"
    response = post(player_api, "/api/contributions/change-sets/", submission(bad), HTTP_ACCEPT_LANGUAGE="ja")
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "invalid_cards"
    assert list(body["errors"]) == ["cards[0].fields.health"]
    assert "「strong」は整数ではありません。" in body["errors"]["cards[0].fields.health"][0]
    assert not ChangeSet.objects.exists()


def test_a_malformed_body_is_refused_field_by_field(player_api, game):
    response = post(
        player_api,
        "/api/contributions/change-sets/",
        {"game": "shadowera", "source_kind": "rumour", "cards": "SE9-HERO"},
    )
    assert response.status_code == 400
    assert set(response.json()["errors"]) == {"source_kind", "cards"}
    nul = _hero()
    nul["texts"]["en"]["name"] = "テスト\x00"
    response = post(player_api, "/api/contributions/change-sets/", submission(nul))
    assert response.status_code == 400 and list(response.json()["errors"]) == ["cards[0].texts.en.name"]
    # A key is one segment of the card's addresses.
    for key in ("SE9/HERO", "SE9\nHERO"):
        response = post(player_api, "/api/contributions/change-sets/", submission(_hero(key)))
        assert response.status_code == 400 and list(response.json()["errors"]) == ["cards[0].key"]


def test_a_change_made_on_a_card_someone_changed_since_answers_409_with_the_card_as_it_is_now(
    player_api, editor_api, game
):
    assert (
        post(editor_api, "/api/contributions/change-sets/", submission(_hero(health=30))).json()["status"] == "accepted"
    )
    read = player_api.get("/api/cards/shadowera/SE9-HERO/").json()
    seen = {"SE9-HERO": read["state_digest"]}
    post(editor_api, "/api/contributions/change-sets/", submission(_hero(health=28)))  # meanwhile
    response = post(player_api, "/api/contributions/change-sets/", submission(_hero(health=31), seen=seen))
    assert response.status_code == 409
    body = response.json()
    assert body["code"] == "card_changed_since" and "SE9-HERO" in body["detail"]
    assert body["cards"]["SE9-HERO"]["fields"]["health"] == 28
    # Read again, the change is taken.
    seen = {"SE9-HERO": player_api.get("/api/cards/shadowera/SE9-HERO/").json()["state_digest"]}
    assert (
        post(player_api, "/api/contributions/change-sets/", submission(_hero(health=31), seen=seen)).status_code == 201
    )
    # A card the client believes new ("") that exists is stale too.
    response = post(player_api, "/api/contributions/change-sets/", submission(_hero(health=32), seen={"SE9-HERO": ""}))
    assert response.status_code == 409


def test_only_an_editor_of_the_game_reviews(player_api, editor_api, game):
    change_set = post(player_api, "/api/contributions/change-sets/", submission(_hero())).json()
    suikoden_editor = make_user("suikoden-editor")
    GameRole.objects.create(user=suikoden_editor, game=Game.objects.get(slug="suikoden"), role=GameRole.Role.EDITOR)
    for client in (player_api, token_client(suikoden_editor)):
        for action, body in (("accept", {}), ("reject", {"reason": "no"})):
            response = post(client, f"/api/contributions/change-sets/{change_set['id']}/{action}/", body)
            assert response.status_code == 403 and response.json()["code"] == "not_allowed"
    assert player_api.get("/api/contributions/review-queue/").status_code == 403
    assert token_client(suikoden_editor).get("/api/contributions/review-queue/?game=shadowera").status_code == 403
    assert post(editor_api, "/api/contributions/change-sets/999999/accept/", {}).status_code == 404
    assert Client().get("/api/contributions/change-sets/999999/").status_code == 404
    assert ChangeSet.objects.get().status == ChangeSet.Status.PENDING


def test_a_rejection_needs_a_reason(player_api, editor_api, game):
    change_set = post(player_api, "/api/contributions/change-sets/", submission(_hero())).json()
    response = post(editor_api, f"/api/contributions/change-sets/{change_set['id']}/reject/", {"reason": "  "})
    assert response.status_code == 400 and list(response.json()["errors"]) == ["reason"]
    response = post(
        editor_api, f"/api/contributions/change-sets/{change_set['id']}/reject/", {"reason": "Health is 25 on my copy."}
    )
    assert response.status_code == 200 and response.json()["status"] == "rejected"


def test_submitting_and_reviewing_need_credentials(game):
    anonymous = Client()
    assert post(anonymous, "/api/contributions/change-sets/", submission(_hero())).status_code == 401
    assert anonymous.get("/api/contributions/change-sets/").status_code == 401
    assert anonymous.get("/api/contributions/review-queue/").status_code == 401
    assert post(anonymous, "/api/contributions/change-sets/1/accept/", {}).status_code == 401
    response = post(token_client(make_user("lost")), "/api/contributions/change-sets/", submission(_hero()))
    assert response.status_code == 201  # and with a token it works
    bad_token = Client(HTTP_AUTHORIZATION="Token nonsense")
    assert post(bad_token, "/api/contributions/change-sets/", submission(_hero("SE9-OTHER"))).status_code == 401


def test_a_blocked_player_is_refused(game):
    user = make_user("blocked")
    GameRole.objects.create(user=user, game=game, role=GameRole.Role.BLOCKED)
    response = post(token_client(user), "/api/contributions/change-sets/", submission(_hero()))
    assert response.status_code == 403 and response.json()["code"] == "not_allowed"


def test_change_sets_are_limited_per_user(player_api, settings, game):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "contribution": "2/day"}
    assert post(player_api, "/api/contributions/change-sets/", submission(_hero("SE9-A"))).status_code == 201
    assert post(player_api, "/api/contributions/change-sets/", submission(_hero("SE9-B"))).status_code == 201
    refused = post(player_api, "/api/contributions/change-sets/", submission(_hero("SE9-C")))
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert refused.json()["code"] == "throttled"
    # Reading is not limited.
    assert player_api.get("/api/contributions/change-sets/").status_code == 200
    assert ChangeSet.objects.count() == 2
