"""Skills and costs (seed 000, 日常階段 2 [獲得卡片]).

「技能有力量P、技術T、精神S、酒B、萬能五種。萬能可以代表前面任１種。」
A skill or cost is a string of the symbols P, T, S, B and ● (萬能), as printed ("PPT", "●●").
"""

from __future__ import annotations

from collections import Counter

WILD = "●"
SPECIFIC = ("P", "T", "S", "B")
SYMBOLS = (*SPECIFIC, WILD)


def pool_of(skills: str) -> Counter[str]:
    return Counter(skills)


def pay(pool: Counter[str], cost: str) -> Counter[str] | None:
    """What is left of ``pool`` after paying ``cost``, or None when it cannot be paid.

    「消耗對應技能值就可獲得場中卡片。」 A printed symbol is paid by the same symbol or by ● (「萬能可以
    代表前面任１種」); a ● in a cost is paid by any one skill. Paying each printed symbol with its own kind
    first, then with ●, and each ● of the cost last with whatever remains, pays whenever any payment can.
    """
    left = Counter(pool)
    need = Counter(cost)
    for symbol in SPECIFIC:
        wanted = need[symbol]
        own = min(wanted, left[symbol])
        left[symbol] -= own
        short = wanted - own
        if short:
            if left[WILD] < short:
                return None
            left[WILD] -= short
    wild = need[WILD]
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
    return pay(pool, cost) is not None
