"""What every game's deck rules share (decks/rules/base.py), on synthetic cards: no database.

Parametrised over the deck-rules registry: a fifth game is tested here by registering its rules.
Each game's own rules are tested in tests/test_deck_rules_<slug>.py.
"""

from __future__ import annotations

import pytest

from decks.rules import all_rules, get_rules

from .deck_rules_helpers import LANGUAGES, check, spec

EVERY_GAME = [rules.game for rules in all_rules()]


@pytest.mark.parametrize("game", EVERY_GAME)
def test_every_statement_in_three_languages(game):
    rules = get_rules(game)
    option_sets = [{}] + [{option.slug: choice} for option in rules.options for choice in option.choices]
    for mode in rules.modes:
        assert set(mode.labels) == set(LANGUAGES)
        for options in option_sets:
            for rule in rules.rules(mode.slug, options):
                assert set(rule.texts) == set(LANGUAGES), rule.id
                assert rule.id.startswith(f"{game}.")
    for zone in rules.zones:
        assert set(zone.labels) == set(LANGUAGES)


@pytest.mark.parametrize("game", EVERY_GAME)
def test_an_empty_deck_is_legal_in_no_mode(game):
    # A checked mode reports what the empty deck lacks; a mode without construction rules reports
    # nothing and says so (checked is False): neither calls the deck legal.
    for mode in get_rules(game).modes:
        verdict = check(spec(game, {}, mode.slug))
        assert not verdict.legal, mode.slug
        assert verdict.checked is mode.checked, mode.slug
        if mode.checked:
            assert verdict.violations, mode.slug
            assert all(finding.rule.startswith(f"{game}.") for finding in verdict.findings)
        else:
            assert verdict.findings == ()


@pytest.mark.parametrize("game", EVERY_GAME)
def test_a_mode_the_game_does_not_have_is_checked_as_its_first_mode(game):
    first = get_rules(game).modes[0].slug
    assert check(spec(game, {}, "no-such-mode")) == check(spec(game, {}, first))
