"""In a real browser: the review page of a photo whose reading is unsure, of a card the site has, submitted without
touching anything, changes nothing (no change set, the card as it was). The photo is stored as a done reading of a
synthetic card (no Tesseract); Playwright drives Debian's Chromium as the other browser tests do."""

from __future__ import annotations

import pytest

from .users import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_submitting_the_review_page_untouched_changes_nothing(live_server, page, batch, reader):
    from cards.models import Card
    from cards.services import card_state
    from contributions.models import ChangeSet

    card = Card.objects.get(game=batch.game, key="EB9-001")
    before = card_state(card)
    base = live_server.url
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=username]", reader.username)
    page.fill("input[name=password]", PASSWORD)
    page.click("form.stacked-form button[type=submit]")
    page.wait_for_url(f"{base}/decks/")

    page.goto(f"{base}/readings/photos/{batch.pk}/1/")
    assert page.input_value("input[name=field_at]") == str(card.fields["at"])  # the stored value, not the 3 read
    assert page.is_checked("input[name=choice_field_at][value=keep]")
    page.click("form.reading-form button.primary")
    page.wait_for_url(f"{base}/readings/photos/{batch.pk}/2/")
    assert not ChangeSet.objects.exists()
    assert card_state(Card.objects.get(pk=card.pk)) == before
