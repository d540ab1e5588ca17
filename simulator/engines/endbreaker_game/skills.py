"""Skills and costs (seed 000, 日常階段 2 [獲得卡片]).

「技能有力量P、技術T、精神S、酒B、萬能五種。萬能可以代表前面任１種。」
A skill or cost is a string of the symbols P, T, S, B and ● (萬能), as printed ("PPT", "●●").
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache

WILD = "●"
SPECIFIC = ("P", "T", "S", "B")
SYMBOLS = (*SPECIFIC, WILD)


def pool_of(skills: str) -> Counter[str]:
    return Counter(skills)


@lru_cache(maxsize=1024)
def _cost(cost: str) -> tuple[tuple[tuple[str, int], ...], int, int]:
    """A printed cost read once: its specific symbols with their counts (in ``SPECIFIC`` order), its ● and the
    number of its specific symbols."""
    need = Counter(cost)
    specific = tuple((symbol, need[symbol]) for symbol in SPECIFIC if need[symbol])
    return specific, need[WILD], sum(count for _, count in specific)


def pay(pool: Counter[str], cost: str) -> Counter[str] | None:
    """What is left of ``pool`` after paying ``cost``, or None when it cannot be paid.

    「消耗對應技能值就可獲得場中卡片。」 A printed symbol is paid by the same symbol or by ● (「萬能可以
    代表前面任１種」); a ● in a cost is paid by any one skill. Paying each printed symbol with its own kind
    first, then with ●, and each ● of the cost last with whatever remains, pays whenever any payment can.
    """
    specific, wild, _ = _cost(cost)
    left = Counter(pool)
    for symbol, wanted in specific:
        have = left[symbol]
        if have >= wanted:
            left[symbol] = have - wanted
        else:
            short = wanted - have
            if left[WILD] < short:
                return None
            left[symbol] = 0
            left[WILD] -= short
    if wild:
        if sum(left.values()) < wild:
            return None
        # Spend the specific skills before the ● (a ● left over is worth more).
        for symbol in (*SPECIFIC, WILD):
            take = min(wild, left[symbol])
            left[symbol] -= take
            wild -= take
    return +left


def can_pay(pool: Counter[str], cost: str) -> bool:
    """Whether ``pay(pool, cost)`` pays, without making what is left (the same rule, counted)."""
    specific, wild, specific_count = _cost(cost)
    spare_wild = pool.get(WILD, 0)
    for symbol, wanted in specific:
        short = wanted - pool.get(symbol, 0)
        if short > 0:
            spare_wild -= short
            if spare_wild < 0:
                return False
    return not wild or sum(pool.values()) - specific_count >= wild


# Counted skills ---------------------------------------------------------------------------------------------
# The engine's hot path: a pool or a cost as its count of each symbol, in ``SYMBOLS`` order (P, T, S, B, ●).
# A tuple of five numbers is hashed and compared in C, so the cards a pool pays for can be remembered per pool
# (``Game.choose_gain``). ``pay`` and ``can_pay`` above stay the readable reference; the tests hold these to it.

Counts = tuple[int, int, int, int, int]
NO_SKILLS: Counts = (0, 0, 0, 0, 0)


def counts_of(symbols: str) -> Counts:
    """A skill or cost string counted by symbol ("PP●" -> (2, 0, 0, 0, 1))."""
    return (symbols.count("P"), symbols.count("T"), symbols.count("S"), symbols.count("B"), symbols.count(WILD))


@lru_cache(maxsize=4096)
def cost_counts(cost: str) -> Counts:
    """``counts_of`` for a printed cost, read once (a game asks about the same few costs again and again)."""
    return counts_of(cost)


def can_pay_counts(pool: Counts, need: Counts) -> bool:
    """``can_pay`` on counts: each short specific symbol is paid by ●, and the cost's ● by whatever is left."""
    spare_wild = pool[4]
    for symbol in range(4):
        short = need[symbol] - pool[symbol]
        if short > 0:
            spare_wild -= short
            if spare_wild < 0:
                return False
    return not need[4] or sum(pool) - (need[0] + need[1] + need[2] + need[3]) >= need[4]


@lru_cache(maxsize=4096)  # a game pays from the same few pools for the same few costs again and again
def pay_counts(pool: Counts, need: Counts) -> Counts | None:
    """``pay`` on counts: what is left of ``pool`` after paying ``need`` (spent the same way), or None."""
    left = list(pool)
    for symbol in range(4):
        wanted = need[symbol]
        if left[symbol] >= wanted:
            left[symbol] -= wanted
        else:
            short = wanted - left[symbol]
            if left[4] < short:
                return None
            left[symbol] = 0
            left[4] -= short
    wild = need[4]
    if wild:
        if sum(left) < wild:
            return None
        # Spend the specific skills before the ● (a ● left over is worth more), as ``pay`` does.
        for symbol in range(5):
            take = min(wild, left[symbol])
            left[symbol] -= take
            wild -= take
    return (left[0], left[1], left[2], left[3], left[4])
