"""A card record changes what it names, whether it comes through the API or a bulk paste: a value left out
is kept, a value given is set, and a removal is said with ``null``. A table, which cannot say null, removes
nothing.

Every card here is synthetic (keys SE9-…, names marked テスト).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client
from drf_spectacular.generators import SchemaGenerator

from cards.models import Card, Game
from cards.services import card_state
from contributions.models import ChangeSet

from .users import make_user

pytestmark = [pytest.mark.usefixtures("game"), pytest.mark.django_db]

HERO = {
    "key": "SE9-HERO",
    "number": "SE9-001",
    "kind": "hero",
    "fields": {"faction": "human", "class": ["warrior"], "ability_cost": 2, "health": 30},
    "texts": {"en": {"name": "Test Hero", "text": "テスト text"}, "ja": {"name": "テスト英雄"}},
    "source": "test box",
}


def post(client: Client, body: dict[str, Any]) -> Any:
    return client.post("/api/contributions/change-sets/", json.dumps(body), content_type="application/json")


def submission(*cards: dict[str, Any]) -> dict[str, Any]:
    return {"game": "shadowera", "source_kind": "own_copy", "cards": list(cards)}


@pytest.fixture
def hero(editor_api: Client) -> dict[str, Any]:
    assert post(editor_api, submission(HERO)).json()["status"] == "accepted"
    return state()


def state() -> dict[str, Any]:
    return card_state(Card.objects.get(game__slug="shadowera", key="SE9-HERO"))


def proposed(response: Any) -> dict[str, Any]:
    assert response.status_code == 201, response.json()
    (change,) = response.json()["cards"]
    return change["proposed"]


def test_an_api_record_naming_one_field_changes_that_field_only(player_api: Client, hero: dict[str, Any]) -> None:
    after = proposed(post(player_api, submission({"key": "SE9-HERO", "fields": {"health": 25}})))
    assert after["fields"] == {**hero["fields"], "health": 25}
    assert after["kind"] == "hero" and after["number"] == "SE9-001" and after["source"] == "test box"
    assert after["texts"]["en"]["name"] == "Test Hero" and after["texts"]["ja"]["name"] == "テスト英雄"
    assert ChangeSet.objects.get(author__username="player").status == ChangeSet.Status.PENDING


def test_null_removes_what_it_names_and_only_that(editor_api: Client, hero: dict[str, Any]) -> None:
    change = {
        "key": "SE9-HERO",
        "fields": {"health": None},
        "texts": {"en": {"text": None}, "ja": None},
        "source": None,
    }
    assert post(editor_api, submission(change)).json()["status"] == "accepted"
    now = state()
    assert "health" not in now["fields"] and now["fields"]["faction"] == "human"
    assert now["texts"]["en"]["name"] == "Test Hero" and not now["texts"]["en"]["text"]
    assert "ja" not in now["texts"] and now["source"] == "" and now["number"] == "SE9-001"
    # Removing the last name is refused, naming it: the card would have none.
    response = post(editor_api, submission({"key": "SE9-HERO", "texts": {"en": {"name": None}}}))
    assert response.status_code == 400 and list(response.json()["errors"]) == ["cards[0].texts"]
    # A record that names nothing new changes nothing.
    assert post(editor_api, submission({"key": "SE9-HERO", "kind": "hero"})).json()["code"] == "no_change"


def test_a_new_card_is_the_record_itself(player_api: Client, game: Game) -> None:
    record = {"key": "SE9-NEW", "kind": None, "texts": {"ja": {"name": "テスト新", "text": None}, "en": None}}
    after = proposed(post(player_api, submission(record)))
    assert after["kind"] is None and after["fields"] == {} and list(after["texts"]) == ["ja"]
    assert after["texts"]["ja"]["name"] == "テスト新" and not after["texts"]["ja"]["text"]


def _bulk(client: Client, text: str, action: str) -> Any:
    data = {"text": text, "source_kind": "own_copy", "action": action}
    return client.post("/contributions/games/shadowera/contribute/bulk/", data, HTTP_ACCEPT_LANGUAGE="en")


def test_a_bulk_row_follows_the_same_rule(client: Client, hero: dict[str, Any]) -> None:
    client.force_login(make_user("records-bulk"))
    # A table names what its cells hold: no kind, no name, only the health.
    table = "game\tkey\tfield:health\nshadowera\tSE9-HERO\t26\n"
    preview = _bulk(client, table, "preview").context["preview"]
    assert preview.can_submit and preview.problems == []
    (row,) = preview.rows
    assert [(change.label, change.before, change.after) for change in row.changes] == [("Health", "30", "26")]
    # A JSON file says null to remove; what it leaves out is kept.
    document = {"game": "shadowera", "cards": [{"key": "SE9-HERO", "fields": {"health": None}, "source": None}]}
    preview = _bulk(client, json.dumps(document), "preview").context["preview"]
    assert preview.can_submit, preview.problems
    (row,) = preview.rows
    assert sorted(change.label for change in row.changes) == ["Health", "Values from"]
    assert _bulk(client, json.dumps(document), "submit").status_code == 302
    (change,) = ChangeSet.objects.get(author__username="records-bulk").changes.all()
    assert change.proposed["fields"] == {key: value for key, value in hero["fields"].items() if key != "health"}
    assert change.proposed["texts"] == hero["texts"] and change.proposed["kind"] == "hero"
    assert change.proposed["source"] == ""
    # A merged card that would break a rule is named at the row that made it.
    document = {"game": "shadowera", "cards": [{"key": "SE9-HERO", "texts": {"en": {"name": None}, "ja": None}}]}
    preview = _bulk(client, json.dumps(document), "preview").context["preview"]
    assert not preview.can_submit
    (row,) = preview.rows
    assert [message for _place, message in row.problems] == ["A name is needed in at least one language."]
    assert row.problems[0][0].startswith("cards[0]")


def test_the_schema_documents_the_rule() -> None:
    schema = SchemaGenerator().get_schema(request=None, public=True)
    request = schema["components"]["schemas"]["ChangeSetRequest"]
    record = request["properties"]["cards"]["items"]
    assert record["required"] == ["key"]
    assert "null" in request["properties"]["cards"]["description"]
    assert "null removes" in record["properties"]["fields"]["description"]
    assert record["properties"]["texts"]["properties"]["en"]["nullable"] is True
