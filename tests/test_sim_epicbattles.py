"""Epic Battles goldfish: each turn rule of seed 003, on synthetic decks."""

from simulator.core import SimCard, SimDeck, TurnStats, default_parameters, play_game
from simulator.engines import get_engine

ENGINE = get_engine("epicbattles")


def attack(index: int, cost: int, damage: int, position="high", trait="punch", follow_up=None) -> SimCard:
    fields = {"cost": cost, "damage": damage, "position": position, "trait": [trait]}
    if follow_up:
        fields["follow_up"] = follow_up
    return SimCard(f"test-attack-{index}", f"Test Attack {index}", "attack", fields)


BLOCK = SimCard("test-block", "Test Block", "block", {"cost": 0, "position": "high"})


def deck_of(cards: list[tuple[SimCard, int]]) -> SimDeck:
    return SimDeck.from_counts("epicbattles", {"deck": cards})


def new_game(deck: SimDeck, seed: int = 5, opponent_deck: int = 59):
    return ENGINE.new_game(deck, seed, {**default_parameters(ENGINE), "opponent_deck": opponent_deck}, "default")


def test_opening_hand_of_three_and_three_drawn_each_turn():
    state = new_game(deck_of([(BLOCK, 59)]))
    assert len(state.hand) == 3
    ENGINE.play_turn(state)
    assert len([e for e in state.log if e.kind == "draw" and e.turn == 1]) == 3


def test_hand_is_discarded_down_to_three_at_the_end_of_the_turn():
    state = new_game(deck_of([(BLOCK, 59)]))
    ENGINE.play_turn(state)
    assert len(state.hand) == 3
    assert len(state.discard) == 3


def test_an_attack_is_paid_from_the_energy_pile_and_then_becomes_energy():
    cheap, dear = attack(1, 0, 1), attack(2, 2, 5)
    state = new_game(deck_of([(BLOCK, 59)]))
    state.hand = [cheap, dear]
    state.energy = []
    ENGINE._attack_chain(state, TurnStats(turn=1))
    # Only the free attack is affordable with an empty energy pile; once used it is energy.
    assert state.energy == [cheap]
    assert dear in state.hand
    state.energy += [BLOCK]  # two cards of energy now
    ENGINE._attack_chain(state, TurnStats(turn=1))
    assert dear in state.energy
    assert cheap in state.discard and BLOCK in state.discard  # the energy paid is discarded


def test_a_combo_follows_the_previous_attacks_follow_up_only():
    opener = attack(1, 0, 5, position="high", trait="punch", follow_up="kick")
    kick = attack(2, 0, 3, position="low", trait="kick")
    punch = attack(3, 0, 4, position="low", trait="punch")
    state = new_game(deck_of([(BLOCK, 59)]))
    state.hand = [opener, kick, punch]
    ENGINE._attack_chain(state, TurnStats(turn=1))
    attacks = [(e.card, e.message) for e in state.log if e.kind == "attack"]
    # The opener names "kick" as its follow-up: the kick continues the combo, the punch may not.
    assert attacks == [("Test Attack 1", ""), ("Test Attack 2", "combo")]
    assert state.hand == [punch]


def test_unblocked_damage_mills_the_goldfish_and_wins_the_round():
    state = new_game(deck_of([(attack(1, 0, 10), 59)]), opponent_deck=20)
    ENGINE.play_turn(state)
    assert state.rounds_won == 1
    assert any(e.kind == "round_won" for e in state.log)


def test_a_player_who_must_draw_from_an_empty_deck_loses_the_round():
    state = new_game(deck_of([(BLOCK, 5)]))  # 3 in hand, 2 left: the turn-1 draw of 3 fails
    ENGINE.play_turn(state)
    assert state.rounds_lost == 1


def test_the_match_is_won_with_two_rounds_and_replays_from_its_seed():
    deck = deck_of([(attack(1, 0, 4, follow_up="punch"), 30), (attack(2, 1, 6), 29)])
    result = play_game(ENGINE, deck, seed=11, turns=60)
    rounds = [e for e in result.log if e.kind == "round_won"]
    assert len(rounds) == 2
    assert result.won_on_turn == rounds[-1].turn
    assert play_game(ENGINE, deck, seed=11, turns=60).log == result.log


def test_losing_a_round_by_running_out_is_stated_as_an_assumption():
    # seed 003 says only ライブラリアウト： 有り（勝利条件に関係）: the round's own win conditions are not given.
    state = new_game(deck_of([(BLOCK, 5)]))
    ENGINE.play_turn(state)
    lost = next(event for event in state.log if event.kind == "round_lost")
    templates = next(message.templates for message in ENGINE.messages if message.slug == lost.message)
    assert "assumption" in templates["en"] and "仮定" in templates["ja"] and "假設" in templates["zh-hant"]
