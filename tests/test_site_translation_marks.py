"""A text the site translated itself is marked as such in every interface language that shows it, Simplified
Chinese included: its text is converted from the site's Traditional translation, not a source's words."""

from __future__ import annotations

import pytest

from decks import services as deck_services

from .support.clients import signed_in
from .support.html import parse
from .synthetic_decks import card, game

pytestmark = pytest.mark.usefixtures("synthetic_cards")


@pytest.mark.parametrize(("language", "marked"), [("ja", False), ("zh-hant", True), ("zh-hans", True), ("en", True)])
def test_epic_battles_win_conditions_are_marked_as_the_sites_translation(language, marked, owner):
    # Epic Battles' win conditions are the Japanese rules' words; in Chinese and English the site rendered them.
    deck = deck_services.create_deck(
        owner=owner,
        game=game("epicbattles"),
        name="テスト勝利",
        entries=[("character", card("epicbattles", "Test-Zero"), 1)],
    )
    info = parse(signed_in(owner, language).get(f"/decks/{deck.pk}/")).find(cls="deck-info")
    assert bool(info.find(cls="win-conditions").find_all(cls="site-translation")) is marked
