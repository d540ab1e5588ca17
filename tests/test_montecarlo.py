"""Monte Carlo goldfishing: simulated odds agree with the exact ones; play-outs summarise per turn."""

import math

from simulator.core import SimCard, SimDeck, cards_seen_by_turn
from simulator.engines import get_engine
from simulator.montecarlo import draw_odds, play_many
from simulator.odds import at_least_one


def test_simulated_draw_odds_agree_with_the_exact_odds_within_four_standard_errors():
    engine = get_engine("shadowera")
    seen = cards_seen_by_turn(engine, 10, first_player=True)
    copies = {"four-of": 4, "three-of": 3, "single": 1}
    games = 20_000
    simulated = draw_odds(copies, 40, seen, games, seed=2026)
    for key, count in copies.items():
        for turn, cards_seen in enumerate(seen):
            exact = float(at_least_one(40, count, cards_seen))
            standard_error = math.sqrt(exact * (1 - exact) / games) or 1 / games
            assert abs(simulated[key][turn] - exact) <= 4 * standard_error, (key, turn + 1)


def test_draw_odds_replay_from_their_seed_and_refuse_impossible_decks():
    once = draw_odds({"a": 2}, 10, [3, 5], 1000, seed=7)
    assert once == draw_odds({"a": 2}, 10, [3, 5], 1000, seed=7)
    try:
        draw_odds({"a": 8, "b": 8}, 10, [3], 10, seed=1)
    except ValueError:
        pass
    else:
        raise AssertionError("16 copies cannot fit a 10-card deck")


def _ally_deck() -> SimDeck:
    ally = SimCard("test-ally", "Test Ally", "ally", {"cost": 1, "attack": 3})
    return SimDeck.from_counts("shadowera", {"deck": [(ally, 40)]})


def test_play_many_summarises_turns_and_the_turn_of_victory():
    summary = play_many(get_engine("shadowera"), _ally_deck(), games=200, turns=15, seed=1)
    assert summary.games == 200
    assert summary.won == 200  # 3-damage allies for 1 resource beat a 30-health goldfish within 15 turns
    stats = summary.win_turn_stats
    assert stats["p10"] <= stats["median"] <= stats["p90"]
    assert summary.turns[0].damage == 0  # allies enter exhausted: nothing attacks on turn 1
    assert summary.parameters["opponent_health"] == 30


def test_a_long_run_can_be_cancelled_and_reports_what_it_played():
    calls = []

    def progress(done: int) -> bool:
        calls.append(done)
        return done < 100

    summary = play_many(get_engine("shadowera"), _ally_deck(), 1000, 10, 1, progress=progress, progress_every=50)
    assert calls == [50, 100]
    assert summary.games == 100
