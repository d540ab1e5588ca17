"""Goldfish speed on one core: games per second for each game's play-out and for draw statistics, and whole
エンドブレイカー！SCG games per second beside pyminion's Dominion.

    python benchmarks/simulate.py [--games 20000] [--turns 10] [--whole-games 1000] [--versus-games 300]
                                 [--repeats 3] [--whole-games-only]

Every run is timed on the process's CPU time (``time.process_time``), the best of three.

Decks are synthetic (clearly fake cards with every value filled in). Each line also
shows the figure of a baseline measured in the same run: each play-out, with its event
log on (what the sample-hand page does) and without it, and a 10,000-game Monte Carlo run
(default parameters: a game ends when the goldfish is beaten) against a plain Python
shuffle-and-draw loop; and the vectorised draw statistics against the same question
answered game by game in Python.

Whole games: 2-player games of the full エンドブレイカー！SCG core (``simulator.engines.endbreaker_game``),
its two shipped strategies (big_darc against build_then_resolve, changing seats game by game), from set-up to
the end of the third battle, with the event log off and on, on a clearly synthetic set-up (``SYNTHETIC_*``
below: the real card values are not in the database) made as the site makes one from a deck's assumed values
(``assumed_endbreaker_setup``: values the cards lack and every scenario card filled in by the assumptions'
overlay, once a round). Beside them, in the same run and taken in turn with
them: pyminion's Big Money bot against itself, 2-player Dominion (base set), with its logging off. Goal: at
least ten times pyminion's games a second, log on and off.

The game core runs compiled with mypyc when bin/setup built it (``tools/build_native.py``); set
``ENDBREAKER_ENGINE_BUILD=source`` to time the plain-Python sources instead. The first lines say which ran.

pyminion is a benchmark-only tool, not a dependency of the project (it is not in pyproject.toml): when
``import pyminion`` fails, this script installs the pinned version (``PYMINION_VERSION``) into the Python
running it with ``python -m pip install pyminion==<version>``.
"""

from __future__ import annotations

import argparse
import copy
import importlib
import logging
import os
import random
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
# One core: keep NumPy's BLAS from spreading over both.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

from simulator.assumptions.overlay import Assumed, assumed_card_key, overlay  # noqa: E402
from simulator.core import SimCard, SimDeck, cards_seen_by_turn, play_game  # noqa: E402
from simulator.engines import get_engine  # noqa: E402
from simulator.engines.endbreaker_game import STRATEGIES, Game, Setup, missing_values, native  # noqa: E402
from simulator.montecarlo import draw_odds, play_many  # noqa: E402


def shadowera_deck() -> SimDeck:
    allies = [
        (SimCard(f"syn-ally-{i}", f"Synthetic Ally {i}", "ally", {"cost": i % 6 + 1, "attack": i % 4 + 1}), 4)
        for i in range(8)
    ]
    spells = [(SimCard("syn-ability", "Synthetic Ability", "ability", {"cost": 2}), 4)]
    weapon = [(SimCard("syn-weapon", "Synthetic Weapon", "weapon", {"cost": 3, "attack": 2, "durability": 3}), 3)]
    return SimDeck.from_counts("shadowera", {"deck": allies + spells + weapon})


def epicbattles_deck() -> SimDeck:
    attacks = []
    for i in range(12):
        fields = {
            "cost": i % 3,
            "damage": i % 5 + 1,
            "position": ("high", "low")[i % 2],
            "trait": [("punch", "kick", "throw")[i % 3]],
            "follow_up": ("kick", "punch", "low")[i % 3],
        }
        attacks.append((SimCard(f"syn-attack-{i}", f"Synthetic Attack {i}", "attack", fields), 4))
    blocks = [(SimCard("syn-block", "Synthetic Block", "block", {"cost": 0, "position": "high"}), 11)]
    return SimDeck.from_counts("epicbattles", {"deck": attacks + blocks})


def suikoden_deck() -> SimDeck:
    colours = ("仁", "義", "勇")
    costs = ("0", "白1", "白1仁1", "義1", "白2")
    characters = [
        SimCard(
            f"syn-person-{i}",
            f"合成人物{i:02d}",
            "character",
            {"cost": costs[i % 5], "colour": colours[i % 3], "attack": i % 7 + 1, "intelligence": i % 5 + 2},
        )
        for i in range(40)
    ]
    land = SimCard("syn-land", "合成土地", "land", {"value": 2, "leader": 3, "commerce": 6, "hunting": 8})
    return SimDeck("suikoden", {"characters": tuple(characters), "lands": (land,) * 5})


