"""The phone as a first-class screen: every page with a layout of its own, opened at 390 × 844 in Japanese,
Traditional Chinese and English, must not scroll sideways, must keep its header to a quarter of the screen,
must open with a working "skip to content" link, and must show axe-core no serious or critical violation.

axe-core (npm, node_modules/axe-core) is put into the page by the browser driver through the debugging
protocol, never by the site: the site's own pages carry no test code, and its Content-Security-Policy stays
as it is served. Synthetic cards only (tests/synthetic_decks.py).
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import override_settings

from cards.models import Card
from decks.models import Deck

from .support.browser import signed_in_phone
from .support.goldfish import make_deck
from .support.phone import AXE, phone_problems
from .support.tasks import IMMEDIATE
from .synthetic_decks import load_synthetic_cards
from .users import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
READERS = {"ja": "ja-JP", "zh-hant": "zh-TW", "en": "en-US"}


def _pages(decks: dict[str, Deck]) -> list[tuple[str, str]]:
    """(what, address) of every page with a layout of its own."""
    suikoden = decks["suikoden"]
    card = Card.objects.filter(game__slug="suikoden").order_by("pk").first()
    assert card is not None
    return [
        ("home", "/"),
        ("a game", "/games/suikoden/"),
        ("a whole game's page", "/games/endbreaker/"),
        ("search results", "/search/?q=テスト"),
        ("search syntax", "/search/syntax/"),
        ("a game's cards", "/games/suikoden/cards/"),
        ("a card", f"/games/suikoden/cards/{card.key}/"),
        ("a card's history", f"/games/suikoden/cards/{card.key}/history/"),
        ("glossary", "/games/suikoden/glossary/"),
        ("my decks", "/decks/"),
        ("new deck", "/decks/new/"),
        ("published decks", "/community/decks/published/"),
        ("a deck", f"/decks/{suikoden.pk}/"),
        ("the builder", f"/decks/{suikoden.pk}/edit/"),
        ("deck settings", f"/decks/{suikoden.pk}/settings/"),
        ("import a list", "/decks/import/"),
        ("the goldfish hand", f"/simulator/decks/{suikoden.pk}/goldfish/?seed=7&turn=3"),
        ("odds", f"/simulator/decks/{suikoden.pk}/odds/"),
        ("simulate", f"/simulator/decks/{suikoden.pk}/simulate/"),
        ("the whole game's comparison", "/simulator/games/endbreaker/compare/"),
        ("a seated game", "/simulator/games/endbreaker/play/"),
        ("add a card", "/contributions/games/suikoden/contribute/"),
        ("my contributions", "/contributions/"),
        ("my collection", "/collection/"),
        ("notifications", "/notifications/"),
    ]


def _log_in(browser, base: str, username: str, locale: str):
    page = signed_in_phone(browser, base, username, locale)
    return page.context, page


@pytest.mark.parametrize("language", READERS)
@override_settings(TASKS=IMMEDIATE)
def test_every_page_fits_a_phone_and_passes_axe(live_server, browser, language):
    from cards.services import sync_games

    sync_games()
    load_synthetic_cards()
    user = get_user_model().objects.create_user("phone-reader", password=PASSWORD)
    decks = {slug: make_deck(slug, user, visibility=Deck.Visibility.PRIVATE) for slug in ("suikoden",)}
    axe_source = AXE.read_text(encoding="utf-8")

    context, page = _log_in(browser, live_server.url, user.username, READERS[language])
    problems: dict[str, list[str]] = {}
    try:
        for what, path in _pages(decks):
            page.goto(live_server.url + path)
            page.wait_for_load_state("networkidle")
            found = phone_problems(page, axe_source, PHONE["height"])
            if found:
                problems[what] = found
    finally:
        context.close()
    assert problems == {}, "\n".join(f"{what}: {found}" for what, found in problems.items())


@pytest.mark.parametrize("width", [PHONE["width"], 1280])
def test_the_menu_folds_on_a_phone_and_lies_open_on_a_wide_screen(live_server, browser, width):
    from playwright.sync_api import expect

    from cards.services import sync_games

    sync_games()
    context = browser.new_context(viewport={"width": width, "height": 844}, locale="en-US")
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/")
        # the skip link shows when the keyboard reaches it, and leads to the content
        page.keyboard.press("Tab")
        skip = page.locator(".skip-link")
        expect(skip).to_be_focused()
        expect(skip).to_have_text("Skip to content")
        assert page.evaluate("getComputedStyle(document.querySelector('.skip-link')).clipPath") == "none"
        page.keyboard.press("Enter")
        assert page.evaluate("location.hash") == "#main"
        my_decks = page.locator(".account-nav a[href='/decks/']")
        if width == PHONE["width"]:
            expect(my_decks).to_be_hidden()
            page.click(".site-menu-button")
            expect(my_decks).to_be_visible()
            assert page.evaluate("document.scrollingElement.scrollWidth") <= width
        else:
            expect(page.locator(".site-menu-button")).to_be_hidden()
            expect(my_decks).to_be_visible()
    finally:
        context.close()


def _signed_in_with_deck(browser, base: str, username: str, slug: str, locale: str):
    """The synthetic cards, a reader with a private synthetic deck of ``slug``, signed in on a phone."""
    from cards.services import sync_games

    sync_games()
    load_synthetic_cards()
    user = get_user_model().objects.create_user(username, password=PASSWORD)
    deck = make_deck(slug, user, visibility=Deck.Visibility.PRIVATE)
    context, page = _log_in(browser, base, user.username, locale)
    return deck, context, page


def test_the_builder_reaches_the_deck_from_its_search_box_in_a_few_keys(live_server, browser):
    deck, context, page = _signed_in_with_deck(browser, live_server.url, "keyboard-builder", "suikoden", "en-US")
    try:
        page.goto(f"{live_server.url}/decks/{deck.pk}/edit/")
        page.fill(".builder-search-form input[name=q]", "テスト")
        page.wait_for_selector("li.search-row")
        assert page.locator("li.search-row button.add").count() >= 5  # the results that the keys skip
        page.focus(".builder-search-form input[name=q]")
        keys = []
        while not page.evaluate("!!document.activeElement.closest('#builder-deck .entry')"):
            on_skip_link = page.evaluate("document.activeElement.getAttribute('href') === '#builder-deck'")
            if on_skip_link:
                assert page.evaluate("getComputedStyle(document.activeElement).clipPath") == "none"
            keys.append("Enter" if on_skip_link else "Tab")
            page.keyboard.press(keys[-1])
            assert len(keys) <= 6, f"still not in the deck after {keys}"
    finally:
        context.close()


VERDICT_PLACE = """() => {
  const verdict = document.getElementById('deck-verdict');
  const results = document.getElementById('search-results');
  const box = verdict.querySelector('.verdict-summary').getBoundingClientRect();
  const deck = document.getElementById('builder-deck').getBoundingClientRect();
  return {
    beforeResults: !!(verdict.compareDocumentPosition(results) & Node.DOCUMENT_POSITION_FOLLOWING),
    summaryTop: box.top, summaryBottom: box.bottom, deckRight: deck.right, verdictLeft: box.left,
  };
}"""


def test_the_builders_verdict_is_read_first_on_a_phone_and_kept_in_sight_on_a_wide_screen(live_server, browser):
    """A phone shows the verdict above the search; a screen reader and the keyboard meet it there too, before the
    results. A wide screen keeps it in its own column right of the deck, in sight as the deck scrolls."""
    deck, context, page = _signed_in_with_deck(browser, live_server.url, "verdict-first", "suikoden", "en-US")
    try:
        page.goto(f"{live_server.url}/decks/{deck.pk}/edit/")
        phone = page.evaluate(VERDICT_PLACE)
        assert phone["beforeResults"], "the verdict is read after the search results"
        assert phone["summaryTop"] >= 0 and phone["summaryBottom"] <= PHONE["height"], phone
        page.focus(".builder-search-form input[name=q]")
        page.keyboard.press("Shift+Tab")
        assert page.evaluate("!!document.activeElement.closest('#deck-verdict')"), "Shift+Tab misses the verdict"

        page.set_viewport_size({"width": 1400, "height": 900})
        page.evaluate("window.scrollTo(0, document.scrollingElement.scrollHeight)")
        wide = page.evaluate(VERDICT_PLACE)
        assert wide["verdictLeft"] >= wide["deckRight"], "the verdict left its column right of the deck"
        assert wide["summaryTop"] >= 0 and wide["summaryBottom"] <= 900, wide
    finally:
        context.close()


@override_settings(TASKS=IMMEDIATE)
def test_a_disabled_button_looks_disabled(live_server, browser):
    from cards.services import sync_games

    sync_games()  # no cards: a whole game cannot start, its Start button is disabled
    user = get_user_model().objects.create_user("disabled-reader", password=PASSWORD)
    context, page = _log_in(browser, live_server.url, user.username, "en-US")
    try:
        page.goto(f"{live_server.url}/simulator/games/endbreaker/play/")
        style = """(selector) => {
          const button = document.querySelector(selector);
          const css = getComputedStyle(button);
          return {disabled: button.disabled, background: css.backgroundColor, cursor: css.cursor};
        }"""
        start = page.evaluate(style, "form button[type=submit].primary")
        assert start["disabled"]
        assert start["cursor"] == "not-allowed"
        accent = page.evaluate("getComputedStyle(document.querySelector('.skip-link')).borderTopColor")
        assert start["background"] != accent
    finally:
        context.close()


# How many lines an element's text takes, and how much of a table's box its rows leave empty at the right.
LINES = """(selector) => [...document.querySelectorAll(selector)].map((element) => {
  const range = document.createRange();
  range.selectNodeContents(element);
  return new Set([...range.getClientRects()].filter((rect) => rect.width > 0).map((rect) => Math.round(rect.top))).size;
})"""
TABLE_GAP = """() => [...document.querySelectorAll('main table')].map((table) => {
  const row = table.querySelector('tr');
  return row ? Math.round(table.getBoundingClientRect().right - row.getBoundingClientRect().right) : 0;
})"""


@pytest.mark.parametrize("language", ["zh-hant", "ja"])
def test_the_search_form_and_tables_keep_their_shape_on_a_phone_and_a_wide_screen(live_server, browser, language):
    """Seen on the screenshot review: on a phone the search box was a sliver beside its order and the syntax link
    broke mid-word (搜尋語/法), a short table left an empty band right of its rows; on a narrower desktop window a
    card's number (EB9-/001) and kind (特/技) broke over two lines."""
    from cards.services import sync_games

    sync_games()
    load_synthetic_cards()
    phone = browser.new_context(viewport=PHONE, locale=READERS[language])
    desktop = browser.new_context(viewport={"width": 700, "height": 844}, locale=READERS[language])
    try:
        page = phone.new_page()
        page.goto(f"{live_server.url}/search/?q=テスト")
        form = page.evaluate(
            "() => [document.querySelector('.search-form').clientWidth,"
            " document.querySelector('.search-form input[type=search]').getBoundingClientRect().width]"
        )
        assert form[1] >= form[0] * 0.6, f"the search box takes {form[1]} of {form[0]} px"
        assert page.evaluate(LINES, ".search-form .syntax-link") == [1]
        page.goto(f"{live_server.url}/games/suikoden/cards/")
        gaps = page.evaluate(TABLE_GAP)
        assert gaps and all(gap <= 2 for gap in gaps), f"empty band right of the rows: {gaps} px"

        page = desktop.new_page()
        page.goto(f"{live_server.url}/search/?q=テスト")
        numbers = page.evaluate(LINES, ".search-results tbody td:nth-child(2)")
        kinds = page.evaluate(LINES, ".search-results tbody td:nth-child(4)")
        assert numbers and set(numbers) == {1}, numbers
        assert kinds and set(kinds) == {1}, kinds
    finally:
        phone.close()
        desktop.close()


