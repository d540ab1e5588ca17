"""The values the goldfish reads and once did not declare: Shadow Era's ``unique`` and 乙女遊戯 水滸伝's ``colour``
and ``abilities``. The assumptions page asks for them where a card lacks them, takes them in bulk or by a sheet,
refuses a value that does not fit in the reader's language, and the goldfish names them when it plays them.
Synthetic cards only (suikoden 901, Shadow Era "Test Ally 01"), a value taken off as the database would lack it."""

from __future__ import annotations

import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from decks import services as deck_services
from simulator.models import DeckAssumption

from .support.clients import signed_in
from .support.html import parse, squash
from .synthetic_decks import card, game

pytestmark = pytest.mark.usefixtures("synthetic_cards")


def _lacking(game_slug: str, key: str, *names: str) -> None:
    found = card(game_slug, key)
    found.fields = {name: value for name, value in found.fields.items() if name not in names}
    found.save()


def _by_value(page: str) -> list[tuple[str, str]]:
    (table,) = re.findall(r"<table>.*?</table>", page, re.S)
    return re.findall(r"<tr><td>([^<]+)</td><td>(\d+)</td></tr>", table)


def _page(deck) -> str:
    return f"/simulator/decks/{deck.pk}/assumptions/"


@pytest.fixture
def suikoden_deck(owner):
    made = deck_services.create_deck(
        owner=owner,
        game=game("suikoden"),
        name="テスト属性",
        entries=[("characters", card("suikoden", "901"), 20), ("lands", card("suikoden", "903"), 6)],
    )
    _lacking("suikoden", "901", "colour", "abilities")
    return made


def test_suikoden_colour_and_abilities_are_asked_checked_and_named(suikoden_deck, owner):
    deck = suikoden_deck
    english = signed_in(owner)
    page = english.get(_page(deck)).content.decode()
    assert sorted(_by_value(page)) == [("Colour", "1"), ("Special abilities", "1")]

    bad = english.post(_page(deck), {"action": "bulk", "field": "colour", "kind": "", "value": "紫"})
    assert bad.status_code == 400
    assert "901 · Colour" in squash(parse(bad).text) and "仁" in squash(parse(bad).text)
    japanese = signed_in(owner, "ja").post(_page(deck), {"action": "bulk", "field": "abilities", "value": "飛行"})
    assert japanese.status_code == 400 and "901 · 特殊能力" in squash(parse(japanese).text)
    assert not DeckAssumption.objects.filter(deck=deck).exists()

    for name, value in (("colour", "仁"), ("abilities", "調達")):
        answer = english.post(_page(deck), {"action": "bulk", "field": name, "kind": "", "value": value})
        assert answer.status_code == 302, answer.content.decode()[:2000]
    stored = dict(DeckAssumption.objects.filter(deck=deck).values_list("field", "value"))
    assert stored == {"colour": "仁", "abilities": ["調達"]}
    assert "colour" not in card("suikoden", "901").fields  # nothing written to the card
    hand = english.get(f"/simulator/decks/{deck.pk}/goldfish/?seed=3", follow=True).content.decode()
    assert "With 2 assumed values" in hand
    assert "Colour = 仁" in squash(hand) and "Special abilities = 調達 —" in squash(hand)  # as a card's values read


def test_shadow_era_unique_is_asked_filled_by_sheet_and_named(owner):
    deck = deck_services.create_deck(
        owner=owner,
        game=game("shadowera"),
        name="テストユニーク",
        entries=[("hero", card("shadowera", "Test Hero 01"), 1), ("deck", card("shadowera", "Test Ally 01"), 4)],
    )
    _lacking("shadowera", "Test Ally 01", "unique")
    english = signed_in(owner)
    page = english.get(_page(deck)).content.decode()
    assert _by_value(page) == [("Unique", "1")]
    sheet = english.get(f"{_page(deck)}sheet.csv").content.decode("utf-8")
    assert "Test Ally 01" in sheet and ",unique," in sheet

    def upload(value: str, client=english):
        filled = sheet.replace(",unique,", f",unique,{value}", 1).encode()
        return client.post(_page(deck), {"action": "sheet", "sheet": SimpleUploadedFile("a.csv", filled)})

    refused = upload("maybe", signed_in(owner, "zh-hant"))
    assert refused.status_code == 400 and "Test Ally 01 · 唯一" in squash(parse(refused).text)
    assert not DeckAssumption.objects.filter(deck=deck).exists()
    assert upload("yes").status_code == 302
    assert DeckAssumption.objects.get(deck=deck).value is True
    hand = english.get(f"/simulator/decks/{deck.pk}/goldfish/?seed=3", follow=True).content.decode()
    assert "With 1 assumed value" in hand and "Unique = yes —" in squash(hand)


def test_a_character_without_special_abilities_can_be_stated_as_such(suikoden_deck, owner):
    """A character printed with no special ability is stated with the game's word for none, alone: an empty box
    stays unknown, and "none" beside an ability is refused in the reader's language."""
    deck = suikoden_deck
    japanese = signed_in(owner, "ja")
    mixed = japanese.post(_page(deck), {"action": "bulk", "field": "abilities", "value": "調達|なし"})
    assert mixed.status_code == 400
    assert "901 · 特殊能力" in squash(parse(mixed).text) and "ほかの値と一緒には書けません" in parse(mixed).text
    assert not DeckAssumption.objects.filter(deck=deck, field="abilities").exists()

    assert japanese.post(_page(deck), {"action": "bulk", "field": "abilities", "value": "なし"}).status_code == 302
    assert DeckAssumption.objects.get(deck=deck, field="abilities").value == ["none"]
    hand = signed_in(owner).get(f"/simulator/decks/{deck.pk}/goldfish/?seed=3", follow=True).content.decode()
    assert "Special abilities = none —" in squash(hand)
