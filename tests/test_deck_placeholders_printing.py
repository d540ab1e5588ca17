"""Placeholder cards on a deck's printouts: the picture and the proxies draw each as a plain frame saying
"placeholder" in the reader's language with its stated values; the registration sheet lists them apart and
says plainly that such a deck is not for registration. Synthetic cards only."""

from __future__ import annotations

import pytest

from decks.printing import drawing as printing

from .support.clients import signed_in
from .support.placeholder_decks import fill_with_placeholders, shadow_era_deck
from .support.printouts import drawn_texts, pdf_text

pytestmark = pytest.mark.usefixtures("synthetic_cards", "media_root")


@pytest.fixture
def filled(owner):
    deck = shadow_era_deck(owner)
    fill_with_placeholders(deck)
    return deck


def test_the_registration_sheet_lists_placeholders_apart_and_says_it_is_not_for_registration(owner, filled):
    _pages, text = pdf_text(signed_in(owner, "en", cookie=True).get(f"/decks/{filled.pk}/registration.pdf").content)
    assert "Not for registration: this deck holds placeholder cards" in text
    assert "Placeholder cards (31)" in text
    assert "12 × Big ally [placeholder: Ally (Cost 3, Attack 2)]" in text
    assert "Total: 9" in text  # the real cards, as the deck page counts them
    assert "Legal apart from 31 placeholder cards" in text
    _pages, japanese = pdf_text(signed_in(owner, "ja", cookie=True).get(f"/decks/{filled.pk}/registration.pdf").content)
    assert "Not for registration" not in japanese and "仮カード (31)" in japanese


def test_proxies_print_each_placeholder_copy_as_a_plain_frame_with_its_values(owner, filled):
    pages, text = pdf_text(signed_in(owner, "en", cookie=True).get(f"/decks/{filled.pk}/proxies.pdf").content)
    assert pages == 5  # 9 real cards and 31 placeholders, nine to a page
    assert text.count("Big ally [placeholder: Ally (Cost") == 12
    assert text.count("Placeholder\n") >= 31 and "Cost: 3" in text and "Attack: 2" in text


def test_the_picture_draws_placeholders_under_their_own_heading(owner, filled, monkeypatch):
    drawn = drawn_texts(monkeypatch)
    if printing.cjk_font_file() is None:
        pytest.skip("no CJK font: the picture writes keys only (fonts-noto-cjk)")
    answer = signed_in(owner, "en", cookie=True).get(f"/decks/{filled.pk}/picture.png")
    assert answer.status_code == 200 and answer["Content-Type"] == "image/png"
    assert "Placeholder cards (31)" in drawn and drawn.count("Placeholder") == 2
    assert "Cost 3" in drawn and "Attack 2" in drawn


def test_without_a_cjk_font_a_placeholder_tile_still_says_what_it_is(owner, filled, monkeypatch):
    monkeypatch.setattr(printing, "cjk_font_file", lambda: None)
    drawn = drawn_texts(monkeypatch)
    assert signed_in(owner, "en", cookie=True).get(f"/decks/{filled.pk}/picture.png").status_code == 200
    assert "Placeholder" in drawn and "ally cost 3" in drawn  # its kind and values in ASCII: all it can write
