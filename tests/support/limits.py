"""A synthetic 水滸伝 deck for the tests of limits."""

from __future__ import annotations

from decks import services as deck_services
from decks.models import Deck
from tests.synthetic_decks import card, game


def suikoden_deck(owner, visibility=Deck.Visibility.PRIVATE) -> Deck:
    return deck_services.create_deck(
        owner=owner,
        game=game("suikoden"),
        name="テスト",
        visibility=visibility,
        entries=[("characters", card("suikoden", "901"), 1), ("lands", card("suikoden", "903"), 2)],
    )
