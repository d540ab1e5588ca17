"""A deck's picture and printouts: the make-up as a PNG grid using the cards' stored pictures,
a registration sheet and proxies as PDF, in the reader's language, for whoever may see the deck."""

from __future__ import annotations

import io

import pytest
from django.utils import translation
from PIL import Image

from cards.images.services import image_store
from cards.models import Card, CardImage, CardText
from decks import services
from decks.models import Deck
from decks.printing import drawing as printing
from decks.printing.selectors import printed_deck

from .support.clients import signed_in
from .support.printouts import drawn_texts, pdf_text
from .support.suikoden_cards import card, game, make_deck

pytestmark = pytest.mark.usefixtures("suikoden_cards", "media_root")


def red_picture() -> bytes:
    """A synthetic card picture: plain red."""
    buffer = io.BytesIO()
    Image.new("RGB", (300, 420), (200, 20, 20)).save(buffer, "PNG")
    return buffer.getvalue()


def test_the_registration_sheet_lists_every_zone_with_counts_names_and_the_verdict(owner):
    deck = make_deck(owner, name="登録テスト")
    response = signed_in(owner, "ja", cookie=True).get(f"/decks/{deck.pk}/registration.pdf")
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    pages, text = pdf_text(response.content)
    assert pages == 1
    assert "デッキ登録シート" in text and "登録テスト" in text
    assert "テスト人物01" in text and "テスト土地01" in text  # names in the reader's language, with their keys
    assert "使用不可：違反 3 件" in text  # the test deck breaks three rules: the sheet says so


def test_the_sheet_speaks_the_readers_language(owner):
    deck = make_deck(owner)
    _pages, text = pdf_text(signed_in(owner, "zh-hant", cookie=True).get(f"/decks/{deck.pk}/registration.pdf").content)
    assert "牌組登錄表" in text


def test_proxies_print_one_card_per_copy_nine_to_a_page(owner):
    entries = [("characters", card(f"テスト人物{i:02d}"), 1) for i in range(1, 11)]
    entries += [("lands", card("テスト土地01"), 2)]
    deck = make_deck(owner, entries=entries)
    response = signed_in(owner, cookie=True).get(f"/decks/{deck.pk}/proxies.pdf")
    pages, text = pdf_text(response.content)
    assert response.status_code == 200 and pages == 2  # 12 copies
    assert text.count("Land defence bonus: 1") == 2  # the land's values, on each of its two copies
    assert text.count("Proxy: not a real card") == 12


def test_too_many_proxies_are_refused_naming_the_limit(owner, monkeypatch):
    monkeypatch.setattr(printing, "MAX_PROXIES", 2)
    deck = make_deck(owner)  # 3 copies
    response = signed_in(owner, cookie=True).get(f"/decks/{deck.pk}/proxies.pdf")
    assert response.status_code == 400
    assert "at most 2 cards at once; this deck has 3" in response.content.decode()


