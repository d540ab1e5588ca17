"""A deck's assumed values go with it: a copy of the deck (or of its published snapshot) takes them as its new
owner's, a deck shared by link shows them read-only, and a saved version leaves them as they are. Synthetic cards
only (suikoden 9xx)."""

from __future__ import annotations

import pytest

from cardsite.sharing import Visibility
from community import services as community_services
from decks import services as deck_services
from simulator.assumptions import services as assumption_services
from simulator.models import DeckAssumption

from .support.clients import signed_in
from .synthetic_decks import card


@pytest.fixture
def copied_deck(deck_lacking_attack, owner):
    made = deck_lacking_attack
    assumption_services.set_values(owner, made, [assumption_services.Row("901", "attack", "5", "test")])
    return made


def values(copied_deck):
    return list(DeckAssumption.objects.filter(deck=copied_deck).values_list("key", "field", "value", "author"))


def test_a_copy_of_a_deck_takes_its_assumptions_as_the_copiers(copied_deck, owner, other):
    copied_deck.visibility = Visibility.PUBLIC
    copied_deck.save()
    copy = deck_services.copy_deck(other, copied_deck.pk)
    assert values(copy) == [("901", "attack", 5, other.pk)]
    # The copy's are its own: the copier changes them, the source's stay.
    assumption_services.set_values(other, copy, [assumption_services.Row("901", "attack", "7", "test")])
    assert values(copied_deck) == [("901", "attack", 5, owner.pk)]
    page = signed_in(other).get(f"/decks/{copy.pk}/").content.decode()
    assert "With 1 assumed value" in page and "/cards/901/edit/#id_field_attack" in page


def test_a_copy_of_a_published_deck_takes_the_decks_assumptions(copied_deck, owner, other):
    publication = community_services.publish(copied_deck, user=owner, title="テスト公開")
    copy = community_services.copy_publication(publication, owner=other)
    assert values(copy) == [("901", "attack", 5, other.pk)]


def test_a_deck_shared_by_link_shows_its_assumptions_read_only(copied_deck, owner):
    copied_deck.visibility = Visibility.LINK
    copied_deck.save()
    reader = signed_in(None)
    page = reader.get(f"/decks/shared/{copied_deck.share_token}/").content.decode()
    assert "With 1 assumed value" in page and "/contributions/games/suikoden/cards/901/edit/#id_field_attack" in page
    # The page cache serves readers without an account: a change of the assumptions is seen at once.
    assumption_services.drop(owner, copied_deck, "901", "attack")
    assert "assumed value" not in reader.get(f"/decks/shared/{copied_deck.share_token}/").content.decode()


def test_a_version_keeps_the_cards_only_and_a_branch_of_one_takes_the_decks_assumptions(copied_deck, owner):
    first = copied_deck.versions.order_by("number").first()
    assumption_services.set_values(owner, copied_deck, [assumption_services.Row("901", "attack", "7", "test")])
    deck_services.replace_entries(copied_deck, [("characters", card("suikoden", "901"), 10)], kind="replace")
    deck_services.restore_version(copied_deck, first)
    assert copied_deck.entries.get(card__key="901").count == 20  # the version's cards came back
    assert values(copied_deck) == [("901", "attack", 7, owner.pk)]  # and the assumptions are the deck's of now
    branch = deck_services.branch_version(owner, copied_deck.pk, first.number)
    assert values(branch) == [("901", "attack", 7, owner.pk)]
