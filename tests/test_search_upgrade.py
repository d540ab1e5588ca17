"""A database made before search documents had positions and facets finds its cards after migrating."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from cards import selectors
from cards.search.selectors import prepare_search

BEFORE = ("cards", "0005_term_text_updated_at")
AFTER = ("cards", "0006_search_position_and_facets")


@pytest.mark.django_db(transaction=True)
def test_an_upgraded_database_finds_its_cards_by_text_and_by_filter(executor):
    executor.migrate([BEFORE])
    old = executor.loader.project_state([BEFORE]).apps
    game, _ = old.get_model("cards", "Game").objects.get_or_create(slug="endbreaker")
    Card = old.get_model("cards", "Card")
    for number, at in [("EB9-002", 5), ("EB9-001", 1)]:
        card = Card.objects.create(
            game=game, key=number, number=number, kind="ability", fields={"at": at}, sort_key=f"0{number}"
        )
        old.get_model("cards", "CardText").objects.create(
            card=card, language="ja", name="テスト札", text="ゾルバリオン"
        )
        old.get_model("cards", "SearchDocument").objects.create(card=card, document="written by an older version")

    after = MigrationExecutor(connection)
    after.migrate([AFTER])
    documents = after.loader.project_state([AFTER]).apps.get_model("cards", "SearchDocument").objects
    assert not documents.filter(document="written by an older version").exists()  # the migration rebuilt them
    # the code of today reads the schema of today: the later migrations too
    latest = MigrationExecutor(connection)
    latest.migrate(latest.loader.graph.leaf_nodes())

    def page(query: str) -> list[str]:
        outcome = prepare_search(query, "ja")
        assert outcome.error is None
        return [card.key for card in selectors.SearchPaginator(outcome, 10).get_page(1).object_list]

    assert page("ゾルバリオン") == ["EB9-001", "EB9-002"]
    assert page("ぞるばりおん at>=3") == ["EB9-002"]
    assert page("kind:ability -at:5") == ["EB9-001"]
