"""In a real browser: a deck's sample hand (buttons and keys, htmx, no reload) and a Monte Carlo run's charts."""

from __future__ import annotations

import re

import pytest

from .support.browser import wait_until_true
from .support.goldfish import make_deck
from .support.tasks import IMMEDIATE
from .synthetic_decks import load_synthetic_cards
from .users import PASSWORD, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _turn(page) -> str:
    return page.locator("#goldfish").get_attribute("data-turn")


def test_sample_hand_draw_and_next_turn_by_button_and_key(live_server, page):
    from playwright.sync_api import expect

    load_synthetic_cards()
    deck = make_deck("shadowera", make_user("owner"))
    base = live_server.url

    page.goto(f"{base}/decks/shared/{deck.share_token}/")
    page.click("a.goldfish-link")
    page.wait_for_url(re.compile(r"/goldfish/\?seed=\d+"))
    page.wait_for_load_state("networkidle")
    seed = re.search(r"seed=(\d+)", page.url).group(1)
    page.evaluate("window.__sameDocument = true")  # a reload would forget it

    hand = page.locator("#gf-zone-hand li.gf-card")
    expect(hand).to_have_count(6)  # Shadow Era: 6 cards to start

    # draw one card (outside the turn structure): the hand grows, the address keeps the draw
    page.click("#goldfish-draw")
    expect(hand).to_have_count(7)
    expect(page).to_have_url(re.compile(r"draws=0"))
    expect(page.locator("#gf-turn-log")).to_contain_text("追加ドロー")

    # next turn: the log of turn 1 replaces the deal's
    page.click("#goldfish-next")
    expect(page.locator("#goldfish")).to_have_attribute("data-turn", "1")
    expect(page.locator("#gf-turn-log h2")).to_have_text("ターン1のログ")
    expect(page).to_have_url(re.compile(r"turn=1"))

    # the same by key: n plays turn 2, d draws
    page.keyboard.press("n")
    expect(page.locator("#goldfish")).to_have_attribute("data-turn", "2")
    expect(page.locator("#gf-turn-log h2")).to_have_text("ターン2のログ")
    before = hand.count()
    page.keyboard.press("d")
    expect(hand).to_have_count(before + 1)
    expect(page).to_have_url(re.compile(r"draws=0%2C2|draws=0,2"))

    # the address replays exactly: open it afresh and see the same hand
    names = hand.all_inner_texts()
    replay = page.context.new_page()
    replay.goto(page.url)
    expect(replay.locator("#gf-zone-hand li.gf-card")).to_have_count(len(names))
    assert replay.locator("#gf-zone-hand li.gf-card").all_inner_texts() == names
    replay.close()

    assert page.evaluate("window.__sameDocument") is True, "before r"
    # r deals a new hand with a new seed
    page.keyboard.press("r")
    expect(page.locator("#goldfish")).to_have_attribute("data-turn", "0")
    expect(hand).to_have_count(6)
    assert re.search(r"seed=(\d+)", page.url).group(1) != seed

    assert page.evaluate("window.__sameDocument") is True, "after r"
    # keys typed into a form field are not shortcuts
    page.fill("#param-opponent_health", "")
    page.locator("#param-opponent_health").press("n")
    assert _turn(page) == "0"

    assert page.evaluate("window.__sameDocument") is True


def test_a_monte_carlo_run_shows_its_charts(live_server, page, settings):
    settings.TASKS = IMMEDIATE  # the live server plays the run inside the request
    load_synthetic_cards()
    owner = make_user("runner")
    deck = make_deck("shadowera", owner)
    base = live_server.url

    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=username]", "runner")
    page.fill("input[name=password]", PASSWORD)
    page.click("form.stacked-form button[type=submit]")
    page.wait_for_url(f"{base}/decks/")

    page.goto(f"{base}/simulator/decks/{deck.pk}/simulate/")
    page.fill("input[name=games]", "800")
    page.fill("input[name=turns]", "8")
    page.click(".simulate-form button[type=submit]")
    page.wait_for_url(re.compile(r"/simulate/\d+/$"))
    page.wait_for_selector("#run[data-status=done]")
    wait_until_true(page, "window.Chart && Chart.getChart('sim-chart-damage') !== undefined")
    labels = page.evaluate("Chart.getChart('sim-chart-damage').data.labels")
    assert labels == list(range(1, 9))
    assert page.locator("table.sim-turns tbody tr").count() == 8