def test_the_picture_is_a_grid_of_the_cards_using_their_stored_pictures(owner):
    deck = make_deck(owner)  # two distinct cards
    stored = image_store(uploader=owner, stream=io.BytesIO(red_picture()))
    CardImage.objects.create(card=card("テスト人物01"), image=stored)
    response = signed_in(owner, cookie=True).get(f"/decks/{deck.pk}/picture.png")
    assert response.status_code == 200 and response["Content-Type"] == "image/png"
    image = Image.open(io.BytesIO(response.content)).convert("RGB")
    columns, (tile_w, tile_h), gap = printing.PICTURE_COLUMNS, printing.TILE, 8
    assert image.width == gap + columns * (tile_w + gap)
    # Zone by zone: the first zone's first card is the one with the picture, drawn from it.
    first_tile_y = image.height - gap - 2 * (tile_h + gap) + tile_h // 2
    red, green, blue = image.getpixel((gap + tile_w // 2, first_tile_y))
    assert red > 150 and green < 80 and blue < 80
    # The second zone's card has no picture: a framed white tile.
    assert image.getpixel((gap + tile_w // 2, image.height - gap - tile_h // 2 - 40)) == (255, 255, 255)


def test_a_private_deck_prints_for_its_owner_alone_and_a_shared_one_with_its_link(owner, other):
    deck = make_deck(owner)
    for path in ("picture.png", "registration.pdf", "proxies.pdf"):
        assert signed_in(other, cookie=True).get(f"/decks/{deck.pk}/{path}").status_code == 404
    services.update_deck(deck, visibility=Deck.Visibility.LINK)
    deck.refresh_from_db()
    assert (
        signed_in(other, cookie=True).get(f"/decks/{deck.pk}/picture.png?token={deck.share_token}").status_code == 200
    )
    assert signed_in(cookie=True).get(f"/decks/{deck.pk}/registration.pdf?token=wrong").status_code == 404


def test_the_deck_page_links_the_picture_and_printouts(owner):
    deck = make_deck(owner)
    page = signed_in(owner, cookie=True).get(f"/decks/{deck.pk}/").content.decode()
    for path in ("picture.png", "registration.pdf", "proxies.pdf"):
        assert f"/decks/{deck.pk}/{path}" in page


def test_without_a_cjk_font_a_tile_shows_the_key_not_empty_boxes(monkeypatch):
    monkeypatch.setattr(printing, "cjk_font_file", lambda: None)
    deck = printing.PrintedDeck(
        name="テスト",
        game="テスト",
        mode="",
        owner="",
        zones=[printing.PrintedZone("テスト", [printing.PrintedCard("TEST-01", "テスト", 1)])],
        verdict="",
        problems=[],
        language="ja",
        total=1,
    )
    with translation.override("en"):
        image = Image.open(io.BytesIO(printing.deck_picture(deck))).convert("L")
    gap, header = 8, 70
    # The tile's text lines (the key, drawn in the fallback font) hold dark pixels.
    text_area = image.crop((gap + 8, header + 32 + 10, gap + printing.TILE[0] - 8, header + 32 + 30))
    assert text_area.getextrema()[0] < 100


def test_the_api_answers_the_picture_and_printouts_to_the_owner_alone(owner, other, monkeypatch):
    from rest_framework.test import APIClient

    deck = make_deck(owner)
    api = APIClient()
    api.force_authenticate(owner)
    picture = api.get(f"/api/decks/{deck.pk}/picture/", HTTP_ACCEPT="image/png")
    assert picture.status_code == 200 and picture["Content-Type"] == "image/png"
    assert Image.open(io.BytesIO(picture.content)).width == 8 + printing.PICTURE_COLUMNS * (printing.TILE[0] + 8)
    sheet = api.get(f"/api/decks/{deck.pk}/registration/")
    assert sheet["Content-Type"] == "application/pdf" and "テスト人物01" in pdf_text(sheet.content)[1]
    stranger = APIClient()
    stranger.force_authenticate(other)
    refused = stranger.get(f"/api/decks/{deck.pk}/picture/", HTTP_ACCEPT="image/png")
    assert refused.status_code == 404 and refused["Content-Type"] == "application/json"
    monkeypatch.setattr(printing, "MAX_PROXIES", 2)
    too_many = api.get(f"/api/decks/{deck.pk}/proxies/", HTTP_ACCEPT_LANGUAGE="en")
    assert too_many.status_code == 400 and "at most 2 cards" in too_many.json()["errors"]["proxies"][0]


def endbreaker_deck_of_twelve(owner) -> Deck:
    """12 chosen cards; the game adds its fixed starting deck of 10, which the deck page shows but does not count."""
    entries = [("supply", card("テスト特技01", "endbreaker"), 8), ("jobs", card("テスト職業01", "endbreaker"), 4)]
    return services.create_deck(owner=owner, game=game("endbreaker"), name="十二枚", entries=entries)


def test_every_printout_counts_the_deck_as_the_deck_page_does(owner, monkeypatch):
    deck = endbreaker_deck_of_twelve(owner)
    client = signed_in(owner, "en", cookie=True)
    assert "12 cards" in client.get(f"/decks/{deck.pk}/").content.decode()
    with translation.override("en"):
        assert printed_deck(deck, "en", thumbnails=True).total == 12
    monkeypatch.setattr(printing, "cjk_font_file", lambda: None)  # the subtitle is then the count alone
    drawn = drawn_texts(monkeypatch)
    assert client.get(f"/decks/{deck.pk}/picture.png").status_code == 200
    assert "12" in drawn and "22" not in drawn
    _pages, text = pdf_text(client.get(f"/decks/{deck.pk}/registration.pdf").content)
    assert "Total: 12" in text
    assert "(10)" in text  # the fixed starting deck is printed, with its own count


def test_the_registration_sheet_names_a_numberless_card_once_and_prints_a_number_beside_a_name(owner):
    Card.objects.filter(pk=card("テスト人物01").pk).update(number="TEST-901")
    deck = make_deck(owner)  # テスト人物01, now numbered, and テスト土地01 (no number: its key is its name)
    _pages, text = pdf_text(signed_in(owner, "ja", cookie=True).get(f"/decks/{deck.pk}/registration.pdf").content)
    assert text.count("テスト土地01") == 1
    assert text.count("テスト人物01") == 1
    assert text.count("TEST-901") == 1


def test_proxies_break_japanese_lines_by_its_rules(owner):
    """A proxy's line holds 22 kanji or kana: breaking after the 22nd would start a line with 」、 and end the
    next with 「; by the rules the character before each goes down with it."""
    text = "あ" * 22 + "」、" + "い" * 19 + "「う」。"
    CardText.objects.filter(card=card("テスト人物01"), language="ja").update(text=text)
    deck = make_deck(owner, entries=[("characters", card("テスト人物01"), 1)])
    _pages, printed = pdf_text(signed_in(owner, "ja", cookie=True).get(f"/decks/{deck.pk}/proxies.pdf").content)
    lines = [line.strip() for line in printed.splitlines() if line.strip()]
    assert "あ" * 21 in lines and "あ」、" + "い" * 19 in lines and "「う」。" in lines
    for line in lines:
        assert line[0] not in "」、。！）", line
        assert line[-1] not in "「（", line
