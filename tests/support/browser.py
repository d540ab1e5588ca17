"""Helpers for the browser tests."""

from __future__ import annotations

import time


def wait_until_true(page, expression: str, timeout: float = 10.0) -> None:
    """Poll ``expression`` in the page until it is true.

    Playwright's wait_for_function evaluates its predicate with eval() inside the page, which the
    site's Content-Security-Policy forbids; page.evaluate goes through the debugging protocol instead.
    """
    deadline = time.monotonic() + timeout
    while not page.evaluate(expression):
        if time.monotonic() > deadline:
            raise AssertionError(f"still false after {timeout} s: {expression}")
        page.wait_for_timeout(50)


def signed_in_page(browser, base: str, username: str, then: str):
    """A new English page signed in as ``username`` through the log-in form, landed on ``then`` (a path)."""
    from tests.users import PASSWORD

    page = browser.new_context(locale="en-US").new_page()
    page.goto(f"{base}/accounts/login/?next={then}")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("form.stacked-form button[type=submit]")
    page.wait_for_url(f"{base}{then}")
    return page


def signed_in_phone(browser, base: str, username: str, language: str = "en-US"):
    """A page at a phone's size (390 × 844) reading the site in ``language``, signed in as ``username`` through
    the log-in form; its context is closed with ``page.context.close()``."""
    from tests.users import PASSWORD

    context = browser.new_context(
        viewport={"width": 390, "height": 844}, locale=language, extra_http_headers={"Accept-Language": language}
    )
    page = context.new_page()
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("form.stacked-form button[type=submit]")
    page.wait_for_load_state("networkidle")
    return page