def endbreaker_deck() -> SimDeck:
    tavern = SimCard("syn-tavern", "合成酒場", None, {"skill": "B"})
    knight = SimCard("syn-knight", "合成騎士", "job", {"skill": "P"})
    return SimDeck.from_counts("endbreaker", {"starting": [(tavern, 4), (knight, 6)]})


# Goldfish that cannot die within the turns measured, so every game plays all its turns.
ENDLESS = {
    "shadowera": {"opponent_health": 200},
    "epicbattles": {"opponent_deck": 200},
    "suikoden": {"opponent_lands": 10},
}

DECKS = {
    "shadowera": shadowera_deck,
    "epicbattles": epicbattles_deck,
    "suikoden": suikoden_deck,
    "endbreaker": endbreaker_deck,
}


# Every run is timed on this process's CPU time, not the wall clock: a run is one thread on one core, and on a
# machine busy with other work the wall clock also counts the time the run waits for a core, which comes and
# goes from one run to the next (a ratio to the loop moved 2x between runs at a load average of 10 on 2 cores).
clock = time.process_time


def games_per_second(run, games: int, repeats: int = 3) -> float:
    """The best of ``repeats`` timings: the machine's other work only ever slows a run down."""
    best = float("inf")
    for _ in range(repeats):
        started = clock()
        run(games)
        best = min(best, clock() - started)
    return games / best


Run = Callable[[int], None]


def interleaved_games_per_second(runs: dict[str, tuple[Run, int]], repeats: int = 3) -> dict[str, float]:
    """``games_per_second`` of several runs, taken in turn (a, b, c, a, b, c …): a run and the baseline beside it
    see the same spells of the machine's other work, so their ratio holds even when that work comes and goes."""
    best = dict.fromkeys(runs, float("inf"))
    for _ in range(repeats):
        for name, (run, games) in runs.items():
            started = clock()
            run(games)
            best[name] = min(best[name], clock() - started)
    return {name: runs[name][1] / seconds for name, seconds in best.items()}


def shuffle_and_draw(n: int, copies: dict[str, int] | None = None) -> None:
    """The baseline: a plain Python loop that shuffles a 40-card deck and finds where each card first comes."""
    copies = copies or {f"card-{i}": 4 for i in range(10)}
    rng = random.Random(1)
    deck = [key for key, count in copies.items() for _ in range(count)]
    for _ in range(n):
        rng.shuffle(deck)
        first = {}
        for position, key in enumerate(deck):
            first.setdefault(key, position)


# Goals: every engine at least 1/20 of the baseline loop's games a second, Shadow Era at
# least 1/5, with the event log on and with it off.
GOAL = {"shadowera": 5}
DEFAULT_GOAL = 20


# Whole エンドブレイカー！SCG games --------------------------------------------------------

PYMINION_VERSION = "0.4.0"  # benchmark-only: installed by ``load_pyminion``, never a project dependency
WHOLE_GAME_GOAL = 10  # at least ten times pyminion's games a second, log on and off


def synthetic_card(key: str, kind: str, **fields: object) -> SimCard:
    return SimCard(key, f"合成{key}", kind, fields)


