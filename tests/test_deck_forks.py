"""Forks: copying a deck records where it came from, and a deck shows its source and the decks
copied from it, both ways, to whoever may see them (NetrunnerDB's precedent and successors)."""

from __future__ import annotations

from rest_framework.test import APIClient

from cards.models import Game
from decks import services
from decks.models import Deck

from .support.clients import signed_in


def test_a_copy_links_to_its_source_and_the_source_lists_its_copies(seeded_db, owner, other):
    game = Game.objects.get(slug="shadowera")
    source = services.create_deck(owner=owner, game=game, name="Origin", visibility=Deck.Visibility.LINK)
    copied = signed_in(other).post(f"/decks/{source.pk}/copy/", {"token": source.share_token})
    assert copied.status_code == 302 and Deck.objects.get(owner=other).forked_from == source
    # A deck is never public, so the lineage a reader sees is the reader's own: the owner copies the deck too.
    signed_in(owner).post(f"/decks/{source.pk}/copy/")
    copy = Deck.objects.get(owner=owner, forked_from=source)
    copy_page = signed_in(owner).get(f"/decks/{copy.pk}/").content.decode()
    assert "Copied from" in copy_page and f'href="/decks/{source.pk}/"' in copy_page
    source_page = signed_in(owner).get(f"/decks/{source.pk}/").content.decode()
    assert "1 deck copied from this one" in source_page and f'href="/decks/{copy.pk}/"' in source_page


def test_a_private_source_or_copy_is_not_revealed(seeded_db, owner, other):
    game = Game.objects.get(slug="shadowera")
    source = services.create_deck(owner=owner, game=game, name="Secret origin", visibility=Deck.Visibility.LINK)
    copy = services.copy_deck(other, source.pk, token=source.share_token)
    services.update_deck(copy, name="Mine now", visibility=Deck.Visibility.LINK)
    page = signed_in(other).get(f"/decks/{copy.pk}/").content.decode()
    assert "Copied from a deck that is not shared." in page and "Secret origin" not in page
    private_copy = services.copy_deck(other, source.pk, token=source.share_token)
    listed = signed_in(owner).get(f"/decks/{source.pk}/").content.decode()
    # someone else's copies are not listed, shared by link or private
    assert f"/decks/{copy.pk}/" not in listed and f"/decks/{private_copy.pk}/" not in listed
    api = APIClient()
    api.force_authenticate(other)
    lineage = api.get(f"/api/decks/{copy.pk}/").json()["lineage"]
    assert lineage["copied_from"] is None and lineage["copied_from_hidden"] is True
    mine = APIClient()
    mine.force_authenticate(owner)
    assert mine.get(f"/api/decks/{source.pk}/").json()["lineage"]["copies"] == []


def test_deleting_the_source_keeps_the_copy(seeded_db, owner, other):
    game = Game.objects.get(slug="shadowera")
    source = services.create_deck(owner=owner, game=game, name="Gone", visibility=Deck.Visibility.LINK)
    copy = services.copy_deck(other, source.pk, token=source.share_token)
    services.delete_deck(source)
    copy.refresh_from_db()
    assert copy.forked_from is None
    assert "Copied from" not in signed_in(other).get(f"/decks/{copy.pk}/").content.decode()
