"""The placeholders' API under /api/decks/<pk>/placeholders/: list, add (an upsert), change, delete; the owner
alone changes them, bad values are refused naming the field with nothing written, and the deck's own answer
shows them with the verdict "legal apart from N placeholder cards". Synthetic cards only."""

from __future__ import annotations

import json

import pytest

from decks.models import DeckPlaceholder

from .support.clients import api_client, token_client
from .support.placeholder_decks import fill_with_placeholders, shadow_era_deck

pytestmark = pytest.mark.usefixtures("synthetic_cards")


def held(deck) -> list[tuple]:
    return list(deck.placeholders.order_by("pk").values_list("zone", "kind", "values", "name", "count"))


def test_the_owner_lists_adds_changes_and_deletes_placeholders(owner):
    deck = shadow_era_deck(owner)
    client = token_client(owner)
    address = f"/api/decks/{deck.pk}/placeholders/"
    assert client.get(address).json() == []
    body = {"kind": "ally", "values": {"cost": 3, "attack": 2}, "name": "Big ally", "count": 4}
    added = client.post(address, body, content_type="application/json")
    assert added.status_code == 201, added.content
    shown = added.json()
    assert shown["zone"] == "deck" and shown["values"] == {"cost": 3, "attack": 2} and shown["count"] == 4
    assert shown["label"] == "Big ally [placeholder: Ally (Cost 3, Attack 2)]"
    assert added["Location"].endswith(f"/api/decks/{deck.pk}/placeholders/{shown['id']}/")
    # the same placeholder again raises its count: one row, 4 + 8
    again = client.post(address, {**body, "count": 8}, content_type="application/json")
    assert again.status_code == 200 and again.json()["id"] == shown["id"] and again.json()["count"] == 12
    assert held(deck) == [("deck", "ally", {"cost": 3, "attack": 2}, "Big ally", 12)]
    one = f"{address}{shown['id']}/"
    changed = client.patch(one, {"values": {"cost": 4}, "count": 3}, content_type="application/json")
    assert changed.status_code == 200 and changed.json()["label"] == "Big ally [placeholder: Ally (Cost 4)]"
    assert [p["count"] for p in client.get(address).json()] == [3]
    assert client.delete(one).status_code == 204
    assert held(deck) == [] and client.get(one).status_code == 404


def test_adding_past_99_is_refused_and_keeps_the_count(owner):
    deck = shadow_era_deck(owner)
    client = api_client(owner)
    address = f"/api/decks/{deck.pk}/placeholders/"
    client.post(address, {"kind": "ally", "values": {"cost": 3}, "count": 90}, format="json")
    refused = client.post(address, {"kind": "ally", "values": {"cost": 3}, "count": 10}, format="json")
    assert refused.status_code == 409 and "count" in refused.json()["errors"]  # the request is right, the deck full
    assert [row[-1] for row in held(deck)] == [90]


@pytest.mark.parametrize(
    ("body", "field", "words"),
    [
        ({"kind": "dragon", "count": 1}, "kind", "kinds: hero, ally"),
        ({"kind": "ally", "values": {"power": 3}}, "values.power", "values: cost, attack, health"),
        ({"kind": "ally", "values": {"cost": 100}}, "values.cost", "99"),
        ({"kind": "ally", "values": {"cost": "3"}}, "values.cost", "integer"),
        ({"kind": "ally", "values": {"cost": True}}, "values.cost", "integer"),
        ({"kind": "ally", "name": "Big\u200bally"}, "name", ""),
        ({"kind": "ally", "name": "Big\ud800"}, "name", ""),
        ({"kind": "ally", "count": 0}, "count", ""),
    ],
)
def test_bad_input_is_refused_naming_the_field_and_nothing_is_written(owner, body, field, words):
    deck = shadow_era_deck(owner)
    before = held(deck)
    # json.dumps escapes a lone surrogate as \\ud800, as a client sending one would
    answer = api_client(owner).post(
        f"/api/decks/{deck.pk}/placeholders/", json.dumps(body), content_type="application/json"
    )
    assert answer.status_code == 400, answer.content
    error = answer.json()
    assert field in error["errors"] and error["detail"] and error["code"]
    assert words in " ".join(error["errors"][field])
    assert held(deck) == before


def test_only_the_owner_changes_placeholders(owner, other):
    deck = shadow_era_deck(owner)
    fill_with_placeholders(deck)
    first = deck.placeholders.order_by("pk").first()
    assert first is not None
    before = held(deck)
    stranger = api_client(other)
    address = f"/api/decks/{deck.pk}/placeholders/"
    assert stranger.get(address).status_code == 404  # a private deck is not revealed
    assert stranger.post(address, {"kind": "ally"}, format="json").status_code == 404
    assert stranger.patch(f"{address}{first.pk}/", {"count": 1}, format="json").status_code == 404
    assert stranger.delete(f"{address}{first.pk}/").status_code == 404
    assert api_client(None).post(address, {"kind": "ally"}, format="json").status_code == 401
    # a placeholder of another deck is not reachable through this one
    mine = shadow_era_deck(other, "別のデッキ")
    assert api_client(other).delete(f"/api/decks/{mine.pk}/placeholders/{first.pk}/").status_code == 404
    assert held(deck) == before and DeckPlaceholder.objects.count() == len(before)


def test_a_game_without_placeholders_answers_409(owner):
    from decks import services as deck_services

    from .synthetic_decks import game

    deck = deck_services.create_deck(owner=owner, game=game("endbreaker"), name="テスト")
    answer = api_client(owner).post(f"/api/decks/{deck.pk}/placeholders/", {"kind": "ally"}, format="json")
    assert (
        answer.status_code == 409 and answer.json()["code"] == "no_placeholders" and "kind" in answer.json()["errors"]
    )


def test_an_unknown_value_left_null_is_unknown_not_zero(owner):
    deck = shadow_era_deck(owner)
    body = {"kind": "ally", "values": {"cost": 2, "attack": None}}
    answer = api_client(owner).post(f"/api/decks/{deck.pk}/placeholders/", body, format="json")
    assert answer.status_code == 201 and answer.json()["values"] == {"cost": 2}


def test_the_deck_answer_shows_placeholders_and_legal_apart_from_them(owner):
    deck = shadow_era_deck(owner)
    fill_with_placeholders(deck)
    client = api_client(owner)
    shown = client.get(f"/api/decks/{deck.pk}/?lang=en").json()
    assert [(p["kind"], p["count"]) for p in shown["placeholders"]] == [("ability", 19), ("ally", 12)]
    assert shown["verdict"] == {
        "legal": False,
        "checked": True,
        "placeholders": 31,
        "legal_apart_from_placeholders": True,
    }
    verdict = client.get(f"/api/decks/{deck.pk}/validate/").json()
    assert verdict["placeholders"] == 31 and verdict["legal_apart_from_placeholders"] and not verdict["legal"]
