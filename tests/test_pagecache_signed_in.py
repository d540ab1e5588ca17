"""Pages kept for each signed-in reader (``cardsite.pagecache.kept_for_reader``): the owner's deck page, builder,
builder search and goldfish hand, and a reader's view of a published deck. A kept page is answered without its view;
any change to what it shows (the deck, the cards, the reader's notifications, the language) shows on the next
request; no one is ever given another reader's page; each answer is private and carries the reader's own
CSRF token."""

from __future__ import annotations

import re
import time

import pytest
from django.core.cache import caches
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from cards.models import Card, CardText
from cardsite import pagecache
from community import services as community
from decks import services

from .support.clients import signed_in
from .support.suikoden_cards import card, game
from .users import make_user

# Writes bump the versions when they commit: these tests commit for real.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("suikoden_cards")]


@pytest.fixture(autouse=True)
def pages_kept_for_readers(settings):
    settings.PAGE_CACHE = True


def a_deck(owner, name: str = "保存デッキ"):
    entries = [("characters", card(f"テスト人物{i:02d}"), 1) for i in range(1, 4)]
    return services.create_deck(owner=owner, game=game("suikoden"), name=name, entries=entries)


def read(client: Client, path: str, **headers) -> tuple[int, str]:
    """The page's text and the number of queries its answer took (200 asserted)."""
    with CaptureQueriesContext(connection) as captured:
        response = client.get(path, **headers)
    assert response.status_code == 200, (path, response.status_code)
    return len(captured), response.content.decode()


def without_tokens(page: str) -> str:
    """The page with its CSRF tokens taken out (each answer carries a freshly masked one)."""
    return re.sub(r"[A-Za-z0-9]{64}", "TOKEN", page)


@pytest.mark.parametrize(
    "path",
    [
        "/decks/{deck}/",
        "/decks/{deck}/edit/",
        "/decks/{deck}/edit/search/?q=テスト人物",
        "/simulator/decks/{deck}/goldfish/?seed=7",
    ],
)
def test_an_owner_s_page_is_kept_and_follows_a_rename_and_an_added_card(path):
    owner = make_user("zz-owner")
    deck = a_deck(owner)
    client = signed_in(owner, "ja")
    path = path.format(deck=deck.pk)
    rendered_queries, first = read(client, path)
    kept_queries, again = read(client, path)
    # The session from the cache and the page kept: no query, or one when a write committed between the two reads
    # (the remembered user is checked against the fresh "writes" version, the page key against the 1 s memo).
    assert kept_queries < rendered_queries and kept_queries <= 1
    assert without_tokens(again) == without_tokens(first)

    services.update_deck(deck, name="改名デッキ")
    services.set_count(deck, "characters", card("テスト人物09"), 2)
    changed_queries, changed = read(client, path)
    assert changed_queries > kept_queries  # rendered afresh
    if "/edit/search/" not in path:  # the search lists the cards found, the same for the changed deck
        assert "改名デッキ" in changed and "改名デッキ" not in first


def test_the_deck_page_follows_its_entries_changed_behind_the_services_back():
    owner = make_user("zz-owner")
    deck = a_deck(owner)
    client = signed_in(owner, "en")
    path = f"/decks/{deck.pk}/"
    _, first = read(client, path)
    deck.entries.update(count=3)  # a bulk update: no model signal
    _, changed = read(client, path)
    assert 'data-total="9"' in changed and 'data-total="9"' not in first


def test_a_card_s_new_name_shows_in_the_kept_builder_search():
    owner = make_user("zz-owner")
    deck = a_deck(owner)
    client = signed_in(owner, "ja")
    path = f"/decks/{deck.pk}/edit/search/?q=テスト人物12"
    _, first = read(client, path)
    assert "テスト人物12" in first
    CardText.objects.filter(card__key="テスト人物12", language="ja").update(name="テスト人物12改")
    _, changed = read(client, path)
    assert "テスト人物12改" in changed


def test_each_language_is_kept_apart():
    owner = make_user("zz-owner")
    deck = a_deck(owner)
    client = signed_in(owner, "ja")
    path = f"/decks/{deck.pk}/"
    _, japanese = read(client, path)
    _, english = read(client, path, HTTP_ACCEPT_LANGUAGE="en")
    assert 'lang="ja"' in japanese and 'lang="en"' in english
    client.cookies["django_language"] = "zh-hant"
    _, chinese = read(client, path)
    assert 'lang="zh-hant"' in chinese


