"""What every registered goldfish engine declares and keeps to (simulator.core.Engine), tested over every
engine so that a fifth game is tested by registering it; and the rules the engines used to break.

Decks are synthetic: clearly fake cards with every value filled in.
"""

from __future__ import annotations

import pytest

from cardsite.labels import LANGUAGES
from simulator import sample
from simulator.core import CORE_EVENT_KINDS, CORE_MESSAGES, SimCard, SimDeck, default_parameters, play_game
from simulator.engines import get_engine
from simulator.engines import suikoden as suikoden_engine
from simulator.engines.suikoden import Character
from simulator.engines.suikoden import facts as suikoden_facts

from .synthetic_decks import ENGINE_SLUGS, synthetic_sim_deck


@pytest.fixture(params=ENGINE_SLUGS)
def engine(request):
    return get_engine(request.param)


def test_every_label_an_engine_declares_has_three_languages(engine):
    labelled = [
        *(zone.labels for zone in engine.zones),
        *(counter.labels for counter in engine.counters),
        *(kind.labels for kind in engine.event_kinds),
        *(message.templates for message in engine.messages),
        *(policy.labels for policy in engine.policies.values()),
        *(parameter.labels for parameter in engine.parameters),
        *(parameter.source for parameter in engine.parameters if parameter.source),
        engine.turn_stats.resources,
        engine.turn_stats.cards_played,
        engine.turn_stats.damage,
    ]
    for labels in labelled:
        assert set(LANGUAGES) <= set(labels), labels


def test_every_event_an_engine_logs_is_declared_with_its_message(engine):
    kinds = {kind.slug for kind in (*CORE_EVENT_KINDS, *engine.event_kinds)}
    messages = {message.slug: message for message in (*CORE_MESSAGES, *engine.messages)}
    deck = synthetic_sim_deck(engine.game)
    for seed in range(20):
        state = engine.new_game(deck, seed, default_parameters(engine), "default", True)
        sample.draw_one(engine, state)
        for _ in range(12):
            if engine.is_over(state):
                break
            engine.play_turn(state)
        for event in state.log:
            assert event.kind in kinds, event
            if event.message:
                for language in LANGUAGES:
                    messages[event.message].templates[language].format(**event.params)


def test_every_declared_zone_and_counter_is_in_a_game_in_progress(engine):
    state = engine.new_game(synthetic_sim_deck(engine.game), 1, default_parameters(engine), "default", True)
    zones, counters = sample.read_state(engine, state)
    assert [zone.slug for zone in zones] == [zone.slug for zone in engine.zones]
    assert [counter.slug for counter in counters] == [counter.slug for counter in engine.counters]
    assert any(zone.slug == "hand" and zone.count == engine.opening_hand for zone in zones)
    hidden = [zone for zone in zones if zone.hidden]
    assert hidden and all(zone.cards == [] for zone in hidden)


def test_extra_draws_are_random_and_replay_from_the_seed(engine):
    """Each seed's extra draw is the engine's own: a different card for different seeds, the same on replay."""
    deck = synthetic_sim_deck(engine.game)
    drawn = []
    for seed in range(1, 9):
        spec = sample.HandSpec(seed, turn=0, params=default_parameters(engine), draws=(0, 0, 0))
        first = sample.replay(engine, deck, spec)
        again = sample.replay(engine, deck, spec)
        extra = [event.card for event in first.state.log if event.message == "extra_draw"]
        assert len(extra) == 3
        assert extra == [event.card for event in again.state.log if event.message == "extra_draw"]
        drawn.append(tuple(extra))
    assert len(set(drawn)) > 1, "the extra draws do not depend on the seed"


def test_an_extra_draw_from_an_empty_deck_draws_nothing_and_says_so(engine):
    state = engine.new_game(synthetic_sim_deck(engine.game), 1, default_parameters(engine), "default", True)
    state.deck.clear()
    hand = list(state.hand)
    sample.draw_one(engine, state)
    assert state.hand == hand
    assert state.log[-1].message == "extra_draw_empty"


