"""PostgreSQL's postings (cards.models.SearchPosting): kept in step with the search documents by triggers, and
a query of one token answered from them gives what the GIN index gives (count, and every page in order).

SQLite answers from its FTS5 table and keeps no postings.
"""

from __future__ import annotations

import pytest
from django.db import connection

from cards.models import Card, CardText, SearchPosting, SearchTokenCount
from cards.search import backends
from cards.search.matching import EVERY_CARD
from cards.search.tokens import Phrase
from cards.services import reindex_card

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(connection.vendor != "postgresql", reason="postings are PostgreSQL's"),
]


def postings() -> set[tuple[str, int]]:
    return set(SearchPosting.objects.values_list("token", "position"))


def token_counts() -> dict[str, int]:
    counted = dict(SearchTokenCount.objects.filter(documents__gt=0).values_list("token", "documents"))
    with connection.cursor() as cursor:
        cursor.execute("SELECT lexeme, COUNT(*) FROM cards_searchdocument, unnest(vector) GROUP BY lexeme")
        assert counted == dict(cursor.fetchall())
    return counted


def documents_tokens() -> set[tuple[str, int]]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT lexeme, position FROM cards_searchdocument, unnest(vector)")
        return set(cursor.fetchall())


def test_postings_follow_every_write_of_the_documents(synthetic_cards):
    assert postings() == documents_tokens() and len(postings()) > 100
    token_counts()
    # An edit: the card's document is written again, with new tokens and without old ones.
    text = CardText.objects.filter(language="ja").exclude(text="").order_by("pk").first()
    before = postings()
    text.text = "合成の改訂テキスト　ＺＹＸ"
    text.save()
    reindex_card(text.card)
    assert postings() == documents_tokens() and postings() != before
    token_counts()
    # A card removed: its postings go with its document.
    Card.objects.filter(pk=text.card_id).delete()
    assert postings() == documents_tokens()
    token_counts()


def test_a_single_token_query_counts_and_pages_as_the_text_index_does(synthetic_cards, monkeypatch):
    with connection.cursor() as cursor:
        cursor.execute("SELECT token FROM cards_searchposting GROUP BY token ORDER BY COUNT(*) DESC, token LIMIT 40")
        tokens = [row[0] for row in cursor.fetchall()]
    assert backends.single_token(EVERY_CARD) is not None
    assert backends.single_token(Phrase((tokens[0],), prefix=True)) is None

    def answers() -> list:
        found = []
        for token in tokens:
            expression = Phrase((token,))
            for offset, limit, descending in ((0, 3, False), (2, 5, True), (0, 1000, False)):
                found.append(backends.count_and_page(expression, offset, limit, descending))
            found.append(backends.count_matching(expression))
        return found

    from_postings = answers()
    # The same questions asked of the GIN index (the path of every other expression).
    monkeypatch.setattr(backends, "single_token", lambda expression: None)
    assert answers() == from_postings
    assert any(count > 1 for count in from_postings if isinstance(count, int))
