"""In a real browser: an editor uploads a picture of a card on its pictures page; it shows on the card page,
and in search results and the deck builder on hover or keyboard focus (a tap focuses it), loading only then;
no Content-Security-Policy violation on the way."""

from __future__ import annotations

import io
from urllib.parse import quote

import pytest
from PIL import Image

from cards.models import Game
from contributions.models import GameRole
from decks import services as deck_services

from .synthetic_decks import load_synthetic_cards
from .users import PASSWORD, make_user

CARD = "Test Ally 01"


@pytest.mark.browser
def test_a_picture_uploaded_on_the_site_shows_on_the_card_page_and_on_hover_or_focus_in_lists(
    live_server, transactional_db, page, settings, tmp_path
):
    settings.MEDIA_ROOT = str(tmp_path / "media")
    load_synthetic_cards()
    game = Game.objects.get(slug="shadowera")
    editor = make_user("picture-editor")
    GameRole.objects.create(user=editor, game=game, role=GameRole.Role.EDITOR)
    deck = deck_services.create_deck(owner=editor, game=game, name="pictures")
    photo = tmp_path / "card.jpg"
    image = Image.new("RGB", (630, 880), (150, 40, 40))
    image.paste((240, 230, 200), (30, 30, 600, 120))
    buffer = io.BytesIO()
    image.save(buffer, "JPEG")
    photo.write_bytes(buffer.getvalue())
    violations: list[str] = []
    page.on("console", lambda message: violations.append(message.text) if "Content Security" in message.text else None)
    base = live_server.url

    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=username]", "picture-editor")
    page.fill("input[name=password]", PASSWORD)
    page.click("form.stacked-form button[type=submit]")
    page.wait_for_url(f"{base}/decks/")

    card_page = f"{base}/games/shadowera/cards/{quote(CARD)}/"
    page.goto(f"{base}/contributions/games/shadowera/cards/{quote(CARD)}/images/")
    page.set_input_files("input[name=picture]", str(photo))
    page.check("input[name=source_kind][value=own_copy]")
    page.click("form[enctype] button[type=submit]")
    page.wait_for_url("**/contributions/*/")

    page.goto(card_page)
    picture = page.locator(".card-picture img").first
    picture.wait_for()
    assert page.evaluate("document.querySelector('.card-picture img').naturalWidth") == 229  # 320 high thumbnail
    page.screenshot(path=str(tmp_path / "card-page.png"))

    page.goto(f"{base}/search/?q=" + quote('"Test Ally 01"'))
    peek = page.locator("#search-results .card-peek").first
    shown = peek.locator(".card-peek-picture img")
    assert not shown.is_visible()
    peek.hover()
    shown.wait_for(state="visible")
    page.wait_for_function("document.querySelector('.card-peek-picture img').naturalWidth > 0")
    page.screenshot(path=str(tmp_path / "search.png"))
    page.mouse.move(0, 0)

    page.goto(f"{base}/decks/{deck.pk}/edit/?q=" + quote("Test Ally 01"))
    peek = page.locator(".search-rows .card-peek").first
    shown = peek.locator(".card-peek-picture img")
    assert not shown.is_visible()
    peek.focus()  # as a tap or the keyboard does
    shown.wait_for(state="visible")
    page.wait_for_function("document.querySelector('.search-rows .card-peek-picture img').naturalWidth > 0")
    page.screenshot(path=str(tmp_path / "builder.png"))
    assert violations == []
