"""Pictures of cards as players meet them: an upload is checked (type, bytes, pixels), stored re-encoded without
its metadata and with a thumbnail, reviewed like any change, shown on the card page, in search results and in
the deck builder, served with safe headers; a photo of the card can be the source of a change; nothing is lost
when a picture is taken off; uploads are limited per day, each refusal naming its limit.

Every card is synthetic (tests/synthetic_decks.py) and every picture is drawn here with Pillow.
"""

from __future__ import annotations

import contextlib
import io
import json
import struct
import zlib

import pytest
from django.core.files.storage import default_storage
from django.test import Client
from django.urls import reverse
from PIL import Image

from cards.images.encoding import ImageLimits, ImageRefused, check_image
from cards.models import Card, CardImage, StoredImage
from contributions import services
from contributions.models import ChangeSet
from decks import services as deck_services

from .support.clients import signed_in, token_client
from .support.pictures import CARD, picture, propose_picture, upload

pytestmark = [
    pytest.mark.usefixtures("media_root"),
    pytest.mark.game("shadowera", synthetic_cards=True),
    pytest.mark.django_db,
]


def with_exif() -> bytes:
    exif = Image.Exif()
    exif[0x010F] = "TestCam"  # Make
    exif[0x0131] = "secret-software"  # Software
    exif[0x9003] = "2020:01:01 10:00:00"  # DateTimeOriginal
    return picture(exif=exif.tobytes())


