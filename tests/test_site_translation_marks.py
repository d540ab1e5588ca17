"""A text the site translated itself is marked as such in every interface language that shows it, Simplified
Chinese included (its text is converted from the site's Traditional translation); and Chinese forms punctuate alike."""

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


@pytest.mark.parametrize("language", ["zh-hant", "zh-hans"])
def test_a_chinese_form_ends_its_labels_with_a_full_width_colon(language, owner):
    labels = parse(signed_in(owner, language).get("/decks/new/")).find("main").find_all("label")
    texts = [label.text.strip() for label in labels if label.text.strip().endswith((":", "："))]
    assert texts and all(text.endswith("：") for text in texts), texts
