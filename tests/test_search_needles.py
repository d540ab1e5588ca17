"""A term of three or more CJK characters, where the database keeps each card's folded texts (PostgreSQL), is
answered by its bigrams without positions and its characters looked for in those texts (``Phrase.needle``):
the same cards, pages and counts as the phrase of bigrams, whatever else the query asks.

SQLite reads phrases from its FTS5 index and keeps no such text; the tokens' rules are tested on both.
"""

from __future__ import annotations

import random

import pytest
from django.db import connection

from cards import selectors
from cards.models import SearchDocument
from cards.search import backends, compiler
from cards.search.normalize import fold
from cards.search.selectors import prepare_search
from cards.search.tokens import COLUMNS, term_phrases

from .support.search import found, import_cards, synthetic_card


@pytest.mark.parametrize(
    ("term", "needle"),
    [
        ("札券丙", "札券丙"),
        ("ゾルバリオン", "ゾルバリオン"),
        ("【札】。", "【札】。"),
        ("札券", None),  # one bigram: a single token, read from the postings
        ("札 券丙", None),  # a space is a unit of several characters
        ("札券abc", None),  # a word is a unit of several characters
        ("abc def", None),
    ],
)
def test_only_a_term_of_three_or_more_single_characters_carries_a_needle(term, needle):
    [phrase] = term_phrases(fold(term), COLUMNS, any_column_pairs=True, needles=True)
    assert phrase.needle == (fold(needle) if needle else None)
    [without] = term_phrases(fold(term), COLUMNS, any_column_pairs=True, needles=False)
    assert without.needle is None and without.tokens == phrase.tokens
    # within some columns only, a term is one phrase per column, checked on positions
    assert all(phrase.needle is None for phrase in term_phrases(fold(term), ["tj", "tz"], True, True))


# A few characters only, so that cards share many bigrams in other orders: holding a term's bigrams is far
# from holding the term, and the needle's test decides.
_ALPHABET = "札券丙丁甲乙戊己"


def _synthetic_cards(rng: random.Random, count: int) -> list[str]:
    """``count`` clearly synthetic cards with texts of random characters of ``_ALPHABET``; their texts."""
    cards, texts = [], []
    for index in range(count):
        text_ja = "".join(rng.choices(_ALPHABET, k=rng.randint(8, 30)))
        text_zh = "".join(rng.choices(_ALPHABET, k=rng.randint(5, 20)))
        card = synthetic_card(text_ja, at=index % 7, text_zh=text_zh, key=f"EB9-{index + 1:03d}")
        card["kind"] = "job" if index % 4 == 0 else "ability"
        cards.append(card)
        texts += [text_ja, text_zh]
    import_cards(*cards)
    return texts


@pytest.mark.django_db
@pytest.mark.skipif(connection.vendor != "postgresql", reason="only PostgreSQL keeps the texts needles are tested on")
def test_needles_find_what_phrases_find(monkeypatch):
    rng = random.Random(2026)
    texts = _synthetic_cards(rng, 40)
    assert SearchDocument.objects.filter(phrase_text__isnull=False).count() == SearchDocument.objects.count() == 40
    present = list(
        dict.fromkeys(text[start : start + length] for text in texts[:20] for start, length in ((0, 3), (2, 5)))
    )
    absent = ["".join(rng.choices(_ALPHABET, k=6)) for _ in range(10)]  # some in no card
    other = present[-1]
    queries = [
        *present,
        *absent,
        *(f"{piece} -kind:job" for piece in present[:10]),
        *(f"{piece} g:endbreaker" for piece in present[:5]),
        *(f"({piece} or {other})" for piece in present[:5]),
        *(f"{piece} -{other}" for piece in present[:5]),
        *(f"{piece} {other}" for piece in present[:5]),
        f"{present[0]} -{present[0]}",
    ]

    def answers() -> list[tuple[int, list[str]]]:
        results = []
        for query in queries:
            outcome = prepare_search(query, "ja")
            assert outcome.error is None, query
            paginator = selectors.SearchPaginator(outcome, 4)
            pages = [[card.key for card in paginator.page(number).object_list] for number in paginator.page_range]
            results.append((paginator.count, pages, sorted(card.key for card in outcome.cards)))
        return results

    needled = sum(
        any(phrase.needle for phrase in backends.required_phrases(prepare_search(query, "ja").ids.expression))
        for query in queries
    )
    with_needles = answers()
    # Counted and paged with prepared statements: one for each number of needles tested (two for "甲乙丙 丁戊己")
    # and of tsqueries (an exclusion is one of its own).
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements WHERE statement LIKE '%%strpos(phrase_text%%'")
        shapes = sorted(
            (statement.count("vector @@"), statement.count("strpos(")) for (statement,) in cursor.fetchall()
        )
        assert shapes == [(1, 1), (1, 2), (2, 1)]
    monkeypatch.setattr(compiler, "indexes_needles", lambda: False)
    assert answers() == with_needles
    assert needled >= len(present) + len(absent)  # the needles were used where they apply
    assert all(count > 0 for count, _pages, _keys in with_needles[: len(present)])
    assert sum(count > 4 for count, _pages, _keys in with_needles) >= 3  # some fill several pages
    assert any(count == 0 for count, _pages, _keys in with_needles[len(present) : len(present) + len(absent)])
    # Holding a term's bigrams is not holding the term: the needle's test is what tells them apart.
    holding_bigrams = []
    for term in absent:
        [phrase] = term_phrases(term, COLUMNS, any_column_pairs=True, needles=True)
        unordered = backends.TSQUERY.render(phrase, frozenset([phrase]))
        holding_bigrams.append(
            SearchDocument.objects.extra(where=["vector @@ to_tsquery('simple', %s)"], params=[unordered]).count()
        )
    assert sum(holding_bigrams) > sum(
        count for count, _pages, _keys in with_needles[len(present) : len(present) + len(absent)]
    )


@pytest.mark.django_db
def test_a_term_is_never_found_across_two_texts():
    """PostgreSQL: the texts are a line apart in ``phrase_text``, and a needle holds no space."""
    import_cards(synthetic_card("甲乙丙", text_zh="丁戊己"))
    assert found("甲乙丙") == found("丁戊己") == {"EB9-001"}
    assert found("乙丙丁") == found("丙丁戊") == set()
    assert found("甲乙丙 丁戊己") == {"EB9-001"}


@pytest.mark.django_db
def test_a_term_of_signs_and_characters_is_found_as_typed():
    """Quotes, percent signs and backslashes are units of their own: a needle holding them is a parameter, not SQL."""
    import_cards(
        synthetic_card("甲'乙%丙\\丁_戊", text_zh="己"),
        synthetic_card("甲乙丙丁戊", key="EB9-002"),
    )
    assert found("甲'乙%丙") == {"EB9-001"}
    assert found("丙\\丁_戊") == {"EB9-001"}
    assert found("乙丙丁") == {"EB9-002"}
    assert found("乙%丙\\丁") == {"EB9-001"}
