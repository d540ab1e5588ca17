"""Monte Carlo goldfishing (plain Python with NumPy; no Django).

``draw_odds`` shuffles many decks at once (vectorised) and reports, for each card,
how often at least one copy has been seen by each turn: the simulated beside the
exact odds of ``simulator.odds``. ``play_many`` plays whole games with a game's
engine and summarises them per turn and by the turn of victory.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .core import Engine, SimDeck, default_parameters, play_game


def draw_odds(
    copies: Mapping[str, int], deck_size: int, seen_by_turn: Sequence[int], games: int, seed: int
) -> dict[str, list[float]]:
    """Simulated P(at least one copy seen by each turn), for every card of ``copies``.

    Each game is a random permutation of the deck; a card's first appearance is the
    earliest position of any of its copies.
    """
    rng = np.random.default_rng(seed)
    slots: dict[str, np.ndarray] = {}
    start = 0
    for key, count in copies.items():
        slots[key] = np.arange(start, start + count)
        start += count
    if start > deck_size:
        raise ValueError("more copies than cards in the deck")
    seen = np.asarray(seen_by_turn)[None, :]
    # positions[g, s]: where card slot s lies in game g's shuffled deck.
    positions = rng.random((games, deck_size)).argsort(axis=1).argsort(axis=1).astype(np.int16)
    odds = {}
    for key, card_slots in slots.items():
        if len(card_slots) == 0:
            odds[key] = [0.0] * seen.shape[1]
            continue
        first = positions[:, card_slots].min(axis=1)[:, None]
        odds[key] = (first < seen).mean(axis=0).tolist()
    return odds


@dataclass
class TurnSummary:
    turn: int
    resources: float
    cards_played: float
    damage: float
    games: int  # games still running at this turn


@dataclass
class RunSummary:
    games: int
    turns: list[TurnSummary]
    won: int
    win_turns: list[int] = field(repr=False, default_factory=list)
    parameters: dict[str, int] = field(default_factory=dict)
    policy: str = "default"

    @property
    def win_turn_stats(self) -> dict[str, float] | None:
        if not self.win_turns:
            return None
        ordered = sorted(self.win_turns)
        quantiles = statistics.quantiles(ordered, n=10, method="inclusive") if len(ordered) > 1 else [ordered[0]] * 9
        return {
            "mean": statistics.fmean(ordered),
            "median": statistics.median(ordered),
            "p10": quantiles[0],
            "p90": quantiles[-1],
        }

    def win_turn_histogram(self) -> dict[int, int]:
        histogram: dict[int, int] = {}
        for turn in self.win_turns:
            histogram[turn] = histogram.get(turn, 0) + 1
        return dict(sorted(histogram.items()))


@dataclass
class Tally:
    """What a range of games added up to: whole numbers only, so tallies add exactly in any order.

    A run split into chunks played by several workers adds up its chunks' tallies; the sum is the
    tally of the same games played in one go, and so is its summary (``summarize``).
    """

    turns: int
    games: int = 0
    # Per turn: [resources, cards played, damage, games still running].
    totals: list[list[int]] = field(default_factory=list)
    win_turns: dict[int, int] = field(default_factory=dict)  # turn of victory -> games

    def __post_init__(self) -> None:
        if not self.totals:
            self.totals = [[0, 0, 0, 0] for _ in range(self.turns)]

    def add(self, other: Tally) -> Tally:
        if other.turns != self.turns:
            raise ValueError("tallies of different numbers of turns")
        for row, more in zip(self.totals, other.totals, strict=True):
            for index, value in enumerate(more):
                row[index] += value
        for turn, count in other.win_turns.items():
            self.win_turns[turn] = self.win_turns.get(turn, 0) + count
        self.games += other.games
        return self

    def as_dict(self) -> dict[str, Any]:
        return {
            "turns": self.turns,
            "games": self.games,
            "totals": self.totals,
            "win_turns": {str(turn): count for turn, count in sorted(self.win_turns.items())},
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Tally:
        return cls(
            turns=int(data["turns"]),
            games=int(data["games"]),
            totals=[[int(value) for value in row] for row in data["totals"]],
            win_turns={int(turn): int(count) for turn, count in data["win_turns"].items()},
        )


def play_range(
    engine: Engine,
    deck: SimDeck,
    first: int,
    games: int,
    turns: int,
    seed: int,
    params: Mapping[str, int] | None = None,
    policy: str = "default",
    progress: Callable[[int], bool] | None = None,
    progress_every: int = 500,
) -> Tally:
    """Play games ``first`` to ``first + games - 1`` of a run (game i uses seed ``seed + i``).

    ``progress(done)`` is called every ``progress_every`` games of the range; returning False
    stops, and the tally covers the games played so far.
    """
    parameters = {**default_parameters(engine), **(params or {})}
    tally = Tally(turns)
    totals = tally.totals
    for index in range(first, first + games):
        result = play_game(engine, deck, seed + index, turns, parameters, policy, log=False)
        for stats in result.turns[:turns]:
            row = totals[stats.turn - 1]
            row[0] += stats.resources
            row[1] += stats.cards_played
            row[2] += stats.damage
            row[3] += 1
        if result.won_on_turn is not None:
            tally.win_turns[result.won_on_turn] = tally.win_turns.get(result.won_on_turn, 0) + 1
        tally.games += 1
        if progress is not None and tally.games % progress_every == 0 and progress(tally.games) is False:
            break
    return tally


def summarize(tally: Tally, parameters: Mapping[str, int], policy: str) -> RunSummary:
    summaries = [
        TurnSummary(turn, r / n if n else 0.0, p / n if n else 0.0, d / n if n else 0.0, n)
        for turn, (r, p, d, n) in enumerate(tally.totals, start=1)
    ]
    win_turns = [turn for turn, count in sorted(tally.win_turns.items()) for _ in range(count)]
    return RunSummary(tally.games, summaries, len(win_turns), win_turns, dict(parameters), policy)


def play_many(
    engine: Engine,
    deck: SimDeck,
    games: int,
    turns: int,
    seed: int,
    params: Mapping[str, int] | None = None,
    policy: str = "default",
    progress: Callable[[int], bool] | None = None,
    progress_every: int = 500,
) -> RunSummary:
    """Play ``games`` games (game i uses seed ``seed + i``, so any one can be replayed).

    ``progress(done)`` is called every ``progress_every`` games; returning False cancels
    the run, and the summary then covers the games played so far.
    """
    parameters = {**default_parameters(engine), **(params or {})}
    tally = play_range(engine, deck, 0, games, turns, seed, parameters, policy, progress, progress_every)
    return summarize(tally, parameters, policy)
