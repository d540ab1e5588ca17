"""The deck's make-up charts say why a chart is empty: a deck of cards whose kinds carry no such value is not a
deck without cards (an Epic Battles deck of attacks has nothing to draw in its cost chart)."""

from __future__ import annotations

import pytest

from decks import services as deck_services

from .support.clients import signed_in
from .support.html import parse, squash
from .synthetic_decks import card, game

pytestmark = pytest.mark.usefixtures("synthetic_cards")


def _empty_notes(page) -> dict[str, str]:
    return {
        figure.attrs["data-chart"]: squash(figure.find("p", cls="chart-empty").text)
        for figure in page.find_all("figure", cls="is-empty")
    }


def test_an_empty_chart_of_a_deck_with_cards_does_not_say_the_deck_has_none(owner):
    characters_only = deck_services.create_deck(
        owner=owner,
        game=game("epicbattles"),
        name="テスト角色",
        entries=[("character", card("epicbattles", "Test-Zero"), 1)],
    )
    empty = deck_services.create_deck(owner=owner, game=game("epicbattles"), name="テスト空", entries=[])
    for language, none_has_it, no_cards in (
        ("en", "None of this deck's cards has this value.", "No cards yet."),
        ("ja", "このデッキのカードには、この値を持つものがありません。", "まだカードがありません。"),
    ):
        client = signed_in(owner, language)
        notes = _empty_notes(parse(client.get(f"/decks/{characters_only.pk}/")))
        assert notes and set(notes.values()) == {none_has_it}, notes
        assert set(_empty_notes(parse(client.get(f"/decks/{empty.pk}/"))).values()) == {no_cards}
