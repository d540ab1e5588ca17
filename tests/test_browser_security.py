"""In a real browser, under the site's Content-Security-Policy: the pages, htmx, the charts and the API docs
work, and the browser reports no violation of the policy."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from decks import services as deck_services
from decks.models import Deck

from .support.browser import wait_until_true
from .synthetic_decks import card, game, load_synthetic_cards

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "correct-horse-battery-42"


def watch_for_violations(page) -> list[str]:
    seen: list[str] = []

    def console(message) -> None:
        text = message.text
        if "Content Security Policy" in text or "Content-Security-Policy" in text or "Refused to" in text:
            seen.append(f"{page.url}: {text}")

    page.on("console", console)
    page.on("pageerror", lambda error: seen.append(f"page error: {error}"))
    return seen


def test_the_pages_work_under_the_content_security_policy(live_server, page):
    load_synthetic_cards()
    owner = get_user_model().objects.create_user("owner", password=PASSWORD)
    deck = deck_services.create_deck(
        owner=owner,
        game=game("suikoden"),
        name="テスト",
        visibility=Deck.Visibility.LINK,
        entries=[("characters", card("suikoden", "901"), 20), ("lands", card("suikoden", "903"), 2)],
    )
    violations = watch_for_violations(page)
    base = live_server.url

    page.goto(f"{base}/")
    page.goto(f"{base}/search/")
    page.fill("#search-input", "テスト林沖")
    expect(page.locator("#search-results")).to_contain_text("テスト林沖")

    # The language menu submits itself (site.js, not an inline handler).
    with page.expect_navigation():
        page.select_option("#language-select", "en")
    assert page.locator("html").get_attribute("lang") == "en"

    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=username]", "owner")
    page.fill("input[name=password]", PASSWORD)
    with page.expect_navigation():
        page.click("main button[type=submit]")

    page.goto(f"{base}/decks/{deck.pk}/")
    wait_until_true(page, "window.Chart !== undefined && Chart.getChart('chart-kind') !== undefined")
    page.click("button[data-copy='#share-url']")
    expect(page.locator("button[data-copy='#share-url']")).to_have_text("Copied")

    page.goto(f"{base}/decks/{deck.pk}/edit/")
    page.click('#zone-characters li[data-card="901"] button[value="1"]')
    expect(page.locator("#deck-total")).to_contain_text("23")

    page.goto(f"{base}/simulator/decks/{deck.pk}/goldfish/?seed=3")
    page.keyboard.press("n")
    wait_until_true(page, "new URLSearchParams(location.search).get('turn') === '1'")

    page.goto(f"{base}/api/docs/")
    expect(page.locator(".swagger-ui .info .title")).to_contain_text("Card site API")

    assert violations == []
