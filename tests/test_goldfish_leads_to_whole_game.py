"""An エンドブレイカー！SCG deck's goldfish pages deal only the fixed starting deck, the same for every deck: they say
so and lead to the whole-game tools on that deck. A game without a whole game shows no such lead."""

from __future__ import annotations

import pytest

from decks import services as deck_services

from .support.clients import signed_in
from .support.html import parse, squash
from .synthetic_decks import card, game

pytestmark = pytest.mark.usefixtures("synthetic_cards")


@pytest.mark.parametrize("page", ["goldfish", "odds", "simulate"])
def test_an_endbreaker_decks_goldfish_leads_to_the_whole_game_on_that_deck(owner, page):
    english = signed_in(owner)
    deck = deck_services.create_deck(owner=owner, game=game("endbreaker"), name="テストEB", entries=[])
    lead = parse(english.get(f"/simulator/decks/{deck.pk}/{page}/?seed=1")).find(id="goldfish-whole-game")
    assert "the same for every deck" in squash(lead.text)
    links = [a.attrs["href"] for a in lead.find_all("a")]
    assert f"/simulator/games/endbreaker/play/?deck={deck.pk}" in links
    assert any(link.endswith(f"?deck={deck.pk}") and "/compare/" in link for link in links)


def test_a_game_without_a_whole_game_shows_no_lead(owner):
    english = signed_in(owner)
    deck = deck_services.create_deck(
        owner=owner,
        game=game("shadowera"),
        name="テスト",
        entries=[("hero", card("shadowera", "Test Hero 01"), 1), ("deck", card("shadowera", "Test Ally 01"), 4)],
    )
    response = english.get(f"/simulator/decks/{deck.pk}/goldfish/?seed=1")
    assert response.status_code == 200
    assert 'id="goldfish-whole-game"' not in response.content.decode()
