"""Deck versions: every save of a deck's cards is kept, coalesced within a minute per kind of
change; history and diff pages, restore, branch into a new deck, and the API, with the deck's permissions."""

from __future__ import annotations

import datetime

import pytest
from django.test import Client

from cards.models import Card, Game
from decks import services
from decks.models import Deck, DeckVersion


def login(user) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(user)
    return client


def age(deck: Deck, seconds: int = 120) -> None:
    """Make the deck's versions older, as if the next change came later than the coalescing window."""
    for version in DeckVersion.objects.filter(deck=deck):
        version.created_at -= datetime.timedelta(seconds=seconds)
        version.save(update_fields=["created_at"])


@pytest.fixture
def cards(seeded_db):
    return list(Card.objects.filter(game__slug="shadowera").exclude(kind="hero").order_by("key")[:3])


@pytest.fixture
def deck(owner, cards):
    """A private deck changed three times after it was made: versions 1 (empty) to 4."""
    game = Game.objects.get(slug="shadowera")
    deck = services.create_deck(owner=owner, game=game, name="Versioned")
    a, b, c = cards
    services.replace_entries(deck, [("deck", a, 2), ("deck", b, 1)])
    age(deck)
    services.add_copies(deck, "deck", c, 3)
    age(deck)
    services.set_count(deck, "deck", a, 0)
    return deck


def test_three_changes_make_versions_and_the_diff_of_first_and_last(deck, owner, cards):
    a, b, c = cards
    numbers = list(deck.versions.values_list("number", "kind"))
    assert numbers == [(1, "create"), (2, "replace"), (3, "edit"), (4, "edit")]
    last = deck.versions.get(number=4)
    assert sorted((e["card"], e["count"]) for e in last.entries) == sorted([(b.key, 1), (c.key, 3)])
    assert last.verdict["legal"] is False and last.verdict["findings"]  # no hero: not legal

    client = login(owner)
    text = client.get(f"/decks/{deck.pk}/diff/", {"a": 2, "b": 4, "format": "text"})
    assert text.status_code == 200 and text["Content-Type"].startswith("text/plain")
    body = text.content.decode()
    assert f"+3 {c.key}" in body and f"-2 {a.key}" in body and f"{b.key}" not in body.split("\n", 1)[1]
    page = client.get(f"/decks/{deck.pk}/diff/", {"a": 1, "b": 4})
    assert page.status_code == 200 and f"+3 {c.key}" in page.content.decode()
    history = client.get(f"/decks/{deck.pk}/history/").content.decode()
    assert "Version 4" in history and "Not legal" in history
    assert f'href="/decks/{deck.pk}/history/"' in client.get(f"/decks/{deck.pk}/").content.decode()

    api = client.get(f"/api/decks/{deck.pk}/diff/", {"a": 1, "b": 4}).json()
    assert api["zones"][0]["zone"] == "deck"
    assert {r["card"]: r["count"] for r in api["zones"][0]["added"]} == {b.key: 1, c.key: 3}
    listed = client.get(f"/api/decks/{deck.pk}/versions/").json()
    assert [v["number"] for v in listed] == [1, 2, 3, 4]


def test_restore_the_second_version_makes_a_new_one(deck, owner, cards):
    a, b, _c = cards
    response = login(owner).post(f"/decks/{deck.pk}/versions/2/restore/")
    assert response.status_code == 302
    assert sorted(deck.entries.values_list("card__key", "count")) == sorted([(a.key, 2), (b.key, 1)])
    latest = deck.versions.order_by("-number").first()
    assert latest.number == 5 and latest.kind == "restore" and latest.entries == deck.versions.get(number=2).entries
    # Through the API, restoring version 4 makes version 6.
    api = login(owner).post(f"/api/decks/{deck.pk}/versions/4/restore/")
    assert api.status_code == 201 and api.json()["number"] == 6
    assert login(owner).post(f"/api/decks/{deck.pk}/versions/99/restore/").status_code == 404


def test_branch_a_version_into_a_new_private_deck(deck, owner, other, cards):
    services.update_deck(deck, visibility=Deck.Visibility.LINK)
    response = login(other).post(f"/decks/{deck.pk}/versions/2/branch/", {"token": deck.share_token})
    copy = Deck.objects.get(owner=other)
    assert response.status_code == 302 and copy.forked_from == deck
    assert copy.visibility == Deck.Visibility.PRIVATE
    assert sorted(copy.entries.values_list("card__key", "count")) == sorted(
        (e["card"], e["count"]) for e in deck.versions.get(number=2).entries
    )
    assert copy.versions.get().kind == "copy"


def test_another_user_cannot_see_a_private_history_nor_restore(deck, other):
    client = login(other)
    assert client.get(f"/decks/{deck.pk}/history/").status_code == 404
    assert client.get(f"/decks/{deck.pk}/diff/", {"a": 1, "b": 2}).status_code == 404
    assert client.post(f"/decks/{deck.pk}/versions/2/restore/").status_code == 404
    assert client.post(f"/decks/{deck.pk}/versions/2/branch/").status_code == 404
    assert client.get(f"/api/decks/{deck.pk}/versions/").status_code == 404
    assert client.post(f"/api/decks/{deck.pk}/versions/2/restore/").status_code == 404
    assert Client().get(f"/decks/{deck.pk}/history/").status_code == 404


def test_a_shared_history_is_seen_with_the_link_but_restored_only_by_the_owner(deck, other):
    services.update_deck(deck, visibility=Deck.Visibility.LINK)
    token = f"?token={deck.share_token}"
    assert Client().get(f"/decks/{deck.pk}/history/{token}").status_code == 200
    assert login(other).get(f"/api/decks/{deck.pk}/versions/{token}").status_code == 200
    assert login(other).post(f"/decks/{deck.pk}/versions/2/restore/").status_code == 404
    assert login(other).post(f"/api/decks/{deck.pk}/versions/2/restore/{token}").status_code == 403
    assert deck.versions.count() == 4


def test_changes_of_one_kind_within_a_minute_make_one_version(owner, cards):
    a, b, c = cards
    deck = services.create_deck(owner=owner, game=Game.objects.get(slug="shadowera"), name="Clicks")
    for _ in range(5):
        services.add_copies(deck, "deck", a, 1)  # five "+1" clicks
    assert list(deck.versions.values_list("number", "kind")) == [(1, "create"), (2, "edit")]
    assert deck.versions.get(number=2).entries == [{"zone": "deck", "card": a.key, "count": 5}]
    services.replace_entries(deck, [("deck", b, 1)])  # another kind of change: a new version
    assert deck.versions.count() == 3
    age(deck, 61)
    services.replace_entries(deck, [("deck", c, 1)])  # the same kind, but a minute later: a new version
    assert deck.versions.count() == 4
    services.replace_entries(deck, [("deck", c, 1)])  # nothing changed: no version
    assert deck.versions.count() == 4
