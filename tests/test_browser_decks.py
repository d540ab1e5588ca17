"""In a real browser: sign up, build a 水滸伝 deck with the htmx builder, watch the server's verdict."""

from __future__ import annotations

import pytest

from .support.browser import wait_until_true
from .support.suikoden_cards import import_test_cards
from .users import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _add(page, key: str, total: int) -> None:
    page.click(f'li.search-row[data-card="{key}"] button[value="lands"]')
    page.wait_for_selector(f'#zone-lands .zone-total[data-total="{total}"]')


def test_build_a_deck_and_see_the_verdict_change(live_server, page):
    from playwright.sync_api import expect

    import_test_cards()
    base = live_server.url

    # sign up: the new account lands on "My decks"
    page.goto(f"{base}/accounts/signup/")
    page.fill("input[name=username]", "builder")
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.click("form.stacked-form button[type=submit]")
    page.wait_for_url(f"{base}/decks/")
    expect(page.locator(".account-nav .user-name")).to_have_text("builder")

    # a new 水滸伝 deck: choosing the game brings its modes (htmx)
    page.click("a[href='/decks/new/']")
    page.wait_for_url(f"{base}/decks/new/")
    page.select_option("select[name=game]", "suikoden")
    page.wait_for_selector("select[name=mode] option[value=construction]", state="attached")
    page.fill("input[name=name]", "ブラウザのデッキ")
    page.click("form.stacked-form button[type=submit]")
    page.wait_for_url("**/decks/*/edit/")
    page.wait_for_load_state("networkidle")
    builder_url = page.url

    # remember this document: a reload would forget it
    page.evaluate("window.__sameDocument = true")

    # search the deck's game for lands
    page.fill(".builder-search-form input[name=q]", "テスト土地")
    page.wait_for_selector('li.search-row[data-card="テスト土地06"]')
    expect(page.locator("li.search-row")).to_have_count(8)
    # a land can only go among the lands
    expect(page.locator('li.search-row[data-card="テスト土地01"] button[name=zone]')).to_have_count(1)

    verdict = page.locator("#deck-verdict")
    expect(verdict.locator("ul.violations")).to_contain_text("土地：0枚（4〜10枚）")

    total = 0
    for index in range(1, 6):
        for _copy in range(2):
            total += 1
            _add(page, f"テスト土地{index:02d}", total)
    expect(page.locator("#zone-lands .size-rule")).to_have_class("size-rule ok")
    expect(verdict.locator("ul.violations")).not_to_contain_text("4〜10枚")

    # the 11th land breaks "4 to 10 lands"
    _add(page, "テスト土地06", 11)
    expect(verdict.locator("ul.violations")).to_contain_text("土地：11枚（4〜10枚）")
    expect(page.locator("#zone-lands .size-rule")).to_have_class("size-rule off")
    expect(page.locator("#deck-total")).to_have_text("11 枚")
    # the chart is redrawn from the data the server sent with the change
    wait_until_true(page, "JSON.stringify(Chart.getChart('chart-kind').data.datasets[0].data) === '[11]'")

    # a third copy of a land breaks "at most two of each land"
    page.click('#zone-lands li[data-card="テスト土地01"] button[value="1"]')
    expect(verdict.locator("ul.violations")).to_contain_text("テスト土地01：3枚（2枚まで）")
    page.click('#zone-lands li[data-card="テスト土地01"] button[value="-1"]')
    expect(verdict.locator("ul.violations")).not_to_contain_text("テスト土地01：3枚")

    # take one out again: the violation goes away
    page.click('#zone-lands li[data-card="テスト土地06"] button[value="-1"]')
    page.wait_for_selector('#zone-lands .zone-total[data-total="10"]')
    expect(page.locator('#zone-lands li[data-card="テスト土地06"]')).to_have_count(0)
    expect(verdict.locator("ul.violations")).not_to_contain_text("4〜10枚")
    expect(page.locator("#deck-total")).to_have_text("10 枚")
    wait_until_true(page, "JSON.stringify(Chart.getChart('chart-kind').data.datasets[0].data) === '[10]'")

    # bad input from a crafted request shows the server's message and changes nothing
    page.evaluate(
        """() => htmx.ajax('POST', location.pathname + 'entry/', {
               values: {zone: 'graveyard', card: '1', delta: '1'}, swap: 'none'})"""
    )
    expect(page.locator("#builder-message .error-message")).to_contain_text("graveyard")
    expect(page.locator("#deck-total")).to_have_text("10 枚")

    # all along: the same page, never reloaded; every change was saved on the server
    assert page.url == builder_url
    assert page.evaluate("window.__sameDocument") is True
    page.reload()
    page.wait_for_selector('#zone-lands .zone-total[data-total="10"]')
