"""Shadow Era goldfish: each turn rule of seed 001 / games.md, on synthetic decks."""

from simulator.core import SimCard, SimDeck, default_parameters, play_game
from simulator.engines import get_engine

ENGINE = get_engine("shadowera")


def ally(index: int, cost: int, attack: int) -> SimCard:
    return SimCard(f"test-ally-{index}", f"Test Ally {index}", "ally", {"cost": cost, "attack": attack})


def deck_of(cards: list[tuple[SimCard, int]]) -> SimDeck:
    return SimDeck.from_counts("shadowera", {"deck": cards})


def new_game(deck: SimDeck, first_player: int = 1, seed: int = 7, **params):
    params = {**default_parameters(ENGINE), "opponent_health": 30, "first_player": first_player, **params}
    return ENGINE.new_game(deck, seed, params, "default")


EXPENSIVE = deck_of([(ally(1, 9, 1), 40)])  # nothing is affordable for many turns: the hand only grows


def test_opening_hand_is_six_cards():
    state = new_game(EXPENSIVE)
    assert len(state.hand) == 6
    assert len(state.deck) == 34


def test_first_player_skips_the_turn_one_draw_and_shadow_energy():
    state = new_game(EXPENSIVE, first_player=1)
    ENGINE.play_turn(state)
    assert not any(event.kind == "draw" and event.turn == 1 for event in state.log)
    assert state.shadow_energy == 0
    ENGINE.play_turn(state)
    assert [event.turn for event in state.log if event.kind == "draw" and event.message == ""] == [2]
    assert state.shadow_energy == 1


def test_second_player_draws_on_turn_one():
    state = new_game(EXPENSIVE, first_player=0)
    ENGINE.play_turn(state)
    assert any(event.kind == "draw" and event.turn == 1 and event.message == "" for event in state.log)
    assert state.shadow_energy == 1


def test_no_draw_with_seven_cards_in_hand():
    state = new_game(EXPENSIVE, first_player=0)
    state.hand.append(state.deck.pop())  # seven in hand before the draw phase
    deck_before = len(state.deck)
    assert len(state.hand) == 7
    ENGINE.play_turn(state)
    assert len(state.deck) == deck_before
    assert any(event.message == "hand_full" for event in state.log)


def test_drawing_from_an_empty_deck_damages_the_own_hero():
    deck = deck_of([(ally(1, 9, 1), 6)])  # the opening hand takes every card
    state = new_game(deck, first_player=0)
    state.hand.clear()
    ENGINE.play_turn(state)
    assert state.own_damage == 1
    assert any(event.kind == "damage" and event.message == "empty_deck" for event in state.log)


def test_at_most_one_sacrifice_a_turn_and_resources_renew():
    state = new_game(EXPENSIVE, first_player=0)
    for turn in range(1, 6):
        ENGINE.play_turn(state)
        sacrifices = [event for event in state.log if event.kind == "sacrifice" and event.turn == turn]
        assert len(sacrifices) <= 1
    assert state.resources == 5  # one a turn, all still there: resources renew


def test_allies_enter_exhausted_and_attack_from_the_next_turn():
    deck = deck_of([(ally(1, 1, 3), 40)])
    state = new_game(deck, first_player=0)
    ENGINE.play_turn(state)  # sacrifice one, play a 1-cost ally
    assert [event.kind for event in state.log if event.turn == 1].count("play") == 1
    assert not any(event.kind == "attack" and event.turn == 1 for event in state.log)
    ENGINE.play_turn(state)
    attacks = [event for event in state.log if event.kind == "attack" and event.turn == 2]
    assert [event.amount for event in attacks] == [3]


def test_the_goldfish_dies_and_the_turn_is_recorded():
    deck = deck_of([(ally(1, 1, 5), 40)])
    result = play_game(ENGINE, deck, seed=3, turns=20, params={"opponent_health": 10})
    assert result.won_on_turn is not None
    assert sum(turn.damage for turn in result.turns) >= 10
    assert len(result.turns) == result.won_on_turn


def test_a_seed_replays_the_same_game():
    deck = deck_of([(ally(i, i % 5 + 1, i % 3 + 1), 4) for i in range(10)])
    first = play_game(ENGINE, deck, seed=42, turns=10)
    again = play_game(ENGINE, deck, seed=42, turns=10)
    other = play_game(ENGINE, deck, seed=43, turns=10)
    assert first.log == again.log
    assert first.log != other.log


def test_a_card_of_unknown_cost_is_never_played_and_the_log_says_why():
    mystery = SimCard("test-mystery", "Test Mystery", "ally", {"attack": 9})
    state = new_game(deck_of([(mystery, 40)]), first_player=0)
    ENGINE.play_turn(state)
    assert not any(event.kind == "play" for event in state.log)
    assert any(event.message == "cost_unknown" for event in state.log)


BLADE = SimCard("test-blade", "Test Blade", "weapon", {"cost": 0, "attack": 2, "durability": 2})


def test_how_a_weapon_wears_is_a_stated_parameter():
    # games.md names a weapon's durability, but no source says how it is spent.
    parameter = next(p for p in ENGINE.parameters if p.slug == "weapon_wear")
    assert parameter.default == 1 and "assumption" in parameter.source["en"]
    for wear, durability_left, damage in ((1, 0, 4), (0, 2, 6)):
        state = new_game(deck_of([(BLADE, 1), (ally(1, 9, 0), 39)]), weapon_wear=wear)
        state.deck = [card for card in state.deck if card is not BLADE]
        state.hand = [BLADE]
        for _ in range(3):
            ENGINE.play_turn(state)
        assert state.weapon_durability == durability_left, wear
        assert sum(stats.damage for stats in state.stats) == damage, wear
