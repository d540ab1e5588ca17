"""Shadow Era decks to publish, like and comment on."""

from __future__ import annotations

from decks import services as deck_services
from decks.models import Deck
from tests.synthetic_decks import game


def make_deck(owner, cards, name="テストデッキ", allies=("Test Ally 01",), visibility=Deck.Visibility.PRIVATE):
    entries = [("hero", cards["Test Hero 01"], 1)] + [("deck", cards[key], 3) for key in allies]
    return deck_services.create_deck(
        owner=owner, game=game("shadowera"), name=name, entries=entries, visibility=visibility
    )
