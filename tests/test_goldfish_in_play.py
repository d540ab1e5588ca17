"""The goldfish shows the card in play from the start beside the hand (Shadow Era's hero, Epic Battles' character),
on the sample-hand page and in the goldfish API, with its values (unknown ones as unknown, never 0)."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from rest_framework.test import APIClient

from cards import services as card_services
from cards.importing import parse_json
from decks import services as deck_services

from .support.goldfish import make_deck
from .support.html import UI_LANGUAGES, parse, squash
from .synthetic_decks import card, game

pytestmark = pytest.mark.usefixtures("synthetic_cards")

HERO_HEADINGS = {
    "ja": "ヒーロー 最初から場に出ている",
    "zh-hant": "英雄 開局即在場上",
    "en": "Hero in play from the start",
}
UNKNOWN = {"ja": "不明", "zh-hant": "不明", "en": "unknown"}


@pytest.fixture
def owner_reader(owner) -> Client:
    """The deck's owner on the pages."""
    client = Client()
    client.force_login(owner)
    return client


@pytest.fixture
def owner_program(owner) -> APIClient:
    """The deck's owner through the API."""
    client = APIClient()
    client.force_authenticate(owner)
    return client


def hero_deck_without_health(owner):
    """A Shadow Era deck whose (synthetic) hero has no health value: no source gives hero health."""
    hero = {
        "key": "Test Hero Unknown",
        "kind": "hero",
        "fields": {"faction": "shadow", "class": ["mage"], "ability_cost": 3},
        "source": "test",
        "texts": {"en": {"name": "Test Hero Unknown", "text": "A made-up hero.", "source": "test"}},
    }
    bundle, problems = parse_json(json.dumps({"game": "shadowera", "cards": [hero]}), "test")
    assert not problems, problems
    card_services.import_bundle(bundle)
    entries = [("hero", "Test Hero Unknown", 1), ("deck", "Test Ally 01", 20), ("deck", "Test Ally 02", 20)]
    return deck_services.create_deck(
        owner=owner,
        game=game("shadowera"),
        name="テスト不明ヒーロー",
        entries=[(zone, card("shadowera", key), count) for zone, key, count in entries],
    )


def deck_without(owner, slug: str, zone: str):
    """``make_deck``'s deck of ``slug`` less its ``zone`` (its hero or character)."""
    deck = make_deck(slug, owner)
    deck.entries.filter(zone=zone).delete()
    return deck


def in_play(client: Client, deck, language: str = "en"):
    client.cookies["django_language"] = language
    response = client.get(f"/simulator/decks/{deck.pk}/goldfish/?seed=3")
    assert response.status_code == 200
    found = parse(response).find_all(id="gf-in-play")
    return found[0] if found else None


# --- the page -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("language", UI_LANGUAGES)
def test_the_sample_hand_shows_the_shadow_era_hero_in_play_in_every_language(owner_reader, owner, language):
    section = in_play(owner_reader, make_deck("shadowera", owner), language)
    assert section is not None
    assert squash(section.find("h2").text) == HERO_HEADINGS[language]
    hero = section.find("li", cls="gf-card")
    assert hero.attrs["data-card"] == "Test Hero 01"
    health = hero.find("span", data_field="health")
    assert squash(health.text).endswith("30")  # the synthetic hero's health


def test_the_sample_hand_shows_the_epic_battles_character_in_play(owner_reader, owner):
    section = in_play(owner_reader, make_deck("epicbattles", owner))
    assert section is not None and section.attrs["data-zone"] == "character"
    assert [li.attrs["data-card"] for li in section.find_all("li", cls="gf-card")] == ["Test-Zero"]
    assert "Character" in squash(section.find("h2").text)


@pytest.mark.parametrize("language", UI_LANGUAGES)
def test_a_value_no_source_gives_is_shown_as_unknown_never_0(owner_reader, owner, language):
    section = in_play(owner_reader, hero_deck_without_health(owner), language)
    health = squash(section.find("span", data_field="health").text)
    assert health.endswith(UNKNOWN[language]) and "0" not in health
    assert squash(section.find("span", data_field="ability_cost").text).endswith("3")


@pytest.mark.parametrize(("slug", "zone"), [("shadowera", "hero"), ("epicbattles", "character")])
def test_a_deck_without_its_hero_or_character_shows_nothing_there(owner_reader, owner, slug, zone):
    assert in_play(owner_reader, deck_without(owner, slug, zone)) is None


@pytest.mark.parametrize("slug", ["suikoden", "endbreaker"])
def test_games_with_no_card_in_play_from_the_start_show_none(owner_reader, owner, slug):
    assert in_play(owner_reader, make_deck(slug, owner)) is None


def test_the_hero_stays_in_play_as_the_turns_go(owner_reader, owner):
    deck = make_deck("shadowera", owner)
    owner_reader.cookies["django_language"] = "en"
    page = parse(owner_reader.get(f"/simulator/decks/{deck.pk}/goldfish/?seed=3&turn=3"))
    section = page.find(id="gf-in-play")
    assert [li.attrs["data-card"] for li in section.find_all("li", cls="gf-card")] == ["Test Hero 01"]


# --- the API ------------------------------------------------------------------------------------------


def test_the_goldfish_api_gives_the_hero_in_play_with_its_values(owner_program, owner):
    deck = make_deck("shadowera", owner)
    data = owner_program.get(f"/api/simulator/decks/{deck.pk}/goldfish/?seed=3&lang=en").json()
    assert data["in_play"]["zone"] == "hero" and data["in_play"]["label"] == "Hero"
    [hero] = data["in_play"]["cards"]
    assert hero["key"] == "Test Hero 01" and hero["kind"] == "Hero"
    assert hero["values"]["health"] == {"label": "Health", "value": "30"}


def test_the_goldfish_api_gives_an_unknown_value_as_null(owner_program, owner):
    deck = hero_deck_without_health(owner)
    data = owner_program.get(f"/api/simulator/decks/{deck.pk}/goldfish/?seed=3&lang=ja").json()
    [hero] = data["in_play"]["cards"]
    assert hero["values"]["health"]["value"] is None
    assert hero["values"]["ability_cost"]["value"] == "3"


def test_the_goldfish_api_gives_the_epic_battles_character(owner_program, owner):
    deck = make_deck("epicbattles", owner)
    data = owner_program.get(f"/api/simulator/decks/{deck.pk}/goldfish/?seed=3&lang=en").json()
    assert data["in_play"]["zone"] == "character"
    assert [entry["key"] for entry in data["in_play"]["cards"]] == ["Test-Zero"]


@pytest.mark.parametrize(("slug", "zone"), [("shadowera", "hero"), ("epicbattles", "character")])
def test_the_goldfish_api_gives_no_card_in_play_for_a_deck_without_one(owner_program, owner, slug, zone):
    deck = deck_without(owner, slug, zone)
    data = owner_program.get(f"/api/simulator/decks/{deck.pk}/goldfish/?seed=3").json()
    assert data["in_play"] is None
