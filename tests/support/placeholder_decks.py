"""A Shadow Era deck completed with placeholder cards (the synthetic cards of ``tests/synthetic_decks.py``)."""

from __future__ import annotations

from decks import services as deck_services
from decks.models import Deck
from decks.placeholders import services

from ..synthetic_decks import card, game


def shadow_era_deck(owner, name: str = "テスト仮カード") -> Deck:
    """A hero and 8 real allies: 31 cards short of the 40 a Shadow Era deck needs."""
    return deck_services.create_deck(
        owner=owner,
        game=game("shadowera"),
        name=name,
        entries=[
            ("hero", card("shadowera", "Test Hero 01"), 1),
            ("deck", card("shadowera", "Test Ally 01"), 4),
            ("deck", card("shadowera", "Test Ally 02"), 4),
        ],
    )


def fill_with_placeholders(deck: Deck) -> None:
    """31 placeholder cards: the deck is legal apart from them."""
    services.add_placeholder(deck, "ally", {"cost": 3, "attack": 2}, 12, "Big ally")
    services.add_placeholder(deck, "ability", {"cost": 1}, 19)
