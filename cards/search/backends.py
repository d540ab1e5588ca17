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

from cardsite.db import prepared_cursor

from .matching import AllOf, AnyOf, Expression, Without
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

    def render(self, expression: Expression, unordered: frozenset[Phrase] = frozenset()) -> str:
        """The query text (tokens are lower-case ASCII letters, so they need no escaping).

        A phrase of ``unordered`` asks only for all of its tokens, in any order and place."""
        if isinstance(expression, Phrase):
            if expression.prefix:
                return self.prefix.format(expression.tokens[0])
            if expression in unordered:
                return "(" + self.and_.join(expression.tokens) + ")"
            return self.phrase.format(self.phrase_separator.join(expression.tokens))
        if isinstance(expression, AllOf | AnyOf):
            joiner = self.and_ if isinstance(expression, AllOf) else self.or_
            return "(" + joiner.join(self.render(member, unordered) for member in expression.members) + ")"
        include, exclude = self.render(expression.include, unordered), self.render(expression.exclude, unordered)
        return self.without.format(include=include, exclude=exclude)


FTS5 = QuerySyntax(" ", '"{}"', "{}*", " AND ", " OR ", "({include} NOT {exclude})")
TSQUERY = QuerySyntax(" <-> ", "({})", "{}:*", " & ", " | ", "({include} & !{exclude})")


def required_phrases(expression: Expression) -> list[Phrase]:
    """The phrases every match of ``expression`` has (those not under an any-of or an exclusion)."""
    if isinstance(expression, Phrase):
        return [expression]
    if isinstance(expression, AllOf):
        return [phrase for member in expression.members for phrase in required_phrases(member)]
    if isinstance(expression, Without):
        return required_phrases(expression.include)
    return []


def _fts5_condition(expression: Expression) -> SqlWithParams:
    return "cards_search_fts MATCH %s", (FTS5.render(expression),)


def _tsquery_condition(
    expression: Expression, query: str = "to_tsquery('simple', %s)", exclusions_apart: bool = False
) -> SqlWithParams:
    """``vector @@ tsquery``; each required phrase with a needle asks GIN for its tokens and tests the needle.

    A phrase in a tsquery makes GIN recheck every candidate's positions, reading its whole vector out of
    TOAST; the needle is tested on ``phrase_text``, kept in the row. Where such a phrase also appears under
    an any-of or an exclusion, asking there for its tokens alone changes nothing: every card tested has it.

    ``exclusions_apart``: exclusions are tested as keys of their own (``_gin_keys``), for a statement that reads
    the GIN index. Not for one that may walk the cards and test each: every key reads the vector out of TOAST.
    """
    needled = list(dict.fromkeys(phrase for phrase in required_phrases(expression) if phrase.needle))
    unordered = frozenset(needled)
    keys = _gin_keys(expression, unordered) if exclusions_apart else [TSQUERY.render(expression, unordered)]
    condition = " AND ".join([f"vector @@ {query}"] * len(keys)) + " AND strpos(phrase_text, %s) > 0" * len(needled)
    return condition, (*keys, *(phrase.needle for phrase in needled))


def _gin_keys(expression: Expression, unordered: frozenset[Phrase]) -> list[str]:
    """The tsqueries a document must match, each a ``vector @@`` of its own: a key of one GIN scan.

    An exclusion is a key of its own. GIN finds its candidates from the tokens a match must hold, the
    fewest first, until without them no document could match; a token a match must lack but that is rarer
    than those would join them, and every document holding it would be tested. A key that only excludes
    is not used to find candidates: it is tested on those the other keys find (PostgreSQL 13 on).
    """
    if isinstance(expression, Without):
        return [*_gin_keys(expression.include, unordered), "!" + TSQUERY.render(expression.exclude, unordered)]
    return [TSQUERY.render(expression, unordered)]


def _unseen_tsquery_condition(expression: Expression) -> SqlWithParams:
    """``_tsquery_condition`` with the query read in a sub-select, which the planner cannot look into.

    Every plan of a statement holding it, PostgreSQL's first ones made for the values given and its generic
    one, then estimates the same default share of matches (a few hundred) and reads the GIN index: its plan
    does not depend on the query, so the statement can be prepared, and needs no planner hints (with the
    query in sight, a common token made the planner scan the table and test every vector: a second).
    """
    return _tsquery_condition(expression, "(SELECT to_tsquery('simple', %s))", exclusions_apart=True)


