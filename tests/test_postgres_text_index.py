"""PostgreSQL's text index as a game of a few hundred cards meets it (``cards.search.backends``, migration 0018).

Every document is in the GIN index proper as soon as it is written, not in a pending list that each search reads
from start to end; and the card filters of other pages (the published decks' "contains card X, not Y") read the
GIN index as the search does, rather than testing every card's document.
"""

from __future__ import annotations

import pytest
from django.db import DatabaseError, connection, transaction

from cards.models import Game
from cards.search.indexing import index_cards

from .synthetic_decks import card

postgres_only = pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's GIN index")

GIN_INDEX = "cards_searchdocument_vector"


@postgres_only
@pytest.mark.django_db
@pytest.mark.usefixtures("synthetic_cards")
def test_cards_written_one_at_a_time_wait_in_no_pending_list():
    with connection.cursor() as cursor:
        try:
            with transaction.atomic():
                cursor.execute("CREATE EXTENSION IF NOT EXISTS pgstattuple")
        except DatabaseError:
            pytest.skip("PostgreSQL's pgstattuple extension (contrib) is not installed")
        for key in ("Test Ally 01", "Test Ally 02"):  # as an edit or a contribution writes a card
            index_cards([card("shadowera", key).pk])
        cursor.execute(f"SELECT pending_pages, pending_tuples FROM pgstatginindex('{GIN_INDEX}')")
        assert cursor.fetchone() == (0, 0)


def _scans() -> tuple[int, int]:
    """This transaction's scans so far: of every document, and of the GIN index."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_stat_get_xact_numscans('cards_searchdocument'::regclass),"
            f" pg_stat_get_xact_numscans('{GIN_INDEX}'::regclass)"
        )
        return cursor.fetchone()


@postgres_only
@pytest.mark.django_db
@pytest.mark.usefixtures("synthetic_cards")
def test_a_published_decks_card_filter_reads_the_gin_index_not_every_document():
    from community.selectors import _matching_card_ids

    shadowera = Game.objects.get(slug="shadowera")
    with connection.cursor() as cursor:  # the statistics autovacuum has gathered by a game's fiftieth card
        cursor.execute("ANALYZE cards_searchdocument")
    documents_before, index_before = _scans()
    found = _matching_card_ids(
        shadowera, {"include": 'name:"Test Ally 01" or name:"Test Ally 02"', "exclude": 'name:"Test Ally 02"'}, "ja"
    )
    documents_after, index_after = _scans()
    assert sorted(found["include"]) == sorted(card("shadowera", key).pk for key in ("Test Ally 01", "Test Ally 02"))
    assert found["exclude"] == [card("shadowera", "Test Ally 02").pk]
    assert documents_after == documents_before, "no scan that tests every card's document"
    assert index_after > index_before