# A clearly synthetic set-up, with the values of the one the engine's tests use (tests/test_endbreaker_game.py):
# keys EB9-9xx and names 合成…, every value made up. The scripted cards (EB1-001, EB1-008, EB1-017, EB1-018,
# EB1-021, the thorn EB1-059) keep their real keys so that their effects run, with synthetic values too.
SYNTHETIC_TAVERN = synthetic_card("EB1-001", "city", skill="", at=0)
SYNTHETIC_STARTING_JOBS = (
    synthetic_card("EB9-902", "job", skill="P", at=1, cost="P", attribute="P"),
    synthetic_card("EB9-903", "job", skill="T", at=1, cost="T", attribute="T"),
    synthetic_card("EB9-904", "job", skill="S", at=1, cost="S", attribute="S"),
)
SYNTHETIC_JOBS = (
    synthetic_card("EB9-905", "job", cost="PP", skill="PP", at=2, attribute="P"),
    synthetic_card("EB9-906", "job", cost="TT", skill="TT", at=2, attribute="T"),
    synthetic_card("EB9-907", "job", cost="SS", skill="SS", at=2, attribute="S"),
)
SYNTHETIC_ABILITIES = (
    synthetic_card("EB1-008", "ability", cost="PT", skill="B", at=1, attribute="P"),
    synthetic_card("EB1-017", "ability", cost="PPT", skill="", at=1, attribute="T"),
    synthetic_card("EB1-018", "ability", cost="PPPT", skill="", at=2, attribute="S"),
    synthetic_card("EB1-021", "ability", cost="TS", skill="T", attribute="T"),  # its AT is its text's
    *(
        synthetic_card(f"EB9-91{n}", "ability", cost="P" * n + "S", skill="●", at=n, attribute="PTS"[n % 3])
        for n in range(5)
    ),
)
SYNTHETIC_SCENARIOS = tuple(synthetic_card(f"EB9-93{n}", "scenario", cost="PT", payout="2") for n in range(10))
SYNTHETIC_MASQUERADES = tuple(synthetic_card(f"EB9-95{n}", "masquerade", payout="6-4-2-0", damage=3) for n in range(8))
SYNTHETIC_THORN = synthetic_card("EB1-059", "thorn", at=1, skill="")


def synthetic_endbreaker_setup() -> Setup:
    knight, hunter, astromancer = SYNTHETIC_STARTING_JOBS
    return Setup(
        tavern=SYNTHETIC_TAVERN,
        knight=knight,
        hunter=hunter,
        astromancer=astromancer,
        jobs=SYNTHETIC_JOBS,
        abilities=SYNTHETIC_ABILITIES,
        scenarios=SYNTHETIC_SCENARIOS,
        masquerades=SYNTHETIC_MASQUERADES,
        thorn=SYNTHETIC_THORN,
    )


def assumed_endbreaker_setup() -> Setup:
    """The synthetic set-up as the site plays a deck's assumed values: the cards as the database would give them
    (the abilities' and thorn's AT, the masquerades' damage unknown, no scenario card at all), the player's
    assumptions overlaid by ``simulator.assumptions.overlay`` (the one place where assumptions meet card data:
    the missing values filled in, ten assumed scenario cards added), then the set-up made from what the overlay
    gives. The values end up those of ``synthetic_endbreaker_setup``, so the games played are the same."""
    full = synthetic_endbreaker_setup()
    unknown = {"ability": "at", "thorn": "at", "masquerade": "damage"}  # the value the "database" lacks, by kind
    known: list[SimCard] = []
    assumed: list[Assumed] = []
    for card in (full.tavern, full.knight, full.hunter, full.astromancer, *full.jobs, *full.abilities, full.thorn):
        field = unknown.get(card.kind or "")
        if field is None or card.fields.get(field) is None:
            known.append(card)
            continue
        known.append(SimCard(card.key, card.name, card.kind, {**card.fields, field: None}))
        assumed.append(Assumed(card.key, field, card.fields[field]))
    for card in full.masquerades:
        known.append(SimCard(card.key, card.name, card.kind, {**card.fields, "damage": None}))
        assumed.append(Assumed(card.key, "damage", card.fields["damage"]))
    for number, scenario in enumerate(full.scenarios, start=1):
        key = assumed_card_key("scenario", number)
        assumed += [Assumed(key, name, value) for name, value in scenario.fields.items()]
    cards = overlay(known, assumed)
    kinds = ("ability", "masquerade", "scenario")
    of_kind = {kind: tuple(card for card in cards if card.kind == kind) for kind in kinds}
    by_key = {card.key: card for card in cards}
    setup = Setup(
        tavern=by_key[full.tavern.key],
        knight=by_key[full.knight.key],
        hunter=by_key[full.hunter.key],
        astromancer=by_key[full.astromancer.key],
        jobs=tuple(by_key[job.key] for job in full.jobs),
        abilities=of_kind["ability"],
        scenarios=of_kind["scenario"],
        masquerades=of_kind["masquerade"],
        thorn=by_key[full.thorn.key],
    )
    missing = missing_values(setup)
    if missing:
        raise RuntimeError(f"the assumed set-up is not complete: {missing}")
    return setup


