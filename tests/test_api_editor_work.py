"""An editor's work beyond change sets, through the API as on the pages: a card's history read and one of its
revisions reverted (refused when the card changed since it was read), a deleted card listed and restored, a
contributor blocked and unblocked. The same services decide: a player is refused (403), an anonymous request
asked for credentials (401), every error in the API's one shape and the reader's language.

The cards are synthetic (水滸伝 keys SYN-9xx named テスト…), made by an editor's change sets.
"""

from __future__ import annotations

import pytest
from django.test import Client

from cards.models import Card
from contributions import selectors
from contributions.models import ChangeSet, GameRole

from .support.clients import token_client
from .support.editor_work import DELETED, HISTORY, KEY, REVERT, attack, card_record, post, write
from .users import make_user

pytestmark = [pytest.mark.game("suikoden"), pytest.mark.django_db]


# --- history and revert ------------------------------------------------------------------------------------


def test_anyone_reads_a_cards_history_with_the_ids_and_the_state_a_revert_needs(game, editor):
    write(editor, game, 2)
    write(editor, game, 5)
    response = token_client().get(HISTORY)
    assert response.status_code == 200
    history = response.json()
    assert (history["game"], history["key"]) == ("suikoden", KEY)
    assert history["state_digest"] == token_client().get(f"/api/cards/suikoden/{KEY}/").json()["state_digest"]
    newest, first = history["revisions"]
    assert newest["id"] > first["id"]
    assert (newest["user"], newest["source_kind"]) == ("suikoden-editor", "contribution")
    assert {"what": "fields.attack", "label": "Attack", "before": 2, "after": 5} in newest["changes"]
    # Labels in the reader's language.
    labels = [change["label"] for change in token_client(language="ja").get(HISTORY).json()["revisions"][0]["changes"]]
    assert "Attack" not in labels and labels
    assert token_client().get("/api/contributions/cards/suikoden/SYN-999/history/").json()["code"] == "not_found"


def test_an_editor_reverts_a_revision_through_the_api_as_a_new_one(game, editor):
    write(editor, game, 2)
    write(editor, game, 5)
    client = token_client(editor)
    history = client.get(HISTORY).json()
    reverted = history["revisions"][0]["id"]
    response = post(client, REVERT, {"revision": reverted, "seen": history["state_digest"]})
    assert response.status_code == 200, response.json()
    assert response.json()["fields"]["attack"] == 2 and response.json()["key"] == KEY
    assert attack() == 2
    newest = client.get(HISTORY).json()["revisions"]
    assert len(newest) == 3  # nothing was removed from the history
    assert (newest[0]["source_kind"], newest[0]["source_detail"], newest[0]["user"]) == (
        "revert",
        str(reverted),
        "suikoden-editor",
    )
    # The revision that made the card is not reverted.
    first = newest[-1]["id"]
    refused = post(client, REVERT, {"revision": first, "seen": response.json()["state_digest"]})
    assert refused.status_code == 409 and refused.json()["code"] == "first_revision"


def test_a_revert_of_a_card_changed_since_it_was_read_is_a_409_with_the_card_now(game, editor):
    write(editor, game, 2)
    write(editor, game, 5)
    client = token_client(editor, language="ja")
    history = client.get(HISTORY).json()
    write(editor, game, 7)  # meanwhile
    response = post(client, REVERT, {"revision": history["revisions"][0]["id"], "seen": history["state_digest"]})
    assert response.status_code == 409
    body = response.json()
    assert body["code"] == "card_changed_since"
    assert body["cards"][KEY]["fields"]["attack"] == 7
    assert "after you opened it" not in body["detail"] and KEY in body["detail"]  # in Japanese
    assert attack() == 7


def test_a_revert_names_the_field_at_fault_and_the_revision_that_is_not_there(game, editor):
    write(editor, game, 2)
    write(editor, game, 5)
    client = token_client(editor)
    digest = client.get(HISTORY).json()["state_digest"]
    missing = post(client, REVERT, {"seen": digest})
    assert missing.status_code == 400 and set(missing.json()["errors"]) == {"revision"}
    unknown = post(client, REVERT, {"revision": 2**40, "seen": digest})
    assert unknown.status_code == 404 and unknown.json()["code"] == "no_such_revision"
    assert attack() == 5


def test_a_player_may_not_revert_and_an_anonymous_request_is_asked_for_credentials(game, editor):
    write(editor, game, 2)
    write(editor, game, 5)
    history = token_client().get(HISTORY).json()
    body = {"revision": history["revisions"][0]["id"], "seen": history["state_digest"]}
    refused = post(token_client(make_user("player"), language="ja"), REVERT, body)
    assert refused.status_code == 403
    assert refused.json()["code"] == "not_allowed"
    assert refused.json()["detail"] == "これができるのはこのゲームの編集者だけです。"
    assert set(refused.json()) >= {"detail", "code", "errors"}
    anonymous = post(token_client(), REVERT, body)
    assert anonymous.status_code == 401 and anonymous.json()["code"] == "not_authenticated"
    assert attack() == 5


# --- deleted cards and restore ------------------------------------------------------------------------------


def _card_list_keys(client: Client) -> list[str]:
    return [card["key"] for card in client.get("/api/cards/?q=game:suikoden").json()["results"]]


