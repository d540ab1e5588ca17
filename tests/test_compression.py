"""Pages and JSON travel compressed to a client that accepts gzip (a phone on a slow network reads a third of
the bytes); pictures and PDFs, compressed already, travel as they are."""

from __future__ import annotations

import gzip

import pytest

from .support.clients import signed_in
from .support.suikoden_cards import make_deck

pytestmark = pytest.mark.usefixtures("suikoden_cards")


def test_a_page_and_the_api_come_compressed_and_read_the_same():
    client = signed_in(None, cookie=True)
    plain = client.get("/games/suikoden/")
    compressed = client.get("/games/suikoden/", HTTP_ACCEPT_ENCODING="gzip, deflate, br")
    assert "Content-Encoding" not in plain
    assert compressed["Content-Encoding"] == "gzip"
    assert gzip.decompress(compressed.content) == plain.content
    assert len(compressed.content) < len(plain.content) / 2
    api = client.get("/api/cards/?game=suikoden", HTTP_ACCEPT_ENCODING="gzip")
    assert api["Content-Encoding"] == "gzip" and gzip.decompress(api.content).startswith(b"{")


def test_a_picture_is_sent_as_it_is(owner):
    deck = make_deck(owner)
    picture = signed_in(owner, cookie=True).get(f"/decks/{deck.pk}/picture.png", HTTP_ACCEPT_ENCODING="gzip")
    assert picture.status_code == 200 and picture["Content-Type"] == "image/png"
    assert "Content-Encoding" not in picture
    assert picture.content.startswith(b"\x89PNG")
