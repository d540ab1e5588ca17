"""A person in one seat of エンドブレイカー！SCG's whole game: every choice asked of them with its
options, the game replayed from its seed and answers, what a person may see, and games of strategies watched
turn by turn. Synthetic cards only (the set-up of tests/test_endbreaker_game.py)."""

import random

import pytest

from simulator.engines.endbreaker_game import BIG_DARC, STRATEGIES, Game
from simulator.engines.endbreaker_game.seated import WrongAnswer, advance, table_view

from .support.endbreaker_game import make_setup


def play_out(strategies, seed, pick=lambda pending, rng: rng.choice(pending.options), limit=3000):
    """Answers every choice until the end; returns the final ``advance`` and the answers."""
    setup, rng, answers = make_setup(), random.Random(seed), []
    for _ in range(limit):
        played = advance(setup, strategies, seed, answers)
        if played.pending is None:
            return played, answers
        answers.append(pick(played.pending, rng))
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_a_person_plays_a_whole_game_to_its_end_with_one_to_three_strategies(players):
    strategies = [None, *list(STRATEGIES.values())[: players - 1]]
    played, answers = play_out(strategies, seed=players)
    game = played.game
    assert game.over and game.winners and answers
    assert game.battles == 3 or game.stopped
    assert played.answered == len(answers)


def test_the_person_is_asked_every_kind_of_choice_with_its_options():
    kinds = set()

    def pick(pending, rng):
        kinds.add(pending.kind.split(":")[0])
        if pending.kind == "play":
            assert pending.options[-1] == "stop" and len(pending.options) >= 2
        if pending.kind == "act":
            assert pending.options == ("resolve", "gain")
            return "resolve"
        if pending.kind == "thorn":
            assert set(pending.options) <= {"1", "2", "3"}
        return rng.choice(pending.options)

    for seed in range(3):
        play_out([None, BIG_DARC], seed, pick)
    assert {"play", "act", "gain", "thorn", "may"} <= kinds


def test_the_same_answers_replay_the_same_game_and_a_wrong_answer_is_named():
    played, answers = play_out([None, BIG_DARC], seed=9)
    again = advance(make_setup(), [None, BIG_DARC], 9, answers)
    assert [p.darc for p in again.game.players] == [p.darc for p in played.game.players]
    assert again.game.log == played.game.log
    halfway = advance(make_setup(), [None, BIG_DARC], 9, answers[:10])
    assert halfway.pending is not None and halfway.answered == 10
    wrong = [*answers[:10], "EB9-999"]
    with pytest.raises(WrongAnswer) as caught:
        advance(make_setup(), [None, BIG_DARC], 9, wrong)
    assert caught.value.index == 10 and caught.value.options == halfway.pending.options
    with pytest.raises(ValueError, match="ended"):
        advance(make_setup(), [None, BIG_DARC], 9, [*answers, "stop"])


def test_a_person_sees_their_own_hand_not_the_others_and_no_masked_masquerade():
    played = advance(make_setup(), [None, BIG_DARC], 3, [])
    view = table_view(played.game, 0)
    mine, theirs = view["players"]
    assert mine["hand"] is not None and theirs["hand"] is None and theirs["hand_count"] == 5
    assert all(m["key"] is None and m["payout"] is None for m in view["masquerades"])
    watched = table_view(played.game, None)
    assert watched["players"][1]["hand"] is not None and all(m["key"] for m in watched["masquerades"])


def test_a_game_of_strategies_is_the_same_game_watched_turn_by_turn():
    strategies = [BIG_DARC, STRATEGIES["build_then_resolve"]]
    whole = Game(make_setup(), strategies, 4)
    whole.play_to_end()
    watched = advance(make_setup(), strategies, 4)
    assert watched.pending is None
    assert watched.game.log == whole.log and watched.game.winners == whole.winners
    three = advance(make_setup(), strategies, 4, after_turns=3)
    assert three.game.turn == 3 and not three.game.over
    assert three.game.log == [entry for entry in whole.log if entry.turn <= 3]


def test_only_one_person_sits_at_a_table():
    with pytest.raises(ValueError, match="one person"):
        advance(make_setup(), [None, None], 1)
