"""The page of cards a search shows, and the count and page of a search, are read with statements PostgreSQL
plans once per connection (``cardsite.db.prepared_cursor``): the same cards as before, under a request's time
limit too, and no other statement is prepared. SQLite reads them with a plain cursor.
"""

from __future__ import annotations

import gc
import threading
import weakref

import pytest
from django.db import DEFAULT_DB_ALIAS, connection, connections

from cards import selectors
from cards.models import Card, CardText, TranslationTrack
from cards.search.selectors import prepare_search
from cardsite.db import StatementTimeout, prepared_cursor, statement_time_limit

from .support.database import _slow_statement

postgres_only = pytest.mark.skipif(connection.vendor != "postgresql", reason="prepared statements are PostgreSQL's")


def prepared_statements() -> list[str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        return [row[0] for row in cursor.fetchall()]


def page_of_cards(ids: list[int]) -> list[tuple[str, list[tuple[str, str]]]]:
    return [
        (card.key, [(text.language, text.name) for text in card.texts.all()]) for card in selectors.cards_in_order(ids)
    ]


@pytest.mark.django_db
@pytest.mark.usefixtures("synthetic_cards")
def test_the_page_of_cards_is_the_same_in_any_order_and_number():
    ids = list(Card.objects.order_by("-sort_key").values_list("pk", flat=True))
    expected = {
        card.pk: (card.key, sorted((text.language, text.name) for text in card.texts.all()))
        for card in Card.objects.prefetch_related("texts")
    }
    for chosen in (ids, ids[:1], ids[3:9][::-1], []):
        page = page_of_cards(chosen)
        assert [key for key, _texts in page] == [expected[pk][0] for pk in chosen]
        assert [sorted(texts) for _key, texts in page] == [expected[pk][1] for pk in chosen]
    assert any(len(texts) > 1 for _key, texts in page_of_cards(ids))  # cards with texts in several languages


@pytest.mark.django_db
@pytest.mark.usefixtures("synthetic_cards")
def test_the_page_of_cards_holds_every_field_as_the_orm_reads_it():
    """Values, types and time zones: a page's timestamps are read by psycopg's own loader on PostgreSQL."""
    ids = list(Card.objects.order_by("pk").values_list("pk", flat=True))
    fields = [field.attname for field in Card._meta.concrete_fields]
    for card in selectors.cards_in_order(ids):
        expected = Card.objects.select_related("game").get(pk=card.pk)
        assert [getattr(card, name) for name in fields] == [getattr(expected, name) for name in fields]
        assert card.updated_at.tzinfo is expected.updated_at.tzinfo and card.updated_at.utcoffset() is not None
        assert card.game == expected.game and card.game.slug == expected.game.slug
        with_texts = Card.objects.prefetch_related("texts").get(pk=card.pk)
        assert [vars_of(text) for text in card.texts.all()] == [vars_of(text) for text in with_texts.texts.all()]


@pytest.mark.django_db
@pytest.mark.usefixtures("synthetic_cards")
def test_a_card_s_language_text_comes_before_its_tracks_texts_as_the_orm_orders_them():
    """A card may hold the language's own text (no track) and a track's text in one language: the page of cards
    lists them in the ORM's order on both databases (PostgreSQL puts NULL last unless told otherwise)."""
    text = CardText.objects.filter(track__isnull=True).exclude(language="ja").select_related("card__game").first()
    track = TranslationTrack.objects.create(game=text.card.game, language=text.language, name="テスト譯本二")
    CardText.objects.create(card=text.card, language=text.language, track=track, name="テスト別譯")
    [card] = selectors.cards_in_order([text.card_id])
    in_language = [(other.name, other.track_id) for other in card.texts.all() if other.language == text.language]
    assert in_language == [(text.name, None), ("テスト別譯", track.pk)]
    assert [vars_of(other) for other in card.texts.all()] == [vars_of(other) for other in text.card.texts.all()]


@pytest.mark.django_db
@pytest.mark.usefixtures("synthetic_cards")
def test_a_page_of_results_read_with_its_count_holds_the_cards_as_they_are_read_alone():
    """PostgreSQL reads a search's count, its page and the page's cards in one statement; SQLite in several."""
    text = CardText.objects.filter(track__isnull=True, language="zh-hant").select_related("card__game").first()
    track = TranslationTrack.objects.create(game=text.card.game, language="zh-hant", name="テスト譯本二")
    CardText.objects.create(card=text.card, language="zh-hant", track=track, name="テスト別譯")

    def shown(cards: list[Card]) -> list:
        return [(vars_of(card), card.game.slug, [vars_of(text) for text in card.texts.all()]) for card in cards]

    for query, direction in (
        ("テスト", "asc"),
        ("テスト", "desc"),
        ("林沖 or 宋江", "asc"),
        ("テスト -kind:job", "desc"),
    ):
        outcome = prepare_search(query, "ja", direction=direction)
        assert outcome.descending == (direction == "desc")
        paginator = selectors.SearchPaginator(outcome, 3)
        for number in (1, 2):
            cards = list(paginator.get_page(number).object_list)
            assert cards and shown(cards) == shown(selectors.cards_in_order([card.pk for card in cards])), query
        assert (paginator._prefetched[2] is not None) == (connection.vendor == "postgresql")
    assert any(
        card.pk == text.card_id for card in selectors.SearchPaginator(prepare_search("テスト", "ja"), 500).get_page(1)
    )


def vars_of(instance) -> list:
    return [getattr(instance, field.attname) for field in type(instance)._meta.concrete_fields]


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("synthetic_cards")
def test_a_thread_s_connection_is_freed_when_the_thread_ends():
    """The page's row readers are kept per connection; they must not keep a finished thread's connection alive
    (a threaded server makes a thread, and a connection, per request)."""
    ids = list(Card.objects.values_list("pk", flat=True))
    freed: list[weakref.ref] = []

    def request() -> None:
        assert len(selectors.cards_in_order(ids)) == len(ids)
        freed.append(weakref.ref(connections[DEFAULT_DB_ALIAS]))
        connections.close_all()

    thread = threading.Thread(target=request)
    thread.start()
    thread.join()
    gc.collect()
    assert freed and freed[0]() is None


@postgres_only
@pytest.mark.django_db
@pytest.mark.usefixtures("synthetic_cards")
def test_postgresql_prepares_the_page_of_cards_and_the_count_and_page_of_searches_only(client):
    ids = list(Card.objects.order_by("pk").values_list("pk", flat=True))
    first = page_of_cards(ids[:5])
    prepared = prepared_statements()
    assert len(prepared) == 1 and prepared[0].startswith('SELECT "c"."id"')
    # other lengths use the same statement; Django's own statements are not prepared
    assert page_of_cards(ids[:5]) == first and page_of_cards(ids[2:4])
    response = client.get("/search/", {"q": "林沖"})
    assert response.status_code == 200 and "テスト<mark>林沖</mark>" in response.content.decode()
    # A term of two characters is one token: its count, its page and the page's cards are one statement, prepared
    # too; nothing else is.
    statements = prepared_statements()
    others = [statement for statement in statements if statement not in prepared]
    assert len(others) == 1 and "cards_searchtokencount" in others[0] and "cards_card AS c" in others[0]
    # Any other expression: one statement, whatever its query, with the query out of the planner's sight; with
    # an exclusion, one whatever is included and excluded, the exclusion a tsquery of its own.
    for query in ("林沖 or 宋江", "林沖 -宋江", "(林沖 or 宋江) -kind:job"):
        response = client.get("/search/", {"q": query})
        assert response.status_code == 200 and "テスト<mark>林沖</mark>" in response.content.decode()
    searches = sorted(
        (statement for statement in prepared_statements() if statement not in statements), key=lambda s: s.count("@@")
    )
    assert [statement.count("vector @@") for statement in searches] == [1, 2]
    assert all("vector @@ (SELECT to_tsquery('simple', $1))" in statement for statement in searches)
    assert "vector @@ (SELECT to_tsquery('simple', $2))" in searches[1]


@postgres_only
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("synthetic_cards")
def test_a_prepared_statement_runs_under_a_time_limit_and_is_stopped_by_it():
    ids = list(Card.objects.order_by("pk").values_list("pk", flat=True))
    expected = page_of_cards(ids)
    # The first statement under the limit: its setting cannot travel in the same query string (server-side
    # binding takes one statement), so it goes ahead of it.
    with statement_time_limit(0.2):
        assert page_of_cards(ids) == expected
        with connection.cursor() as cursor:
            cursor.execute("SHOW statement_timeout")
            assert cursor.fetchone()[0] == "200ms"
        sql, params = _slow_statement()
        with pytest.raises(StatementTimeout), prepared_cursor() as cursor:
            cursor.execute(sql, params)
    assert page_of_cards(ids) == expected


@postgres_only
@pytest.mark.django_db
@pytest.mark.usefixtures("synthetic_cards")
def test_without_prepared_statements_the_page_is_the_same(monkeypatch):
    """PREPARED_STATEMENTS=0 (a pooler that cannot keep them) leaves psycopg's threshold unset: nothing is prepared."""
    ids = list(Card.objects.order_by("pk").values_list("pk", flat=True))
    expected = page_of_cards(ids)
    queries = ("林沖", "林沖 or 宋江", "(林沖 or 宋江) -kind:job")
    found = [search_page(query) for query in queries]
    assert all(count and keys for count, keys in found)
    connection.ensure_connection()
    monkeypatch.setattr(connection.connection, "prepare_threshold", None)
    connection.connection.execute("DEALLOCATE ALL")
    monkeypatch.setattr(connection.connection._prepared, "_names", {})
    assert page_of_cards(ids) == expected
    assert [search_page(query) for query in queries] == found
    assert prepared_statements() == []


def search_page(query: str) -> tuple[int, list[str]]:
    paginator = selectors.SearchPaginator(prepare_search(query, "ja"), 50)
    return paginator.count, [card.key for card in paginator.page(1).object_list]


@postgres_only
@pytest.mark.django_db
@pytest.mark.usefixtures("synthetic_cards")
def test_an_exclusion_is_tested_on_the_candidates_of_one_gin_scan(monkeypatch):
    """An exclusion is a tsquery of its own, a key of the same GIN scan (never a scan of the whole index for the
    documents lacking a token), and finds the cards the query as one tsquery finds."""
    from cards.search import backends

    statements: list[tuple[str, tuple]] = []
    prepared = backends._fetch_prepared
    monkeypatch.setattr(
        backends, "_fetch_prepared", lambda sql, params: statements.append((sql, params)) or prepared(sql, params)
    )
    for query in ("(林沖 or 宋江) -kind:job", "林沖 -宋江 -kind:job", "-kind:job"):
        expression = prepare_search(query, "ja").ids.expression
        count, page = backends.count_and_page(expression, 0, 1000, False)
        sql, params = backends.cards_matching(expression)  # the query as one tsquery
        with connection.cursor() as cursor:
            cursor.execute(
                f"SELECT card_id FROM cards_searchdocument WHERE card_id IN ({sql}) ORDER BY position", params
            )
            assert page == [row[0] for row in cursor.fetchall()] and count == len(page) > 0, query
            sql, params = statements[-1]
            # The plan a table of many cards gets: these few are read faster without their index.
            cursor.execute("SET LOCAL enable_seqscan = off")
            cursor.execute("EXPLAIN (FORMAT JSON) " + sql, params)
            plan = cursor.fetchone()[0]
            cursor.execute("RESET enable_seqscan")
        nodes = list(plan_nodes(plan[0]["Plan"]))
        scans = [node for node in nodes if node["Node Type"] == "Bitmap Index Scan"]
        assert len(scans) == 1 and scans[0]["Index Cond"].count("@@") == 2  # exclusions are one
        assert not any(node["Node Type"] == "Seq Scan" for node in nodes)


def plan_nodes(node: dict):
    yield node
    for child in node.get("Plans", []):
        yield from plan_nodes(child)


@postgres_only
@pytest.mark.django_db
@pytest.mark.usefixtures("synthetic_cards")
def test_a_search_for_one_token_is_planned_once_whatever_its_token():
    """PostgreSQL plans a prepared statement afresh for its first five runs, then keeps its generic plan unless
    that looks costlier. The one-token statement's plan is the same for every token; with its page's limit out
    of the planner's sight the generic plan looked costlier, and every search paid a plan (as much as its run)."""
    with connection.cursor() as cursor:
        # The statistics of many cards: tokens of thousands of postings (at positions no document has).
        cursor.execute(
            "INSERT INTO cards_searchposting (token, position)"
            " SELECT 'synthetic' || (n % 20), -n FROM generate_series(1, 40000) AS n"
        )
        cursor.execute("ANALYZE cards_searchposting")
    terms = []
    for name in CardText.objects.order_by("pk").values_list("name", flat=True):
        pairs = [name[start : start + 2] for start in range(len(name) - 1)]
        terms += [pair for pair in pairs if all("\u4e00" <= char <= "\u9fff" for char in pair) and pair not in terms]
    assert len(terms) >= 12
    for term in terms[:12]:
        paginator = selectors.SearchPaginator(prepare_search(term, "ja"), 50)
        cards = paginator.page(1).object_list
        assert paginator.count and any(term in text.name for card in cards for text in card.texts.all())
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE statement LIKE %s",
            ["%cards_searchtokencount%"],
        )
        [(generic, custom)] = cursor.fetchall()
    assert custom <= 5 and generic + custom == 12