def test_a_deleted_card_is_listed_and_an_editor_restores_it_into_the_card_list(game, editor):
    write(editor, game, 2)
    write(editor, game, 5)
    card_id = Card.objects.get(key=KEY).pk
    reader = token_client()
    assert KEY in _card_list_keys(reader)
    Card.objects.get(key=KEY).delete()  # as the admin deletes a card
    assert KEY not in _card_list_keys(reader)

    (deleted,) = reader.get(DELETED).json()
    assert (deleted["key"], deleted["number"]) == (KEY, "961")
    restore = f"{DELETED}{deleted['version_id']}/restore/"
    assert post(token_client(make_user("player")), restore).status_code == 403
    assert post(reader, restore).status_code == 401

    client = token_client(editor)
    response = post(client, restore)
    assert response.status_code == 201, response.json()
    assert response.json()["key"] == KEY and response.json()["fields"]["attack"] == 5
    assert response["Location"].endswith(f"/api/cards/suikoden/{KEY}/")
    assert Card.objects.get(key=KEY).pk == card_id
    assert KEY in _card_list_keys(reader)  # back where readers find it
    kinds = [revision["source_kind"] for revision in reader.get(HISTORY).json()["revisions"]]
    assert kinds == ["restore", "contribution", "contribution"]  # its history goes on
    assert reader.get(DELETED).json() == []
    again = post(client, restore)
    assert again.status_code == 409 and again.json()["code"] == "not_deleted"
    assert token_client().get("/api/contributions/games/nothing/deleted-cards/").status_code == 404


# --- blocking ---------------------------------------------------------------------------------------------


def test_an_editor_blocks_a_contributor_whose_change_sets_are_then_refused_until_unblocked(game, editor):
    player = make_user("player")
    block = f"/api/contributions/games/suikoden/blocked-users/{player.pk}/"
    response = post(token_client(editor), block, {"note": "テスト: spam"})
    assert response.status_code == 201, response.json()
    assert response.json() == {
        "game": "suikoden",
        "user": player.pk,
        "username": "player",
        "blocked_by": "suikoden-editor",
        "note": "テスト: spam",
    }
    assert selectors.is_blocked(player, game)

    submission = {"game": "suikoden", "source_kind": "own_copy", "cards": [card_record(3, "SYN-962")]}
    refused = post(token_client(player, language="ja"), "/api/contributions/change-sets/", submission)
    assert refused.status_code == 403
    assert refused.json()["detail"] == "このゲームの編集者が、あなたによるカードへの投稿を停止しています。"
    assert not ChangeSet.objects.filter(author=player).exists()

    assert token_client(editor).delete(block).status_code == 204
    assert post(token_client(player), "/api/contributions/change-sets/", submission).status_code == 201


def test_only_an_editor_blocks_and_never_another_editor(game, editor):
    player = make_user("player")
    other_editor = make_user("other-editor")
    GameRole.objects.create(user=other_editor, game=game, role=GameRole.Role.EDITOR)
    refused = post(token_client(player), f"/api/contributions/games/suikoden/blocked-users/{editor.pk}/", {"note": "x"})
    assert refused.status_code == 403 and refused.json()["code"] == "not_allowed"
    assert (
        post(token_client(editor), f"/api/contributions/games/suikoden/blocked-users/{other_editor.pk}/").status_code
        == 403
    )
    assert (
        token_client(player).delete(f"/api/contributions/games/suikoden/blocked-users/{player.pk}/").status_code == 403
    )
    assert post(token_client(), f"/api/contributions/games/suikoden/blocked-users/{player.pk}/").status_code == 401
    assert token_client().delete(f"/api/contributions/games/suikoden/blocked-users/{player.pk}/").status_code == 401
    unknown = post(token_client(editor), "/api/contributions/games/suikoden/blocked-users/999999/")
    assert unknown.status_code == 404 and unknown.json()["code"] == "not_found"
    too_long = post(
        token_client(editor), f"/api/contributions/games/suikoden/blocked-users/{player.pk}/", {"note": "x" * 301}
    )
    assert too_long.status_code == 400 and set(too_long.json()["errors"]) == {"note"}
    assert selectors.may_contribute(player, game) and selectors.may_review(other_editor, game)


def test_the_schema_documents_every_answer_of_the_editor_operations(client):
    paths = client.get("/api/schema/?format=json").json()["paths"]
    expected = {
        ("get", "/api/contributions/cards/{game}/{key}/history/"): {"200", "404"},
        ("post", "/api/contributions/cards/{game}/{key}/revert/"): {"200", "400", "401", "403", "404", "409"},
        ("get", "/api/contributions/games/{game}/deleted-cards/"): {"200", "404"},
        ("post", "/api/contributions/games/{game}/deleted-cards/{version_id}/restore/"): {
            "201",
            "400",
            "401",
            "403",
            "404",
            "409",
        },
        ("post", "/api/contributions/games/{game}/blocked-users/{user_id}/"): {
            "200",
            "201",
            "400",
            "401",
            "403",
            "404",
        },
        ("delete", "/api/contributions/games/{game}/blocked-users/{user_id}/"): {"204", "401", "403", "404"},
    }
    for (method, path), codes in expected.items():
        assert codes <= set(paths[path][method]["responses"]), (method, path)
    assert {} in paths["/api/contributions/cards/{game}/{key}/history/"]["get"]["security"]  # anyone reads a history
    assert {} not in paths["/api/contributions/cards/{game}/{key}/revert/"]["post"]["security"]
    assert (
        "Location"
        in paths["/api/contributions/games/{game}/deleted-cards/{version_id}/restore/"]["post"]["responses"]["201"][
            "headers"
        ]
    )
