"""Every search runs through one entry point (``cards.search.selectors``) and fails with one error (``QueryError``):
a query the database stops or refuses reaches the API in the same shape as a syntax error, and the pages and
photo matching report it rather than failing."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from django.db import DatabaseError, connection

from cards.models import Game
from cardsite.db import StatementTimeout

ROOT = Path(__file__).resolve().parent.parent
APPS = sorted(path.parent for path in ROOT.glob("*/apps.py"))

# Names that belong to the inside of a search: parsing, compiling, the raw id sets and their time limit.
INSIDE = re.compile(
    r"\b(SearchFailed|search_cards|prepare_search|search_guard|read_id_sets|fetch_id_sets|compile_query)\b"
    r"|search\.parser\b|from \.parser import"
)
# A search's id sets as SQL: read only by the cards app (its search paginator counts them), composed by no other.
ID_SET_SQL = re.compile(r"\.ids\.(sql|params)\b|\bUNION ALL\b")


def _sources() -> Iterator[Path]:
    for app in APPS:
        for path in app.rglob("*.py"):
            if (ROOT / "cards" / "search") not in path.parents:
                yield path


def test_no_module_outside_the_search_parses_queries_or_reads_their_id_sets():
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in _sources()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if INSIDE.search(line) or (ID_SET_SQL.search(line) and ROOT / "cards" not in path.parents)
    ]
    assert not found, "run searches through cards.search.selectors (run_search, card_ids):\n" + "\n".join(found)


@pytest.mark.parametrize("app", ["cards", "decks", "community", "readings"])
def test_each_app_that_searches_calls_the_entry_point(app):
    """The search page and API (cards), the builder (decks), the published-deck filter (community) and photo
    matching (readings) all search; each does it through the one entry point."""
    callers = [
        path
        for path in (ROOT / app).rglob("*.py")
        if (ROOT / "cards" / "search") not in path.parents
        and re.search(r"search\.selectors import|from \.search import selectors", path.read_text(encoding="utf-8"))
    ]
    assert callers


@contextmanager
def searching_fails(error: Exception) -> Iterator[None]:
    """Every statement that reads the text index fails with ``error`` (as a statement over its time limit, or
    one the database refuses, would)."""

    def failing(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        if "cards_search" in sql:
            raise error
        return execute(sql, params, many, context)

    with connection.execute_wrapper(failing):
        yield


SHAPE = {"detail", "code", "errors", "position", "query", "parameter", "reason"}


@pytest.mark.usefixtures("synthetic_cards")
@pytest.mark.parametrize(
    ("error", "reason"),
    [(StatementTimeout(0.2), "statement_timeout"), (DatabaseError("refused"), "database_refused")],
)
def test_a_failed_run_reaches_the_api_in_the_shape_of_a_syntax_error(client, error, reason):
    syntax = client.get("/api/cards/", {"q": "foo:1"}, HTTP_ACCEPT_LANGUAGE="en")
    assert syntax.status_code == 400
    with searching_fails(error):
        failed = client.get("/api/cards/", {"q": "テスト"}, HTTP_ACCEPT_LANGUAGE="ja")
    assert failed.status_code == 400
    body, expected = failed.json(), syntax.json()
    assert set(body) == set(expected) == SHAPE
    assert body["code"] == expected["code"] == "invalid_query"
    assert body["parameter"] == "q" and body["query"] == "テスト"
    assert body["errors"] == {"q": [body["detail"]]}
    # What went wrong, for programs, and where: a failure of the run is at no place in the query.
    assert expected["reason"] == "unknown_field" and expected["position"] == 0
    assert body["reason"] == reason and body["position"] is None
    # In the reader's language.
    assert "検索" in body["detail"]
    assert Game.objects.exists()  # the connection is usable


@pytest.mark.usefixtures("synthetic_cards")
def test_a_failed_run_is_shown_on_the_search_page(client):
    with searching_fails(StatementTimeout(0.2)):
        page = client.get("/search/", {"q": "テスト"}, HTTP_ACCEPT_LANGUAGE="en")
    assert page.status_code == 200
    assert "took longer than 0.2 seconds" in page.content.decode()


@pytest.mark.usefixtures("synthetic_cards")
def test_photo_matching_treats_a_search_the_database_refuses_as_no_match():
    from readings.services import match_card

    game = Game.objects.get(slug="suikoden")
    proposals = [SimpleNamespace(field="number", value="901"), SimpleNamespace(field="name", value="テスト")]
    with searching_fails(DatabaseError("refused")):
        assert match_card(game, proposals, ui_language="ja") == (None, "")
    assert Game.objects.exists()
