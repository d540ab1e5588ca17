"""Nothing lost when many requests add at the same moment: every write path that adds (a collection's +1, list and
CSV imports; likes; a deck builder's +1; change sets submitted and accepted) run from several threads at once, each
with its own database connection, on whichever database the suite runs on (SQLite: writers wait their turn through
the busy timeout; PostgreSQL: row locks). Every request is answered (never a 500), and the counts are exact.

Synthetic cards and users only (tests/synthetic_decks.py, tests/users.py).

On SQLite the suite's database is in memory and shared between threads through SQLite's shared cache, whose table
locks fail at once ("database table is locked") instead of waiting: not how the site runs. These tests copy it to a
file in WAL mode, as the site's own database is, for their duration.
"""

from __future__ import annotations

import random
import sqlite3
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from django.db import connections
from django.test import Client

from collection.models import OwnedCard

from .support.clients import api_client
from .synthetic_decks import card, game
from .users import make_editor, make_user

THREADS = 10

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True, scope="module")
def _database_in_a_file(django_db_setup, django_db_blocker, tmp_path_factory):
    """On SQLite, the test database copied to a WAL file that every thread opens; the in-memory one kept aside."""
    from django.db import connection

    if connection.vendor != "sqlite":
        yield
        return
    path = tmp_path_factory.mktemp("concurrent") / "db.sqlite3"
    with django_db_blocker.unblock():
        connection.ensure_connection()
        memory = connection.connection
        target = sqlite3.connect(path)
        memory.backup(target)
        target.execute("PRAGMA journal_mode=WAL")
        target.close()
        name = connection.settings_dict["NAME"]
        connection.connection = None  # closing it would drop the in-memory database
        connection.settings_dict["NAME"] = str(path)  # the settings every thread's connection is made from
    try:
        yield
    finally:
        with django_db_blocker.unblock():
            connection.close()
            connection.settings_dict["NAME"] = name
            connection.connection = memory


def at_once(tasks: list[Callable[[], Any]]) -> list[Any]:
    """Run ``tasks`` in threads released together; each answer, or the exception it raised."""
    barrier = threading.Barrier(len(tasks), timeout=60)

    def run(task: Callable[[], Any]) -> Any:
        try:
            barrier.wait()
            return task()
        except Exception as error:  # reported to the test, which fails on it
            return error
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=len(tasks)) as pool:
        return list(pool.map(run, tasks))


def owned(user, key: str) -> int:
    row = OwnedCard.objects.filter(owner=user, card=card("shadowera", key)).first()
    return row.count if row is not None else 0


def statuses(answers: list[Any]) -> list[int]:
    return [answer.status_code if hasattr(answer, "status_code") else repr(answer) for answer in answers]


# --- collection ------------------------------------------------------------------------------------------------


def test_simultaneous_list_imports_of_a_card_not_owned_yet_all_count(synthetic_cards):
    user = make_user("collector")

    def import_one() -> Any:
        body = {"text": "1 Test Ally 01", "mode": "add"}
        return api_client(user).post("/api/collection/shadowera/import/list/", body, format="json")

    answers = at_once([import_one] * THREADS)
    assert statuses(answers) == [200] * THREADS
    assert owned(user, "Test Ally 01") == THREADS


def test_simultaneous_single_adds_of_a_card_not_owned_yet_all_count(synthetic_cards):
    user = make_user("collector")

    def add_one() -> Any:
        return api_client(user).post(
            "/api/collection/shadowera/add/", {"card": "Test Ally 02", "count": 1}, format="json"
        )

    answers = at_once([add_one] * THREADS)
    assert statuses(answers) == [200] * THREADS
    assert sorted(answer.json()["count"] for answer in answers) == list(range(1, THREADS + 1))
    assert owned(user, "Test Ally 02") == THREADS


def test_mixed_list_and_csv_imports_in_any_order_lose_nothing_and_never_fail(synthetic_cards):
    user = make_user("collector")
    api_client(user).post("/api/collection/shadowera/set/", {"card": "Test Ally 01", "count": 5}, format="json")
    keys = ["Test Ally 01", "Test Ally 02", "Test Hero 01"]
    shuffler = random.Random(41)

    def importer(index: int) -> Callable[[], Any]:
        order = shuffler.sample(keys, len(keys))  # each import names the cards in its own order

        def run() -> Any:
            client = api_client(user)
            if index % 2:
                text = "\n".join(f"2 {key}" for key in order)
                return client.post(
                    "/api/collection/shadowera/import/list/", {"text": text, "mode": "add"}, format="json"
                )
            csv = "key,count\n" + "".join(f"{key},2\n" for key in order)
            return client.post("/api/collection/shadowera/import/csv/", {"csv": csv, "mode": "add"}, format="json")

        return run

    answers = at_once([importer(index) for index in range(THREADS)])
    assert statuses(answers) == [200] * THREADS
    assert {key: owned(user, key) for key in keys} == {
        "Test Ally 01": 5 + 2 * THREADS,
        "Test Ally 02": 2 * THREADS,
        "Test Hero 01": 2 * THREADS,
    }


