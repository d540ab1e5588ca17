"""Strategies compared with honest statistics: Wilson intervals, common random numbers with
rotated seats, results merged from chunks, the corrected sequential stop and the sample games kept by seed.

Synthetic cards only (the set-up of tests/test_endbreaker_game.py).
"""

import pytest

from simulator.engines.endbreaker_game import BIG_DARC, GainRule, Strategy
from simulator.engines.endbreaker_game.compare import (
    Comparison,
    Entrant,
    play_blocks,
    replay,
    run,
    wilson,
)
from simulator.engines.endbreaker_game.setup import SetupError

from .support.endbreaker_game import make_setup

# Never resolves a scenario, so never takes a reward from one: a clearly weaker strategy.
NEVER = Strategy("never_resolves", gain_priority=(GainRule("*"),), resolve="never")


def comparison(*strategies, games=40, **options):
    entrants = tuple(Entrant(f"{s.name}#{n}", s) for n, s in enumerate(strategies))
    return Comparison(entrants, make_setup(), seed=7, games=games, **options)


def test_wilson_interval_matches_known_values():
    low, high = wilson(5, 10)
    assert (round(low, 4), round(high, 4)) == (0.2366, 0.7634)
    low, high = wilson(0, 10)
    assert low == 0 and round(high, 4) == 0.2775
    low, high = wilson(81, 263)
    assert (round(low, 4), round(high, 4)) == (0.2553, 0.3662)


def test_a_strategy_against_itself_gets_exactly_symmetrical_results_when_seats_rotate():
    result = play_blocks(comparison(BIG_DARC, BIG_DARC), 0, 15)
    one, two = result.tallies
    assert one == two and one.games == 30
    assert result.pairs[(0, 1)].total == 0 and result.pairs[(0, 1)].squares == 0


def test_the_same_seeds_play_the_same_games():
    assert play_blocks(comparison(BIG_DARC, NEVER), 3, 8) == play_blocks(comparison(BIG_DARC, NEVER), 3, 8)
    assert play_blocks(comparison(BIG_DARC, NEVER), 3, 8) != play_blocks(comparison(BIG_DARC, NEVER), 8, 13)


def test_chunks_merged_in_any_order_equal_one_run():
    spec = comparison(BIG_DARC, NEVER)
    whole = play_blocks(spec, 0, 12)
    parts = [play_blocks(spec, 0, 5), play_blocks(spec, 5, 6), play_blocks(spec, 6, 12)]
    assert parts[2].merge(parts[0]).merge(parts[1]) == whole
    assert parts[0].merge(parts[1]).merge(parts[2]) == whole
    with pytest.raises(ValueError, match="overlap"):
        parts[0].merge(play_blocks(spec, 4, 7))


def test_results_give_win_rates_with_intervals_darc_lengths_placings_and_draws_apart():
    result = play_blocks(comparison(BIG_DARC, NEVER), 0, 20)
    strong, weak = result.tallies
    assert strong.games == weak.games == 40
    # Draws are shared wins: the two scores add up to one win a game.
    assert strong.score + weak.score == 40 * 12
    assert strong.wins + weak.wins + (strong.draws + weak.draws) // 2 == 40
    assert strong.win_rate > 0.9 and weak.win_rate < 0.1
    low, high = strong.interval
    assert low < strong.win_rate < high or strong.win_rate == 1
    assert strong.mean_darc > weak.mean_darc
    assert strong.mean_turns == weak.mean_turns > 0
    assert sum(strong.placings.values()) == 3 * 40  # three battles a game, one place in each
    assert result.length_percentile(10) <= result.length_percentile(50) <= result.length_percentile(90)


def test_the_sample_games_at_the_length_percentiles_replay_by_seed():
    spec = comparison(BIG_DARC, NEVER)
    result = play_blocks(spec, 0, 10)
    samples = result.samples()
    assert set(samples) == {10, 50, 90}
    for q, ref in samples.items():
        game = replay(spec, ref)
        turns = 0
        while not game.over:
            game.play_turn()  # step by step
            turns += 1
        assert game.turn == result.length_percentile(q)
        assert game.log and game.log[-1].kind == "end"


def test_the_sequential_stop_stops_early_for_a_clearly_better_strategy():
    spec = comparison(BIG_DARC, NEVER, games=400, min_games=40, look_every=20)
    result = run(spec)
    assert result.stopped_early
    assert result.tallies[0].games < 400
    assert result.p_value is not None and result.threshold == pytest.approx(0.05 / len(spec.looks()))
    assert result.p_value < result.threshold


def test_the_sequential_stop_does_not_stop_for_two_identical_strategies():
    spec = comparison(BIG_DARC, BIG_DARC, games=60, min_games=10, look_every=10)
    result = run(spec)
    assert not result.stopped_early and result.tallies[0].games == 60


def test_a_run_played_in_chunks_equals_the_run_played_at_once():
    spec = comparison(BIG_DARC, NEVER, games=40, min_games=10, look_every=10, sequential=False)
    assert run(spec, chunk=3) == run(spec)


def test_one_strategy_on_two_set_ups_against_the_same_field():
    from .support.endbreaker_game import MASQUERADES, card

    richer = tuple(card(m.key, "masquerade", payout="9-6-3-0", damage=3) for m in MASQUERADES)
    spec = Comparison(
        (Entrant("plain", BIG_DARC), Entrant("richer", BIG_DARC, make_setup(masquerades=richer))),
        make_setup(),
        seed=3,
        games=10,
        opponents=(BIG_DARC,),
    )
    result = play_blocks(spec, 0, 5)
    plain, rich = result.tallies
    assert plain.games == rich.games == 10
    assert rich.mean_darc > plain.mean_darc


def test_a_comparison_names_what_is_wrong():
    with pytest.raises(SetupError, match="entrants"):
        comparison(BIG_DARC)
    with pytest.raises(SetupError, match="alpha"):
        comparison(BIG_DARC, NEVER, alpha=1.5)
