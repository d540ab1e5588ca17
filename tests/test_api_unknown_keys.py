"""A body that names a key the API does not know is refused, naming the key and where it is, and nothing is
written: a misspelt key (``sean`` for ``seen``) would otherwise be dropped, and what it meant silently not done.

Every request body object of the schema says so (``additionalProperties: false``), nested objects and list
items included.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client
from drf_spectacular.generators import SchemaGenerator
from knox.models import AuthToken

from cards.models import Card
from collection.models import OwnedCard
from contributions.models import ChangeSet, GameRole
from decks.models import Deck

from .support.clients import token_client
from .support.contributions import _hero
from .users import PASSWORD, make_user

pytestmark = [pytest.mark.usefixtures("game"), pytest.mark.django_db]


def post(client: Client, path: str, body: Any, **headers: Any) -> Any:
    return client.post(path, json.dumps(body), content_type="application/json", **headers)


def refused(response: Any, *paths: str) -> dict[str, Any]:
    assert response.status_code == 400, response.content
    body = response.json()
    assert body["code"] == "invalid"
    assert sorted(body["errors"]) == sorted(paths)
    return body


def test_a_deck_with_an_unknown_key_is_not_made(synthetic_cards: None, player_api: Client) -> None:
    body = {"game": "suikoden", "name": "テスト", "bogus": 1}
    response = post(player_api, "/api/decks/", body, HTTP_ACCEPT_LANGUAGE="ja")
    answer = refused(response, "bogus")
    assert "name" in answer["errors"]["bogus"][0] and "entries" in answer["errors"]["bogus"][0]
    assert "不明なキー" in answer["detail"]  # in the reader's language
    # In a list's item: named with its place.
    entries = [{"zone": "characters", "card": "901", "count": 1}, {"zone": "lands", "card": "903", "cuont": 2}]
    refused(
        post(player_api, "/api/decks/", {"game": "suikoden", "name": "テスト", "entries": entries}), "entries[1].cuont"
    )
    assert not Deck.objects.exists()
    # Without them, the same bodies are taken.
    assert post(player_api, "/api/decks/", {"game": "suikoden", "name": "テスト"}).status_code == 201


def test_a_misspelt_seen_does_not_drop_the_conflict_check(player_api: Client, game) -> None:
    game = Card._meta.apps.get_model("cards", "Game").objects.get(slug="shadowera")
    editor = make_user("unknown-keys-editor")
    GameRole.objects.create(user=editor, game=game, role=GameRole.Role.EDITOR)
    editor_client = token_client(editor)
    submission = {"game": "shadowera", "source_kind": "own_copy"}
    assert (
        post(editor_client, "/api/contributions/change-sets/", {**submission, "cards": [_hero(health=30)]}).status_code
        == 201
    )
    digest = player_api.get("/api/cards/shadowera/SE9-HERO/").json()["state_digest"]
    post(editor_client, "/api/contributions/change-sets/", {**submission, "cards": [_hero(health=28)]})  # meanwhile
    before = ChangeSet.objects.count()
    stale = {**submission, "cards": [_hero(health=31)]}
    # With the key spelt right, the stale record is a 409; misspelt, a 400 naming it: never a pending change.
    assert (
        post(player_api, "/api/contributions/change-sets/", {**stale, "seen": {"SE9-HERO": digest}}).status_code == 409
    )
    refused(post(player_api, "/api/contributions/change-sets/", {**stale, "sean": {"SE9-HERO": digest}}), "sean")
    # A key unknown in a card record or a picture, named with its place.
    record = {**_hero(health=31), "helth": 3}
    response = post(player_api, "/api/contributions/change-sets/", {**submission, "cards": [_hero("SE9-NEW"), record]})
    assert response.status_code == 400 and list(response.json()["errors"]) == ["cards[1].helth"]
    pictures = {**submission, "images": [{"card": "SE9-HERO", "image": 1, "sid": "face"}]}
    refused(post(player_api, "/api/contributions/change-sets/", pictures), "images[0].sid")
    assert ChangeSet.objects.count() == before


def test_other_bodies_refuse_unknown_keys_and_change_nothing(synthetic_cards: None, game) -> None:
    user = make_user("unknown-keys-collector")
    client = token_client(user)
    refused(post(client, "/api/collection/shadowera/add/", {"card": "Test Ally 01", "count": 1, "x": 0}), "x")
    refused(post(client, "/api/collection/shadowera/set/", {"card": "Test Ally 01", "count": 2, "mode": "add"}), "mode")
    assert not OwnedCard.objects.exists()
    tokens = AuthToken.objects.count()
    refused(
        post(Client(), "/api/accounts/token/", {"username": user.username, "password": PASSWORD, "expiry": 9}), "expiry"
    )
    form = Client().post("/api/accounts/token/", {"username": user.username, "password": PASSWORD, "remember": "1"})
    refused(form, "remember")
    assert AuthToken.objects.count() == tokens
    response = post(client, "/api/simulator/games/endbreaker/strategies/check/", {"text": "", "nmae": "x"})
    assert response.status_code == 400 and "nmae" in response.json()["errors"]


def _objects(schema: Any, components: dict[str, Any], seen: set[str]) -> list[dict[str, Any]]:
    """Every object schema within ``schema``, following $refs once each."""
    if isinstance(schema, list):
        return [found for item in schema for found in _objects(item, components, seen)]
    if not isinstance(schema, dict):
        return []
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        if name in seen:
            return []
        seen.add(name)
        return _objects(components[name], components, seen)
    found = [schema] if schema.get("type") == "object" and "properties" in schema else []
    for key in ("properties", "items", "allOf", "oneOf", "anyOf", "additionalProperties"):
        value = schema.get(key)
        if isinstance(value, dict) and key == "properties":
            found += [item for child in value.values() for item in _objects(child, components, seen)]
        elif value is not None and not isinstance(value, bool):
            found += _objects(value, components, seen)
    return found


def test_every_request_body_of_the_schema_refuses_other_keys() -> None:
    schema = SchemaGenerator().get_schema(request=None, public=True)
    components = schema["components"]["schemas"]
    checked = 0
    for template, operations in schema["paths"].items():
        for method, operation in operations.items():
            for media, content in operation.get("requestBody", {}).get("content", {}).items():
                for obj in _objects(content["schema"], components, set()):
                    assert obj.get("additionalProperties") is False, (method, template, media, list(obj["properties"]))
                    checked += 1
    assert checked > 40
