"""In a real browser: read a card and switch the interface language with the switcher."""

from __future__ import annotations

import re

import pytest
from django.core.management import call_command

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _html_lang(page) -> str:
    return page.locator("html").get_attribute("lang")


def test_card_page_and_language_switcher(live_server, page):
    call_command("loadcards", verbosity=0)
    url = f"{live_server.url}/games/endbreaker/cards/EB1-009/"

    page.goto(url)

    # the browser asks for Japanese (context locale ja-JP): the page is in Japanese
    assert _html_lang(page) == "ja"
    japanese = page.locator('section.card-text[lang="ja"]')
    assert japanese.is_visible()
    assert "『１０００ダルク』２枚を獲得する。" in japanese.inner_text()
    chinese = page.locator('section.card-text[lang="zh-hant"]')
    assert "可獲得1000元2張" in chinese.inner_text()
    label = page.locator("label[for=language-select]").inner_text()
    kind = page.locator("dl.card-fields dt").first.inner_text()
    assert page.locator("#language-select").input_value() == "ja"

    # choosing 繁體中文 submits the switcher and reloads this page in Chinese
    with page.expect_navigation():
        page.select_option("#language-select", "zh-hant")
    page.wait_for_load_state()

    assert page.url == url
    assert _html_lang(page) == "zh-hant"
    assert page.locator("#language-select").input_value() == "zh-hant"
    assert page.locator("label[for=language-select]").inner_text() != label
    assert page.locator("dl.card-fields dt").first.inner_text() != kind
    # the card texts do not change with the interface language
    assert "『１０００ダルク』２枚を獲得する。" in page.locator('section.card-text[lang="ja"]').inner_text()

    # and English; the choice is remembered on the next page
    with page.expect_navigation():
        page.select_option("#language-select", "en")
    assert _html_lang(page) == "en"
    assert page.locator("label[for=language-select]").inner_text() == "Language"
    page.goto(f"{live_server.url}/games/endbreaker/cards/EB1-008/")
    assert _html_lang(page) == "en"
    assert page.locator('dd[data-field="at"] .unknown').inner_text() == "unknown"
    assert re.search(r"\bPT\b", page.locator('dd[data-field="cost"]').inner_text())


def test_back_to_a_filtered_card_list_shows_the_whole_page(live_server, page):
    call_command("loadcards", verbosity=0)
    page.goto(f"{live_server.url}/games/endbreaker/cards/")
    page.wait_for_load_state("networkidle")

    # filter by kind: htmx swaps in the rows and puts ?kind=ability into the address bar
    page.click("nav.kind-filter a[href='?kind=ability']")
    page.wait_for_url("**/cards/?kind=ability")
    page.wait_for_load_state("networkidle")
    assert page.locator("#card-rows tbody tr").count() == 21

    # open a card, then go back
    page.click("#card-rows tbody tr a >> nth=0")
    page.wait_for_url("**/cards/EB1-008/")
    page.go_back()
    page.wait_for_url("**/cards/?kind=ability")
    page.wait_for_load_state("networkidle")

    assert page.locator("#language-select").count() == 1, "the page came back without its header"
    assert page.locator("nav.kind-filter").count() == 1
    assert page.locator("#card-rows tbody tr").count() == 21


def test_a_glossary_term_opens_its_explanation_on_a_tap(live_server, browser):
    call_command("loadcards", verbosity=0)
    phone = {"width": 390, "height": 844}
    context = browser.new_context(locale="ja-JP", viewport=phone, has_touch=True, is_mobile=True)
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/games/endbreaker/cards/EB1-011/")
        term = page.locator("button.term-word").first
        gloss = page.locator("#" + term.get_attribute("aria-controls"))
        assert gloss.inner_text().strip() and not gloss.is_visible()

        term.tap()
        assert gloss.is_visible() and term.get_attribute("aria-expanded") == "true"
        box = gloss.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390  # on the screen, not past its edge

        term.tap()  # a second tap closes it
        assert not gloss.is_visible()
        term.tap()
        page.locator("h1").tap()  # and so does a tap elsewhere
        assert not gloss.is_visible()
        term.focus()
        page.keyboard.press("Enter")  # the keyboard opens it too, and Escape closes it
        assert gloss.is_visible()
        page.keyboard.press("Escape")
        assert not gloss.is_visible()
    finally:
        context.close()
