"""Forks (issue 14, item 3): copying a deck records where it came from, and a deck shows its source and the decks
copied from it, both ways, to whoever may see them (NetrunnerDB's precedent and successors)."""

from __future__ import annotations

from django.test import Client
from rest_framework.test import APIClient

from cards.models import Game
from decks import services
from decks.models import Deck


def login(user):
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(user)
    return client


def test_a_copy_links_to_its_source_and_the_source_lists_its_copies(seeded_db, owner, other):
    game = Game.objects.get(slug="shadowera")
    source = services.create_deck(owner=owner, game=game, name="Origin", visibility=Deck.Visibility.PUBLIC)
    copied = login(other).post(f"/decks/{source.pk}/copy/")
    copy = Deck.objects.get(owner=other)
    assert copied.status_code == 302 and copy.forked_from == source
    services.update_deck(copy, visibility=Deck.Visibility.PUBLIC)
    copy_page = login(other).get(f"/decks/{copy.pk}/").content.decode()
    assert "Copied from" in copy_page and f'href="/decks/{source.pk}/"' in copy_page
    source_page = login(owner).get(f"/decks/{source.pk}/").content.decode()
    assert "1 deck copied from this one" in source_page and f'href="/decks/{copy.pk}/"' in source_page


def test_a_private_source_or_copy_is_not_revealed(seeded_db, owner, other):
    game = Game.objects.get(slug="shadowera")
    source = services.create_deck(owner=owner, game=game, name="Secret origin", visibility=Deck.Visibility.LINK)
    copy = services.copy_deck(other, source.pk, token=source.share_token)
    services.update_deck(copy, name="Mine now", visibility=Deck.Visibility.PUBLIC)
    page = login(other).get(f"/decks/{copy.pk}/").content.decode()
    assert "Copied from a deck that is not shared." in page and "Secret origin" not in page
    private_copy = services.copy_deck(other, source.pk, token=source.share_token)
    listed = login(owner).get(f"/decks/{source.pk}/").content.decode()
    assert f"/decks/{copy.pk}/" in listed and f"/decks/{private_copy.pk}/" not in listed
    api = APIClient()
    api.force_authenticate(other)
    lineage = api.get(f"/api/decks/{copy.pk}/").json()["lineage"]
    assert lineage["copied_from"] is None and lineage["copied_from_hidden"] is True
    mine = APIClient()
    mine.force_authenticate(owner)
    assert mine.get(f"/api/decks/{source.pk}/").json()["lineage"]["copies"] == [
        f"http://testserver/api/decks/{copy.pk}/"
    ]


def test_deleting_the_source_keeps_the_copy(seeded_db, owner, other):
    game = Game.objects.get(slug="shadowera")
    source = services.create_deck(owner=owner, game=game, name="Gone", visibility=Deck.Visibility.PUBLIC)
    copy = services.copy_deck(other, source.pk, token=source.share_token)
    services.delete_deck(source)
    copy.refresh_from_db()
    assert copy.forked_from is None
    assert "Copied from" not in login(other).get(f"/decks/{copy.pk}/").content.decode()