def test_each_game_names_its_own_statistics():
    names = {slug: get_engine(slug).turn_stats.resources["en"] for slug in ENGINE_SLUGS}
    assert len(set(names.values())) == len(names), names


# --- Shadow Era -----------------------------------------------------------------------------------


def ally(index: int, cost: int = 1, attack: int = 2, unique: bool = False) -> SimCard:
    fields = {"cost": cost, "attack": attack, "unique": unique}
    return SimCard(f"test-ally-{index}", f"Test Ally {index}", "ally", fields)


def weapon(index: int, attack: int, cost: int = 1) -> SimCard:
    return SimCard(
        f"test-weapon-{index}", f"Test Weapon {index}", "weapon", {"cost": cost, "attack": attack, "durability": 5}
    )


def shadowera_params(**values) -> dict:
    return {**default_parameters(get_engine("shadowera")), "first_player": 0, **values}


def test_a_unique_ally_is_never_in_play_twice():
    engine = get_engine("shadowera")
    hero = ally(1, cost=1, unique=True)
    deck = SimDeck.from_counts("shadowera", {"deck": [(hero, 20), (ally(2, cost=3), 20)]})
    for seed in range(30):
        state = engine.new_game(deck, seed, shadowera_params(opponent_health=1000), "ramp", True)
        for _ in range(12):
            engine.play_turn(state)
            assert sum(1 for a in state.field_allies if a.card is hero) <= 1
    assert any(event.message == "unique_in_play" for event in state.log)


def test_a_weaker_weapon_does_not_replace_a_stronger_one_unless_the_policy_says_so():
    engine = get_engine("shadowera")
    strong, weak = weapon(1, attack=5), weapon(2, attack=1)
    deck = SimDeck.from_counts("shadowera", {"deck": [(ally(3, cost=9), 38), (strong, 1), (weak, 1)]})
    for policy, expected in (("default", 5), ("every-weapon", 1)):
        state = engine.new_game(deck, 3, shadowera_params(), policy, True)
        state.resources = 5
        state.hand = [strong]
        engine._play_cards(state, engine.policies[policy])
        state.hand = [weak]
        engine._play_cards(state, engine.policies[policy])
        assert state.weapon_attack == expected, policy
    assert state.hand == []


def test_shadow_era_logs_no_shuffle_it_does_not_make():
    result = play_game(get_engine("shadowera"), synthetic_sim_deck("shadowera"), seed=4, turns=5)
    assert not any(event.kind == "shuffle" for event in result.log)


# --- 水滸伝 ----------------------------------------------------------------------------------------


def person(index: int, cost: str = "0", colour: str = "仁", attack: int = 3, abilities=None) -> SimCard:
    fields = {"cost": cost, "colour": colour, "attack": attack, "defense": 2, "intelligence": 2}
    if abilities:
        fields["abilities"] = abilities
    return SimCard(f"test-person-{index}", f"テスト人物{index:02d}", "character", fields)


def land(leader=3, commerce=None, hunting=None) -> SimCard:
    fields = {"value": 2, "leader": leader}
    if commerce is not None:
        fields["commerce"] = commerce
    if hunting is not None:
        fields["hunting"] = hunting
    return SimCard(
        f"test-land-{leader}-{commerce}-{hunting}",
        "テスト土地",
        "land",
        {k: v for k, v in fields.items() if v is not None},
    )


def suikoden_game(characters, lands=(), seed: int = 1, **params):
    engine = get_engine("suikoden")
    deck = SimDeck("suikoden", {"characters": tuple(characters), "lands": tuple(lands)})
    return engine, engine.new_game(deck, seed, {**default_parameters(engine), **params}, "default", True)


def test_optional_draws_are_not_taken_from_an_empty_deck():
    engine, state = suikoden_game([person(i, cost="黄9") for i in range(6)], [land(commerce=2)])
    # One card left: the income draw takes it; the second draw, 商業 and 調達 would draw from nothing.
    state.deck = state.deck[:1]
    returning = person(50, abilities=["調達"])
    state.wandering = [returning, person(51)]
    state.field_characters = [Character(person(52, attack=5), ready=True), Character(person(53), ready=True)]
    state.hand = []
    engine.play_turn(state)
    assert not state.out_of_cards and not any(event.kind == "lose" for event in state.log)
    assert any(event.message == "optional_draw_skipped" for event in state.log)