def test_no_one_is_given_the_owner_s_kept_page():
    owner, other = make_user("zz-owner"), make_user("zz-other")
    deck = a_deck(owner, name="秘密のデッキ")
    owner_client, other_client = signed_in(owner, "ja"), signed_in(other, "ja")
    for path in (f"/decks/{deck.pk}/", f"/decks/{deck.pk}/edit/", f"/decks/{deck.pk}/edit/search/?q=テスト人物"):
        read(owner_client, path)
        read(owner_client, path)  # kept now
        refused = other_client.get(path)
        assert refused.status_code == 404, path
        assert "秘密のデッキ" not in refused.content.decode()
        assert Client().get(path).status_code in (302, 404)  # a visitor: to the sign-in page or not found

    # a page both may read (a published deck): each is given their own, with their own name
    path = f"/community/decks/published/{community.publish(deck, user=owner, title='公開').pk}/"
    _, owners_page = read(owner_client, path)
    read(owner_client, path)
    _, others_page = read(other_client, path)
    assert signed_in_as(owners_page) == "zz-owner" and signed_in_as(others_page) == "zz-other"


def signed_in_as(page: str) -> str:
    """The name in the page's navigation (the reader's own)."""
    return page.split('class="user-name"')[1].split(">", 1)[1].split("<", 1)[0]


def test_a_signed_out_reader_is_not_given_the_kept_page():
    owner = make_user("zz-owner")
    deck = a_deck(owner, name="秘密のデッキ")
    client = signed_in(owner, "ja")
    path = f"/decks/{deck.pk}/"
    read(client, path)
    session = client.cookies["sessionid"].value
    client.post("/accounts/logout/")
    stale = Client(HTTP_ACCEPT_LANGUAGE="ja")
    stale.cookies["sessionid"] = session  # the old session's cookie, replayed
    answer = stale.get(path)
    assert answer.status_code in (302, 404) and "秘密のデッキ" not in answer.content.decode()


def test_a_new_notification_shows_on_the_kept_published_page():
    author, reader = make_user("zz-author"), make_user("zz-reader")
    publication = community.publish(a_deck(author), user=author, title="公開デッキ")
    client = signed_in(author, "en")
    path = f"/community/decks/published/{publication.pk}/"
    _, first = read(client, path)
    assert "unread-count" not in first
    community.add_comment(publication, author=reader, body="はじめてのコメント")  # notifies the author
    _, changed = read(client, path)
    assert "はじめてのコメント" in changed and 'class="unread-count"' in changed


def test_a_kept_page_carries_a_token_the_reader_can_post_with():
    author, reader = make_user("zz-author"), make_user("zz-reader")
    publication = community.publish(a_deck(author), user=author, title="公開デッキ")
    path = f"/community/decks/published/{publication.pk}/"
    client = Client(HTTP_ACCEPT_LANGUAGE="en", enforce_csrf_checks=True)
    client.force_login(reader)
    read(client, path)
    queries, kept = read(client, path)
    assert queries <= 2
    token = kept.split('name="csrfmiddlewaretoken" value="')[1].split('"')[0]
    posted = client.post(f"{path}comments/", {"body": "保存ページから", "csrfmiddlewaretoken": token})
    assert posted.status_code == 302
    assert "保存ページから" in read(client, path)[1]

    # a reader without a CSRF cookie yet (a new browser) is given a token of their own, and the cookie with it
    fresh = Client(HTTP_ACCEPT_LANGUAGE="en", enforce_csrf_checks=True)
    fresh.force_login(reader)
    answer = fresh.get(path)
    token = answer.content.decode().split('name="csrfmiddlewaretoken" value="')[1].split('"')[0]
    assert "csrftoken" in answer.cookies
    posted = fresh.post(f"{path}comments/", {"body": "新しいブラウザから", "csrfmiddlewaretoken": token})
    assert posted.status_code == 302


def test_a_kept_page_is_private_and_answers_304_until_it_changes():
    owner = make_user("zz-owner")
    deck = a_deck(owner)
    client = signed_in(owner, "ja")
    path = f"/decks/{deck.pk}/"
    first = client.get(path)
    kept = client.get(path)
    for answer in (first, kept):
        assert "private" in answer["Cache-Control"] and "Cookie" in answer["Vary"]
    assert kept["ETag"] == first["ETag"]
    not_modified = client.get(path, HTTP_IF_NONE_MATCH=kept["ETag"])
    assert not_modified.status_code == 304 and "private" in not_modified["Cache-Control"]
    services.update_deck(deck, name="改名デッキ")
    changed = client.get(path, HTTP_IF_NONE_MATCH=kept["ETag"])
    assert changed.status_code == 200 and "改名デッキ" in changed.content.decode()


def test_a_flashed_message_is_shown_by_a_rendering_not_hidden_by_a_kept_page():
    owner = make_user("zz-owner")
    deck = a_deck(owner)
    client = signed_in(owner, "en")
    path = f"/decks/{deck.pk}/"
    read(client, path)
    read(client, path)
    from django.contrib.messages import constants
    from django.contrib.messages.storage.cookie import CookieStorage
    from django.http import HttpRequest, HttpResponse

    storage = CookieStorage(HttpRequest())
    storage.add(constants.SUCCESS, "ZZ synthetic notice")
    response = HttpResponse()
    storage.update(response)
    client.cookies["messages"] = response.cookies["messages"].value
    assert "ZZ synthetic notice" in client.get(path).content.decode()
    assert "ZZ synthetic notice" not in client.get(path).content.decode()


