"""The published decks' filter form on a phone: its controls are the site's form controls, as large as the card
search's (its words as easy to read, its boxes as easy to tap). Synthetic cards only."""

from __future__ import annotations

import pytest

from cards.services import sync_games

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}

MEASURE = """(selector) => {
  const element = document.querySelector(selector);
  const style = getComputedStyle(element);
  return {font: style.fontSize, height: Math.round(element.getBoundingClientRect().height)};
}"""


def measured(page, url: str, selectors: dict[str, str]) -> dict[str, dict]:
    page.goto(url)
    return {what: page.evaluate(MEASURE, selector) for what, selector in selectors.items()}


@pytest.mark.parametrize("locale", ["ja-JP", "en-US"])
def test_the_published_decks_filters_are_as_large_as_the_card_searchs_controls(live_server, browser, locale):
    sync_games()
    context = browser.new_context(viewport=PHONE, locale=locale)
    try:
        page = context.new_page()
        search = measured(
            page,
            f"{live_server.url}/search/?q=テスト",
            {"box": ".search-form input[type=search]", "list": ".search-form select", "button": ".search-form button"},
        )
        filters = measured(
            page,
            f"{live_server.url}/community/games/suikoden/decks/",
            {
                "box": ".publication-filters input[type=search]",
                "list": ".publication-filters select",
                "button": ".publication-filters button",
            },
        )
    finally:
        context.close()
    assert filters == search
