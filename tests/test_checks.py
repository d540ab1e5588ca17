"""The start-up checks (cardsite.checks): the registered games pass, and each way a game's modules can
disagree is caught with its id."""

from __future__ import annotations

import dataclasses

import pytest
from django.core.management import call_command

from cards import gamedefs
from cardsite import checks
from decks import rules as deck_rules
from simulator import engines
from simulator.core import Message, ZoneSpec

from .support.checks import ids, with_engine


def test_the_registered_games_pass_every_check():
    assert checks.games_fit_together() == []
    call_command("check", fail_level="WARNING", verbosity=0)


def test_a_game_without_an_engine_is_refused(monkeypatch):
    kept = [engine for engine in engines.all_engines() if engine.game != "suikoden"]
    monkeypatch.setattr(engines, "all_engines", lambda: kept)
    found = checks.games_fit_together()
    assert ids(found) == {"cardsite.E001"}
    assert "suikoden" in found[0].msg and "goldfish engine" in found[0].msg


def test_an_engine_playing_a_zone_decks_lack_is_refused(monkeypatch):
    with_engine(monkeypatch, "shadowera", main_zone="library")
    assert "cardsite.E003" in ids(checks.games_fit_together())


def test_an_engine_declaring_a_zone_its_state_lacks_is_refused(monkeypatch):
    engine = engines.get_engine("epicbattles")
    zones = (*engine.zones, ZoneSpec("graveyard", {"ja": "墓地", "zh-hant": "墓地", "en": "Graveyard"}, "graveyard"))
    with_engine(monkeypatch, "epicbattles", zones=zones)
    found = checks.games_fit_together()
    assert ids(found) == {"cardsite.E004"} and "graveyard" in found[0].msg


def test_a_label_without_all_three_languages_is_refused(monkeypatch):
    engine = engines.get_engine("endbreaker")
    messages = (*engine.messages, Message("half", {"ja": "半分", "en": "half"}))
    with_engine(monkeypatch, "endbreaker", messages=messages)
    found = checks.games_fit_together()
    assert "cardsite.E005" in ids(found)
    assert any("zh-hant" in message.msg for message in found)


def test_a_message_whose_languages_take_different_parameters_is_refused(monkeypatch):
    engine = engines.get_engine("endbreaker")
    bad = Message("mismatch", {"ja": "{count}枚", "zh-hant": "{count}張", "en": "{number} cards"})
    with_engine(monkeypatch, "endbreaker", messages=(*engine.messages, bad))
    assert "cardsite.E006" in ids(checks.games_fit_together())


def test_a_deck_zone_taking_a_kind_the_cards_lack_is_refused(monkeypatch):
    rules = deck_rules.get_rules("suikoden")
    zones = tuple(
        dataclasses.replace(zone, kinds=(*zone.kinds, "dragon")) if zone.slug == "lands" else zone
        for zone in rules.zones
    )
    changed = dataclasses.replace(rules, zones=zones)
    registered = deck_rules.all_rules()
    monkeypatch.setattr(deck_rules, "all_rules", lambda: [changed if r.game == "suikoden" else r for r in registered])
    assert "cardsite.E002" in ids(checks.games_fit_together())


@pytest.mark.parametrize("definition", gamedefs.all_games(), ids=lambda definition: definition.slug)
def test_every_game_declares_its_cards_rules_and_engine(definition):
    assert deck_rules.get_rules(definition.slug).game == definition.slug
    assert engines.get_engine(definition.slug).game == definition.slug
