"""Invisible and control characters are refused, with the field and the character named, in the reader's
language, from every name (deck, folder, tag, strategy, set-up, publication title, translation track, user
name) and, outside line breaks and tabs, from comments and descriptions; by the API and the pages alike,
and nothing is written."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import translation

from cardsite import text
from community.models import Comment, Publication
from contributions.models import ChangeSet
from decks import services as deck_services
from decks.models import Deck, DeckFolder, DeckTag
from simulator.models import WrittenStrategy

from .support.clients import api_client
from .synthetic_decks import card, game
from .users import PASSWORD

RLO = "\u202e"  # RIGHT-TO-LEFT OVERRIDE
NAMES = {
    RLO: "U+202E RIGHT-TO-LEFT OVERRIDE",
    "\u200b": "U+200B ZERO WIDTH SPACE",
    "\ufeff": "U+FEFF ZERO WIDTH NO-BREAK SPACE",
    "\x1b": "U+001B ESCAPE",
    "\x85": "U+0085 NEXT LINE",
    "\u2066": "U+2066 LEFT-TO-RIGHT ISOLATE",
    "\u2060": "U+2060 WORD JOINER",
}


def refused(response, field: str, character: str = RLO) -> None:
    assert response.status_code == 400, response.content
    body = response.json()
    assert body["code"] in {"invalid", "invisible_character"}
    assert NAMES[character] in " ".join(body["errors"][field])


def a_deck(owner) -> Deck:
    entries = [("hero", card("shadowera", "Test Hero 01"), 1), ("deck", card("shadowera", "Test Ally 01"), 3)]
    return deck_services.create_deck(owner=owner, game=game("shadowera"), name="synthetic", entries=entries)


# --- the one check -----------------------------------------------------------------------------------


@pytest.mark.parametrize("character", list(NAMES))
def test_a_name_is_refused_naming_the_character_and_where_it_is(character):
    with translation.override("en"):
        problem = text.name_problem(f"ab{character}c")
        assert problem is not None and NAMES[character] in str(problem) and "(character 3)" in str(problem)


@pytest.mark.parametrize("value", ["Alice", "テストデッキ", "Ünïcödé 名前", "👍", "a-b_c.d"])
def test_ordinary_names_pass(value):
    assert text.name_problem(value) is None


def test_a_text_keeps_line_breaks_tabs_and_emoji_joiners_but_not_controls_or_overrides():
    assert text.text_problem("line one\nline two\r\n\tindented 👨\u200d👩\u200d👧") is None
    assert "U+001B ESCAPE" in str(text.text_problem("colour \x1b[31mred"))
    assert RLO in NAMES and "U+202E" in str(text.text_problem(f"a{RLO}b"))
    assert "U+0085 NEXT LINE" in str(text.text_problem("a\x85b"))


# --- the API ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("character", [RLO, "\u200b", "\x1b", "\ufeff"])
def test_a_deck_name_is_refused_by_the_api(owner, synthetic_cards, character):
    response = api_client(owner).post("/api/decks/", {"game": "shadowera", "name": f"x{character}y"}, format="json")
    refused(response, "name", character)
    assert not Deck.objects.exists()


def test_a_deck_description_with_an_escape_is_refused_and_line_breaks_are_kept(owner, synthetic_cards):
    deck = a_deck(owner)
    client = api_client(owner)
    refused(client.patch(f"/api/decks/{deck.pk}/", {"description": "a\x1b[2Jb"}, format="json"), "description", "\x1b")
    assert client.patch(f"/api/decks/{deck.pk}/", {"description": "a\n\tb"}, format="json").status_code == 200
    deck.refresh_from_db()
    assert deck.description == "a\n\tb"


def test_folder_and_tag_names_are_refused_by_the_api(owner, synthetic_cards):
    deck = a_deck(owner)
    client = api_client(owner)
    refused(client.post("/api/decks/folders/", {"name": f"secret{RLO}gpj.exe"}, format="json"), "name")
    refused(client.patch(f"/api/decks/{deck.pk}/", {"tags": ["ok", "t\u2066x"]}, format="json"), "tags[1]", "\u2066")
    assert not DeckFolder.objects.exists() and not DeckTag.objects.exists()


def test_a_strategy_name_and_description_are_refused_by_the_api(whole_game_pool, owner):
    good = "gain EB9-912 if turn <= 3\n"
    client = api_client(owner)
    name = client.post("/api/simulator/games/endbreaker/strategies/", {"name": f"s{RLO}", "text": good}, format="json")
    refused(name, "name")
    body = {"name": "synthetic", "text": good, "description": "\x1b]0;title\x07"}
    refused(client.post("/api/simulator/games/endbreaker/strategies/", body, format="json"), "description", "\x1b")
    assert not WrittenStrategy.objects.exists()


def test_a_publication_title_and_a_comment_are_refused_by_the_api(owner, other, synthetic_cards):
    deck = a_deck(owner)
    published = api_client(owner).post(
        "/api/community/publications/", {"deck": deck.pk, "title": f"t{RLO}"}, format="json"
    )
    refused(published, "title")
    assert not Publication.objects.exists()
    made = api_client(owner).post(
        "/api/community/publications/", {"deck": deck.pk, "title": "synthetic"}, format="json"
    )
    path = f"/api/community/publications/{made.json()['id']}/comments/"
    refused(api_client(other).post(path, {"body": f"nice {RLO}kced"}, format="json"), "body")
    assert api_client(other).post(path, {"body": "two\nlines"}, format="json").status_code == 201
    assert list(Comment.objects.values_list("body", flat=True)) == ["two\nlines"]


def test_a_change_set_comment_and_a_track_name_are_refused_by_the_api(owner, synthetic_cards):
    client = api_client(owner)
    record = {"key": "synthetic-new", "kind": "ally", "texts": {"ja": {"name": "テスト"}}}
    body = {"game": "shadowera", "source_kind": "own_copy", "cards": [record], "comment": f"see {RLO}x"}
    refused(client.post("/api/contributions/change-sets/", body, format="json"), "comment")
    track = {"language": "zh-hant", "name": f"譯{RLO}本"}
    answer = Client(HTTP_ACCEPT_LANGUAGE="en")
    answer.force_login(owner)
    response = answer.post(
        "/api/contributions/change-sets/",
        json.dumps({"game": "shadowera", "source_kind": "own_copy", "cards": [record], "tracks": [track]}),
        content_type="application/json",
    )
    assert response.status_code == 400 and "U+202E RIGHT-TO-LEFT OVERRIDE" in json.dumps(response.json())
    assert not ChangeSet.objects.exists()


# --- the pages ----------------------------------------------------------------------------------------


def test_the_pages_refuse_deck_folder_and_tag_names(owner, whole_game_pool):
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(owner)
    made = client.post("/decks/new/", {"game": "endbreaker", "name": f"d{RLO}"})
    assert made.status_code in {200, 400} and "U+202E RIGHT-TO-LEFT OVERRIDE" in made.content.decode()
    assert not Deck.objects.exists()
    client.post("/decks/folders/", {"action": "create", "name": f"f{RLO}"})
    assert not DeckFolder.objects.exists()


@pytest.mark.django_db
def test_sign_up_refuses_a_user_name_with_an_invisible_character(client):
    response = client.post(
        "/accounts/signup/",
        {"username": f"ali{RLO}ce", "password1": PASSWORD, "password2": PASSWORD},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 200 and "U+202E RIGHT-TO-LEFT OVERRIDE" in response.content.decode()
    assert not get_user_model().objects.exists()


@pytest.mark.django_db
def test_the_refusal_is_in_the_readers_language(client):
    response = client.post(
        "/accounts/signup/",
        {"username": "ali\u200bce", "password1": PASSWORD, "password2": PASSWORD},
        HTTP_ACCEPT_LANGUAGE="ja",
    )
    page = response.content.decode()
    assert "U+200B ZERO WIDTH SPACE" in page and "見えない文字" in page and "cannot hold" not in page


def test_the_schemas_character_ranges_are_the_checks_own():
    def ranges(bad) -> tuple[tuple[int, int], ...]:
        found, start = [], None
        for code in range(0x110000):
            refused = not 0xD800 <= code <= 0xDFFF and bad(chr(code))
            if refused and start is None:
                start = code
            elif not refused and start is not None:
                found.append((start, code - 1))
                start = None
        return tuple(found)

    assert ranges(lambda char: text.name_problem(char) is not None) == text.NAME_FORBIDDEN_RANGES
    assert ranges(lambda char: text.text_problem(char) is not None) == text.TEXT_FORBIDDEN_RANGES


def test_the_schema_says_which_characters_a_name_refuses(client, db):
    import re

    schema = client.get("/api/schema/?format=json").json()
    deck = schema["components"]["schemas"]["DeckWrite"]["properties"]["name"]["pattern"]
    assert re.fullmatch(deck, "Synthetic deck") and not re.fullmatch(deck, f"x{RLO}y") and not re.fullmatch(deck, " ")


@pytest.mark.django_db
def test_the_admin_refuses_a_user_name_with_an_invisible_character_or_one_that_looks_taken(superuser):
    """The admin is a second door to the user table: its add and change forms keep the sign-up form's rules."""
    site = Client()
    site.force_login(superuser)
    users = get_user_model().objects
    users.create_user("alice", password=PASSWORD)

    for name in (f"mallory{RLO}", "\u0430lice"):  # the second is a Cyrillic а
        response = site.post(
            "/admin/auth/user/add/",
            {
                "username": name,
                "password1": "long synthetic pass 1",
                "password2": "long synthetic pass 1",
                "usable_password": "true",
            },
        )
        assert response.status_code == 200, name
        assert not users.filter(username=name).exists()
        assert response.context["adminform"].form.errors["username"], name

    bob = users.create_user("bob", password=PASSWORD)
    response = site.post(
        f"/admin/auth/user/{bob.pk}/change/",
        {"username": f"bob{RLO}", "date_joined_0": "2026-01-01", "date_joined_1": "00:00:00"},
    )
    assert response.status_code == 200
    bob.refresh_from_db()
    assert bob.username == "bob"

    response = site.post(
        "/admin/auth/user/add/",
        {
            "username": "carol",
            "password1": "long synthetic pass 1",
            "password2": "long synthetic pass 1",
            "usable_password": "true",
        },
    )
    assert response.status_code == 302
    assert users.filter(username="carol").exists()