@dataclass(frozen=True)
class TextIndex:
    """How one database answers an index expression.

    The statements hold ``{match}``, the condition a document matches the expression by (``condition``:
    its SQL and parameters, which take the place of ``{match}``'s first parameter below).
    """

    condition: Callable[[Expression], SqlWithParams]
    cards: str  # SELECT of matching card ids (column match_id)
    count: str
    # Card ids of a page in number order ({direction}: ASC or DESC); params: match, limit, offset.
    page: str
    # Count and page in one statement, for a database where each statement is a round trip
    # (None: count, then page). Its {match} is ``count_and_page_condition``'s, whose plan does not depend on
    # the expression: it is prepared. Params: match, the walk's floor and weight (``walk_bounds``), limit,
    # offset. Rows: (count, None, 1 when walking the cards in order pays, else 0), then, unless walking pays,
    # the page's (card id, position); when it pays, ``page`` gives the page.
    count_and_page: str | None = None
    count_and_page_condition: Callable[[Expression], SqlWithParams] | None = None
    walk_cost: float = 1.0  # testing one document while walking, against taking one match into a sort
    # Planner settings for the index's own queries, in force for the statement and reset after it.
    hints: tuple[str, ...] = ()
    reset_hints: tuple[str, ...] = ()
    after_rebuild: tuple[str, ...] = ()
    # For an expression of one token (``single_token``): its count, and count and page in one statement
    # (params: token, token; ``{limit}`` and ``{offset}`` are formatted in; rows as ``count_and_page``'s).
    # None: as any expression. They read primary keys only, so their plan never depends on the token: they are
    # prepared, planned once per connection (``cardsite.db.prepared_cursor``), and need no planner hints.
    # The page's limit and offset are written into the statement (a statement per page of results): a plan made
    # for a LIMIT it cannot see expects a tenth of the token's postings, costs the page's cards for all of them,
    # and loses to a fresh plan per token every time, so the statement was planned on every run.
    token_count: str | None = None
    token_count_and_page: str | None = None
    # Whether the documents hold every column's bigrams under the any-column code too (``cards.search.tokens``).
    any_column_pairs: bool = False
    # Whether the documents keep their ``phrase_text``, so that phrases may carry needles (``cards.search.tokens``).
    needles: bool = False


_FTS5_MATCH = "SELECT rowid FROM cards_search_fts WHERE {match}"
_TSQUERY_MATCH = "FROM cards_searchdocument WHERE {match}"

# The token of a one-token statement, read in a sub-select that the planner cannot look into: PostgreSQL's plans
# for the first tokens then cost what its generic plan costs, and it keeps that one, made once per connection.
# With the token in sight it kept planning each token afresh (as costly as running the statement), though the
# plan is the same for every token.
_UNSEEN_TOKEN = "(SELECT %s::text)"
# The documents holding a token: one row of cards.models.SearchTokenCount (none: no document holds it).
_TOKEN_COUNT = f"COALESCE((SELECT documents FROM cards_searchtokencount WHERE token = {_UNSEEN_TOKEN}), 0)"

_INDEXES: dict[str, TextIndex] = {
    "sqlite": TextIndex(
        condition=_fts5_condition,
        cards=f"SELECT d.card_id AS match_id FROM ({_FTS5_MATCH}) AS f"
        " JOIN cards_searchdocument AS d ON d.position = f.rowid",
        count=f"SELECT COUNT(*) FROM ({_FTS5_MATCH})",
        page=f"SELECT d.card_id FROM ({_FTS5_MATCH} ORDER BY rowid {{direction}} LIMIT %s OFFSET %s) AS p"
        " JOIN cards_searchdocument AS d ON d.position = p.rowid ORDER BY p.rowid {direction}",
        # FTS5 keeps deleted entries until its segments are merged.
        after_rebuild=("INSERT INTO cards_search_fts(cards_search_fts) VALUES ('optimize')",),
    ),
    "postgresql": TextIndex(
        condition=_tsquery_condition,
        cards=f"SELECT card_id AS match_id {_TSQUERY_MATCH}",
        count=f"SELECT COUNT(*) {_TSQUERY_MATCH}",
        page=f"SELECT card_id {_TSQUERY_MATCH} ORDER BY position {{direction}} LIMIT %s OFFSET %s",
        # The matches are read once, for the count and for sorting them. Unless walking the position index
        # and testing each document pays (many matches): that is a condition without columns, tested once
        # before the sort runs; the page is then read by ``page``, with the planner seeing the query.
        count_and_page=f"WITH matched AS MATERIALIZED (SELECT card_id, position {_TSQUERY_MATCH}),"
        " counted AS (SELECT COUNT(*) AS matches FROM matched),"
        " walk AS (SELECT matches > GREATEST(%s, sqrt(%s * GREATEST(reltuples, 0))) AS pays FROM counted, pg_class"
        " WHERE oid = 'cards_searchdocument'::regclass)"
        " SELECT matches, NULL::bigint, (SELECT pays FROM walk)::int::bigint FROM counted"
        " UNION ALL (SELECT NULL, card_id, position FROM matched WHERE NOT (SELECT pays FROM walk)"
        " ORDER BY position {direction} LIMIT %s::bigint OFFSET %s::bigint)",
        count_and_page_condition=_unseen_tsquery_condition,
        # Testing a document while walking reads its vector out of TOAST; taking a match into the
        # sort reads a row already fetched for the count (measured: about a hundred times cheaper).
        walk_cost=100.0,
        # The planner does not count reading each vector out of TOAST, so once most cards match it
        # scans the table and tests every vector (a second) instead of reading the GIN index (``page``).
        hints=("SET LOCAL enable_seqscan = off",),
        reset_hints=("RESET enable_seqscan",),
        after_rebuild=("ANALYZE cards_searchdocument", "ANALYZE cards_searchposting", "ANALYZE cards_searchtokencount"),
        # One token: its count (cards.models.SearchTokenCount) and its postings (SearchPosting) paged in the
        # primary key's order, without reading a document.
        # A term of two characters is then one token (the postings' fast path), a longer one one phrase.
        any_column_pairs=True,
        needles=True,
        token_count=f"SELECT {_TOKEN_COUNT}",
        token_count_and_page=f"SELECT {_TOKEN_COUNT}, NULL::bigint, NULL::bigint"
        " UNION ALL (SELECT NULL, d.card_id, p.position FROM (SELECT position FROM cards_searchposting"
        f" WHERE token = {_UNSEEN_TOKEN} ORDER BY position {{direction}} LIMIT {{limit:d}} OFFSET {{offset:d}}) AS p"
        " JOIN cards_searchdocument AS d ON d.position = p.position)",
    ),
}


