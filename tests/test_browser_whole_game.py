"""In a real browser, the whole game's editors as players meet them: the strategy editor names each problem by
line while one types (before a name is given), the set-up builder gives the game's verdict as piles are ticked,
and a person takes a seat and answers the game's choices with the buttons. Synthetic cards only (the pool of
tests/test_endbreaker_compare_site.py). Playwright drives Debian's Chromium (tests/conftest.py) and skips
without it."""

from __future__ import annotations

import pytest

from .support.browser import signed_in_page
from .support.endbreaker_pool import synthetic_pool
from .users import make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_editors_show_the_servers_verdict_as_one_types_and_ticks(live_server, browser):
    from playwright.sync_api import expect

    from cards.services import sync_games

    sync_games()
    synthetic_pool()
    make_user("whole-game-player")
    base = live_server.url
    page = signed_in_page(browser, base, "whole-game-player", "/games/endbreaker/")
    violations: list[str] = []
    page.on("console", lambda message: violations.append(message.text) if "Content Security" in message.text else None)

    page.goto(f"{base}/simulator/games/endbreaker/strategies/new/")
    page.fill("#id_name", "")
    page.fill("#id_text", "gain *\ngain EB9-999\n")
    expect(page.locator("#strategy-verdict")).to_contain_text("Line 2: “EB9-999” is not a card of this game.")
    page.fill("#id_text", "gain テスト特技1\n")
    expect(page.locator("#strategy-verdict")).to_contain_text("without a problem")

    page.goto(f"{base}/simulator/games/endbreaker/play/")
    page.click("form.stacked-form button[type=submit]")
    page.wait_for_url(f"{base}/simulator/games/endbreaker/play/*/")
    prompt = page.locator("#choice-prompt")
    expect(prompt).to_be_visible()
    first = prompt.inner_text()
    page.locator("#choice button[name=answer]").first.click()
    page.wait_for_load_state()
    expect(page.locator("button", has_text="Take back my last answer")).to_be_visible()
    assert first and not violations, violations
