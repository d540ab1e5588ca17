"""In a real browser: typing in the search box updates the results in place, and Back undoes it."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest
from django.core.management import call_command

from cards.search.selectors import prepare_search


@pytest.mark.browser
def test_typing_a_query_updates_the_results_in_place_and_back_restores_them(live_server, transactional_db, page):
    call_command("loadcards", verbosity=0)
    expected_count = prepare_search("职业", "ja").cards.count()
    assert expected_count > 1
    page.goto(f"{live_server.url}/search/")
    page.wait_for_load_state("networkidle")
    results = page.locator("#search-results")
    assert results.locator(".hint").is_visible()
    assert results.locator("mark").count() == 0
    # a full page load would lose this
    page.evaluate("window.__searchPageMarker = 'still here'")

    page.fill("#search-input", "职业")

    # htmx swaps the results in after the typing pause, no page load
    results.locator("a", has_text="練刺棍").wait_for()
    assert results.locator("mark", has_text="職業").count() > 0
    assert results.locator(".result-count").inner_text().strip().startswith(str(expected_count))
    assert results.locator("tbody tr").count() == expected_count
    assert page.evaluate("window.__searchPageMarker") == "still here"
    # and the query is in the address bar, so the results can be shared or reloaded
    page.wait_for_url("**/search/?*")
    assert parse_qs(urlsplit(page.url).query)["q"] == ["职业"]

    page.go_back()

    page.wait_for_url(f"{live_server.url}/search/")
    results.locator(".hint").wait_for()
    assert results.locator("a", has_text="練刺棍").count() == 0
    assert results.locator("mark").count() == 0
    assert page.locator("#search-input").count() == 1, "the page came back without its search box"
    assert page.locator("#search-input").input_value() == ""


@pytest.mark.browser
def test_after_back_the_search_box_shows_the_query_of_the_results_shown(live_server, transactional_db, page):
    call_command("loadcards", verbosity=0)
    page.goto(f"{live_server.url}/search/")
    page.wait_for_load_state("networkidle")
    results = page.locator("#search-input")
    page.fill("#search-input", "职业")
    page.locator("#search-results a", has_text="練刺棍").wait_for()
    page.wait_for_url("**/search/?*")
    page.fill("#search-input", "zzzzqqq")
    page.locator("#search-results .no-results").wait_for()
    assert "zzzzqqq" in page.locator("#search-results .no-results").inner_text()

    page.go_back()

    page.locator("#search-results a", has_text="練刺棍").wait_for()
    assert parse_qs(urlsplit(page.url).query)["q"] == ["职业"]
    assert results.input_value() == "职业"
    assert page.locator(".site-search").count() == 0  # the page's own box is the one box that shows the query

    page.go_forward()

    page.locator("#search-results .no-results").wait_for()
    assert results.input_value() == "zzzzqqq"