WHOLE_GAME_STRATEGIES = ("big_darc", "build_then_resolve")  # two shipped strategies


def whole_endbreaker_games(log: bool) -> Run:
    """Plays ``n`` whole 2-player games, the two strategies changing seats game by game, on the set-up made with
    assumed values (``assumed_endbreaker_setup``, made once a round, as a comparison makes it once a run)."""
    first, second = (STRATEGIES[name] for name in WHOLE_GAME_STRATEGIES)
    pairings = ([first, second], [second, first])

    def run(n: int) -> None:
        setup = assumed_endbreaker_setup()
        for seed in range(n):
            game = Game(setup, pairings[seed % 2], seed, log_events=log)
            game.play_to_end()
            if not game.over:
                raise RuntimeError(f"the synthetic game of seed {seed} did not end")

    return run


def load_pyminion() -> ModuleType:
    """Imports pyminion, installing the pinned version into this Python first if it is missing."""
    try:
        return importlib.import_module("pyminion")
    except ImportError:
        print(f"installing pyminion=={PYMINION_VERSION} (benchmark only) with pip …", flush=True)
        subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "install",
                "--quiet",
                "--disable-pip-version-check",
                f"pyminion=={PYMINION_VERSION}",
            ],
            check=True,
        )
        importlib.invalidate_caches()
        return importlib.import_module("pyminion")


def pyminion_big_money_games() -> Run:
    """Plays ``n`` 2-player Big Money Dominion games as pyminion's own ``Simulator`` does (a shallow copy of one
    game set up with its two bots, played to the end), its logging off: it logs to the root logger, which is
    raised past INFO here, and no handler prints."""
    load_pyminion()
    from pyminion.bots.examples import BigMoney
    from pyminion.expansions.base import base_set
    from pyminion.game import Game as DominionGame

    logging.getLogger().setLevel(logging.WARNING)
    logging.disable(logging.INFO)
    template = DominionGame(
        players=[BigMoney("big_money_1"), BigMoney("big_money_2")], expansions=[base_set], log_stdout=False
    )

    def run(n: int) -> None:
        random.seed(1)  # pyminion draws from the random module's own generator
        for _ in range(n):
            copy.copy(template).play()

    return run