def test_card_data_changes_show_on_the_kept_goldfish_hand():
    owner = make_user("zz-owner")
    deck = a_deck(owner)
    client = signed_in(owner, "ja")
    path = f"/simulator/decks/{deck.pk}/goldfish/?seed=3"
    read(client, path)
    kept_queries, _ = read(client, path)
    assert kept_queries <= 2
    Card.objects.get(key="テスト人物40").save()  # any card saved: the cards' version changes
    changed_queries, _ = read(client, path)
    assert changed_queries > kept_queries  # rendered afresh


@pytest.mark.parametrize("change", ["password", "deactivated"])
def test_a_remembered_reader_is_verified_again_after_their_account_changes(change):
    """The process remembers a session's user while nothing is written: a new password (set elsewhere) or a
    deactivated account ends the session on its next request, kept page or not."""
    owner = make_user("zz-owner")
    deck = a_deck(owner, name="秘密のデッキ")
    client = signed_in(owner, "ja")
    path = f"/decks/{deck.pk}/"
    read(client, path)
    assert read(client, path)[0] == 0  # the session (from the cache) and the user (remembered): no query
    if change == "password":
        owner.set_password("another-horse-battery-77")
    else:
        owner.is_active = False
    owner.save()
    answer = client.get(path)
    assert answer.status_code in (302, 404) and "秘密のデッキ" not in answer.content.decode()


ROUND_TRIPS = ("get", "get_many", "set", "set_many", "add", "incr", "delete", "delete_many", "has_key")


def an_owner_with_a_kept_deck_page(language: str):
    """A signed-in owner's client, their deck, its page's address and the page, read twice (kept now)."""
    owner = make_user("zz-owner")
    deck = a_deck(owner)
    client = signed_in(owner, language)
    path = f"/decks/{deck.pk}/"
    read(client, path)
    return client, deck, path, read(client, path)[1]


def count_round_trips(monkeypatch) -> list[str]:
    """The calls this process makes to the shared cache from now on: each one a round trip to Redis (the test
    cache's ``get_many`` calls its own ``get`` for each key; those are not counted)."""
    made: list[str] = []
    inside: list[bool] = []
    shared = caches["default"]

    def counted(name: str, method):
        def call(*args, **kwargs):
            if not inside:
                made.append(name)
            inside.append(True)
            try:
                return method(*args, **kwargs)
            finally:
                inside.pop()

        return call

    for name in ROUND_TRIPS:
        monkeypatch.setattr(shared, name, counted(name, getattr(shared, name)))
    return made


def test_a_kept_page_costs_one_cache_round_trip_no_query_and_no_cookie(monkeypatch):
    client, _, path, _ = an_owner_with_a_kept_deck_page("ja")
    made = count_round_trips(monkeypatch)
    with CaptureQueriesContext(connection) as captured:
        kept = client.get(path)
    assert kept.status_code == 200 and len(captured) == 0
    assert made == ["get_many"]  # the session, the "writes" version and the page, together
    assert not kept.cookies  # the CSRF cookie is left as it is: the token in the page is masked from it


def test_a_write_made_by_another_process_shows_on_the_next_read():
    """Another process's write reaches this one through the shared "writes" version alone (this process's memo
    of the versions still holds the old ones): the kept page is not given once the version has moved."""
    client, deck, path, first = an_owner_with_a_kept_deck_page("en")
    remembered = {name: (time.monotonic() + 60, version) for name, (_, version) in pagecache._memo.items()}
    deck.entries.update(count=3)
    pagecache._memo.update(remembered)  # as a process that did not make the write remembers the versions
    _, changed = read(client, path)
    assert 'data-total="9"' in changed and 'data-total="9"' not in first


def test_two_readers_of_one_address_each_keep_their_own_page_until_one_signs_out():
    author, reader = make_user("zz-author"), make_user("zz-reader")
    publication = community.publish(a_deck(author), user=author, title="公開デッキ")
    path = f"/community/decks/published/{publication.pk}/"
    clients = {"zz-author": signed_in(author, "ja"), "zz-reader": signed_in(reader, "ja")}
    for _ in range(3):  # rendered, then kept: read in turns
        for name, client in clients.items():
            assert signed_in_as(read(client, path)[1]) == name
    session = clients["zz-author"].cookies["sessionid"].value
    clients["zz-author"].post("/accounts/logout/")
    replayed = Client(HTTP_ACCEPT_LANGUAGE="ja")
    replayed.cookies["sessionid"] = session
    answer = replayed.get(path)
    assert 'class="user-name"' not in answer.content.decode()  # a visitor's page, not the author's
    queries, page = read(clients["zz-reader"], path)
    assert queries == 0 and signed_in_as(page) == "zz-reader"