# The space between buttons of a group that lie on different rows (a negative or zero space: they touch).
ROW_GAPS = """(selector) => {
  const boxes = [...document.querySelectorAll(selector)].map((element) => element.getBoundingClientRect());
  const gaps = [];
  boxes.forEach((upper) => boxes.forEach((lower) => {
    if (lower.top >= upper.bottom - 1 && lower.left < upper.right && lower.right > upper.left) {
      gaps.push(Math.round(lower.top - upper.bottom));
    }
  }));
  return gaps;
}"""


def test_the_deck_actions_keep_their_gaps_and_the_screen_on_a_phone(live_server, browser):
    """Seen on the screenshot review: in the builder the four whole-game buttons wrapped row on row, touching; on
    the deck page the "Picture and print" menu, opened, ran past the right edge of the screen."""
    deck, context, page = _signed_in_with_deck(browser, live_server.url, "whole-game-phone", "endbreaker", "en-US")
    try:
        for path in (f"/decks/{deck.pk}/edit/", f"/decks/{deck.pk}/"):
            page.goto(live_server.url + path)
            gaps = page.evaluate(ROW_GAPS, ".deck-whole-game .button")
            assert gaps, f"{path}: the whole-game buttons are not on several rows"
            assert min(gaps) >= 4, f"{path}: rows of buttons {gaps} px apart"
        page.click(".deck-print summary")
        menu = page.evaluate(
            "() => [document.querySelector('.deck-print ul').getBoundingClientRect().right,"
            " document.scrollingElement.scrollWidth]"
        )
        assert max(menu) <= PHONE["width"], f"the print menu ends at {menu[0]} px, the page is {menu[1]} px wide"
    finally:
        context.close()


