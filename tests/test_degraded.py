"""A database that cannot write (read-only, or its disk full): reads still answer, every write answers
503 with a message in the reader's language, and nothing is half-written."""

from __future__ import annotations

import json
import sqlite3

import pytest
import requests
from django.contrib.auth import get_user_model
from django.db import OperationalError, connection
from django.test import Client

from decks import services as deck_services
from decks.models import Deck, DeckEntry

from .servers import production_site
from .support.database import read_only_database
from .synthetic_decks import card, game, load_synthetic_cards

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "correct-horse-battery-42"


@pytest.fixture
def shared_deck():
    load_synthetic_cards()
    owner = get_user_model().objects.create_user("owner", password=PASSWORD)
    return deck_services.create_deck(
        owner=owner,
        game=game("suikoden"),
        name="テスト",
        visibility=Deck.Visibility.LINK,
        entries=[("characters", card("suikoden", "901"), 2), ("lands", card("suikoden", "903"), 2)],
    )


def entries(shared_deck) -> set[tuple[str, str, int]]:
    return set(DeckEntry.objects.filter(deck=shared_deck).values_list("zone", "card__key", "count"))


def test_a_read_only_database_still_serves_pages_and_refuses_writes_with_503(shared_deck):
    owner = Client(HTTP_ACCEPT_LANGUAGE="en")
    owner.force_login(shared_deck.owner)
    japanese = Client(HTTP_ACCEPT_LANGUAGE="ja")
    japanese.force_login(shared_deck.owner)
    before = entries(shared_deck)
    with read_only_database():
        for path in [
            "/",
            "/games/suikoden/cards/",
            "/search/?q=テスト",
            f"/decks/shared/{shared_deck.share_token}/",
            "/api/cards/?q=テスト",
        ]:
            assert Client().get(path).status_code == 200, path
        assert owner.get(f"/decks/{shared_deck.pk}/edit/").status_code == 200

        change = {"zone": "characters", "card": card("suikoden", "902").pk, "delta": 1}
        page = owner.post(f"/decks/{shared_deck.pk}/edit/entry/", change, HTTP_HX_REQUEST="true")
        assert page.status_code == 503
        assert "cannot save changes" in page.content.decode()
        assert int(page["Retry-After"]) > 0

        body = {"entries": [{"zone": "characters", "card": "902", "count": 3}]}
        api = owner.patch(f"/api/decks/{shared_deck.pk}/entries/", json.dumps(body), content_type="application/json")
        assert api.status_code == 503
        assert api.json()["code"] == "database_read_only"

        page = japanese.post(f"/decks/{shared_deck.pk}/copy/")
        assert page.status_code == 503
        assert "cannot save changes" not in page.content.decode()

        login = Client().post("/accounts/login/", {"username": "owner", "password": PASSWORD})
        assert login.status_code == 503
    assert entries(shared_deck) == before


@pytest.mark.skipif(connection.vendor != "sqlite", reason="a full disk is simulated with SQLite's max_page_count")
def test_a_full_disk_refuses_the_write_with_503_and_keeps_the_deck(shared_deck):
    owner = Client(HTTP_ACCEPT_LANGUAGE="en")
    owner.force_login(shared_deck.owner)
    with connection.cursor() as cursor:
        # Pages freed by earlier tests would take the write without growing the file: fill them first
        # (inside the test's transaction, so the ballast goes with it), then forbid the file to grow.
        cursor.execute("PRAGMA freelist_count")
        free_pages = cursor.fetchone()[0]
        cursor.execute("PRAGMA page_size")
        page_size = cursor.fetchone()[0]
        cursor.execute("CREATE TABLE test_ballast (filler BLOB)")
        cursor.execute("INSERT INTO test_ballast VALUES (zeroblob(%s))", [(free_pages + 1) * page_size])
        cursor.execute("PRAGMA freelist_count")
        assert cursor.fetchone()[0] == 0
        cursor.execute("PRAGMA page_count")
        cursor.execute(f"PRAGMA max_page_count = {cursor.fetchone()[0]}")
    try:
        body = {"description": "満" * 9000, "entries": [{"zone": "characters", "card": "902", "count": 4}]}
        response = owner.patch(f"/api/decks/{shared_deck.pk}/", json.dumps(body), content_type="application/json")
        assert response.status_code == 503
        assert "disk is full" in response.json()["detail"]
    finally:
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA max_page_count = 1073741823")
    shared_deck.refresh_from_db()
    assert shared_deck.description == "" and entries(shared_deck) == {("characters", "901", 2), ("lands", "903", 2)}


def test_a_write_that_fails_half_way_leaves_nothing_behind(shared_deck, monkeypatch):
    """The decklist import deletes the old entries, then fails writing the new ones: the deck keeps its old cards."""
    before = entries(shared_deck)
    real_bulk_create = DeckEntry.objects.bulk_create

    def disk_full(*args, **kwargs):
        error = sqlite3.OperationalError("database or disk is full")
        error.sqlite_errorcode = 13
        raise OperationalError("database or disk is full") from error

    monkeypatch.setattr(DeckEntry.objects, "bulk_create", disk_full)
    owner = Client(HTTP_ACCEPT_LANGUAGE="en")
    owner.force_login(shared_deck.owner)
    response = owner.post(f"/decks/{shared_deck.pk}/import/", {"text": "3 テスト林沖\n土地：\n2 テスト土地01"})
    assert response.status_code == 503
    monkeypatch.setattr(DeckEntry.objects, "bulk_create", real_bulk_create)
    assert entries(shared_deck) == before


@pytest.mark.skipif(connection.vendor != "sqlite", reason="a read-only copy of a SQLite file")
def test_the_production_server_serves_a_read_only_copy(tmp_path):
    with production_site(tmp_path, seed=True) as site:
        copy = tmp_path / "copy.sqlite3"
        site.django(f"from django.db import connection\nconnection.cursor().execute(\"VACUUM INTO '{copy}'\")")
        for process in site.processes:
            process.terminate()
    with production_site(tmp_path / "ro", database_url=f"sqlite:///{copy}?mode=ro") as site:
        assert site.get("/games/suikoden/cards/").status_code == 200
        assert site.get("/api/cards/", params={"q": "林沖"}).json()["count"] >= 1
        health = site.get("/healthz/").json()
        assert health["status"] == "degraded"
        assert health["checks"][0]["detail"]["read_only"] is True
        session = requests.Session()
        session.get(site.url + "/accounts/signup/")
        signup = session.post(
            site.url + "/accounts/signup/",
            data={
                "username": "new",
                "password1": PASSWORD,
                "password2": PASSWORD,
                "csrfmiddlewaretoken": session.cookies["csrftoken"],
            },
            headers={"Accept-Language": "en"},
        )
        assert signup.status_code == 503
        assert "cannot save changes" in signup.text
        assert site.get("/games/suikoden/").status_code == 200