def _index() -> TextIndex:
    return _INDEXES[connection.vendor]


def indexes_any_column_pairs() -> bool:
    """Whether this database's documents hold the any-column bigrams (``cards.search.tokens``)."""
    return _index().any_column_pairs


def indexes_needles() -> bool:
    """Whether this database's documents keep their ``phrase_text`` for phrases' needles (``cards.search.tokens``)."""
    return _index().needles


def _with_match(index: TextIndex, template: str, expression: Expression, **formats: str) -> tuple[str, tuple]:
    """``template`` with ``{match}`` (and ``formats``) filled in, and the match's parameters."""
    condition, params = index.condition(expression)
    return template.format(match=condition, **formats), params


def cards_matching(expression: Expression) -> SqlWithParams:
    """A SELECT of the ids of cards whose document matches ``expression``."""
    index = _index()
    return _with_match(index, index.cards, expression)


def _fetch(index: TextIndex, sql: str, params: tuple) -> list[tuple]:
    """The rows of ``sql`` with the index's planner hints in force, in one round trip.

    PostgreSQL runs the statements of one query string as one transaction, so SET LOCAL ends
    with them; inside a transaction of the caller's the RESET after them ends it. (This needs
    psycopg's client-side binding, Django's default: server-side binding takes one statement.)
    """
    with connection.cursor() as cursor:
        cursor.execute("; ".join([*index.hints, sql, *index.reset_hints]), params)
        for _hint in index.hints:
            cursor.nextset()
        return cursor.fetchall()


def fetch_id_sets(sql: str, params: tuple) -> list[tuple]:
    """The rows of a statement of another module that reads search id sets (``IdSet.sql``) in sub-selects, with
    the text index's planner hints in force, as the search's own statements have them (``_fetch``).

    Without them PostgreSQL scans a small game's documents and tests every vector, each read out of TOAST
    (1.8 ms for two id sets of 400 cards), where its GIN index answers in 0.1 ms: its estimate does not count
    those reads.
    """
    return _fetch(_index(), sql, params)


def _fetch_prepared(sql: str, params: tuple) -> list[tuple]:
    """The rows of ``sql``, a statement of one shape whatever its parameters, prepared where the database can."""
    with prepared_cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def single_token(expression: Expression) -> str | None:
    """The token, when ``expression`` asks for the cards having one token (not as a prefix); else None."""
    if isinstance(expression, Phrase) and len(expression.tokens) == 1 and not expression.prefix:
        return expression.tokens[0]
    return None


def count_matching(expression: Expression) -> int:
    index = _index()
    token = single_token(expression)
    if token is not None and index.token_count is not None:
        return _fetch_prepared(index.token_count, (token,))[0][0]
    return _fetch(index, *_with_match(index, index.count, expression))[0][0]


def page_matching(expression: Expression, offset: int, limit: int, descending: bool, matches: int) -> list[int]:
    """The ids of the ``matches`` matching cards from ``offset`` on, at most ``limit``, in number order."""
    index = _index()
    if index.count_and_page is not None:
        return count_and_page(expression, offset, limit, descending)[1]
    sql, params = _with_match(index, index.page, expression, direction="DESC" if descending else "ASC")
    return [row[0] for row in _fetch(index, sql, (*params, limit, offset))]


