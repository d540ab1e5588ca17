"""The API of a deck's assumed values (``/api/simulator/decks/<pk>/assumptions/``): list, set one (created or
replaced), drop one, set many all or nothing. Only the owner writes; a stranger to a private deck gets 404; a
refused value names its field; text that is not valid Unicode is refused. Synthetic cards only (suikoden 9xx)."""

from __future__ import annotations

import json

import pytest

from cardsite.sharing import Visibility
from simulator.models import DeckAssumption

from .support.clients import api_client

UNKNOWN = "attack"


@pytest.fixture
def api_deck(deck_lacking_attack):
    return deck_lacking_attack


def url(api_deck, tail=""):
    return f"/api/simulator/decks/{api_deck.pk}/assumptions/{tail}"


def test_the_owner_sets_replaces_lists_and_drops_a_value(api_deck, owner):
    api = api_client(owner)
    assert api.get(url(api_deck)).json()["assumptions"] == []
    made = api.post(url(api_deck), {"key": "901", "field": UNKNOWN, "value": 5}, format="json")
    assert made.status_code == 201, made.json()
    assert made["Location"].endswith(url(api_deck))
    assert made.json()["value"] == 5 and made.json()["contribute_url"].endswith(f"/cards/901/edit/#id_field_{UNKNOWN}")
    again = api.post(url(api_deck), {"key": "901", "field": UNKNOWN, "value": "6"}, format="json")
    assert again.status_code == 200 and again.json()["value"] == 6
    listed = api.get(url(api_deck)).json()
    assert listed["count"] == 1 and listed["assumptions"][0]["value"] == 6
    assert DeckAssumption.objects.get(deck=api_deck).value == 6  # replaced, not a second row
    assert api.delete(url(api_deck, f"?key=901&field={UNKNOWN}")).status_code == 204
    assert not DeckAssumption.objects.exists()
    gone = api.delete(url(api_deck, f"?key=901&field={UNKNOWN}"))
    assert gone.status_code == 404 and gone.json()["code"]


def test_another_user_gets_404_on_a_private_deck_and_403_on_a_public_one(api_deck, owner, other):
    DeckAssumption.objects.create(deck=api_deck, key="901", field=UNKNOWN, value=5, author=owner)
    stranger = api_client(other)
    for answer in (
        stranger.get(url(api_deck)),
        stranger.post(url(api_deck), {"key": "901", "field": UNKNOWN, "value": 1}, format="json"),
        stranger.post(
            url(api_deck, "bulk/"), {"assumptions": [{"key": "901", "field": UNKNOWN, "value": 1}]}, format="json"
        ),
        stranger.delete(url(api_deck, f"?key=901&field={UNKNOWN}")),
    ):
        assert answer.status_code == 404 and set(answer.json()) >= {"detail", "code", "errors"}
    api_deck.visibility = Visibility.PUBLIC
    api_deck.save()
    assert stranger.get(url(api_deck)).json()["count"] == 1  # shared with the deck, read-only
    refused = stranger.post(url(api_deck), {"key": "901", "field": UNKNOWN, "value": 1}, format="json")
    assert refused.status_code == 403 and refused.json()["code"] == "not_owner"
    assert stranger.delete(url(api_deck, f"?key=901&field={UNKNOWN}")).status_code == 403
    assert DeckAssumption.objects.get(deck=api_deck).value == 5
    assert (
        api_client(None).post(url(api_deck), {"key": "901", "field": UNKNOWN, "value": 1}, format="json").status_code
        == 401
    )


def test_a_bad_value_is_refused_naming_its_field(api_deck, owner):
    api = api_client(owner)
    bad = api.post(url(api_deck), {"key": "901", "field": UNKNOWN, "value": "many"}, format="json")
    assert bad.status_code == 400 and list(bad.json()["errors"]) == ["value"]
    assert "901 · Attack" in bad.json()["errors"]["value"][0]  # the card and the value, in the reader's language
    in_japanese = api_client(owner, "ja").post(
        url(api_deck), {"key": "901", "field": UNKNOWN, "value": "x"}, format="json"
    )
    assert "901 · 攻撃力" in in_japanese.json()["detail"]
    unknown = api.post(url(api_deck), {"key": "901", "field": "no_such_value", "value": 1}, format="json")
    assert unknown.status_code == 400 and list(unknown.json()["errors"]) == ["field"]
    assert "no_such_value" in unknown.json()["detail"]
    missing = api.post(url(api_deck), {"field": UNKNOWN, "value": 1}, format="json")
    assert missing.status_code == 400 and "key" in missing.json()["errors"]
    assert not DeckAssumption.objects.exists()


def test_a_batch_is_written_whole_or_not_at_all(api_deck, owner):
    api = api_client(owner)
    rows = [
        {"key": "901", "field": UNKNOWN, "value": 4},
        {"key": "902", "field": "defense", "value": 2},
        {"key": "903", "field": "commerce", "value": "lots"},
    ]
    refused = api.post(url(api_deck, "bulk/"), {"assumptions": rows}, format="json")
    assert refused.status_code == 400 and list(refused.json()["errors"]) == ["assumptions[2].value"]
    assert not DeckAssumption.objects.exists()
    rows[2]["value"] = 3
    written = api.post(url(api_deck, "bulk/"), {"assumptions": rows}, format="json")
    assert written.status_code == 200, written.json()
    assert written.json()["written"] == 3 and written.json()["count"] == 3
    assert DeckAssumption.objects.filter(deck=api_deck).count() == 3


def test_text_that_is_not_valid_unicode_is_refused(api_deck, owner):
    api = api_client(owner)
    body = '{"key": "901", "field": "colour", "value": "\\ud800"}'  # half of a surrogate pair, alone
    answer = api.post(url(api_deck), body, content_type="application/json")
    assert answer.status_code == 400 and "U+D800" in answer.json()["detail"]
    control = api.post(url(api_deck), {"key": "901", "field": "colour", "value": "白\u202e"}, format="json")
    assert control.status_code == 400 and list(control.json()["errors"]) == ["value"]
    hidden_key = api.post(url(api_deck), {"key": "90\u200b1", "field": UNKNOWN, "value": 1}, format="json")
    assert hidden_key.status_code == 400 and list(hidden_key.json()["errors"]) == ["key"]
    assert not DeckAssumption.objects.exists()
    assert json.loads(api.get(url(api_deck)).content)["count"] == 0