def test_the_comment_box_stands_under_its_label_across_the_column(live_server, browser):
    """Seen on the screenshot review: the label of a published deck's comment box sat at the foot of a small box
    beside it, a third of the column wide."""
    from community import services as community_services

    deck, context, page = _signed_in_with_deck(browser, live_server.url, "comment-phone", "suikoden", "ja-JP")
    publication = community_services.publish(deck, user=deck.owner, title="テスト公開")
    try:
        page.goto(f"{live_server.url}/community/decks/published/{publication.pk}/")
        box = page.evaluate(
            """() => {
              const form = document.querySelector('.comment-form').getBoundingClientRect();
              const label = document.querySelector('.comment-form label').getBoundingClientRect();
              const area = document.querySelector('.comment-form textarea').getBoundingClientRect();
              return {form: form.width, area: area.width, labelBottom: label.bottom, areaTop: area.top};
            }"""
        )
        assert box["area"] >= box["form"] * 0.9, box
        assert box["labelBottom"] <= box["areaTop"], box
    finally:
        context.close()


def test_the_review_queue_and_the_collection_keep_their_words_apart_in_english(live_server, browser):
    """Seen on the screenshot review: the review queue's game links ran together ("Endbreaker! SCGShadow Era"); the
    collection's table ran past a phone's screen, its links a word a line."""
    from cards.models import Game
    from cards.services import sync_games
    from contributions.models import GameRole

    sync_games()
    editor = get_user_model().objects.create_user("queue-phone", password=PASSWORD)
    for game in Game.objects.all():
        GameRole.objects.create(user=editor, game=game, role=GameRole.Role.EDITOR)
    context, page = _log_in(browser, live_server.url, editor.username, "en-US")
    try:
        page.goto(f"{live_server.url}/contributions/review/")
        gaps = page.evaluate(
            """() => {
              // each link's pieces on the screen: where one link ends and the next begins on the same row
              const links = [...document.querySelectorAll('nav.filter-links a')].map((a) => [...a.getClientRects()]);
              return links.slice(1).map((pieces, index) => {
                const end = links[index][links[index].length - 1];
                return Math.abs(pieces[0].top - end.top) < 2 ? Math.round(pieces[0].left - end.right) : null;
              }).filter((gap) => gap !== null);
            }"""
        )
        assert gaps and min(gaps) >= 4, f"links {gaps} px apart on a row"
        # and the collection's table fits the screen in English (its heads pushed the links out of sight)
        page.goto(f"{live_server.url}/collection/")
        table = page.evaluate(
            "() => { const table = document.querySelector('table.collection-games');"
            " return [table.scrollWidth, table.clientWidth]; }"
        )
        assert table[0] <= table[1], f"the collection's table is {table[0]} px wide in a {table[1]} px box"
    finally:
        context.close()


def test_a_fields_help_stands_under_the_field_on_a_phone(live_server, browser):
    """Seen on the screenshot review: on the photo reader's form the help of the file field ran on from the
    field's line in English and Chinese (and under it in Japanese)."""
    from cards.services import sync_games

    sync_games()
    get_user_model().objects.create_user("help-phone", password=PASSWORD)
    context, page = _log_in(browser, live_server.url, "help-phone", "en-US")
    try:
        page.goto(f"{live_server.url}/readings/photos/")
        places = page.evaluate(
            """() => [...document.querySelectorAll('.stacked-form .field')]
              .filter((field) => field.querySelector('.help'))
              .map((field) => {
                const control = field.querySelector('input, select').getBoundingClientRect();
                const help = field.querySelector('.help').getBoundingClientRect();
                return [Math.round(control.bottom), Math.round(help.top), Math.round(help.left - control.left)];
              })"""
        )
        assert places, "no field with a help on the page"
        assert all(top >= bottom and left == 0 for bottom, top, left in places), places
    finally:
        context.close()
