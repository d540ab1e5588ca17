"""Exact draw odds (plain Python): hypergeometric, with exact integer arithmetic.

``seen`` is how many cards of the deck a player has seen by a point of the game
(opening hand plus draws); ``simulator.core.cards_seen_by_turn`` gives it per turn
for a game's engine, honouring its opening hand, draws a turn and any skipped draw.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import product
from math import comb


def at_least_one(deck_size: int, copies: int, seen: int) -> Fraction:
    """P(at least one of ``copies`` copies among the first ``seen`` cards of a shuffled deck)."""
    seen = max(0, min(seen, deck_size))
    if copies <= 0:
        return Fraction(0)
    return 1 - Fraction(comb(deck_size - copies, seen), comb(deck_size, seen))


def at_least_one_by_turn(deck_size: int, copies: int, seen_by_turn: Sequence[int]) -> list[Fraction]:
    return [at_least_one(deck_size, copies, seen) for seen in seen_by_turn]


@dataclass(frozen=True)
class Group:
    """``copies`` cards in the deck (e.g. every copy of 林沖 and 關勝), of which ``needed`` are wanted."""

    copies: int
    needed: int


def at_least(deck_size: int, groups: Sequence[Group], seen: int) -> Fraction:
    """P(at least ``needed`` of every group among ``seen`` cards): the multivariate hypergeometric tail.

    Groups are disjoint sets of cards; the rest of the deck is every other card.
    """
    seen = max(0, min(seen, deck_size))
    rest = deck_size - sum(group.copies for group in groups)
    if rest < 0:
        raise ValueError("the groups hold more cards than the deck")
    ranges = [range(group.needed, min(group.copies, seen) + 1) for group in groups]
    favourable = 0
    for picks in product(*ranges):
        taken = sum(picks)
        if taken > seen:
            continue
        ways = comb(rest, seen - taken)
        for group, pick in zip(groups, picks, strict=True):
            ways *= comb(group.copies, pick)
        favourable += ways
    return Fraction(favourable, comb(deck_size, seen))