def bomb() -> bytes:
    """A PNG of a few dozen bytes that claims to be 60,000 × 60,000 pixels (3.6 billion): a decompression bomb."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", 60_000, 60_000, 8, 2, 0, 0, 0)
    pixels = zlib.compress(b"\0" * 64)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", pixels) + chunk(b"IEND", b"")


# --- checking and re-encoding ------------------------------------------------------------------------


def test_an_upload_is_re_encoded_without_its_exif_and_given_a_thumbnail():
    original = with_exif()
    assert Image.open(io.BytesIO(original)).getexif().get(0x010F) == "TestCam"
    checked = check_image(io.BytesIO(original), ImageLimits())
    image = Image.open(io.BytesIO(checked.image.data))
    assert image.format == "WEBP" and image.size == (600, 840)
    assert not image.getexif() and "exif" not in image.info and "xmp" not in image.info
    assert b"TestCam" not in checked.image.data and b"secret-software" not in checked.image.data
    thumbnail = Image.open(io.BytesIO(checked.thumbnail.data))
    assert thumbnail.format == "WEBP" and max(thumbnail.size) == 320
    assert (checked.thumbnail.width, checked.thumbnail.height) == thumbnail.size


def test_png_and_webp_are_taken_and_transparency_is_kept():
    image = Image.new("RGBA", (200, 280), (0, 0, 0, 0))
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    checked = check_image(io.BytesIO(buffer.getvalue()), ImageLimits())
    assert Image.open(io.BytesIO(checked.image.data)).mode == "RGBA"
    assert check_image(io.BytesIO(picture(fmt="WEBP")), ImageLimits()).original_format == "webp"


@pytest.mark.parametrize(
    ("data", "code"),
    [
        (b"this is a text file, not a picture\n" * 10, "not_an_image"),
        (picture(fmt="GIF"), "not_an_image"),
        (picture()[:600], "unreadable"),
        (bomb(), "too_many_pixels"),
        (picture(size=(8, 8)), "too_small"),
        (b"", "empty"),
    ],
)
def test_what_is_not_a_picture_the_site_takes_is_refused_before_it_is_decoded(data, code):
    with pytest.raises(ImageRefused) as refused:
        check_image(io.BytesIO(data), ImageLimits())
    assert refused.value.code == code


def test_a_damaged_picture_is_refused_or_taken_never_an_error():
    """Bytes of real JPEG, PNG and WebP files flipped here and there, as a hostile or broken upload has them."""
    import random

    chance = random.Random(11)
    small = (120, 168)
    for original in (picture(small), picture(small, fmt="PNG"), picture(small, fmt="WEBP")):
        for _ in range(30):
            data = bytearray(original)
            for _ in range(chance.randint(1, 8)):
                data[chance.randrange(len(data))] = chance.randrange(256)
            with contextlib.suppress(ImageRefused):
                check_image(io.BytesIO(bytes(data)), ImageLimits())


# --- the review flow, on the pages -------------------------------------------------------------------


def test_a_players_picture_waits_for_an_editor_who_sees_it_and_accepts_it(player, editor, game):
    response = propose_picture(signed_in(player), with_exif())
    assert response.status_code == 302
    change_set = ChangeSet.objects.get(author=player)
    assert change_set.status == ChangeSet.Status.PENDING
    card = Card.objects.get(game=game, key=CARD)
    assert not CardImage.objects.filter(card=card).exists()  # not shown before review
    stored = StoredImage.objects.get()
    assert default_storage.exists(stored.file.name) and default_storage.exists(stored.thumbnail.name)
    with default_storage.open(stored.file.name) as kept:
        assert b"TestCam" not in kept.read()

    editor_client = signed_in(editor)
    review_page = editor_client.get(reverse("contributions:change_set", args=[change_set.pk])).content.decode()
    assert stored.thumbnail_url in review_page and "Picture to add" in review_page
    editor_client.post(reverse("contributions:review", args=[change_set.pk]), {"decision": "accept"})
    change_set.refresh_from_db()
    assert change_set.status == ChangeSet.Status.ACCEPTED
    (shown,) = CardImage.objects.filter(card=card)
    assert (shown.side, shown.language, shown.image) == ("face", "ja", stored)

    page = Client().get(reverse("cards:card_detail", args=["shadowera", CARD])).content.decode()
    tag = (
        f'<img src="{stored.thumbnail_url}" width="{stored.thumbnail_width}" height="{stored.thumbnail_height}" '
        'loading="lazy"'
    )
    assert tag in page and f'href="{stored.url}"' in page


def test_a_rejected_picture_is_not_shown_and_its_file_is_kept(player, editor, game):
    propose_picture(signed_in(player), picture())
    change_set = ChangeSet.objects.get(author=player)
    services.reject_change_set(editor=editor, change_set_id=change_set.pk, reason="blurry")
    assert not CardImage.objects.exists()
    stored = StoredImage.objects.get()
    assert default_storage.exists(stored.file.name)
    assert "blurry" in Client().get(reverse("contributions:change_set", args=[change_set.pk])).content.decode()


def test_taking_a_picture_off_is_a_reviewed_change_that_keeps_the_file_and_can_be_undone(player, editor, game):
    propose_picture(signed_in(editor), picture())  # an editor's change applies at once
    shown = CardImage.objects.get()
    response = signed_in(player).post(
        reverse("contributions:card_images", args=["shadowera", CARD]),
        {"action": "remove", "picture_id": shown.pk, "comment": "not this card"},
    )
    assert response.status_code == 302
    removal = ChangeSet.objects.get(author=player)
    shown.refresh_from_db()
    assert shown.removed_at is None  # waits for an editor
    services.accept_change_set(editor=editor, change_set_id=removal.pk)
    shown.refresh_from_db()
    assert shown.removed_at is not None
    assert default_storage.exists(shown.image.file.name)
    page = Client().get(reverse("cards:card_detail", args=["shadowera", CARD])).content.decode()
    assert shown.image.thumbnail_url not in page
    # Put back from the pictures page, which lists it as taken off: a change set too (an editor's applies).
    pictures_page = reverse("contributions:card_images", args=["shadowera", CARD])
    assert "Taken off" in signed_in(player).get(pictures_page).content.decode()
    response = signed_in(editor).post(
        pictures_page, {"action": "restore", "picture_id": shown.pk, "comment": "it is this card after all"}
    )
    assert response.status_code == 302
    shown.refresh_from_db()
    assert shown.removed_at is None and CardImage.objects.count() == 1
    assert (shown.side, shown.language) == ("face", "ja")


def test_a_picture_of_a_card_that_does_not_exist_is_refused_naming_it(player, game):
    stored = _stored(player)
    with pytest.raises(services.ContributionError) as refused:
        services.submit_change_set(
            author=player,
            game=game,
            cards=[],
            source_kind=ChangeSet.SourceKind.PHOTO,
            images=[services.ImageProposal(key="No Such Card", image=stored.pk)],
        )
    assert "images[0].card" in refused.value.errors


def _stored(user, **options) -> StoredImage:
    from cards.images.services import image_store

    return image_store(uploader=user, stream=io.BytesIO(picture(**options)))


# --- refusals, each naming its limit ---------------------------------------------------------------


def test_a_text_file_named_jpg_is_refused_400_naming_the_formats(player, game):
    response = propose_picture(signed_in(player), b"hello, I am not a picture\n" * 20, name="card.jpg")
    assert response.status_code == 400
    assert "JPEG, PNG, WEBP" in response.content.decode()
    assert not StoredImage.objects.exists() and not ChangeSet.objects.exists()


def test_an_oversized_file_and_a_decompression_bomb_are_refused_naming_the_limit_in_the_readers_language(
    player, game, settings
):
    settings.IMAGE_MAX_BYTES = 5_000
    client = signed_in(player, "ja")
    big = propose_picture(client, picture(size=(1200, 1600), quality=100))
    assert big.status_code == 413
    assert "0.005 MB" in big.content.decode()
    settings.IMAGE_MAX_BYTES = 10_000_000
    bombed = propose_picture(client, bomb(), name="card.png")
    assert bombed.status_code == 413
    assert "40,000,000" in bombed.content.decode() and "ピクセル" in bombed.content.decode()
    assert not StoredImage.objects.exists() and not ChangeSet.objects.exists()


def test_a_body_far_over_the_limit_is_refused_before_it_is_read(player, game, settings):
    settings.IMAGE_MAX_BYTES = 1_000
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1_000
    response = propose_picture(signed_in(player), picture(size=(1500, 2000), quality=100))
    # The picture's form again, the refusal beside its field, the limit in megabytes.
    assert response.status_code == 413 and "0.001 MB" in response.content.decode()
    assert 'name="picture"' in response.content.decode()


def test_uploads_are_limited_per_user_and_day_naming_the_limit(player, game, settings):
    settings.IMAGE_UPLOADS_PER_DAY = 2
    client = signed_in(player)
    for color in ((10, 10, 10), (20, 20, 20)):
        assert propose_picture(client, picture(color=color)).status_code == 302
    refused = propose_picture(client, picture(color=(30, 30, 30)))
    assert refused.status_code == 429
    assert "uploaded 2 images in the last 24 hours" in refused.content.decode()
    # The same picture again is the upload kept: nothing new is stored, so it is not refused.
    assert StoredImage.objects.count() == 2


# --- a photo as the source of a change -------------------------------------------------------------


def test_a_photo_attached_to_a_change_is_what_the_card_pages_sources_link_to(player, editor, game):
    client = signed_in(player)
    edit = reverse("contributions:card_edit", args=["shadowera", CARD])
    form = client.get(edit).context["form"]
    data = {name: value for name, value in form.initial.items() if value not in (None, [])}
    data.update(
        {
            "kind": "ally",
            "source_kind": "photo",
            "source_detail": "my copy",
            "text_en_notes": "photographed",
            "field_attack": 3,
            "source_photo": upload("photo.jpg", picture(color=(1, 100, 200))),
        }
    )
    response = client.post(edit, data)
    assert response.status_code == 302, response.context["form"].errors
    change_set = ChangeSet.objects.get(author=player)
    assert change_set.source_photo is not None
    services.accept_change_set(editor=editor, change_set_id=change_set.pk)
    page = Client().get(reverse("cards:card_detail", args=["shadowera", CARD])).content.decode()
    assert f'<a class="source-photo" href="{change_set.source_photo.url}">' in page


# --- shown where cards are listed --------------------------------------------------------------------


def test_the_picture_shows_on_hover_or_tap_in_search_results_and_the_deck_builder(editor, owner, game):
    propose_picture(signed_in(editor), picture())
    stored = StoredImage.objects.get()
    peek = f'<img src="{stored.thumbnail_url}" width="{stored.thumbnail_width}" height="{stored.thumbnail_height}"'
    results = Client().get(reverse("cards:search"), {"q": '"Test Ally 01"'}).content.decode()
    assert 'class="card-peek" tabindex="0"' in results and peek in results and 'loading="lazy"' in results
    deck = deck_services.create_deck(owner=owner, game=game, name="pictures")
    builder = signed_in(owner).get(reverse("decks:edit", args=[deck.pk]), {"q": "Test Ally"}).content.decode()
    assert peek in builder


# --- serving -----------------------------------------------------------------------------------------


def test_pictures_are_served_with_their_type_and_safe_headers_and_nothing_else_is(editor, game, media_root):
    propose_picture(signed_in(editor), picture())
    stored = StoredImage.objects.get()
    response = Client().get(stored.url)
    assert response.status_code == 200
    assert response["Content-Type"] == "image/webp"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert "default-src 'none'" in response["Content-Security-Policy"]
    assert Image.open(io.BytesIO(b"".join(response.streaming_content))).format == "WEBP"
    again = Client().get(stored.thumbnail_url, HTTP_IF_NONE_MATCH=response["ETag"].replace('"', '"', 1))
    assert again.status_code in (200, 304)
    (media_root / "secret.txt").write_text("not for you")
    assert Client().get("/media/secret.txt").status_code == 404
    assert Client().get("/media/../cardsite/settings.py").status_code == 404
    page = Client().get(reverse("cards:card_detail", args=["shadowera", CARD]))
    assert "img-src 'self'" in page["Content-Security-Policy"]


# --- the API -----------------------------------------------------------------------------------------


def test_the_api_uploads_a_picture_and_proposes_it_for_a_card(player, editor, game):
    client = token_client(player)
    refused = client.post("/api/contributions/images/", {"file": upload("card.jpg", b"not a picture at all" * 10)})
    assert refused.status_code == 400
    assert refused.json()["code"] == "image_not_an_image" and "file" in refused.json()["errors"]
    assert client.post("/api/contributions/images/", {"file": upload("bomb.png", bomb())}).status_code == 413
    assert client.post("/api/contributions/images/", {}).status_code == 400
    uploaded = client.post("/api/contributions/images/", {"file": upload("card.jpg", with_exif())})
    assert uploaded.status_code == 201
    body = uploaded.json()
    assert body["format"] == "webp" and body["url"].startswith("http")
    again = client.post("/api/contributions/images/", {"file": upload("card.jpg", with_exif())})
    assert again.status_code == 200 and again.json()["id"] == body["id"]  # the upload kept, not a new one
    proposal = {
        "game": "shadowera",
        "source_kind": "photo",
        "source_photo": body["id"],
        "images": [{"card": CARD, "image": body["id"], "side": "back"}],
    }
    response = client.post("/api/contributions/change-sets/", json.dumps(proposal), content_type="application/json")
    assert response.status_code == 201, response.json()
    detail = response.json()
    assert detail["status"] == "pending" and detail["source_photo"]["id"] == body["id"]
    assert detail["images"][0]["card"] == CARD and detail["images"][0]["action"] == "add"
    accept = f"/api/contributions/change-sets/{detail['id']}/accept/"
    accepted = token_client(editor).post(accept, "{}", content_type="application/json")
    assert accepted.status_code == 200
    card = Client().get(f"/api/cards/shadowera/{CARD}/").json()
    assert card["images"][0]["side"] == "back" and card["images"][0]["thumbnail_url"].endswith("-thumb.webp")
    missing = dict(proposal, images=[{"card": CARD, "image": 99999}])
    wrong = client.post("/api/contributions/change-sets/", json.dumps(missing), content_type="application/json")
    assert wrong.status_code == 400 and "images[0].image" in wrong.json()["errors"]


def test_the_api_upload_needs_credentials(game):
    assert Client().post("/api/contributions/images/", {"file": upload("card.jpg", picture())}).status_code == 401
