"""Text that is not valid Unicode (a lone surrogate written as a JSON escape, ``"\\udc00"``) is refused where
every JSON body is read: 400 in the API's error shape, naming the place, in the reader's language, never
quoting the text, and nothing written. Form data and query strings with such bytes are read as replacement
characters and never fail either."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from cards.importing import parse_json
from collection.models import OwnedCard
from contributions.models import ChangeSet
from decks import services as deck_services
from decks.models import Deck
from simulator.models import SimulationRun

from .synthetic_decks import game

LONE = "\\udc00"  # as the JSON text writes it: backslash, u, d, c, 0, 0


def post(client: Client, path: str, body: str, language: str = "en"):
    return client.post(path, data=body, content_type="application/json", HTTP_ACCEPT_LANGUAGE=language)


def assert_refused(response, place: str) -> dict:
    assert response.status_code == 400, response.content
    body = response.json()  # the renderer could write the answer: nothing unencodable in it
    assert body["code"] == "parse_error"
    assert list(body["errors"]) == [place]
    assert place in body["detail"] and "U+DC00" in body["detail"]
    assert "\udc00" not in response.content.decode("utf-8", "surrogatepass")
    return body


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("path", "body", "place"),
    [
        ("/api/accounts/token/", f'{{"username": "{LONE}", "password": "x"}}', "username"),
        ("/api/decks/validate/", f'{{"game": "suikoden", "entries": [{{"zone": "{LONE}"}}]}}', "entries[0].zone"),
    ],
)
def test_anonymous_bodies_with_a_lone_surrogate_are_a_400_naming_the_place(client, path, body, place):
    assert_refused(post(client, path, body), place)


def test_a_deck_option_key_that_is_not_unicode_is_refused_and_no_deck_is_made(client, owner, synthetic_cards):
    client.force_login(owner)
    body = f'{{"game": "suikoden", "name": "synthetic", "options": {{"{LONE}": 1}}}}'
    assert_refused(post(client, "/api/decks/", body), f'options["{LONE}"]')
    assert not Deck.objects.exists()


def test_a_collection_import_mode_that_is_not_unicode_is_refused(client, owner, synthetic_cards):
    client.force_login(owner)
    body = f'{{"text": "1 Test Ally 01", "mode": "add{LONE}"}}'
    assert_refused(post(client, "/api/collection/suikoden/import/list/", body), "mode")
    assert not OwnedCard.objects.exists()


def test_a_simulation_parameter_key_that_is_not_unicode_is_refused(client, owner, synthetic_cards):
    deck = deck_services.create_deck(owner=owner, game=game("suikoden"), name="synthetic")
    client.force_login(owner)
    body = f'{{"games": 10, "parameters": {{"{LONE}": 1}}}}'
    assert_refused(post(client, f"/api/simulator/decks/{deck.pk}/simulations/", body), f'parameters["{LONE}"]')
    assert not SimulationRun.objects.exists()


@pytest.mark.parametrize("part", ["key", "name", "text", "number"])
def test_a_change_set_card_record_that_is_not_unicode_is_refused(client, owner, synthetic_cards, part):
    client.force_login(owner)
    record = {"key": "synthetic-x", "name": "synthetic", part: "PLACEHOLDER"}
    body = json.dumps({"game": "shadowera", "cards": [record]}).replace("PLACEHOLDER", LONE)
    assert_refused(post(client, "/api/contributions/change-sets/", body), f"cards[0].{part}")
    assert not ChangeSet.objects.exists()


def test_a_change_set_card_field_and_track_name_that_are_not_unicode_are_refused(client, owner, synthetic_cards):
    client.force_login(owner)
    fields = json.dumps({"game": "shadowera", "cards": [{"key": "k", "fields": {"PLACEHOLDER": 1}}]})
    assert_refused(
        post(client, "/api/contributions/change-sets/", fields.replace("PLACEHOLDER", LONE)),
        f'cards[0].fields["{LONE}"]',
    )
    track = json.dumps({"game": "shadowera", "tracks": [{"language": "zh-hant", "name": "PLACEHOLDER"}]})
    assert_refused(
        post(client, "/api/contributions/change-sets/", track.replace("PLACEHOLDER", LONE)), "tracks[0].name"
    )
    assert not ChangeSet.objects.exists()


@pytest.mark.django_db
def test_the_refusal_is_in_the_readers_language(client):
    body = assert_refused(post(client, "/api/accounts/token/", f'{{"username": "{LONE}"}}', language="ja"), "username")
    assert "Unicode" in body["detail"] and "The body" not in body["detail"]
    assert "Unicode" in body["errors"]["username"][0] and "This text" not in body["errors"]["username"][0]


@pytest.mark.django_db
def test_a_pair_of_surrogate_escapes_is_one_character_and_is_read(client):
    response = post(client, "/api/accounts/token/", '{"username": "\\ud83d\\ude00", "password": "x"}')
    assert response.status_code != 500 and response.json()["code"] != "parse_error"


@pytest.mark.django_db
def test_a_card_file_with_a_lone_surrogate_is_a_problem_naming_the_place():
    text = json.dumps({"format": "x", "cards": [{"key": "k", "names": {"ja": "PLACEHOLDER"}}]})
    bundle, problems = parse_json(text.replace("PLACEHOLDER", LONE), "cards.json")
    assert bundle is None
    message = " ".join(problem.message for problem in problems)
    assert "cards[0].names.ja" in message and "U+DC00" in message and "\udc00" not in message


@pytest.mark.django_db
def test_form_fields_and_query_strings_with_surrogate_bytes_are_read_not_a_500(client):
    # UTF-8 has no surrogates: the bytes a lone one would have are decoded as replacement characters.
    assert client.get("/api/cards/?q=%ED%B0%80").status_code in {200, 400}
    assert client.get("/search/?q=%ED%B0%80").status_code in {200, 400}
    response = client.post(
        "/accounts/login/", data="username=%ED%B0%80&password=x", content_type="application/x-www-form-urlencoded"
    )
    assert response.status_code in {200, 400}
