"""What the deck pages can do with another deck, the API can: copy a deck (``POST /api/decks/<id>/copy/``) and
make a new deck from one of its versions (``POST /api/decks/<id>/versions/<n>/deck/``), each through the
service the page uses, visibility checked there; and a restored version is a new version with its address."""

from __future__ import annotations

import pytest

from decks import services
from decks.models import Deck, DeckEntry

from .support.deck_api import Api, make_deck, rows, url
from .synthetic_decks import card

pytestmark = pytest.mark.usefixtures("cards")


@pytest.mark.parametrize("auth", ["session", "token"])
def test_copying_a_shared_deck_makes_a_private_copy_with_its_address(author, reader, auth):
    deck = make_deck(author, Deck.Visibility.LINK)
    response = Api(reader, auth).post(url(deck, f"copy/?token={deck.share_token}"))
    assert response.status_code == 201, response.content
    copy = Deck.objects.get(pk=response.json()["id"])
    assert response["Location"].endswith(f"/api/decks/{copy.pk}/")
    assert (copy.owner, copy.forked_from, copy.visibility) == (reader, deck, Deck.Visibility.PRIVATE)
    assert rows(copy) == rows(deck)
    assert Api(reader, auth).get(response["Location"]).status_code == 200


def test_a_deck_the_user_may_not_see_is_not_copied(author, reader):
    deck = make_deck(author, Deck.Visibility.PRIVATE)
    before = Deck.objects.count()
    assert Api(reader).post(url(deck, "copy/")).status_code == 404
    assert Api().post(url(deck, "copy/")).status_code in (401, 403)
    assert Deck.objects.count() == before


def test_a_deck_shared_by_link_is_copied_with_its_token(author, reader):
    deck = make_deck(author, Deck.Visibility.LINK)
    assert Api(reader).post(url(deck, "copy/")).status_code == 404
    response = Api(reader).post(url(deck, f"copy/?token={deck.share_token}"))
    assert response.status_code == 201, response.content


def test_the_page_and_the_api_use_the_same_check(author, reader):
    deck = make_deck(author, Deck.Visibility.PRIVATE)
    from django.http import Http404

    with pytest.raises(Http404):
        services.copy_deck(reader, deck.pk)
    with pytest.raises(Http404):
        services.branch_version(reader, deck.pk, 1)


def _two_versions(author) -> Deck:
    deck = make_deck(author, Deck.Visibility.LINK)
    services.replace_entries(deck, [("hero", card("shadowera", "Test Hero 01"), 1)], kind="restore")
    assert deck.versions.count() == 2
    return deck


@pytest.mark.parametrize("auth", ["session", "token"])
def test_a_new_deck_from_a_version(author, reader, auth):
    deck = _two_versions(author)
    response = Api(reader, auth).post(url(deck, f"versions/1/deck/?token={deck.share_token}"))
    assert response.status_code == 201, response.content
    made = Deck.objects.get(pk=response.json()["id"])
    assert response["Location"].endswith(f"/api/decks/{made.pk}/")
    assert (made.owner, made.forked_from) == (reader, deck)
    first = {(zone, key, count) for zone, key, count in (tuple(e.values()) for e in _version_entries(deck, 1))}
    assert {(e.zone, e.card.key, e.count) for e in DeckEntry.objects.filter(deck=made)} == first


def _version_entries(deck: Deck, number: int) -> list[dict]:
    version = deck.versions.get(number=number)
    return [{"zone": e["zone"], "card": e["card"], "count": e["count"]} for e in version.entries]


def test_a_version_of_a_deck_the_user_may_not_see_or_that_does_not_exist(author, reader):
    private = make_deck(author, Deck.Visibility.PRIVATE)
    public = make_deck(author, Deck.Visibility.LINK)
    before = Deck.objects.count()
    assert Api(reader).post(url(private, "versions/1/deck/")).status_code == 404
    assert Api(reader).post(url(public, f"versions/99/deck/?token={public.share_token}")).status_code == 404
    assert Deck.objects.count() == before


def test_restoring_a_version_answers_201_with_the_new_version_address(author):
    deck = _two_versions(author)
    response = Api(author).post(url(deck, "versions/1/restore/"))
    assert response.status_code == 201, response.content
    assert response.json()["number"] == 3
    assert response["Location"].endswith(f"/api/decks/{deck.pk}/versions/3/")
    again = Api(author).get(response["Location"])
    assert again.status_code == 200
    assert again.json() == response.json()
