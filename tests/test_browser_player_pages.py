"""What the screenshot review of the pages a signed-in player meets found on a phone (390 px), each held here:
a button naming the deck ran off the screen, the publish form put its box beside its label, and the lists of
published decks squeezed a title and a game's name to a character or two a line. Synthetic cards only."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import override_settings

from decks.models import Deck

from .support.browser import signed_in_phone
from .support.goldfish import make_deck
from .support.tasks import IMMEDIATE
from .synthetic_decks import load_synthetic_cards
from .users import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# How many lines the text of each cell matching the selector takes on the screen: the tops of its words' boxes
# only (a link's own box, taller than its words by the room it is given to be tapped, starts higher on its line).
LINES = """(selector) => [...document.querySelectorAll(selector)].map((cell) => {
  const tops = new Set();
  const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
  for (let text = walker.nextNode(); text; text = walker.nextNode()) {
    const range = document.createRange();
    range.selectNodeContents(text);
    [...range.getClientRects()].filter((r) => r.width > 0).forEach((r) => tops.add(Math.round(r.top)));
  }
  return tops.size;
})"""


def _player(name: str):
    from cards.services import sync_games

    sync_games()
    load_synthetic_cards()
    return get_user_model().objects.create_user(name, password=PASSWORD)


@override_settings(TASKS=IMMEDIATE)
def test_the_button_that_fills_in_missing_values_stays_on_a_phones_screen(live_server, browser):
    player = _player("bulk-phone")
    make_deck("endbreaker", player, name="スクリーンに収まらないほど長い名前の試作デッキ")
    page = signed_in_phone(browser, live_server.url, player.username)
    try:
        page.goto(f"{live_server.url}/simulator/games/endbreaker/compare/")
        box = page.evaluate(
            """() => { const b = document.querySelector('.missing-bulk .button');
              return b && {right: b.getBoundingClientRect().right, width: window.innerWidth,
                           scroll: document.scrollingElement.scrollWidth}; }"""
        )
        assert box is not None, "no button to fill in the missing values in bulk"
        assert box["right"] <= box["width"] and box["scroll"] <= box["width"], box
    finally:
        page.context.close()


def test_the_publish_form_puts_each_box_under_its_label_on_a_phone(live_server, browser):
    player = _player("publish-phone")
    deck = make_deck("suikoden", player, visibility=Deck.Visibility.PRIVATE)
    page = signed_in_phone(browser, live_server.url, player.username, "ja-JP")
    try:
        page.goto(f"{live_server.url}/community/decks/{deck.pk}/publish/")
        box = page.evaluate(
            """() => {
              const form = document.querySelector('form[method=post] textarea').form.getBoundingClientRect();
              const label = document.querySelector('label[for=publish-description]').getBoundingClientRect();
              const area = document.querySelector('#publish-description').getBoundingClientRect();
              return {form: form.width, area: area.width, labelBottom: label.bottom, areaTop: area.top};
            }"""
        )
        assert box["labelBottom"] <= box["areaTop"], box
        assert box["area"] >= box["form"] * 0.8, box
    finally:
        page.context.close()


@pytest.mark.parametrize("language", ["ja-JP", "zh-TW"])
def test_the_published_decks_keep_a_title_and_a_game_to_two_lines_on_a_phone(live_server, browser, language):
    from community import services as community_services

    player = _player("list-phone")
    deck = make_deck("suikoden", player, visibility=Deck.Visibility.PRIVATE)
    community_services.publish(deck, user=player, title="テスト公開デッキ")
    page = signed_in_phone(browser, live_server.url, player.username, language)
    try:
        for path in ("/community/decks/published/", "/community/games/suikoden/decks/"):
            page.goto(live_server.url + path)
            titles = page.evaluate(LINES, ".publication-list tbody td:nth-child(1)")
            games = page.evaluate(LINES, ".publication-list tbody td:nth-child(2)")
            assert titles and games, path
            assert max(titles) <= 2 and max(games) <= 2, (path, titles, games)
    finally:
        page.context.close()


def test_the_published_decks_filters_put_each_box_under_its_label_on_a_phone(live_server, browser):
    player = _player("filters-phone")
    page = signed_in_phone(browser, live_server.url, player.username, "ja-JP")
    try:
        page.goto(f"{live_server.url}/community/games/suikoden/decks/")
        boxes = page.evaluate(
            """() => { const form = document.querySelector('form.publication-filters').getBoundingClientRect();
              return [...document.querySelectorAll('.publication-filters input[type=search]')].map((box) => {
                const label = box.closest('label').firstChild;  // the label's words, before its box
                const range = document.createRange(); range.selectNodeContents(label);
                const words = range.getBoundingClientRect(), rect = box.getBoundingClientRect();
                return {below: rect.top >= words.bottom - 1, share: rect.width / form.width};
              }); }"""
        )
        assert len(boxes) == 2 and all(box["below"] and box["share"] >= 0.8 for box in boxes), boxes
    finally:
        page.context.close()
