"""The page cache for readers who are not signed in (cardsite.pagecache): a kept page is answered without
running its view, a write shows on the next request, and nothing personal is ever kept or served."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from cards.models import Card, CardText
from cardsite import release
from decks import services as deck_services
from decks.models import Deck

from .synthetic_decks import card, game, load_synthetic_cards

# Writes bump the versions when they commit: these tests commit for real.
pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "correct-horse-battery-42"


@pytest.fixture(autouse=True)
def page_cache(settings):
    settings.PAGE_CACHE = True
    load_synthetic_cards()


def queries_for(client: Client, path: str, **headers) -> tuple[int, bytes]:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(path, **headers)
    assert response.status_code == 200, path
    return len(queries), response.content


@pytest.mark.parametrize(
    "path",
    [
        "/",
        "/games/suikoden/",
        "/games/suikoden/cards/",
        "/games/suikoden/cards/901/",
        "/games/suikoden/glossary/",
        "/search/?q=%E3%83%86%E3%82%B9%E3%83%88",
        "/api/cards/?q=%E3%83%86%E3%82%B9%E3%83%88",
        "/api/cards/suikoden/901/",
        "/api/games/",
    ],
)
def test_a_kept_page_is_answered_without_its_view(path):
    client = Client()
    first_queries, first = queries_for(client, path)
    assert first_queries > 0
    again_queries, again = queries_for(Client(), path)
    assert again_queries == 0
    assert again == first


def test_a_change_shows_on_the_next_request():
    client = Client()
    path = "/games/suikoden/cards/901/"
    assert "テスト林沖" in client.get(path).content.decode()
    CardText.objects.filter(card__key="901", language="ja").update(name="書き換え")  # no signal: not yet
    Card.objects.get(key="901").save()  # a saved card bumps the version
    page = Client().get(path).content.decode()
    assert "書き換え" in page


def test_each_language_and_fragment_is_kept_apart():
    japanese = Client(HTTP_ACCEPT_LANGUAGE="ja").get("/games/suikoden/cards/")
    english = Client(HTTP_ACCEPT_LANGUAGE="en").get("/games/suikoden/cards/")
    assert japanese.content != english.content
    assert 'lang="en"' in Client(HTTP_ACCEPT_LANGUAGE="en").get("/games/suikoden/cards/").content.decode()
    fragment = Client().get("/games/suikoden/cards/", HTTP_HX_REQUEST="true")
    page = Client().get("/games/suikoden/cards/")
    assert b"<html" in page.content and b"<html" not in fragment.content


def test_a_signed_in_reader_is_never_served_a_kept_page():
    user = get_user_model().objects.create_user("zz-signed-in-reader", password=PASSWORD)
    Client().get("/games/suikoden/")
    signed_in = Client()
    signed_in.force_login(user)
    queries, body = queries_for(signed_in, "/games/suikoden/")
    assert queries > 0
    assert b"zz-signed-in-reader" in body
    # and what a signed-in reader sees is never kept for others
    assert b"zz-signed-in-reader" not in Client().get("/games/suikoden/").content


def test_a_private_deck_is_never_kept_and_a_shared_one_follows_its_changes():
    owner = get_user_model().objects.create_user("owner", password=PASSWORD)
    deck = deck_services.create_deck(owner=owner, game=game("suikoden"), name="公開", visibility=Deck.Visibility.LINK)
    shared = f"/decks/shared/{deck.share_token}/"
    assert Client().get(shared).status_code == 200
    deck_services.set_count(deck, "characters", card("suikoden", "901"), 3)
    assert "テスト林沖" in Client().get(shared).content.decode()
    deck_services.update_deck(deck, visibility=Deck.Visibility.PRIVATE)
    assert Client().get(shared).status_code == 404


def test_an_error_answer_is_not_kept():
    assert Client().get("/games/suikoden/cards/NO-SUCH/").status_code == 404
    with CaptureQueriesContext(connection) as captured:
        assert Client().get("/games/suikoden/cards/NO-SUCH/").status_code == 404
    assert len(captured) > 0


def test_the_verdict_on_an_unsaved_deck_is_remembered_until_the_cards_change():
    body = json.dumps({"game": "suikoden", "entries": [{"zone": "characters", "card": "901", "count": 1}]})
    first = Client().post("/api/decks/validate/", body, content_type="application/json").json()
    with CaptureQueriesContext(connection) as captured:
        again = Client().post("/api/decks/validate/", body, content_type="application/json").json()
    assert again == first and not [query for query in captured if "cards_card" in query["sql"]]
    Card.objects.filter(key="901").update(kind="land")
    Card.objects.get(key="902").save()  # any card saved: a new version
    changed = Client().post("/api/decks/validate/", body, content_type="application/json").json()
    assert changed != first
    # a bad body is answered, and never remembered as an answer
    bad = Client().post("/api/decks/validate/", json.dumps({"game": "nope"}), content_type="application/json")
    assert bad.status_code == 400


def test_a_deck_pages_layout_is_kept_for_signed_in_readers_and_follows_every_change():
    """The zones, verdict and charts are rendered once per state of the deck and its cards, for the
    owner too (whom the page cache never serves): a change to a card, to the entries (even one made
    behind the services' back) or to the mode shows at once, and a private deck stays the owner's."""
    owner = get_user_model().objects.create_user("zz-deck-owner", password=PASSWORD)
    deck = deck_services.create_deck(
        owner=owner, game=game("suikoden"), name="非公開", entries=[("characters", card("suikoden", "901"), 1)]
    )
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(owner)
    path = f"/decks/{deck.pk}/"

    def violations() -> list[str]:
        page = client.get(path).content.decode()
        start = page.index('id="deck-verdict"')
        listed = page[start : page.index("</section>", start)].split('<ul class="findings violations">')[1]
        return [item.split("</li>")[0] for item in listed.split("<li>")[1:]]

    first = violations()
    assert "Characters: 1 card (exactly 40)" in first
    with CaptureQueriesContext(connection) as captured:
        assert violations() == first
    assert not [query for query in captured if "cards_card" in query["sql"]]  # the rules did not run again

    # a card's value changes: the verdict follows
    Card.objects.filter(key="901").update(kind="land")
    Card.objects.get(key="902").save()  # any card saved: the cards' version changes
    assert violations() != first
    Card.objects.filter(key="901").update(kind="character")
    Card.objects.get(key="902").save()
    assert violations() == first

    # the entries change without the services (no signal, no new updated_at): the page still follows
    deck.entries.update(count=40)
    assert "Characters: 1 card (exactly 40)" not in violations()
    assert 'data-total="40"' in client.get(path).content.decode()

    # the mode changes
    deck_services.update_deck(deck, mode="shared")
    assert "no construction rules" in client.get(path).content.decode()

    # nobody else sees the deck, whatever was kept
    other = Client()
    other.force_login(get_user_model().objects.create_user("zz-someone-else", password=PASSWORD))
    assert other.get(path).status_code == 404
    assert Client().get(path).status_code == 404


def test_a_discussion_is_rendered_once_and_each_reader_replies_with_a_token_of_their_own():
    """The comment threads of a published deck are kept for every reader in the same role (a signed-in
    reader's whole page is kept for that reader alone); a new comment or a hidden one shows at once, and the
    reply forms carry the reader's own CSRF token, so a reply posted from the page is accepted."""
    from community import services as community
    from community.models import Comment

    author = get_user_model().objects.create_user("zz-author", password=PASSWORD)
    deck = deck_services.create_deck(
        owner=author, game=game("suikoden"), name="公開", entries=[("characters", card("suikoden", "901"), 1)]
    )
    publication = community.publish(deck, user=author, title="公開デッキ")
    community.add_comment(publication, author=author, body="**最初**のコメント")
    path = f"/community/decks/published/{publication.pk}/"

    def reader(name: str) -> Client:
        client = Client(HTTP_ACCEPT_LANGUAGE="en", enforce_csrf_checks=True)
        client.force_login(get_user_model().objects.create_user(name, password=PASSWORD))
        return client

    first, second = reader("zz-reader-1"), reader("zz-reader-2")
    assert "<strong>最初</strong>" in first.get(path).content.decode()
    page = second.get(path).content.decode()
    assert "<strong>最初</strong>" in page
    reply_form = page[page.index('id="comment-') :]  # the kept part: the first comment and its reply form
    token = reply_form.split('name="csrfmiddlewaretoken" value="')[1].split('"')[0]
    parent = Comment.objects.get().pk
    replied = second.post(f"{path}comments/", {"body": "返信です", "parent": parent, "csrfmiddlewaretoken": token})
    assert replied.status_code == 302
    assert "返信です" in first.get(path).content.decode()  # the new reply shows at once for the other reader

    Comment.objects.filter(body="返信です").update(hidden=True)
    assert "返信です" not in first.get(path).content.decode()


def test_a_page_kept_by_one_release_is_rendered_afresh_by_the_next(monkeypatch):
    """After a deploy no page rendered by the old code is given out (cardsite.release)."""
    path = "/games/suikoden/cards/901/"
    assert queries_for(Client(), path)[0] > 0
    assert queries_for(Client(), path)[0] == 0  # kept
    monkeypatch.setattr(release, "identity", lambda: "the-next-release")
    assert queries_for(Client(), path)[0] > 0  # the new code renders it
    assert queries_for(Client(), path)[0] == 0  # and keeps its own


def test_a_browser_holding_the_kept_page_is_answered_not_modified_until_it_changes():
    """A repeat visit sends the ETag it was given and gets 304 without the page's bytes; after a change, the page."""
    path = "/games/suikoden/cards/901/"
    first = Client().get(path)
    etag = first["ETag"]
    again = Client().get(path, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304 and again.content == b""
    assert Client().get(path, HTTP_IF_NONE_MATCH='"another"').status_code == 200
    CardText.objects.filter(card__key="901", language="ja").update(name="書き換え")
    Card.objects.get(key="901").save()  # a saved card bumps the version
    changed = Client().get(path, HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and "書き換え" in changed.content.decode()
    assert changed["ETag"] != etag
    other_language = Client().get(path, HTTP_ACCEPT_LANGUAGE="en", HTTP_IF_NONE_MATCH=changed["ETag"])
    assert other_language.status_code == 200  # the English page is another page
