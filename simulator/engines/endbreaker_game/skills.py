"""Skills and costs (seed 000, 日常階段 2 [獲得卡片]).

「技能有力量P、技術T、精神S、酒B、萬能五種。萬能可以代表前面任１種。」
A skill or cost is a string of the symbols P, T, S, B and ● (萬能), as printed ("PPT", "●●").
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from typing import Final

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
# The engine's hot path: a pool or a cost as its count of each symbol packed into one whole number, twelve bits a
# symbol in ``SYMBOLS`` order (P in the lowest bits, ● in the highest; 60 bits in all). Compiled, such a number is
# a machine word:
# hashed, compared and taken apart without an object, so the cards a pool pays for are remembered per pool
# (``Game.choose_gain``) and a payment is a few shifts. ``pay`` and ``can_pay`` above stay the readable
# reference; the tests hold these to it.

# ``Final``: compiled, each use is the number itself rather than a look-up in the module's globals.
Counts = int
COUNT_BITS: Final = 12
COUNT_MAX: Final = 4095  # (1 << COUNT_BITS) - 1: the most of one symbol a pool or cost can hold
_WILD_SHIFT: Final = 48  # 4 * COUNT_BITS: ● after the four specific symbols
_SPECIFIC_MASK: Final = 0xFFFFFFFFFFFF  # (1 << _WILD_SHIFT) - 1
# The most of one symbol any string counted so far holds (``counts_of``): a sum of ``COUNT_MAX // LARGEST[0]``
# counts cannot carry into the next symbol (``Game.skill_counts``). A list, so that compiled code reads it
# without a look-up in the module's globals.
LARGEST: Final = [1]


def counts_of(symbols: str) -> Counts:
    """A skill or cost string counted by symbol ("PP●" -> 2 P and 1 ●, ``count``)."""
    packed = 0
    for place, symbol in enumerate(SYMBOLS):
        number = symbols.count(symbol)
        if number > COUNT_MAX:
            raise ValueError(f"more than {COUNT_MAX} {symbol} in one pool of skills ({len(symbols)} symbols)")
        if number > LARGEST[0]:
            LARGEST[0] = number
        packed |= number << (place * COUNT_BITS)
    return packed


def total(counts: Counts) -> int:
    """Every symbol of ``counts`` (● counted once)."""
    found = 0
    while counts:
        found += counts & COUNT_MAX
        counts >>= COUNT_BITS
    return found


_COUNTED: Final[dict[str, Counts]] = {}
_MAX_COUNTED: Final = 100_000  # a bound, never reached in practice (the skills and costs of a few set-ups)


def counted(symbols: str) -> Counts:
    """``counts_of``, remembered per string (a game counts the same few fields and costs again and again)."""
    found = _COUNTED.get(symbols)
    if found is None:
        if len(_COUNTED) >= _MAX_COUNTED:
            _COUNTED.clear()
        found = _COUNTED[symbols] = counts_of(symbols)
    return found


def cost_counts(cost: str) -> Counts:
    """``counts_of`` for a printed cost, read once."""
    return counted(cost)


def can_pay_counts(pool: Counts, need: Counts) -> bool:
    """``can_pay`` on counts: each short specific symbol is paid by ●, and the cost's ● by whatever is left."""
    spare_wild = pool >> _WILD_SHIFT
    for shift in range(0, _WILD_SHIFT, COUNT_BITS):
        short = ((need >> shift) & COUNT_MAX) - ((pool >> shift) & COUNT_MAX)
        if short > 0:
            spare_wild -= short
            if spare_wild < 0:
                return False
    wild = need >> _WILD_SHIFT
    return not wild or total(pool) - total(need & _SPECIFIC_MASK) >= wild


def pay_counts(pool: Counts, need: Counts) -> Counts | None:
    """``pay`` on counts: what is left of ``pool`` after paying ``need`` (spent the same way), or None."""
    left_wild = pool >> _WILD_SHIFT
    left = pool & _SPECIFIC_MASK
    specific = need & _SPECIFIC_MASK
    shift = 0
    while specific:  # the cost's specific symbols, P first
        wanted = specific & COUNT_MAX
        if wanted:
            have = (left >> shift) & COUNT_MAX
            if have >= wanted:
                left -= wanted << shift
            else:
                short = wanted - have
                if left_wild < short:
                    return None
                left -= have << shift
                left_wild -= short
        specific >>= COUNT_BITS
        shift += COUNT_BITS
    wild = need >> _WILD_SHIFT
    if wild:
        if total(left) + left_wild < wild:
            return None
        # Spend the specific skills before the ● (a ● left over is worth more), as ``pay`` does.
        for shift in range(0, _WILD_SHIFT, COUNT_BITS):
            take = min(wild, (left >> shift) & COUNT_MAX)
            left -= take << shift
            wild -= take
        left_wild -= wild
    return left | (left_wild << _WILD_SHIFT)
