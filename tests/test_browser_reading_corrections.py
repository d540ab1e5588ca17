"""In a real browser on a phone's width (390 px): the symbols the reader restored as the game prints them are said
beside their values on a photo's review page, wrapped within the screen. The photo is stored as a done reading of a
synthetic card (no Tesseract); Playwright drives Debian's Chromium as the other browser tests do."""

from __future__ import annotations

import pytest

from .support.reading_submit import read_corrected_photo
from .users import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_corrections_are_readable_at_390_px(live_server, page, batch, reader):
    read_corrected_photo(batch, 4)
    base = live_server.url
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=username]", reader.username)
    page.fill("input[name=password]", PASSWORD)
    page.click("form.stacked-form button[type=submit]")
    page.wait_for_url(f"{base}/decks/")

    page.goto(f"{base}/readings/photos/{batch.pk}/4/")
    said = page.locator("[data-field=field_at] .reading-corrections li")
    # In the site's first language (the browser says none): Japanese.
    assert said.inner_text() == "「十」と読み取り、「＋」としました（このゲームは全角の記号で印刷しています）。"
    for item in page.locator(".reading-corrections li").all():
        assert item.is_visible()
        box = item.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
        # Wrapped, not cut: the text fits its own box.
        assert item.evaluate("element => element.scrollWidth <= element.clientWidth")
