"""A person in one seat of エンドブレイカー！SCG's whole game: every choice asked of them with its
options, the game replayed from its seed and answers, what a person may see, and games of strategies watched
turn by turn. Synthetic cards only (the set-up of tests/test_endbreaker_game.py)."""

import random

import pytest

from simulator.engines.endbreaker_game import BIG_DARC, STRATEGIES, Game, InPlay
from simulator.engines.endbreaker_game.seated import WrongAnswer, advance, table_view

from .support.endbreaker_game import KNIGHT, make_setup


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
    assert {"play", "act", "gain", "thorn", "pick"} <= kinds


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


def test_a_masquerades_second_thorn_shows_its_ability_to_every_player():
    # 「(1) 顯示出戰勝後獲得的勝利點 (2) 顯示出其特殊能力 (3) 當第三張棘放上後，完全顯示出該假面的身份」
    played = advance(make_setup(), [None, BIG_DARC], 3, [])
    game = played.game
    first = game.masquerades[0]
    texts = {first.card.key: "テスト能力"}
    first.thorns, first.revealed = [1], 1
    seen = table_view(game, 0, texts)["masquerades"][0]
    assert seen["payout"] is not None and seen["ability"] is None and seen["key"] is None
    first.thorns, first.revealed = [1, 1], 2
    seen = table_view(game, 0, texts)["masquerades"][0]
    assert seen["ability_shown"] and seen["ability"] == "テスト能力" and seen["key"] is None


def test_a_person_sees_each_hand_cards_skill_cost_and_at_and_the_skill_pool():
    played = advance(make_setup(), [None, BIG_DARC], 3, [])
    game = played.game
    mine = table_view(game, 0)["players"][0]
    by_key = {card.key: card for card in game.players[0].hand}
    for shown in mine["hand_cards"]:
        printed = by_key[shown["key"]].fields
        assert shown["cost"] == (None if printed.get("cost") is None else str(printed["cost"]))
        assert shown["at"] == printed.get("at")
    game.players[0].field = [InPlay(KNIGHT, "P", 1), InPlay(KNIGHT, "●T", 1)]
    assert table_view(game, 0)["players"][0]["pool"] == "PT●"
    assert table_view(game, 0)["players"][1]["hand_cards"] is None