def whole_games(eb_games: int, versus_games: int, repeats: int) -> bool:
    """Prints whole games a second beside pyminion's, taken in turn; True when the goal is met."""
    pyminion = pyminion_big_money_games()
    rates = interleaved_games_per_second(
        {
            "pyminion": (pyminion, versus_games),
            "fast": (whole_endbreaker_games(log=False), eb_games),
            "slow": (whole_endbreaker_games(log=True), eb_games),
        },
        repeats,
    )
    beside, fast, slow = rates["pyminion"], rates["fast"], rates["slow"]
    met = fast >= WHOLE_GAME_GOAL * beside and slow >= WHOLE_GAME_GOAL * beside
    print(
        f"whole 2-player games on one core (best of {repeats}, the three taken in turn): "
        f"{' against '.join(WHOLE_GAME_STRATEGIES)} on a synthetic set-up, {eb_games:,} games; "
        f"pyminion {PYMINION_VERSION}'s Big Money against itself (Dominion, base set), {versus_games:,} games"
    )
    build = "compiled with mypyc" if native.mode == "compiled" else "as plain Python"
    print(f"the エンドブレイカー！SCG game core runs {build} (tools/build_native.py, ENDBREAKER_ENGINE_BUILD)")
    print(f"{beside:>10,.0f} games/s{'':>17}  pyminion Big Money Dominion")
    print(f"{fast:>10,.0f} games/s{fast / beside:>7.1f}x pyminion  エンドブレイカー！SCG, event log off")
    print(f"{slow:>10,.0f} games/s{slow / beside:>7.1f}x pyminion  エンドブレイカー！SCG, event log on")
    print(
        f"goal: エンドブレイカー！SCG at least {WHOLE_GAME_GOAL}x pyminion's games a second, log on and off: "
        + ("met" if met else "not met")
    )
    return met


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--turns", type=int, default=10)
    parser.add_argument("--draw-games", type=int, default=1_000_000)
    parser.add_argument("--monte-carlo", type=int, default=10_000, help="games of the Monte Carlo run timed")
    parser.add_argument("--whole-games", type=int, default=1_000, help="whole エンドブレイカー！SCG games a round")
    parser.add_argument("--versus-games", type=int, default=300, help="pyminion Big Money games a round")
    parser.add_argument("--repeats", type=int, default=3, help="rounds of the whole games (the best is kept)")
    parser.add_argument("--whole-games-only", action="store_true", help="only the whole games beside pyminion")
    arguments = parser.parse_args()
    turns = arguments.turns
    if arguments.whole_games_only:
        whole_games(arguments.whole_games, arguments.versus_games, arguments.repeats)
        return 0

    loop_games = max(1, arguments.draw_games // 20)
    loop = games_per_second(shuffle_and_draw, loop_games)
    print(f"baseline: the plain Python shuffle-and-draw loop, {loop:,.0f} games/s (best of 3, one core, CPU time)")
    print(f"play-outs of {turns} turns, {arguments.games:,} games each (best of 3, taken in turn with the loop's)")
    print(f"{'game':<12}{'no log':>12}{'of loop':>9}{'with log':>12}{'of loop':>9}{'goal':>8}  met{'loop beside':>14}")
    failures = []
    for slug, make_deck in DECKS.items():
        engine, deck = get_engine(slug), make_deck()

        def without_log(n: int, engine=engine, deck=deck, slug=slug) -> None:
            for seed in range(n):
                play_game(engine, deck, seed, turns, ENDLESS.get(slug), log=False)

        def with_log(n: int, engine=engine, deck=deck, slug=slug) -> None:
            for seed in range(n):
                play_game(engine, deck, seed, turns, ENDLESS.get(slug), log=True)

        rates = interleaved_games_per_second(
            {
                "loop": (shuffle_and_draw, loop_games),
                "fast": (without_log, arguments.games),
                "slow": (with_log, max(1, arguments.games // 2)),
            }
        )
        beside, fast, slow = rates["loop"], rates["fast"], rates["slow"]
        goal = GOAL.get(slug, DEFAULT_GOAL)
        met = beside / fast <= goal and beside / slow <= goal
        if not met:
            failures.append(slug)
        print(
            f"{slug:<12}{fast:>10,.0f}/s{'1/' + format(beside / fast, '.1f'):>9}"
            f"{slow:>10,.0f}/s{'1/' + format(beside / slow, '.1f'):>9}{'1/' + str(goal):>8}"
            f"  {'yes' if met else 'NO ':<3}{beside:>12,.0f}/s"
        )

    monte_carlo = arguments.monte_carlo
    print(
        f"a {monte_carlo:,}-game Monte Carlo run of up to {turns} turns, default parameters, on one worker "
        "(best of 3, taken in turn with the loop playing as many games)"
    )
    for slug, make_deck in DECKS.items():
        engine, deck = get_engine(slug), make_deck()

        def run(n: int, engine=engine, deck=deck) -> None:
            play_many(engine, deck, n, turns, seed=1)

        rates = interleaved_games_per_second({"loop": (shuffle_and_draw, monte_carlo), "run": (run, monte_carlo)})
        seconds, loop_seconds = monte_carlo / rates["run"], monte_carlo / rates["loop"]
        print(f"{slug:<12}{seconds:>8.2f} s  (the loop {loop_seconds:.2f} s: {seconds / loop_seconds:.0f}x its time)")

    engine = get_engine("shadowera")
    seen = cards_seen_by_turn(engine, turns, first_player=True)
    copies = {f"card-{i}": 4 for i in range(10)}
    vectorised = games_per_second(lambda n: draw_odds(copies, 40, seen, n, seed=1), arguments.draw_games, 1)
    print(
        f"draw statistics (40 cards, 10 turns): {vectorised:,.0f} games/s vectorised; "
        f"{loop:,.0f} games/s in the Python loop ({vectorised / loop:.0f}x)"
    )
    print(
        "goal: every engine at least 1/20 of the loop, Shadow Era 1/5, log on and off: "
        + ("met" if not failures else "not met by " + ", ".join(failures))
    )
    whole_games(arguments.whole_games, arguments.versus_games, arguments.repeats)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
