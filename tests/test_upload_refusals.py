"""A file over the upload limit is refused in the page: the form again, the refusal beside its file field, the
limit in megabytes; the file field carries the limit so that the page refuses such a file before sending it."""

from __future__ import annotations

import pytest
from django.test import Client

from .support.html import parse
from .users import make_user


@pytest.fixture
def player_client(db):
    from cards.services import sync_games

    sync_games()
    client = Client()
    client.cookies["django_language"] = "ja"
    client.force_login(make_user("player"))
    return client


def test_a_twenty_megabyte_picture_returns_to_the_card_form_with_the_limit_in_megabytes(player_client, settings):
    settings.IMAGE_MAX_BYTES = 10_000_000
    twenty = str(20_000_000)
    response = player_client.post(
        "/contributions/games/suikoden/contribute/", {"kind": "character"}, CONTENT_LENGTH=twenty
    )
    assert response.status_code == 413
    page = parse(response)
    refused = page.find("ul", cls="upload-refused")
    assert "10 MB" in refused.text and "バイト" not in refused.text
    photo = page.find("input", name="source_photo")
    assert photo.attrs["data-max-bytes"] == "10000000"
    assert "10 MB" in photo.attrs["data-too-large"]
    assert page.find("form", cls="stacked-form")


def test_the_photo_reader_refuses_in_its_page_with_the_limit_on_its_photo_field(player_client, settings):
    settings.IMAGE_MAX_BYTES = 1_000_000
    too_large = str(200_000_000)
    page = player_client.post("/readings/photos/", {"game": "suikoden"}, CONTENT_LENGTH=too_large)
    assert page.status_code == 413
    assert parse(page).find("input", id="id_photo").attrs["data-max-bytes"] == "1000000"
    assert "1 MB" in page.content.decode()
