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
