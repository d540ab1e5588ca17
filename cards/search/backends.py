"""The text-index queries of each database: one set of functions per vendor, chosen by ``connection.vendor``.

Every card's search document has a ``position``: its place in number order
(``Card.sort_key``, then id), with gaps (``cards.search.indexing``). SQLite's FTS5
table uses the position as its rowid, so the matches come out of the index in
number order and the first page of a query stops after a page however many
cards match; PostgreSQL orders by the indexed position column.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.db import connection

from .matching import AllOf, AnyOf, Expression
from .tokens import Phrase

SqlWithParams = tuple[str, tuple]


@dataclass(frozen=True)
class QuerySyntax:
    """How a database's text query language spells phrases, prefixes, and, or and not."""

    phrase_separator: str
    phrase: str  # format of a phrase of several tokens
    prefix: str  # format of a token that also matches as a prefix
    and_: str
    or_: str
    without: str  # format with {include} and {exclude}

    def render(self, expression: Expression) -> str:
        """The query text (tokens are lower-case ASCII letters, so they need no escaping)."""
        if isinstance(expression, Phrase):
            if expression.prefix:
                return self.prefix.format(expression.tokens[0])
            return self.phrase.format(self.phrase_separator.join(expression.tokens))
        if isinstance(expression, AllOf | AnyOf):
            joiner = self.and_ if isinstance(expression, AllOf) else self.or_
            return "(" + joiner.join(map(self.render, expression.members)) + ")"
        return self.without.format(include=self.render(expression.include), exclude=self.render(expression.exclude))


FTS5 = QuerySyntax(" ", '"{}"', "{}*", " AND ", " OR ", "({include} NOT {exclude})")
TSQUERY = QuerySyntax(" <-> ", "({})", "{}:*", " & ", " | ", "({include} & !{exclude})")


@dataclass(frozen=True)
class TextIndex:
    """How one database answers an index expression."""

    render: Callable[[Expression], str]
    cards: str  # SELECT of matching card ids (column match_id)
    count: str
    page_ascending: str  # card ids of a page in number order; params: expression, limit, offset
    page_descending: str


_FTS5_MATCH = "SELECT rowid FROM cards_search_fts WHERE cards_search_fts MATCH %s"
_FTS5_PAGE = (
    f"SELECT d.card_id FROM ({_FTS5_MATCH} ORDER BY rowid {{direction}} LIMIT %s OFFSET %s) AS p"
    " JOIN cards_searchdocument AS d ON d.position = p.rowid ORDER BY p.rowid {direction}"
)
_TSQUERY_MATCH = "FROM cards_searchdocument WHERE vector @@ to_tsquery('simple', %s)"

_INDEXES: dict[str, TextIndex] = {
    "sqlite": TextIndex(
        render=FTS5.render,
        cards=f"SELECT d.card_id AS match_id FROM ({_FTS5_MATCH}) AS f"
        " JOIN cards_searchdocument AS d ON d.position = f.rowid",
        count=f"SELECT COUNT(*) FROM ({_FTS5_MATCH})",
        page_ascending=_FTS5_PAGE.format(direction="ASC"),
        page_descending=_FTS5_PAGE.format(direction="DESC"),
    ),
    "postgresql": TextIndex(
        render=TSQUERY.render,
        cards=f"SELECT card_id AS match_id {_TSQUERY_MATCH}",
        count=f"SELECT COUNT(*) {_TSQUERY_MATCH}",
        page_ascending=f"SELECT card_id {_TSQUERY_MATCH} ORDER BY position ASC LIMIT %s OFFSET %s",
        page_descending=f"SELECT card_id {_TSQUERY_MATCH} ORDER BY position DESC LIMIT %s OFFSET %s",
    ),
}


def _index() -> TextIndex:
    return _INDEXES[connection.vendor]


def cards_matching(expression: Expression) -> SqlWithParams:
    """A SELECT of the ids of cards whose document matches ``expression``."""
    index = _index()
    return index.cards, (index.render(expression),)


def count_matching(expression: Expression) -> int:
    index = _index()
    with connection.cursor() as cursor:
        cursor.execute(index.count, (index.render(expression),))
        return cursor.fetchone()[0]


def page_matching(expression: Expression, offset: int, limit: int, descending: bool = False) -> list[int]:
    """The ids of the matching cards from ``offset`` on, at most ``limit``, in number order."""
    index = _index()
    sql = index.page_descending if descending else index.page_ascending
    with connection.cursor() as cursor:
        cursor.execute(sql, (index.render(expression), limit, offset))
        return [row[0] for row in cursor.fetchall()]


def optimize_text_index() -> None:
    """Merge the text index after a rebuild (SQLite: FTS5 keeps deleted entries until merged)."""
    if connection.vendor == "sqlite":
        with connection.cursor() as cursor:
            cursor.execute("INSERT INTO cards_search_fts(cards_search_fts) VALUES ('optimize')")


# Walking the sort index to fill a page of 50 costs about 50 * total / matches tests;
# fetching and sorting the matches costs about `matches`. The break-even is near
# sqrt(50 * total); below a floor the plain plan always wins. PostgreSQL's planner
# makes this choice itself.
_WALK_FLOOR = 1000


def walk_in_order(matches: int, total: int, floor: int | None = None) -> bool:
    """Whether the first page should walk the cards in order rather than sort the matches (SQLite)."""
    floor = _WALK_FLOOR if floor is None else floor
    return connection.vendor == "sqlite" and matches > max(floor, (50 * total) ** 0.5)
