"""The evolutionary strategy search: reproducible from its seed, the same in chunks as at
once, the champion replaced only on a significant result, and a searched strategy that beats a weak one.

Synthetic cards only (the set-up of tests/test_endbreaker_game.py); small searches, so that the file runs in
a few seconds.
"""

import json

import pytest

from simulator.engines.endbreaker_game import BIG_DARC, STRATEGIES, GainRule, Rules, Strategy, parse_strategy
from simulator.engines.endbreaker_game.compare import SCORE_UNIT, Comparison, Entrant, play_blocks
from simulator.engines.endbreaker_game.evolve import (
    Evaluation,
    EvolutionConfig,
    EvolutionState,
    describe,
    evaluate,
    final_report,
    head_to_head,
    replacement_z,
    select,
    simplify,
    start_state,
    step,
)
from simulator.engines.endbreaker_game.setup import SetupError

from .support.endbreaker_game import make_setup

# Never resolves a scenario, so never takes a reward from one: a clearly weaker strategy.
NEVER = Strategy(name="never", gain_priority=(GainRule(card="*"),), resolve="never")
SMALL = EvolutionConfig(offspring=4, games=20, finalists=1, confirm_games=60, start="random")


def test_the_same_seed_gives_the_same_search_and_another_seed_another():
    setup = make_setup()
    first = step(start_state(5, setup, config=SMALL), setup, 3).to_dict()
    assert step(start_state(5, setup, config=SMALL), setup, 3).to_dict() == first
    assert step(start_state(6, setup, config=SMALL), setup, 3).to_dict() != first
    assert first["generation"] == 3 and first["evaluations"] >= 3 * SMALL.offspring


def test_four_generations_at_once_equal_two_and_two_through_json():
    setup = make_setup()
    state = start_state(11, setup, config=SMALL)
    at_once = step(state, setup, 4)
    halfway = json.loads(json.dumps(step(state, setup, 2).to_dict()))
    in_chunks = step(EvolutionState.from_dict(halfway), setup, 2)
    assert in_chunks.to_dict() == at_once.to_dict()
    assert state.generation == 0  # step returns a new state


def test_a_searched_strategy_beats_a_weak_strategy_with_its_interval_above_one_half():
    setup = make_setup()
    state = step(start_state(2, setup, config=SMALL), setup, 4)
    assert len(state.history) > 1  # the random start was replaced
    result = head_to_head(state.champion, NEVER, setup, players=2, seed=99, games=60)
    low, _ = result.interval()
    assert low > 0.5


def test_the_champion_changes_only_on_a_significant_result():
    config = EvolutionConfig(finalists=2)
    z = replacement_z(config)
    assert z == pytest.approx(2.2414, abs=1e-4)  # alpha 0.05 over 2 tests
    # 55% of 100 games is not significant; 75% of 100 is; the higher lower end wins.
    slight = Evaluation(games=100, score=55 * SCORE_UNIT, table_games=100)
    clear = Evaluation(games=100, score=75 * SCORE_UNIT, table_games=100)
    clearer = Evaluation(games=100, score=80 * SCORE_UNIT, table_games=100)
    assert select([slight], players=2, z=z) is None
    assert select([slight, clear], players=2, z=z) == 1
    assert select([clearer, clear], players=2, z=z) == 0
    # At a 3-player table the fair share is a third: 45% of 200 games is above it.
    assert select([Evaluation(games=200, score=90 * SCORE_UNIT, table_games=200)], players=3, z=z) == 0
    # A candidate that plays like the champion scores exactly one half and is never taken.
    setup = make_setup()
    twin = Strategy(name="twin", gain_priority=BIG_DARC.gain_priority, play_order=BIG_DARC.play_order)
    (same,) = evaluate([twin], BIG_DARC, setup, players=2, seed=3, games=40)
    assert same.win_rate == 0.5 and select([same], players=2, z=z) is None
    # In a search, every change of champion came with a lower end above one half.
    state = step(start_state(2, setup, config=SMALL), setup, 4)
    assert len(state.history) > 1
    assert all(entry["low"] > 0.5 for entry in state.history[1:])
    stuck = step(start_state(2, setup, config=EvolutionConfig(offspring=3, games=10, confirm_games=10)), setup, 2)
    assert stuck.champion == BIG_DARC and len(stuck.history) == 1  # 10 games can never be significant


def test_simplify_drops_the_rules_that_never_fire_and_plays_the_same():
    setup = make_setup()
    cluttered = Strategy(
        name="cluttered",
        gain_priority=(
            GainRule(card="EB9-905", max_owned=2),
            GainRule(card="EB9-905", min_turn=3, max_owned=1),  # covered by the rule above
            GainRule(card="EB9-999"),  # not in the set-up
            GainRule(card="EB9-906", min_turn=5, max_turn=2),  # never in its turns
            GainRule(card="*"),
            GainRule(card="EB1-017"),  # below an unguarded "*"
        ),
        play_order=("EB1-017", "EB1-017"),
    )
    simple = simplify(cluttered, setup)
    assert simple.gain_priority == (GainRule(card="EB9-905", max_owned=2), GainRule(card="*"))
    assert simple.play_order == ("EB1-017",)
    comparison = Comparison(
        entrants=(Entrant(label="a", strategy=cluttered), Entrant(label="b", strategy=simple)),
        setup=setup,
        seed=4,
        games=20,
    )
    result = play_blocks(comparison, 0, comparison.max_blocks)
    assert result.tallies[0] == result.tallies[1]
    assert parse_strategy(describe(simple, setup), name="cluttered") == simple  # readable and read back


def test_the_final_report_gives_each_shipped_strategy_a_win_rate_and_interval():
    setup = make_setup()
    state = start_state(1, setup, players=3, config=EvolutionConfig(start="big_darc"))
    report = final_report(state, setup, games=30)
    assert set(report.against) == set(STRATEGIES)
    for rate, low, high, games, stopped in report.against.values():
        assert low <= rate <= high and games == 30 and stopped == 0
    assert report.against["big_darc"][0] == pytest.approx(1 / 3)  # the same strategy: a fair share


def test_the_final_report_counts_the_games_the_turn_limit_stopped():
    setup = make_setup()
    state = start_state(1, setup, players=2, config=EvolutionConfig(start="big_darc"))
    report = final_report(state, setup, games=12, rules=Rules(max_turns=4))
    assert {name: figures[3:] for name, figures in report.against.items()} == {name: (12, 12) for name in STRATEGIES}


def test_wrong_parameters_are_named():
    with pytest.raises(SetupError, match="start"):
        EvolutionConfig(start="nonesuch")
    with pytest.raises(SetupError, match="players"):
        start_state(1, make_setup(), players=5)
