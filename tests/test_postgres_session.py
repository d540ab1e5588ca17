"""What every PostgreSQL connection of the site runs under (``cardsite.settings``).

No statement is JIT-compiled: a search with an exclusion is estimated, on any number of cards, as if it scanned
the whole text index, and PostgreSQL's default would spend a quarter of a second compiling a count that runs
in milliseconds.
"""

from __future__ import annotations

import pytest
from django.db import connection

from cards import selectors
from cards.search.selectors import prepare_search

postgres_only = pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's session settings")


@postgres_only
@pytest.mark.django_db
@pytest.mark.usefixtures("synthetic_cards")
def test_a_search_sorted_by_name_with_an_exclusion_is_not_jit_compiled(monkeypatch):
    from cards.search import backends

    statements: list[tuple[str, tuple]] = []
    fetch = backends._fetch
    monkeypatch.setattr(
        backends, "_fetch", lambda index, sql, params: statements.append((sql, params)) or fetch(index, sql, params)
    )
    outcome = prepare_search("-kind:job order:name", "ja")
    assert outcome.error is None
    paginator = selectors.SearchPaginator(outcome, 5)
    shown = len(paginator.get_page(1).object_list)
    assert paginator.count > shown > 0  # the count and a page of the cards it found
    assert statements, "the count reads the text index with its planner hints"
    for sql, params in statements:
        hints, body = [], []
        for part in sql.split("; "):
            (hints if part.startswith("SET LOCAL") else body if not part.startswith("RESET") else []).append(part)
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL jit = on")
            cursor.execute("SELECT pg_jit_available()")  # false while jit is off
            if not cursor.fetchone()[0]:
                pytest.skip("this PostgreSQL server was built without JIT")
            # The statement as the search ran it (its planner hints in force; the test's transaction ends them),
            # with the cost a real table gives such a statement: every threshold of PostgreSQL's JIT is passed.
            thresholds = ("jit_above_cost", "jit_inline_above_cost", "jit_optimize_above_cost")
            for setting in (*hints, *(f"SET LOCAL {threshold} = 0" for threshold in thresholds)):
                cursor.execute(setting)
            explained = []
            for jit in ("DEFAULT", "on"):  # the site's, then PostgreSQL's default, to show the check can fail
                cursor.execute(f"SET LOCAL jit = {jit}")
                cursor.execute("EXPLAIN (FORMAT JSON) " + body[0], params)
                explained.append("JIT" in cursor.fetchone()[0][0])
        assert explained == [False, True], body[0]
