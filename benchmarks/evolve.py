"""The evolutionary strategy search: wall time until it finds a strategy that beats every
shipped strategy with 95% confidence, beside random search with the same machinery, in the same run.

    python benchmarks/evolve.py [--seed 1] [--runs 5] [--budget-seconds 120] [--verify-games 2000]

The set-up is clearly synthetic: the cards of ``benchmarks/simulate.py`` (``SYNTHETIC_*``, every value made up)
with one ability pile replaced by a trap, ``EB9-919`` (cost ●●●●, no skill, AT 0): the most expensive card a
4-skill hand pays for, and worthless. The shipped strategies gain the most expensive card they can pay for
(``ANY_CARD``), so they buy it; a better strategy has to learn to avoid it. On the plain synthetic set-up
big_darc is hard to beat at all (its mutants measured at most ~0.5 head to head), so it would measure nothing.

The criterion (both methods): 2 players, head to head, the champion's win rate against each shipped strategy
(``STRATEGIES``) over ``--verify-games`` games on seeds the search never played (``evolve.final_report``) has
a 95% Wilson interval whose lower end is above 0.5. It is checked each time the champion changes; the check's
games count in the time.

The methods: ``evolve.step`` with ``EvolutionConfig()`` (start: big_darc; mutation of the champion, a quarter
of the candidates random immigrants), and the baseline, the same with ``proposal="random"`` (each candidate a
random strategy drawn from scratch; the same screening, confirmation and replacement test), each given
``--budget-seconds`` of wall time, one after the other, for ``--runs`` seeds (``--seed`` onwards). The figures:
wall time, generations, candidate evaluations and games played until the criterion, or "not reached", each
run and the median (a run not reached counts as the budget); with ``--generations G`` each method runs G
generations (the same evaluation budget for both, within the time budget) and the last champions are also
compared: against big_darc, and the evolution's against random search's, head to head on fresh seeds.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from dataclasses import dataclass, replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

from benchmarks.simulate import synthetic_card, synthetic_endbreaker_setup  # noqa: E402
from simulator.engines.endbreaker_game import Setup, Strategy  # noqa: E402
from simulator.engines.endbreaker_game.evolve import (  # noqa: E402
    EvolutionConfig,
    Report,
    final_report,
    head_to_head,
    start_state,
    step,
)

TRAP = synthetic_card("EB9-919", "ability", cost="●●●●", skill="", at=0, attribute="P")


def trap_setup() -> Setup:
    """The synthetic set-up with the trap first among the abilities (in ties of cost the first pile is gained)."""
    plain = synthetic_endbreaker_setup()
    return replace(plain, abilities=(TRAP, *plain.abilities[:-1]))


@dataclass
class Figures:
    reached_seconds: float | None = None  # wall time to the criterion (None: not reached)
    reached_generation: int | None = None
    reached_evaluations: int | None = None
    reached_games: int | None = None
    generations: int = 0
    seconds: float = 0.0
    champion: Strategy | None = None  # the last champion
    report: Report | None = None  # the last champion checked


def search(setup: Setup, seed: int, proposal: str, budget: float, verify_games: int, generations: int) -> Figures:
    """Runs one method until the criterion (``generations`` 0) or for ``generations`` generations, within the
    budget; the champion is checked against the shipped strategies each time it changes, and at the end."""
    state = start_state(seed, setup, players=2, config=EvolutionConfig(proposal=proposal))  # type: ignore[arg-type]
    figures = Figures()
    started = time.perf_counter()
    verify_evaluations = verify_games_played = 0
    while time.perf_counter() - started < budget and (not generations or state.generation < generations):
        changes = len(state.history)
        state = step(state, setup, 1)
        if len(state.history) > changes:
            figures.report = final_report(state, setup, verify_games)
            verify_evaluations += len(figures.report.against)
            verify_games_played += sum(games for *_, games in figures.report.against.values())
            if figures.reached_seconds is None and figures.report.beats_all(players=2):
                figures.reached_seconds = time.perf_counter() - started
                figures.reached_generation = state.generation
                figures.reached_evaluations = state.evaluations + verify_evaluations
                figures.reached_games = state.games + verify_games_played
                if not generations:
                    break
    figures.seconds, figures.generations = time.perf_counter() - started, state.generation
    figures.champion = state.champion
    figures.report = figures.report or final_report(state, setup, verify_games)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--runs", type=int, default=5, help="seeds, from --seed on")
    parser.add_argument("--budget-seconds", type=float, default=120.0, help="wall time for each method and run")
    parser.add_argument("--verify-games", type=int, default=2000)
    parser.add_argument(
        "--generations", type=int, default=0, help="run this many generations (0: stop at the criterion)"
    )
    args = parser.parse_args()
    setup = trap_setup()
    print(
        f"budget {args.budget_seconds:.0f} s a method and run, verification {args.verify_games} games a check, "
        f"generations {args.generations or 'until the criterion'}"
    )
    methods = (("evolution (mutation)", "mutation"), ("baseline (random search)", "random"))
    times: dict[str, list[float]] = {label: [] for label, _ in methods}
    finals: dict[str, list[float]] = {label: [] for label, _ in methods}
    duels: list[float] = []
    for seed in range(args.seed, args.seed + args.runs):
        champions = []
        for label, proposal in methods:
            figures = search(setup, seed, proposal, args.budget_seconds, args.verify_games, args.generations)
            report = figures.report
            assert report is not None
            times[label].append(args.budget_seconds if figures.reached_seconds is None else figures.reached_seconds)
            finals[label].append(report.against["big_darc"][0])
            when = (
                "not reached"
                if figures.reached_seconds is None
                else f"reached in {figures.reached_seconds:.1f} s (generation {figures.reached_generation}, "
                f"{figures.reached_evaluations} evaluations, {figures.reached_games} games)"
            )
            print(f"\nseed {seed}, {label}: {when}; ran {figures.generations} generations in {figures.seconds:.1f} s")
            print("  the last champion checked:")
            for name, (rate, low, high, games) in report.against.items():
                print(f"  against {name}: win rate {rate:.3f} [{low:.3f}, {high:.3f}] over {games} games")
            print("  " + report.text.replace("\n", "\n  "))
            champions.append(figures.champion)
        evolved, sampled = champions
        assert evolved is not None and sampled is not None
        duel = head_to_head(evolved, sampled, setup, players=2, seed=10_000 + seed, games=args.verify_games)
        duels.append(duel.win_rate)
        low, high = duel.interval()
        print(
            f"\nseed {seed}: the evolution's last champion against random search's: win rate {duel.win_rate:.3f} "
            f"[{low:.3f}, {high:.3f}] over {duel.games} games"
        )
    print()
    for label, values in times.items():
        reached = sum(1 for value in values if value < args.budget_seconds)
        print(
            f"{label}: reached {reached}/{len(values)}, median time {statistics.median(values):.1f} s; "
            f"the last champion against big_darc: median win rate {statistics.median(finals[label]):.3f}"
        )
    print(f"the evolution's last champion against random search's: median win rate {statistics.median(duels):.3f}")


if __name__ == "__main__":
    main()