def test_the_odds_calculator_groups_are_chosen_by_typing_a_name(live_server, page):
    from playwright.sync_api import expect

    load_synthetic_cards()
    deck = make_deck("suikoden", make_user("owner"))
    page.goto(f"{live_server.url}/simulator/decks/shared/{deck.share_token}/odds/")
    page.wait_for_load_state("networkidle")
    chips_a, chips_b = page.locator("#chips-a .chip"), page.locator("#chips-b .chip")

    # typing asks the server for the deck's cards; a click on one makes it a chip of the group
    page.fill("#find-a", "901")
    suggestion = page.locator("#suggest-a .chip-suggestion")
    expect(suggestion).to_have_count(1)
    suggestion.click()
    expect(chips_a).to_have_count(1)
    expect(page.locator("#chips-a input[type=hidden][name=group_a]")).to_have_value("901")
    expect(page.locator("#find-a")).to_have_value("")  # emptied for the next card
    # Enter takes the first suggestion; a card already in a group is not offered again
    page.fill("#find-b", "90")
    expect(page.locator("#suggest-b .chip-suggestion")).to_have_count(2)  # the deck's other cards numbered 90…
    expect(page.locator("#suggest-b .chip-suggestion[data-card='901']")).to_have_count(0)
    page.fill("#find-b", "902")
    expect(page.locator("#suggest-b .chip-suggestion")).to_have_count(1)
    page.press("#find-b", "Enter")
    expect(chips_b).to_have_count(1)

    page.fill("input[name=b]", "1")
    page.click(".calculator-form button[type=submit]")
    answer = page.locator("#calc-result .calc-answer")
    expect(answer).to_contain_text("10")
    assert float(answer.get_attribute("data-percent")) > 0

    # × takes a card out of its group
    chips_a.locator("[data-remove-chip]").click()
    expect(chips_a).to_have_count(0)
    expect(page.locator("input[name=group_a]")).to_have_count(0)


def test_the_odds_table_fits_a_wide_screen_and_scrolls_in_its_box_on_a_phone(live_server, page):
    load_synthetic_cards()
    deck = make_deck("shadowera", make_user("owner"))
    width = "[document.documentElement.scrollWidth, document.querySelector('#odds-table').scrollWidth]"
    for screen, fits in ((1280, True), (390, False)):
        page.set_viewport_size({"width": screen, "height": 900})
        page.goto(f"{live_server.url}/simulator/decks/shared/{deck.share_token}/odds/")
        document, table = page.evaluate(width)
        box = page.evaluate("document.querySelector('#odds-table').clientWidth")
        assert document == screen, f"the page is wider than the {screen} px screen"
        assert (table <= box) is fits, (screen, table, box)
    # on a phone the card's name stays in view while the turns scroll
    page.evaluate("document.querySelector('#odds-table').scrollLeft = 300")
    name = page.locator("#odds-table tbody th").first.bounding_box()
    assert name["x"] >= 0 and name["x"] < 30


def test_a_table_wider_than_a_phone_takes_the_keyboard_to_scroll_it(live_server, page):
    """site.js measures the tables once the page has painted (not on DOMContentLoaded, where it held the first
    paint back): a table that scrolls sideways still joins the Tab order, and leaves it when the screen widens."""
    load_synthetic_cards()
    deck = make_deck("shadowera", make_user("owner"))
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_server.url}/simulator/decks/shared/{deck.share_token}/odds/")
    wait_until_true(page, "document.querySelector('#odds-table').getAttribute('tabindex') === '0'")
    page.focus("#odds-table")
    page.keyboard.press("ArrowRight")
    wait_until_true(page, "document.querySelector('#odds-table').scrollLeft > 0")
    page.set_viewport_size({"width": 1280, "height": 900})
    wait_until_true(page, "!document.querySelector('#odds-table').hasAttribute('tabindex')")
