"""Deck versions: every save of a deck's cards is kept, coalesced within a minute per kind of
change; history and diff pages, restore, branch into a new deck, and the API, with the deck's permissions."""

from __future__ import annotations

import datetime

import pytest
from django.test import Client

from cards.models import Card, Game
from decks import services
from decks.models import Deck, DeckVersion

from .support.clients import signed_in


def age(versioned_deck: Deck, seconds: int = 120) -> None:
    """Make the deck's versions older, as if the next change came later than the coalescing window."""
    for version in DeckVersion.objects.filter(deck=versioned_deck):
        version.created_at -= datetime.timedelta(seconds=seconds)
        version.save(update_fields=["created_at"])


@pytest.fixture
def seed_cards(seeded_db):
    return list(Card.objects.filter(game__slug="shadowera").exclude(kind="hero").order_by("key")[:3])


@pytest.fixture
def versioned_deck(owner, seed_cards):
    """A private deck changed three times after it was made: versions 1 (empty) to 4."""
    game = Game.objects.get(slug="shadowera")
    versioned_deck = services.create_deck(owner=owner, game=game, name="Versioned")
    a, b, c = seed_cards
    services.replace_entries(versioned_deck, [("deck", a, 2), ("deck", b, 1)])
    age(versioned_deck)
    services.add_copies(versioned_deck, "deck", c, 3)
    age(versioned_deck)
    services.set_count(versioned_deck, "deck", a, 0)
    return versioned_deck


def test_three_changes_make_versions_and_the_diff_of_first_and_last(versioned_deck, owner, seed_cards):
    a, b, c = seed_cards
    numbers = list(versioned_deck.versions.values_list("number", "kind"))
    assert numbers == [(1, "create"), (2, "replace"), (3, "edit"), (4, "edit")]
    last = versioned_deck.versions.get(number=4)
    assert sorted((e["card"], e["count"]) for e in last.entries) == sorted([(b.key, 1), (c.key, 3)])
    assert last.verdict["legal"] is False and last.verdict["findings"]  # no hero: not legal

    client = signed_in(owner)
    text = client.get(f"/decks/{versioned_deck.pk}/diff/", {"a": 2, "b": 4, "format": "text"})
    assert text.status_code == 200 and text["Content-Type"].startswith("text/plain")
    body = text.content.decode()
    assert f"+3 {c.key}" in body and f"-2 {a.key}" in body and f"{b.key}" not in body.split("\n", 1)[1]
    page = client.get(f"/decks/{versioned_deck.pk}/diff/", {"a": 1, "b": 4})
    assert page.status_code == 200 and f"+3 {c.key}" in page.content.decode()
    history = client.get(f"/decks/{versioned_deck.pk}/history/").content.decode()
    assert "Version 4" in history and "Not legal" in history
    assert f'href="/decks/{versioned_deck.pk}/history/"' in client.get(f"/decks/{versioned_deck.pk}/").content.decode()

    api = client.get(f"/api/decks/{versioned_deck.pk}/diff/", {"a": 1, "b": 4}).json()
    assert api["zones"][0]["zone"] == "deck"
    assert {r["card"]: r["count"] for r in api["zones"][0]["added"]} == {b.key: 1, c.key: 3}
    listed = client.get(f"/api/decks/{versioned_deck.pk}/versions/").json()
    assert [v["number"] for v in listed] == [1, 2, 3, 4]


def test_restore_the_second_version_makes_a_new_one(versioned_deck, owner, seed_cards):
    a, b, _c = seed_cards
    response = signed_in(owner).post(f"/decks/{versioned_deck.pk}/versions/2/restore/")
    assert response.status_code == 302
    assert sorted(versioned_deck.entries.values_list("card__key", "count")) == sorted([(a.key, 2), (b.key, 1)])
    latest = versioned_deck.versions.order_by("-number").first()
    assert (
        latest.number == 5
        and latest.kind == "restore"
        and latest.entries == versioned_deck.versions.get(number=2).entries
    )
    # Through the API, restoring version 4 makes version 6.
    api = signed_in(owner).post(f"/api/decks/{versioned_deck.pk}/versions/4/restore/")
    assert api.status_code == 201 and api.json()["number"] == 6
    assert signed_in(owner).post(f"/api/decks/{versioned_deck.pk}/versions/99/restore/").status_code == 404


