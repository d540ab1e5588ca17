"""Strategies written as text: the syntax a player types in the editor, every problem named
by its line, the conditions on deck, skills and ダルク standing, and the shipped strategies written in it.

Synthetic cards only (the set-up of tests/test_endbreaker_game.py).
"""

import pytest

from simulator.engines.endbreaker_game import (
    STRATEGIES,
    Condition,
    GainRule,
    Player,
    Strategy,
    StrategyTextError,
    format_strategy,
    parse_strategy,
)
from simulator.engines.endbreaker_game.declarations import QUESTIONS
from simulator.engines.endbreaker_game.skills import counts_of

from .support.endbreaker_game import new_game

SPELLINGS = {"eb9-905": "EB9-905", "テストeb9-905": "EB9-905", "eb1-017": "EB1-017", "eb9-930": "EB9-930"}
GAINABLE = frozenset({"EB9-905", "EB1-017"})


def problems_of(text, **options):
    with pytest.raises(StrategyTextError) as caught:
        parse_strategy(text, name="mine", **options)
    return [(problem.line, problem.code) for problem in caught.value.problems]


def test_a_written_strategy_reads_into_its_gain_priority_and_answers():
    strategy = parse_strategy(
        """
        # comments and blank lines are ignored
        gain EB1-017 if turn <= 4 and owned < 2
        gain テストEB9-905 if darc_lead < 0 and skills >= 3   # a card by its name
        gain any
        resolve if nothing to gain
        play EB1-017
        answer eb1-012 yes
        thorn fewest
        """,
        name="mine",
        cards=SPELLINGS,
        gainable=GAINABLE,
    )
    assert strategy == Strategy(
        name="mine",
        gain_priority=(
            GainRule("EB1-017", max_turn=4, max_owned=2),
            GainRule("EB9-905", conditions=(Condition("darc_lead", "<", 0), Condition("skills", ">=", 3))),
            GainRule("*"),
        ),
        resolve="if_nothing_to_gain",
        play_order=("EB1-017",),
        answers={"EB1-012": True},
        thorn_target="fewest_thorns",
    )


def test_every_problem_is_named_by_its_line_at_once():
    text = "\n".join(
        [
            "gain EB9-999",  # 1: no such card
            "gain EB9-930",  # 2: a scenario is not gained
            "gain * if turn >> 3",  # 3: not a condition
            "gain * if luck > 3",  # 4: no such subject
            "gain * if owned > 1",  # 5: owned takes < or <=
            "gain * if turn > 5 and turn < 3",  # 6: no turn left
            "resolve sometimes",  # 7
            "answer EB1-999 yes",  # 8: no card asks this
            "answer EB1-012 maybe",  # 9
            "thorn left",  # 10
            "shuffle twice",  # 11: not a statement
            "resolve always",  # 12
            "resolve never",  # 13: said twice
            "play",  # 14: needs a value
        ]
    )
    assert problems_of(text, cards=SPELLINGS, gainable=GAINABLE) == [
        (1, "unknown_card"),
        (2, "not_gainable"),
        (3, "bad_condition"),
        (4, "unknown_subject"),
        (5, "owned_operator"),
        (6, "empty_turns"),
        (7, "resolve_value"),
        (8, "unknown_question"),
        (9, "answer_value"),
        (10, "thorn_value"),
        (11, "unknown_statement"),
        (13, "said_twice"),
        (14, "missing_value"),
    ]


def test_a_strategy_needs_a_gain_line_and_a_bounded_text():
    assert problems_of("resolve always") == [(0, "no_gain_rule")]
    assert problems_of("gain *\n" * 500) == [(0, "too_many_lines")]
    assert problems_of("gain " + "x" * 400) == [(1, "line_too_long")]


def test_the_english_of_a_problem_says_where_and_what():
    with pytest.raises(StrategyTextError) as caught:
        parse_strategy("gain *\nthorn left", name="mine")
    assert str(caught.value) == "line 2: “left”: write thorn most or thorn fewest."


@pytest.mark.parametrize("name", sorted(STRATEGIES))
def test_every_shipped_strategy_reads_back_from_its_own_text(name):
    strategy = STRATEGIES[name]
    assert parse_strategy(format_strategy(strategy), name=name) == strategy


def test_six_strategies_ship_including_a_skill_engine_a_draw_engine_battle_at_and_a_scenario_rush():
    assert {"skill_engine", "draw_engine", "battle_at", "scenario_rush"} <= set(STRATEGIES)
    assert STRATEGIES["scenario_rush"].resolve == "always"
    assert STRATEGIES["skill_engine"].resolve == "if_nothing_to_gain"


def test_a_darc_standing_condition_gains_only_while_behind():
    behind_only = parse_strategy("gain EB9-905 if darc_lead < 0", name="behind")
    game = new_game(strategies=[behind_only, behind_only])
    me, other = game.players
    pool = counts_of("PPPPPP")
    me.darc, other.darc = 3, 3
    assert game.choose_gain(me, pool) is None
    other.darc = 4
    assert game.choose_gain(me, pool).key == "EB9-905"


def test_deck_and_skills_conditions_read_the_players_cards():
    game = new_game(strategies=[Strategy("x")] * 2)
    me = game.players[0]
    owned = len(me.deck) + len(me.hand) + len(me.discard)
    small_deck = parse_strategy(f"gain EB9-905 if deck < {owned}", name="small")
    me_small = Player(seat=0, strategy=small_deck, deck=list(me.deck), hand=list(me.hand))
    assert game.measure(me_small, "deck") == owned
    assert game.measure(me_small, "skills") == 0
    assert game.choose_gain(me_small, counts_of("PPPP")) is None
    bigger = parse_strategy(f"gain EB9-905 if deck <= {owned}", name="bigger")
    me_small.strategy = bigger
    assert game.choose_gain(me_small, counts_of("PPPP")).key == "EB9-905"


def test_an_unanswered_choice_takes_the_printed_default_declared_once():
    strategy = parse_strategy("gain *\nanswer EB1-012 yes", name="mine")
    assert strategy.answer("EB1-012", QUESTIONS["EB1-012"].default) is True
    assert strategy.answer("EB1-013", QUESTIONS["EB1-013"].default) is QUESTIONS["EB1-013"].default