def test_replacing_imports_racing_adding_ones_are_all_answered_and_keep_each_list_whole(synthetic_cards):
    """A replacing import deletes the rows its list leaves out while adding imports insert them again, in another
    order of keys: a deadlock the database may break is run again, never a 500, and every count is one that whole
    lists make (the replaced card odd: 1, then 2 per later add; the others even)."""
    user = make_user("collector")
    api_client(user).post("/api/collection/shadowera/set/", {"card": "Test Ally 01", "count": 5}, format="json")
    adding = "\n".join(f"2 {key}" for key in ("Test Hero 01", "Test Ally 02", "Test Ally 01"))

    def replace() -> Any:
        body = {"text": "1 Test Ally 02", "mode": "replace"}
        return api_client(user).post("/api/collection/shadowera/import/list/", body, format="json")

    def add() -> Any:
        body = {"text": adding, "mode": "add"}
        return api_client(user).post("/api/collection/shadowera/import/list/", body, format="json")

    answers = at_once([replace, add] * (THREADS // 2))
    assert statuses(answers) == [200] * (THREADS // 2 * 2)
    assert owned(user, "Test Ally 02") % 2 == 1
    assert owned(user, "Test Ally 01") % 2 == 0 and owned(user, "Test Hero 01") % 2 == 0


# --- likes ----------------------------------------------------------------------------------------------------


def _publication(owner):
    from community import services as community_services
    from decks import services as deck_services

    deck = deck_services.create_deck(
        owner=owner,
        game=game("shadowera"),
        name="テストデッキ",
        entries=[("hero", card("shadowera", "Test Hero 01"), 1), ("deck", card("shadowera", "Test Ally 01"), 3)],
    )
    return community_services.publish(deck, user=owner, title="Synthetic deck")


def test_simultaneous_likes_count_once_per_reader(synthetic_cards):
    from community import services as community_services
    from community.models import Like, Publication

    publication = _publication(make_user("author"))
    readers = [make_user(f"reader{index}") for index in range(THREADS)]
    twice = readers[0]
    tasks = [lambda reader=reader: community_services.set_like(publication, reader, True) for reader in readers]
    tasks += [lambda: community_services.set_like(publication, twice, True)] * 2  # the same reader again, at once
    answers = at_once(tasks)
    assert answers == [True] * (THREADS + 2)
    assert Publication.objects.get(pk=publication.pk).like_count == THREADS
    assert Like.objects.filter(publication=publication).count() == THREADS


# --- deck entries ---------------------------------------------------------------------------------------------


def test_simultaneous_plus_ones_in_the_deck_builder_all_count(synthetic_cards):
    from decks import services as deck_services
    from decks.models import Deck, DeckEntry

    owner = make_user("builder")
    deck = deck_services.create_deck(
        owner=owner,
        game=game("shadowera"),
        name="テストデッキ",
        entries=[("hero", card("shadowera", "Test Hero 01"), 1)],
    )
    ally = card("shadowera", "Test Ally 02")

    def plus_one() -> int:
        return deck_services.add_copies(Deck.objects.get(pk=deck.pk), "deck", ally, 1)

    answers = at_once([plus_one] * THREADS)
    assert all(isinstance(answer, int) for answer in answers), answers
    assert sorted(answers) == list(range(1, THREADS + 1))
    assert DeckEntry.objects.get(deck=deck, zone="deck", card=ally).count == THREADS


# --- change sets ----------------------------------------------------------------------------------------------


def _new_card(key: str) -> dict:
    fields = {"faction": "human", "class": ["warrior"], "ability_cost": 2, "health": 30}
    return {
        "key": key,
        "kind": "hero",
        "fields": fields,
        "texts": {"en": {"name": f"テスト英雄 {key}"}},
        "source": "test",
    }


def test_simultaneous_change_sets_are_each_kept_and_each_accepted_once(game):
    from cards.models import Card
    from cards.revisions import card_revisions
    from contributions import services as contribution_services
    from contributions.models import ChangeSet

    players = [make_user(f"player{index}") for index in range(THREADS)]
    editors = [make_editor(game, f"editor{index}") for index in range(THREADS)]
    keys = [f"SE9-RACE{index:02d}" for index in range(THREADS)]

    def submitter(player, key: str) -> Callable[[], Any]:
        return lambda: contribution_services.submit_change_set(
            author=player, game=game, cards=[_new_card(key)], source_kind=ChangeSet.SourceKind.OWN_COPY
        )

    submitted = at_once([submitter(player, key) for player, key in zip(players, keys, strict=True)])
    assert all(isinstance(answer, ChangeSet) for answer in submitted), submitted
    assert ChangeSet.objects.filter(status=ChangeSet.Status.PENDING).count() == THREADS

    # Every editor accepts every other change set's neighbour at the same moment: each change set is accepted by
    # exactly one of the two editors who try it, and every card appears once, with one revision.
    def acceptor(editor, change_set: ChangeSet) -> Callable[[], Any]:
        return lambda: contribution_services.accept_change_set(editor=editor, change_set_id=change_set.pk)

    tasks = []
    for index, change_set in enumerate(submitted):
        tasks.append(acceptor(editors[index], change_set))
        tasks.append(acceptor(editors[(index + 1) % THREADS], change_set))
    answers = at_once(tasks)
    accepted = [answer for answer in answers if isinstance(answer, ChangeSet)]
    refused = [answer for answer in answers if not isinstance(answer, ChangeSet)]
    assert len(accepted) == THREADS
    assert all(isinstance(answer, contribution_services.ContributionError) for answer in refused), refused
    assert ChangeSet.objects.filter(status=ChangeSet.Status.ACCEPTED).count() == THREADS
    for key in keys:
        assert len(card_revisions(Card.objects.get(game=game, key=key))) == 1


# --- a transaction that loses a race anyway -------------------------------------------------------------------


class _Deadlock(Exception):
    sqlstate = "40P01"  # what psycopg's DeadlockDetected carries


def _deadlocking(times: int, real: Callable[..., Any]) -> Callable[..., Any]:
    """``upsert_counts`` that the database refuses as a deadlock ``times`` times, then the real one."""
    from django.db import OperationalError

    calls = {"count": 0}

    def upsert(*args: Any, **kwargs: Any) -> Any:
        calls["count"] += 1
        if calls["count"] <= times:
            real(*args, **kwargs)  # written, then lost with the transaction
            raise OperationalError("deadlock detected") from _Deadlock()
        return real(*args, **kwargs)

    return upsert


def test_an_import_that_deadlocks_once_runs_again_and_counts_once(synthetic_cards, monkeypatch):
    from collection import services

    user = make_user("collector")
    monkeypatch.setattr(services, "upsert_counts", _deadlocking(1, services.upsert_counts))
    answer = api_client(user).post(
        "/api/collection/shadowera/import/list/", {"text": "3 Test Ally 01", "mode": "add"}, format="json"
    )
    assert answer.status_code == 200
    assert owned(user, "Test Ally 01") == 3


def test_an_import_that_keeps_deadlocking_is_a_503_that_changed_nothing(synthetic_cards, monkeypatch):
    from collection import services

    user = make_user("collector")
    monkeypatch.setattr(services, "upsert_counts", _deadlocking(100, services.upsert_counts))
    answer = api_client(user).post(
        "/api/collection/shadowera/import/list/", {"text": "3 Test Ally 01", "mode": "add"}, format="json"
    )
    assert answer.status_code == 503 and answer.json()["code"] == "database_busy"
    assert "Nothing was changed" in answer.json()["detail"] and answer["Retry-After"]
    assert owned(user, "Test Ally 01") == 0
    page = Client(HTTP_ACCEPT_LANGUAGE="en")
    page.force_login(user)
    response = page.post("/collection/shadowera/import/", {"text": "2 Test Ally 01", "mode": "add"})
    assert response.status_code == 503 and b"Nothing was changed" in response.content
    assert owned(user, "Test Ally 01") == 0


# --- assumed values -------------------------------------------------------------------------------------------


def test_simultaneous_settings_of_one_assumed_value_are_all_answered_and_leave_one_row(synthetic_cards):
    from decks import services as deck_services
    from simulator.models import DeckAssumption

    owner = make_user("assumer")
    deck = deck_services.create_deck(
        owner=owner, game=game("suikoden"), name="テスト", entries=[("characters", card("suikoden", "901"), 20)]
    )

    def assume(value: int) -> Callable[[], Any]:
        body = {"key": "901", "field": "attack", "value": value}
        return lambda: api_client(owner).post(f"/api/simulator/decks/{deck.pk}/assumptions/", body, format="json")

    answers = at_once([assume(value) for value in range(1, THREADS + 1)])
    assert set(statuses(answers)) <= {200, 201}, statuses(answers)
    (row,) = DeckAssumption.objects.filter(deck=deck)
    assert 1 <= row.value <= THREADS
