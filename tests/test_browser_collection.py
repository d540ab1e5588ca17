"""In a real browser: fill a collection by pasting a list, build a deck from owned cards only, count one more copy
on a card page, and read the want list of another player's deck."""

from __future__ import annotations

import pytest

from decks import services as deck_services

from .synthetic_decks import card, game, load_synthetic_cards
from .users import PASSWORD, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_collect_build_from_owned_cards_and_read_a_want_list(live_server, page, monkeypatch):
    from playwright.sync_api import expect

    # Every change its own version (the site merges the changes of one minute into one): the diff below.
    monkeypatch.setattr(deck_services, "VERSION_COALESCE_SECONDS", 0)

    load_synthetic_cards()
    make_user("collector")
    other = make_user("lender")
    theirs = deck_services.create_deck(
        owner=other,
        game=game("shadowera"),
        name="他人のデッキ",
        visibility="link",
        entries=[
            ("hero", card("shadowera", "Test Hero 01"), 1),
            ("deck", card("shadowera", "Test Ally 01"), 3),
            ("deck", card("shadowera", "Test Ally 02"), 2),
        ],
    )
    base = live_server.url

    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=username]", "collector")
    page.fill("input[name=password]", PASSWORD)
    page.click("form.stacked-form button[type=submit]")
    page.wait_for_load_state("networkidle")

    # the collection, from the nav: paste a list (the decklist format) into the Shadow Era collection
    page.click(".account-nav a[href='/collection/']")
    page.wait_for_url(f"{base}/collection/")
    page.click("tr[data-game=shadowera] a[href='/collection/shadowera/import/']")
    page.fill("#paste-form textarea[name=text]", "2 Test Aly 01\n1 テストヒーロー01\n")
    page.click("#paste-form button[type=submit]")
    # a line it cannot read: nothing saved, the line named with the card it may mean
    expect(page.locator(".import-problems li[data-line='1']")).to_contain_text("TST-001")
    page.fill("#paste-form textarea[name=text]", "2 Test Ally 01\n1 テストヒーロー01\n")
    page.click("#paste-form button[type=submit]")
    page.wait_for_url(f"{base}/collection/shadowera/")
    expect(page.locator("tr[data-card='Test Ally 01'] .owned-count")).to_have_text("2")
    expect(page.locator("tr[data-card='Test Hero 01'] .owned-count")).to_have_text("1")

    # build a deck from the cards I own: the builder's search shows only them
    page.goto(f"{base}/decks/new/")
    page.select_option("select[name=game]", "shadowera")
    page.fill("input[name=name]", "所持カードのデッキ")
    page.click("form.stacked-form button[type=submit]")
    page.wait_for_url("**/decks/*/edit/")
    page.wait_for_load_state("networkidle")
    expect(page.locator('li.search-row[data-card="Test Ally 02"]')).to_have_count(1)
    page.check(".builder-search-form input[name=owned]")
    expect(page.locator('li.search-row[data-card="Test Ally 02"]')).to_have_count(0)
    expect(page.locator("li.search-row")).to_have_count(2)
    expect(page.locator('li.search-row[data-card="Test Ally 01"] .search-owned')).to_contain_text("2")
    page.click('li.search-row[data-card="Test Ally 01"] button[value="deck"]')
    page.wait_for_selector('#zone-deck .zone-total[data-total="1"]')
    page.click('li.search-row[data-card="Test Hero 01"] button[value="hero"]')
    page.wait_for_selector('#zone-hero .zone-total[data-total="1"]')
    builder_url = page.url

    # the deck's history: the last change against the one before, as a diff
    page.goto(builder_url.replace("/edit/", "/history/"))
    page.click("ol.versions > li:first-child a[href*='/diff/']")  # the newest version, against the one before
    page.wait_for_url("**/diff/?a=*")
    expect(page.locator(".deck-diff .diff-added")).to_have_count(1)
    expect(page.locator(".deck-diff .diff-added")).to_contain_text("Test Hero 01")
    expect(page.locator(".deck-diff .diff-removed")).to_have_count(0)

    # one more copy bought: + on the card's page, the server's count shown
    page.goto(f"{base}/games/shadowera/cards/Test%20Ally%2002/")
    expect(page.locator(".owned-control .owned-count")).to_have_text("0")
    page.click(".owned-control button.owned-plus")
    expect(page.locator(".owned-control .owned-count")).to_have_text("1")

    # another player's deck: what my collection lacks for it, and the want list to take shopping
    page.goto(f"{base}/decks/shared/{theirs.share_token}/")
    page.click(f"a[href='/collection/decks/{theirs.pk}/wants/?token={theirs.share_token}']")
    page.wait_for_url(f"{base}/collection/decks/{theirs.pk}/wants/?token={theirs.share_token}")
    expect(page.locator("tr[data-card='Test Ally 01'] td").nth(4)).to_have_text("1")
    expect(page.locator("tr[data-card='Test Ally 02'] td").nth(4)).to_have_text("1")
    expect(page.locator("tr[data-card='Test Hero 01'] td").nth(4)).to_have_text("—")
    text = page.request.get(f"{base}/collection/decks/{theirs.pk}/wants/?format=text&token={theirs.share_token}").text()
    assert [line.split(" ", 1)[0] for line in text.splitlines()[1:]] == ["1", "1"]