def test_branch_a_version_into_a_new_private_deck(versioned_deck, owner, other, seed_cards):
    services.update_deck(versioned_deck, visibility=Deck.Visibility.LINK)
    response = signed_in(other).post(
        f"/decks/{versioned_deck.pk}/versions/2/branch/", {"token": versioned_deck.share_token}
    )
    copy = Deck.objects.get(owner=other)
    assert response.status_code == 302 and copy.forked_from == versioned_deck
    assert copy.visibility == Deck.Visibility.PRIVATE
    assert sorted(copy.entries.values_list("card__key", "count")) == sorted(
        (e["card"], e["count"]) for e in versioned_deck.versions.get(number=2).entries
    )
    assert copy.versions.get().kind == "copy"


def test_another_user_cannot_see_a_private_history_nor_restore(versioned_deck, other):
    client = signed_in(other)
    assert client.get(f"/decks/{versioned_deck.pk}/history/").status_code == 404
    assert client.get(f"/decks/{versioned_deck.pk}/diff/", {"a": 1, "b": 2}).status_code == 404
    assert client.post(f"/decks/{versioned_deck.pk}/versions/2/restore/").status_code == 404
    assert client.post(f"/decks/{versioned_deck.pk}/versions/2/branch/").status_code == 404
    assert client.get(f"/api/decks/{versioned_deck.pk}/versions/").status_code == 404
    assert client.post(f"/api/decks/{versioned_deck.pk}/versions/2/restore/").status_code == 404
    assert Client().get(f"/decks/{versioned_deck.pk}/history/").status_code == 404


def test_a_shared_history_is_seen_with_the_link_but_restored_only_by_the_owner(versioned_deck, other):
    services.update_deck(versioned_deck, visibility=Deck.Visibility.LINK)
    token = f"?token={versioned_deck.share_token}"
    assert Client().get(f"/decks/{versioned_deck.pk}/history/{token}").status_code == 200
    assert signed_in(other).get(f"/api/decks/{versioned_deck.pk}/versions/{token}").status_code == 200
    assert signed_in(other).post(f"/decks/{versioned_deck.pk}/versions/2/restore/").status_code == 404
    assert signed_in(other).post(f"/api/decks/{versioned_deck.pk}/versions/2/restore/{token}").status_code == 403
    assert versioned_deck.versions.count() == 4


def test_changes_of_one_kind_within_a_minute_make_one_version(owner, seed_cards):
    a, b, c = seed_cards
    versioned_deck = services.create_deck(owner=owner, game=Game.objects.get(slug="shadowera"), name="Clicks")
    for _ in range(5):
        services.add_copies(versioned_deck, "deck", a, 1)  # five "+1" clicks
    assert list(versioned_deck.versions.values_list("number", "kind")) == [(1, "create"), (2, "edit")]
    assert versioned_deck.versions.get(number=2).entries == [{"zone": "deck", "card": a.key, "count": 5}]
    services.replace_entries(versioned_deck, [("deck", b, 1)])  # another kind of change: a new version
    assert versioned_deck.versions.count() == 3
    age(versioned_deck, 61)
    services.replace_entries(versioned_deck, [("deck", c, 1)])  # the same kind, but a minute later: a new version
    assert versioned_deck.versions.count() == 4
    services.replace_entries(versioned_deck, [("deck", c, 1)])  # nothing changed: no version
    assert versioned_deck.versions.count() == 4


def test_the_history_names_a_card_once_where_its_key_is_its_name(owner, synthetic_cards):
    """Seen on the screenshot review: "+4 Bad Santa Bad Santa", the key repeated after a name that is the key."""
    from .support.goldfish import make_deck

    deck = make_deck("shadowera", owner)
    page = signed_in(owner, "en").get(f"/decks/{deck.pk}/history/").content.decode().split("</head>", 1)[1]
    assert "+20 Test Ally 01</li>" in page
    japanese = signed_in(owner, "ja").get(f"/decks/{deck.pk}/history/").content.decode().split("</head>", 1)[1]
    assert "+20 テストアリー01 <small>Test Ally 01</small>" in japanese  # a name other than the key keeps it