def test_a_lost_game_ends_the_turn_there():
    engine, state = suikoden_game([person(i) for i in range(40)], [land()], opponent_lands=1)
    engine.play_turn(state)
    state.deck.clear()
    engine.play_turn(state)
    assert state.out_of_cards and state.won_on_turn is None
    kinds = [event.kind for event in state.log if event.turn == 2]
    assert kinds[-1] == "lose" and "win" not in kinds and "attack" not in kinds


def test_a_cost_naming_one_colour_twice_is_paid_by_two_characters():
    engine, state = suikoden_game([person(i, cost="黄9") for i in range(40)])
    first, second = Character(person(1, colour="仁"), ready=True), Character(person(2, colour="仁"), ready=True)
    target = person(3, cost="仁1仁殺1")
    state.field_characters = [first]
    state.hand = [target]
    assert engine.payment(state, target) is None  # one 仁 character cannot pay twice
    state.field_characters = [first, second]
    engine._hire(state, engine.policies["default"])
    assert [c.card for c in state.field_characters] == [target]
    assert len(state.wandering) == 1 and len(state.discard) == 1


def test_a_land_with_no_leaders_sends_nobody_to_battle():
    engine, state = suikoden_game([person(i) for i in range(40)], [land(leader=0)])
    for _ in range(4):
        engine.play_turn(state)
    assert state.opponent_lands == 4
    assert any(event.message == "no_leaders" for event in state.log)


def test_unknown_leaders_and_unmapped_colours_are_stated_in_the_log():
    engine, state = suikoden_game([person(i) for i in range(40)], [land(leader=None)])
    for _ in range(3):
        engine.play_turn(state)
    assert any(event.message == "leader_unknown" for event in state.log)
    engine, state = suikoden_game([person(i, cost="白1黄1") for i in range(40)])
    engine.play_turn(state)
    assert any(event.message == "colour_unmapped" and event.params["colour"] == "黄" for event in state.log)


def test_procurement_is_read_from_the_special_abilities():
    assert suikoden_facts(person(1, abilities=["調達"])).procurement
    assert not suikoden_facts(person(2)).procurement
    engine, state = suikoden_game([person(i, cost="黄9") for i in range(40)])
    state.wandering = [person(60, abilities=["調達"])]
    state.hand = []
    engine.play_turn(state)
    assert any(event.message == "procurement" for event in state.log)
    assert suikoden_engine.PROCUREMENT == "調達"


# --- Epic Battles -----------------------------------------------------------------------------------


def epic_attack(index: int, damage: int = 1, cost: int = 0) -> SimCard:
    fields = {"cost": cost, "damage": damage, "position": "High", "trait": ["Punch"]}
    return SimCard(f"test-attack-{index}", f"Test Attack {index}", "attack", fields)


def test_a_deck_smaller_than_the_opening_hand_loses_the_round():
    engine = get_engine("epicbattles")
    deck = SimDeck.from_counts("epicbattles", {"deck": [(epic_attack(1), 2)]})
    state = engine.new_game(deck, 1, default_parameters(engine), "default", True)
    assert state.rounds_lost >= 1


@pytest.mark.parametrize(("both_out_wins", "won"), [(0, False), (1, True)])
def test_both_decks_running_out_at_once_is_the_stated_outcome(both_out_wins, won):
    engine = get_engine("epicbattles")
    deck = SimDeck.from_counts("epicbattles", {"deck": [(epic_attack(1, damage=0, cost=99), 59)]})
    params = {**default_parameters(engine), "opponent_deck": 59, "both_out_wins": both_out_wins}
    state = engine.new_game(deck, 1, params, "default", True)
    state.deck = state.deck[:2]
    state.opponent_deck = 2
    engine.play_turn(state)
    assert (state.rounds_won, state.rounds_lost) == ((1, 0) if won else (0, 1))
    assert any(event.message == "both_out" for event in state.log)
