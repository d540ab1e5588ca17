"""Strategies compared over many games, with honest statistics. Plain Python, no Django.

What is compared
    ``Entrant``s: a strategy, with its own set-up or the comparison's. Two modes:

    * head to head (``opponents is None``): all entrants sit at one table (2 to 4 of them);
    * against a field (``opponents`` given): each entrant plays, in its own game, against the same opponents
      (one strategy on two set-ups is two entrants with the same strategy and different set-ups; with no
      opponents the games are solo games and ダルク is what tells the entrants apart).

Common random numbers and seats
    The games come in *blocks*. Block ``b`` has one seed, ``block_seed(seed, b)``, and as many games as a
    table has seats; game ``r`` of the block rotates the seats by ``r``. Head to head, seat ``s`` of game ``r``
    is played by entrant ``(s + r) % k``; against a field, the entrant sits at seat ``r`` and the opponents
    fill the other seats in their order. Every game of a block uses the same seed, and the game deals and
    shuffles seat by seat, so each entrant sits once at every seat and sees there the same shuffles the
    others saw there: the first player's advantage cancels within a block, and the difference between two
    entrants is measured on the same cards (a strategy against itself gets exactly the same results).
    Runs are counted in whole blocks: ``games`` (N, per entrant) is rounded up to a whole number of blocks.

Scores and draws
    A game's win is shared among its winners (the seed's 「平手」 and a stopped game's shared lead): an entrant
    scores 1 / (number of winners) if it is one of them, else 0, so in a 2-player game a draw counts as half
    a win (the chess convention). Scores are kept in twelfths, exactly, so sums merge without rounding. Sole
    wins, shared wins (``draws``) and games stopped by ``rules.max_turns`` are also reported apart.

Win rate and its interval
    win rate = score / games, with the 95% Wilson score interval (``wilson``) of that proportion (half
    wins enter it as half successes).

The sequential stop
    A paired z-test on the block differences of score with a Bonferroni correction over a fixed look
    schedule. At the looks (after ``min_games`` games, then every ``look_every`` games, up to ``games``:
    ``L`` looks, known before the first game), the two entrants with the highest scores so far are compared:
    ``d_b`` = score of the leader minus score of the runner-up in block ``b`` (the block is the unit of
    the pairing: same seed, every seat), ``z = mean(d) / (sd(d) / sqrt(m))`` over the ``m`` blocks played,
    and the run stops when the two-sided normal p-value is below ``alpha / (L * P)``, ``P`` being the number
    of pairs of entrants (the leaders are chosen from the data, so every pair is paid for). By the union
    bound the chance of ever stopping when no pair differs is at most ``alpha``: peeking is corrected, not
    free. Bonferroni is conservative (an alpha-spending function would stop somewhat earlier); it was chosen
    because it is easy to state and check, and needs nothing but the look count. When every ``d_b`` is 0
    (e.g. a strategy against itself) the difference is 0 and the run never stops early; when every ``d_b`` is
    the same non-zero number (no spread, z infinite) the exact sign test's p-value ``2 / 2**m`` is used.
    The z-test is a large-sample test: ``min_games`` should leave some 20 blocks or more before the first look.

Sample games
    For each game length (turns played by all players together) the first game with it (by block, then
    rotation, then entrant) is kept by reference; the games at the 10th, 50th and 90th percentile of length
    (nearest rank) can be set up again with ``replay`` and played step by step (``Game.play_turn``).

Chunks
    ``play_blocks(comparison, start, stop)`` plays blocks ``start..stop-1`` and returns a ``Result``; ``Result``s
    of disjoint chunks ``merge`` (in any order) into exactly the result of playing all those blocks at once,
    so workers can share a run; ``run`` drives the looks and the stop from chunks.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations, pairwise

from .game import Game
from .rules import MAX_PLAYERS, Rules
from .setup import Setup, SetupError
from .strategy import Strategy

Z95 = 1.959963984540054  # the two-sided 95% normal quantile
SCORE_UNIT = 12  # a share of a win among 1 to 4 winners is a whole number of twelfths


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (``successes`` of ``n``; half successes allowed)."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def two_sided_p(z: float) -> float:
    """The two-sided p-value of a standard normal statistic."""
    return math.erfc(abs(z) / math.sqrt(2))


def block_seed(seed: int, block: int) -> int:
    """The seed every game of block ``block`` is played with (the same for every entrant and rotation)."""
    return seed * 1_000_003 + block


@dataclass(frozen=True)
class Entrant:
    label: str
    strategy: Strategy
    setup: Setup | None = None  # None: the comparison's set-up


@dataclass(frozen=True)
class Comparison:
    """What is compared and how; ``games`` is N, the most games each entrant plays."""

    entrants: tuple[Entrant, ...]
    setup: Setup
    seed: int
    games: int
    opponents: tuple[Strategy, ...] | None = None  # None: head to head
    rules: Rules | None = None
    alpha: float = 0.05
    min_games: int = 100  # per entrant, before the first look
    look_every: int = 100  # per entrant, between looks
    sequential: bool = True

    def __post_init__(self) -> None:
        if len(self.entrants) < 2:
            raise SetupError("entrants: at least 2 are needed to compare")
        if len({entrant.label for entrant in self.entrants}) != len(self.entrants):
            raise SetupError("entrants: two entrants have the same label")
        if self.opponents is None and len(self.entrants) > MAX_PLAYERS:
            raise SetupError(f"entrants: at most {MAX_PLAYERS} play head to head")
        if self.opponents is not None and len(self.opponents) + 1 > MAX_PLAYERS:
            raise SetupError(f"opponents: at most {MAX_PLAYERS - 1}")
        if self.games < 1 or self.min_games < 1 or self.look_every < 1:
            raise SetupError("games, min_games, look_every: must be at least 1")
        if not 0 < self.alpha < 1:
            raise SetupError("alpha: must be between 0 and 1")

    @property
    def seats(self) -> int:
        return len(self.entrants) if self.opponents is None else len(self.opponents) + 1

    def blocks_for(self, games: int) -> int:
        """Whole blocks for at least ``games`` games per entrant."""
        return -(-games // self.seats)

    @property
    def max_blocks(self) -> int:
        return self.blocks_for(self.games)

    def looks(self) -> list[int]:
        """The look schedule, in blocks (the last look is the end of the run)."""
        last = self.max_blocks
        first = min(self.blocks_for(self.min_games), last)
        step = max(1, self.blocks_for(self.look_every))
        return sorted({*range(first, last, step), last})

    def tables(self, block: int) -> list[tuple[GameRef, list[Strategy], Setup, list[int | None]]]:
        """The games of a block: their reference, strategies by seat, set-up, and the entrant at each seat."""
        seed = block_seed(self.seed, block)
        games = []
        k = len(self.entrants)
        for rotation in range(self.seats):
            if self.opponents is None:
                by_seat: list[int | None] = [(seat + rotation) % k for seat in range(k)]
                strategies = [self.entrants[(seat + rotation) % k].strategy for seat in range(k)]
                games.append((GameRef(block, rotation, None, seed), strategies, self.setup, by_seat))
            else:
                for index, entrant in enumerate(self.entrants):
                    others = list(self.opponents)
                    strategies = [*others[:rotation], entrant.strategy, *others[rotation:]]
                    by_seat = [None] * self.seats
                    by_seat[rotation] = index
                    games.append(
                        (GameRef(block, rotation, index, seed), strategies, entrant.setup or self.setup, by_seat)
                    )
        return games


@dataclass(frozen=True, order=True)
class GameRef:
    """A game of a run: block, rotation, the entrant (against a field; None head to head) and its seed."""

    block: int
    rotation: int
    entrant: int | None
    seed: int


@dataclass
class Tally:
    """One entrant's sums (all whole numbers, so merging is exact)."""

    games: int = 0
    score: int = 0  # in twelfths of a win (SCORE_UNIT)
    wins: int = 0  # sole winner
    draws: int = 0  # a winner among several
    stopped: int = 0  # games stopped by rules.max_turns
    darc: int = 0
    darc_squares: int = 0
    turns: int = 0  # game lengths summed
    placings: Counter[int] = field(default_factory=Counter)  # battle place (1 = highest AT) -> battles

    def add(self, other: Tally) -> None:
        for name in ("games", "score", "wins", "draws", "stopped", "darc", "darc_squares", "turns"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.placings.update(other.placings)

    @property
    def win_rate(self) -> float:
        return self.score / SCORE_UNIT / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% Wilson interval of the win rate."""
        return wilson(self.score / SCORE_UNIT, self.games)

    @property
    def mean_darc(self) -> float:
        return self.darc / self.games if self.games else 0.0

    @property
    def mean_turns(self) -> float:
        return self.turns / self.games if self.games else 0.0


@dataclass
class PairSums:
    """Block differences of score (twelfths) between two entrants: count, sum and sum of squares."""

    blocks: int = 0
    total: int = 0
    squares: int = 0

    def add(self, other: PairSums) -> None:
        self.blocks += other.blocks
        self.total += other.total
        self.squares += other.squares

    def z(self) -> float:
        """The paired z statistic of the mean difference (0 when there is no spread and no difference)."""
        if self.blocks < 2:
            return 0.0
        mean = self.total / self.blocks
        variance = (self.squares - self.total * self.total / self.blocks) / (self.blocks - 1)
        if variance <= 0:
            return 0.0 if mean == 0 else math.copysign(math.inf, mean)
        return mean / math.sqrt(variance / self.blocks)

    def p_value(self) -> float:
        """Two-sided: of the paired z-test; when every block differs by the same non-zero amount (no spread, where
        z is infinite), of the exact sign test instead (all ``m`` blocks on one side: 2 / 2**m)."""
        z = self.z()
        if math.isinf(z):
            return min(1.0, 2 * 0.5**self.blocks)
        return two_sided_p(z)


@dataclass
class Result:
    """A run's results, or a chunk's: ``merge`` of disjoint chunks equals the run of all their blocks."""

    labels: tuple[str, ...]
    blocks: list[tuple[int, int]] = field(default_factory=list)  # the block ranges played, [start, stop)
    tallies: list[Tally] = field(default_factory=list)
    pairs: dict[tuple[int, int], PairSums] = field(default_factory=dict)
    lengths: Counter[int] = field(default_factory=Counter)  # game length -> games
    first_of_length: dict[int, GameRef] = field(default_factory=dict)
    stopped_early: bool = False  # set by run: the sequential test stopped it
    p_value: float | None = None  # set by run: the last look's p-value for the two leaders
    threshold: float | None = None  # set by run: the per-look level alpha / (L * P)

    def merge(self, other: Result) -> Result:
        if other.labels != self.labels:
            raise ValueError("results of different comparisons")
        ranges = sorted(self.blocks + other.blocks)
        for (_, stop), (start, _) in pairwise(ranges):
            if start < stop:
                raise ValueError("chunks overlap")
        merged = Result(self.labels, _join(ranges))
        merged.tallies = [Tally() for _ in self.labels]
        for result in (self, other):
            for mine, theirs in zip(merged.tallies, result.tallies, strict=False):
                mine.add(theirs)
            for pair, sums in result.pairs.items():
                merged.pairs.setdefault(pair, PairSums()).add(sums)
            merged.lengths.update(result.lengths)
            for length, ref in result.first_of_length.items():
                known = merged.first_of_length.get(length)
                merged.first_of_length[length] = ref if known is None else min(known, ref)
        merged.pairs = dict(sorted(merged.pairs.items()))
        merged.first_of_length = dict(sorted(merged.first_of_length.items()))
        return merged

    @property
    def block_count(self) -> int:
        return sum(stop - start for start, stop in self.blocks)

    def leaders(self) -> tuple[int, int]:
        """The two entrants with the highest scores (ties to the one listed first)."""
        order = sorted(range(len(self.labels)), key=lambda index: (-self.tallies[index].score, index))
        return order[0], order[1]

    def difference(self, first: int, second: int) -> PairSums:
        """The block differences ``first`` minus ``second``."""
        if first < second:
            return self.pairs[(first, second)]
        sums = self.pairs[(second, first)]
        return PairSums(sums.blocks, -sums.total, sums.squares)

    def length_percentile(self, q: float) -> int | None:
        """The nearest-rank ``q``-th percentile of the game lengths."""
        count = sum(self.lengths.values())
        if not count:
            return None
        rank = max(1, math.ceil(q / 100 * count))
        seen = 0
        for length in sorted(self.lengths):
            seen += self.lengths[length]
            if seen >= rank:
                return length
        return None  # pragma: no cover

    def samples(self) -> dict[int, GameRef]:
        """The games kept at the 10th, 50th and 90th percentile of game length."""
        found = {}
        for q in (10, 50, 90):
            length = self.length_percentile(q)
            if length is not None:
                found[q] = self.first_of_length[length]
        return found


def _join(ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    joined: list[tuple[int, int]] = []
    for start, stop in ranges:
        if joined and joined[-1][1] == start:
            joined[-1] = (joined[-1][0], stop)
        else:
            joined.append((start, stop))
    return joined


def _placings(scores: Sequence[int]) -> list[int]:
    """Competition ranking by AT: 1 + the seats with strictly more AT."""
    return [1 + sum(1 for other in scores if other > score) for score in scores]


def play_blocks(comparison: Comparison, start: int, stop: int) -> Result:
    """Plays blocks ``start`` to ``stop - 1`` of a comparison (a chunk)."""
    k = len(comparison.entrants)
    result = Result(tuple(entrant.label for entrant in comparison.entrants), [(start, stop)] if stop > start else [])
    result.tallies = [Tally() for _ in range(k)]
    result.pairs = {pair: PairSums() for pair in combinations(range(k), 2)}
    for block in range(start, stop):
        block_scores = [0] * k
        for ref, strategies, setup, by_seat in comparison.tables(block):
            game = Game(setup, strategies, ref.seed, comparison.rules, log_events=False)
            game.play_to_end()
            length = game.turn
            result.lengths[length] += 1
            if length not in result.first_of_length:
                result.first_of_length[length] = ref
            places = [_placings(scores) for scores in game.battle_scores]
            for seat, index in enumerate(by_seat):
                if index is None:
                    continue
                tally = result.tallies[index]
                player = game.players[seat]
                tally.games += 1
                if seat in game.winners:
                    share = SCORE_UNIT // len(game.winners)
                    tally.score += share
                    block_scores[index] += share
                    if len(game.winners) == 1:
                        tally.wins += 1
                    else:
                        tally.draws += 1
                tally.stopped += game.stopped
                tally.darc += player.darc
                tally.darc_squares += player.darc * player.darc
                tally.turns += length
                tally.placings.update(battle[seat] for battle in places)
        for (first, second), sums in result.pairs.items():
            d = block_scores[first] - block_scores[second]
            sums.add(PairSums(1, d, d * d))
    return result


def run(comparison: Comparison, *, chunk: int | None = None) -> Result:
    """Plays a comparison look by look (each look's blocks in chunks of ``chunk`` blocks, merged) and stops at
    the first look where the two leaders differ at the corrected level, or after ``comparison.games``."""
    looks = comparison.looks()
    pairs = len(comparison.entrants) * (len(comparison.entrants) - 1) // 2
    threshold = comparison.alpha / (len(looks) * pairs)
    result = play_blocks(comparison, 0, 0)
    done = 0
    for look in looks:
        step = chunk or (look - done)
        for start in range(done, look, step):
            result = result.merge(play_blocks(comparison, start, min(start + step, look)))
        done = look
        first, second = result.leaders()
        p_value = result.difference(first, second).p_value()
        result.p_value, result.threshold = p_value, threshold
        if comparison.sequential and p_value < threshold and look < looks[-1]:
            result.stopped_early = True
            break
    return result


def replay(comparison: Comparison, ref: GameRef, *, log_events: bool = True) -> Game:
    """The game ``ref`` names, set up again and not yet played: ``play_turn`` steps through it."""
    for candidate, strategies, setup, _ in comparison.tables(ref.block):
        if candidate == ref:
            return Game(setup, strategies, ref.seed, comparison.rules, log_events=log_events)
    raise ValueError(f"no game {ref} in this comparison")
