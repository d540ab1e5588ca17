"""What one text-index query can say (plain Python): phrases combined with all-of, any-of and without.

A search query whose every part is a word, a phrase or a facet (game, kind,
language, a field's value, a known value) becomes one such expression, which
the database answers from its text index alone: SQLite FTS5 ``MATCH`` or
PostgreSQL ``@@ tsquery`` (rendered in ``cards.search.backends``). The index
holds every card's ``EVERY_CARD`` token, so "not X" is ``EVERY_CARD`` without X.
"""

from __future__ import annotations

from dataclasses import dataclass

from .tokens import EVERY_CARD_TOKEN, NO_CARD_TOKEN, Phrase


@dataclass(frozen=True)
class AllOf:
    members: tuple[Expression, ...]


@dataclass(frozen=True)
class AnyOf:
    members: tuple[Expression, ...]


@dataclass(frozen=True)
class Without:
    include: Expression
    exclude: Expression


Expression = Phrase | AllOf | AnyOf | Without

EVERY_CARD = Phrase((EVERY_CARD_TOKEN,))
NO_CARD = Phrase((NO_CARD_TOKEN,))


def _combined(kind: type[AllOf] | type[AnyOf], neutral: Phrase, absorbing: Phrase, expressions) -> Expression:
    """``kind`` of ``expressions``, flattened, without repeats or the neutral member; the absorbing one wins."""
    members: list[Expression] = []
    for expression in expressions:
        members.extend(expression.members if isinstance(expression, kind) else [expression])
    members = [member for member in dict.fromkeys(members) if member != neutral] or [neutral]
    if absorbing in members:
        return absorbing
    return members[0] if len(members) == 1 else kind(tuple(members))


def all_of(*expressions: Expression) -> Expression:
    return _combined(AllOf, EVERY_CARD, NO_CARD, expressions)


def any_of(*expressions: Expression) -> Expression:
    return _combined(AnyOf, NO_CARD, EVERY_CARD, expressions)


def without(include: Expression, exclude: Expression) -> Expression:
    if exclude == NO_CARD:
        return include
    if exclude == EVERY_CARD or include == NO_CARD:
        return NO_CARD
    return Without(include, exclude)
