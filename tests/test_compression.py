"""Pages and JSON travel compressed to a client that accepts gzip (a phone on a slow network reads a third of
the bytes); pictures and PDFs, compressed already, travel as they are."""

from __future__ import annotations

import gzip

from .test_deck_pages import client_for, import_test_cards, make_deck


def test_a_page_and_the_api_come_compressed_and_read_the_same(db):
    import_test_cards()
    client = client_for(None, "en")
    plain = client.get("/games/suikoden/")
    compressed = client.get("/games/suikoden/", HTTP_ACCEPT_ENCODING="gzip, deflate, br")
    assert "Content-Encoding" not in plain
    assert compressed["Content-Encoding"] == "gzip"
    assert gzip.decompress(compressed.content) == plain.content
    assert len(compressed.content) < len(plain.content) / 2
    api = client.get("/api/cards/?game=suikoden", HTTP_ACCEPT_ENCODING="gzip")
    assert api["Content-Encoding"] == "gzip" and gzip.decompress(api.content).startswith(b"{")


def test_a_picture_is_sent_as_it_is(owner):
    import_test_cards()
    deck = make_deck(owner)
    picture = client_for(owner).get(f"/decks/{deck.pk}/picture.png", HTTP_ACCEPT_ENCODING="gzip")
    assert picture.status_code == 200 and picture["Content-Type"] == "image/png"
    assert "Content-Encoding" not in picture
    assert picture.content.startswith(b"\x89PNG")
