"""The one way to run a search: a query to a page of cards (``run_search``) or to the ids of the cards it finds
(``card_ids``, ``card_id_query``). Every caller (the search page, the API, the deck builder, the published-deck
filter, photo matching) comes through here.

Whatever stops a query comes out as one ``QueryError`` (an ``AppError``: the API's error handler answers it with
400 ``invalid_query``, a page shows its message): a syntax error where it is in the query, and a failure of the
run itself (a statement over the search's time limit, a pattern the database refuses) without a position. Every
statement that reads the matches runs under the search's time limit; an open transaction stays usable.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from django.conf import settings
from django.core.paginator import Paginator
from django.db import DatabaseError
from django.db.models import QuerySet
from django.db.models.expressions import RawSQL
from django.utils.translation import gettext_lazy

from cardsite.errors import AppError
from cardsite.types import SiteUser

from ..models import Card, Game
from ..selectors import SearchOutcome, SearchPaginator

SEARCH_PAGE_SIZE = 50

# The reasons of a failure of the run itself (a syntax error's reason is its code in ``messages.MESSAGES``).
TIMED_OUT = "statement_timeout"
REFUSED = "database_refused"

Rows = TypeVar("Rows")


class QueryError(AppError):
    """A query that cannot be run: ``reason`` says what is wrong (``unclosed_quote``, ``statement_timeout`` …),
    ``position`` where in ``query`` (None when the problem is not at a place in it), ``parameter`` which of the
    request's parameters holds it (``q``, or a filter's field)."""

    code = "invalid_query"
    status = 400

    def __init__(
        self,
        message: Any,
        *,
        query: str,
        reason: str | None,
        position: int | None = None,
        parameter: str = "q",
        params: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__(message, params=params, errors={parameter: [_Rendered(self)]})
        self.query = query
        self.reason = reason
        self.position = position
        self.parameter = parameter

    def extra(self) -> dict[str, Any]:
        return {"position": self.position, "query": self.query, "parameter": self.parameter, "reason": self.reason}


class _Rendered:
    """The error's message under its parameter, rendered when read (in the reader's language)."""

    def __init__(self, error: AppError) -> None:
        self.error = error

    def __str__(self) -> str:
        return self.error.message


@dataclass
class SearchPage(Generic[Rows]):
    """A page of what a query found: ``outcome`` (its order, the names it also searched, the terms to
    highlight), ``page`` (the paginator's page), ``rows`` (what the caller made of the page's cards)."""

    outcome: SearchOutcome
    page: Any
    rows: Rows


def prepare_search(
    query: str,
    ui_language: str,
    game: Game | None = None,
    order: str | None = None,
    direction: str | None = None,
    user: SiteUser | None = None,
) -> SearchOutcome:
    """Parse, check and compile ``query``; the cards come back unevaluated, or ``error`` points into the query.

    The first step of ``run_search`` and ``card_ids`` (callers use those, which run it under the time limit and
    raise ``QueryError``). ``order``/``direction`` (from a sort menu) override order:/direction: in the query;
    ``user`` is who searches (``owned:`` reads their collection; without one it is a query error).
    """
    from ..selectors import query_error_message
    from . import ast
    from .compiler import compile_query, ordered
    from .idsets import facet_matches, intersect
    from .parser import parse

    try:
        parsed = parse(query)
        if order or direction:
            display = ast.Display(
                order or parsed.display.order,
                direction or parsed.display.direction,
                0 if order else parsed.display.order_position,
            )
            parsed = ast.Query(parsed.root, display)
        compiled = compile_query(parsed, user=user)
    except ast.QuerySyntaxError as error:
        return SearchOutcome(
            query=query,
            error=query_error_message(error),
            error_position=error.position,
            error_code=error.code,
            error_params=dict(error.params),
        )
    ids = compiled.ids
    if game is not None:
        ids = intersect([ids, facet_matches("game", [game.slug])], [])
    ordered_cards = ordered(Card.objects.select_related("game").prefetch_related("texts"), compiled, ui_language)
    cards = ordered_cards if ids.everything else ordered_cards.filter(pk__in=RawSQL(ids.sql, ids.params))
    return SearchOutcome(
        query=query,
        cards=cards,
        ordered_cards=ordered_cards,
        ids=ids,
        order=compiled.order,
        descending=compiled.descending,
        also_searched=compiled.also_searched,
        highlight_terms=compiled.highlight_terms,
    )


def _compiled(query: str, language: str, parameter: str = "q", **options: Any) -> SearchOutcome:
    """``prepare_search``, its syntax error raised as ``QueryError``."""
    outcome = prepare_search(query, language, **options)
    if outcome.error is not None:
        from .messages import MESSAGES

        raise QueryError(
            gettext_lazy(MESSAGES[outcome.error_code]) if outcome.error_code in MESSAGES else outcome.error,
            query=query,
            reason=outcome.error_code,
            position=outcome.error_position,
            parameter=parameter,
            params=outcome.error_params,
        )
    return outcome


@contextmanager
def search_guard(query: str, parameter: str = "q") -> Iterator[None]:
    """Run a search's statements (counting, a page, its ids) under the search's time limit.

    A statement that runs too long is stopped, and a pattern the database rejects (PostgreSQL's dialect differs
    from RE2's) is refused: both become ``QueryError``; an open transaction stays usable.
    """
    from cardsite.db import StatementTimeout, savepoint_if_in_transaction, statement_time_limit

    try:
        with statement_time_limit(settings.SEARCH_STATEMENT_TIMEOUT), savepoint_if_in_transaction():
            yield
    except StatementTimeout as error:
        raise QueryError(
            gettext_lazy("This search took longer than %(seconds)s seconds and was stopped. Try a simpler query."),
            params={"seconds": f"{error.seconds:g}"},
            query=query,
            reason=TIMED_OUT,
            parameter=parameter,
        ) from None
    except DatabaseError:
        raise QueryError(
            gettext_lazy("The database could not run this search."), query=query, reason=REFUSED, parameter=parameter
        ) from None


def run_search(
    query: str,
    language: str,
    *,
    game: Game | None = None,
    user: SiteUser | None = None,
    order: str | None = None,
    direction: str | None = None,
    page: Any = 1,
    per_page: int = SEARCH_PAGE_SIZE,
    narrow: Callable[[QuerySet[Card]], QuerySet[Card]] | None = None,
    paginate: Callable[[SearchOutcome], Any] | None = None,
    rows: Callable[[Any], Rows] = list,  # type: ignore[assignment]  # list: the page's cards as they are
) -> SearchPage[Rows]:
    """Run ``query`` to one page of the cards it finds (of ``game``, if given), or raise ``QueryError``.

    ``narrow`` filters the found cards further (the builder's kind); ``paginate`` replaces the page
    (``page``/``per_page``) with the caller's own paginator (the API's); ``rows`` makes what the caller shows of
    the page's cards. All three run under the search's time limit, where any statement that reads the matches is.
    """
    outcome = _compiled(query, language, game=game, user=user, order=order, direction=direction)
    assert outcome.cards is not None  # only an error has no cards
    with search_guard(query):
        if paginate is not None:
            found = paginate(outcome)
        elif narrow is not None:
            # Narrowed, the id sets no longer count the cards: the narrowed cards are counted themselves.
            found = Paginator(narrow(outcome.cards), per_page).get_page(page)
        else:
            found = SearchPaginator(outcome, per_page).get_page(page)
        made = rows(found)
    return SearchPage(outcome=outcome, page=found, rows=made)


def card_ids(
    queries: Mapping[str, str], language: str, *, game: Game | None = None, limit: int
) -> dict[str, list[int] | None]:
    """The ids of the cards (of ``game``) each named query finds, at most ``limit`` each: None where it finds
    more (``card_id_query`` gives those as a subquery). Every query is checked first (an error names its name,
    as ``QueryError.parameter``); the id sets are then read in one statement, each as the text index answers it.
    """
    from .backends import fetch_id_sets

    outcomes = {name: _compiled(query, language, parameter=name, game=game) for name, query in queries.items()}
    found: dict[str, list[int]] = {name: [] for name in outcomes}
    parts, params = [], []
    everything = [name for name, outcome in outcomes.items() if outcome.ids is None or outcome.ids.everything]
    for number, (name, outcome) in enumerate(outcomes.items()):
        if name not in everything:  # the search's own id set, read as it is (not the cards themselves)
            # DISTINCT only where a set may hold an id twice: to sort for it, PostgreSQL would walk the documents'
            # primary key and test each document, rather than ask the text index for its matches.
            distinct = "" if outcome.ids.distinct else "DISTINCT "
            parts.append(
                f"SELECT * FROM (SELECT {distinct}{number} AS field, match_id FROM ({outcome.ids.sql}) AS m{number} "
                f"LIMIT {int(limit) + 1}) AS p{number}"
            )
            params.extend(outcome.ids.params)
    names = list(outcomes)
    with search_guard(queries[names[0]] if names else "", names[0] if names else "q"):
        if parts:
            for number, card_id in fetch_id_sets(" UNION ALL ".join(parts), tuple(params)):
                found[names[number]].append(card_id)
        for name in everything:
            cards = Card.objects.filter(game=game) if game is not None else Card.objects.all()
            found[name] = list(cards.values_list("pk", flat=True)[: limit + 1])
    return {name: ids if len(ids) <= limit else None for name, ids in found.items()}


def card_id_query(query: str, language: str, *, game: Game | None = None) -> QuerySet[Card]:
    """The ids of the cards (of ``game``) ``query`` finds, as an unevaluated subquery (``pk__in=``) for a
    statement of the caller's; run that statement under ``search_guard``."""
    outcome = _compiled(query, language, game=game)
    assert outcome.cards is not None
    return outcome.cards.order_by().values("pk")


__all__ = [
    "QueryError",
    "SearchPage",
    "card_id_query",
    "card_ids",
    "prepare_search",
    "run_search",
    "search_guard",
]
