"""The text-index query of each database: one function per vendor, chosen by ``connection.vendor``."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from django.db import connection

from .tokens import Phrase

SqlWithParams = tuple[str, tuple]


def _fts5_match(phrases: Sequence[Phrase]) -> SqlWithParams:
    parts = [f"{phrase.tokens[0]}*" if phrase.prefix else '"' + " ".join(phrase.tokens) + '"' for phrase in phrases]
    return "SELECT rowid AS match_id FROM cards_search_fts WHERE cards_search_fts MATCH %s", (" OR ".join(parts),)


def _tsquery_match(phrases: Sequence[Phrase]) -> SqlWithParams:
    parts = [
        f"{phrase.tokens[0]}:*" if phrase.prefix else "(" + " <-> ".join(phrase.tokens) + ")" for phrase in phrases
    ]
    sql = "SELECT card_id AS match_id FROM cards_searchdocument WHERE vector @@ to_tsquery('simple', %s)"
    return sql, (" | ".join(parts),)


_MATCHERS: dict[str, Callable[[Sequence[Phrase]], SqlWithParams]] = {
    "sqlite": _fts5_match,
    "postgresql": _tsquery_match,
}


def cards_matching(phrases: Sequence[Phrase]) -> SqlWithParams:
    """A SELECT of the ids of cards whose index holds any of ``phrases``."""
    return _MATCHERS[connection.vendor](phrases)


# Walking the sort index to fill a page of 50 costs about 50 * total / matches tests;
# fetching and sorting the matches costs about `matches`. The break-even is near
# sqrt(50 * total); below a floor the plain plan always wins. PostgreSQL's planner
# makes this choice itself.
_WALK_FLOOR = 1000


def walk_in_order(matches: int, total: int, floor: int | None = None) -> bool:
    """Whether the first page should walk the cards in order rather than sort the matches (SQLite)."""
    floor = _WALK_FLOOR if floor is None else floor
    return connection.vendor == "sqlite" and matches > max(floor, (50 * total) ** 0.5)