def count_and_page(expression: Expression, offset: int, limit: int, descending: bool) -> tuple[int, list[int]]:
    """How many cards match, and the ids of those from ``offset`` on (at most ``limit``) in number order."""
    matches, ids, _rows = count_page_and_rows(expression, offset, limit, descending)
    return matches, ids


@dataclass(frozen=True)
class CardRows:
    """The rows a page shows of each of its cards: ``columns`` of ``tables`` (a join tree, or one table),
    where ``card_id`` is the card's id, in ``order`` within a card."""

    columns: str
    tables: str
    card_id: str
    order: str


def count_page_and_rows(
    expression: Expression, offset: int, limit: int, descending: bool, card_rows: CardRows | None = None
) -> tuple[int, list[int], dict[int, list[tuple]] | None]:
    """``count_and_page``, and where the database reads them in the same statement, the rows of each card of the page.

    ``card_rows``: what to read of each card. Its rows come by card id, in ``card_rows.order`` (a card with none
    has an empty list), when count and page were one statement and the page was read with it: a round trip and a
    statement fewer on a database server. Else None.
    """
    index = _index()
    if index.count_and_page is None:
        matches = count_matching(expression)
        return matches, page_matching(expression, offset, limit, descending, matches), None
    direction = "DESC" if descending else "ASC"
    token = single_token(expression)
    if token is not None and index.token_count_and_page is not None:
        sql = index.token_count_and_page.format(direction=direction, limit=limit, offset=offset)
        params: tuple = (token, token)
    else:
        floor, weight = walk_bounds(offset + limit, index.walk_cost)
        condition = index.count_and_page_condition or index.condition
        match_sql, match = condition(expression)
        sql = index.count_and_page.format(match=match_sql, direction=direction)
        params = (*match, floor, weight, limit, offset)
    if card_rows is not None:
        # The page joined to its cards' rows; the count's row has no card and joins none. One join over the page,
        # not a sub-select run per card: that sorted and rescanned each card's rows apart (measured at 100,000
        # cards: 0.15-0.25 ms more per page). Sorted by card, so each card's rows come together, in order.
        sql = (
            f"SELECT page.*, {card_rows.columns} FROM ({sql}) AS page(matches, card, position)"
            f" LEFT JOIN ({card_rows.tables}) ON {card_rows.card_id} = page.card"
            f" ORDER BY page.card NULLS FIRST, {card_rows.order}"
        )
    rows = _fetch_prepared(sql, params)
    matches, _none, walks = next(row for row in rows if row[1] is None)[:3]
    if walks:
        sql, match = _with_match(index, index.page, expression, direction=direction)
        return matches, [row[0] for row in _fetch(index, sql, (*match, limit, offset))], None
    # The page's rows are in order; sorted again in case the database ran the statement's parts side by side.
    positions: dict[int, int] = {}
    of_card: dict[int, list[tuple]] = {}
    for row in rows:
        card = row[1]
        if card is not None:
            positions[card] = row[2]
            if card_rows is not None:
                found = of_card.setdefault(card, [])
                if row[3] is not None:  # else the card is gone, and the left join gave its NULLs
                    found.append(row[3:])
    page = sorted(positions, key=positions.__getitem__, reverse=descending)
    return matches, page, of_card if card_rows is not None else None


def optimize_text_index() -> None:
    """Bring the text index into shape after a rebuild (SQLite: merge; PostgreSQL: statistics)."""
    with connection.cursor() as cursor:
        for statement in _index().after_rebuild:
            cursor.execute(statement)


# Walking the cards in order to fill a window of w rows costs about cost * w * total / matches
# (a test per card passed); fetching and sorting the matches costs about `matches`. The
# break-even is near sqrt(cost * w * total); below a floor the sorting plan always wins.
_WALK_FLOOR = 1000


def walk_bounds(window: int, cost: float = 1.0) -> tuple[float, float]:
    """(floor, weight): walking to fill ``window`` rows pays when matches > max(floor, sqrt(weight * total))."""
    return _WALK_FLOOR, cost * window


def walk_pays(matches: int, window: int, total: int, floor: int | None = None, cost: float = 1.0) -> bool:
    """Whether filling the first ``window`` rows pays to walk the cards in order rather than sort the matches."""
    least, weight = walk_bounds(window, cost)
    return matches > max(least if floor is None else floor, (weight * max(total, 0)) ** 0.5)


def walk_in_order(matches: int, total: int, floor: int | None = None) -> bool:
    """Whether a first page of SQL-filtered cards should walk them in order (SQLite; PostgreSQL's planner decides)."""
    return connection.vendor == "sqlite" and walk_pays(matches, 50, total, floor)
