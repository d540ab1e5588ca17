"""Synthetic decks of every game with cards in the zone its goldfish draws from."""

from __future__ import annotations

from decks import services as deck_services
from decks.models import Deck
from tests.synthetic_decks import card, game


def make_deck(slug: str, owner, visibility: str = Deck.Visibility.LINK, name: str | None = None) -> Deck:
    """A synthetic deck of ``slug`` with cards in the zone its goldfish draws from (Endbreaker: the fixed deck)."""
    entries = {
        "shadowera": [("hero", "Test Hero 01", 1), ("deck", "Test Ally 01", 20), ("deck", "Test Ally 02", 20)],
        "epicbattles": [("character", "Test-Zero", 1), ("deck", "Test Punch", 30), ("deck", "Test Kick", 29)],
        "suikoden": [
            ("characters", "901", 10),
            ("characters", "902", 10),
            ("characters", "テスト人物03", 20),
            ("lands", "903", 2),
            ("lands", "テスト土地02", 2),
        ],
        "endbreaker": [],
    }[slug]
    return deck_services.create_deck(
        owner=owner,
        game=game(slug),
        name=name or f"テスト{slug}",
        visibility=visibility,
        entries=[(zone, card(slug, key), count) for zone, key, count in entries],
    )
