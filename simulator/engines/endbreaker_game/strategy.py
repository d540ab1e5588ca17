"""Strategies as data (Dominiate / pyminion style): a name, a guarded gain priority, and the answers to the
choices the rules and the cards leave to the player. Whatever a strategy does not say falls back to a default.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Final, Literal

ANY_CARD: Final = "*"  # in a gain rule: the most expensive card the skills can pay for

# What a condition of a gain rule can look at besides the turn and the copies owned (the rule's own fields):
#   deck       cards the player owns (deck, hand, discard and field): the deck's size
#   skills     skill symbols the player's field offers this turn (● counted once)
#   darc       the player's ダルク, in units of 1000
#   darc_lead  the player's ダルク minus the most any other player has (solo: minus 0)
SUBJECTS = ("deck", "skills", "darc", "darc_lead")
OPERATORS = ("<", "<=", "=", ">=", ">")


@dataclass(frozen=True)
class Condition:
    """``subject operator value``, e.g. ``darc_lead < 0`` (behind in ダルク)."""

    subject: Literal["deck", "skills", "darc", "darc_lead"]
    operator: Literal["<", "<=", "=", ">=", ">"]
    value: int

    def holds(self, measured: int) -> bool:
        operator, value = self.operator, self.value
        if operator == "<":
            return measured < value
        if operator == "<=":
            return measured <= value
        if operator == "=":
            return measured == value
        if operator == ">=":
            return measured >= value
        return measured > value


@dataclass(frozen=True)
class GainRule:
    """Gain ``card`` (a card key, or ``ANY_CARD``) while its guards hold."""

    card: str
    min_turn: int = 0  # the player's own turn number (1 for their first turn)
    max_turn: int | None = None
    max_owned: int | None = None  # copies the player owns (deck, hand, discard and field)
    conditions: tuple[Condition, ...] = ()  # every one must hold


@dataclass(frozen=True)
class Strategy:
    name: str
    gain_priority: tuple[GainRule, ...] = ()
    # 「選擇獲得卡片或是解決事件（二選一）」: when to resolve the scenario pair rather than gain.
    resolve: Literal["always", "never", "if_nothing_to_gain"] = "always"
    # Cards played first, in this order; the others follow in the order they were drawn.
    play_order: tuple[str, ...] = ()
    # The answer to each 「してもよい」, by question (the card key); unlisted: the effect's default.
    answers: Mapping[str, bool] = field(default_factory=dict)
    # Where the thorn goes after a scenario (「將自己場上一張棘放置到場中一隻假面上」).
    thorn_target: Literal["most_thorns", "fewest_thorns"] = "most_thorns"

    def answer(self, question: str, default: bool) -> bool:
        return self.answers.get(question, default)


# Big money's counterpart: darc is the score, so resolve whenever the junction can be paid, and otherwise
# gain the most expensive card the skills pay for, as often as they do.
BIG_DARC = Strategy(
    name="big_darc",
    gain_priority=(GainRule(ANY_CARD),),
    resolve="always",
    play_order=("EB1-017", "EB1-021", "EB1-018"),
)

# Builds first: gains for its first turns and only then turns to scenarios.
BUILD_THEN_RESOLVE = Strategy(
    name="build_then_resolve",
    gain_priority=(GainRule(ANY_CARD),),
    resolve="if_nothing_to_gain",
    play_order=("EB1-017", "EB1-021", "EB1-018"),
)

DEFAULT_STRATEGY = BIG_DARC
