"""Duplicates among card photos: the perceptual hash of the straightened card
(cards/reading/fingerprint.py), kept for card images and reading photos, and what a reading says with it:
"this card already has this image", and two photos of one batch flagged as one card. Clearly synthetic cards
with coloured shapes for art (``synthetic.render_art_card``); nothing here needs Tesseract (the reading is
replaced by one that reads no text, or a given text)."""

from __future__ import annotations

import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.test import Client
from PIL import Image

from accounts import services as account_services
from cards.images.encoding import ImageLimits, check_image
from cards.images.services import image_hash, image_store
from cards.models import Card, CardImage, Game, StoredImage
from cards.reading import Line, Reading, Word
from cards.reading.fingerprint import DUPLICATE_DISTANCE, alike, distance, perceptual_hash, same_card_groups
from cards.reading.result import Box
from cards.reading.synthetic import photograph, render_art_card
from contributions import services as contribution_services
from readings import services as reading_services
from readings.models import PhotoReading

from .users import make_editor, make_user

pytestmark = pytest.mark.usefixtures("media_root")

IMMEDIATE = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"}}
DISTORTIONS = [
    {"angle": 3, "perspective": 0.04, "blur": 1.0},
    {"angle": -10, "perspective": 0.06, "blur": 2.0, "uneven_light": 0.35, "jpeg_quality": 60},
    {"angle": 8, "perspective": 0.02, "blur": 1.5, "uneven_light": 0.3},
]


def jpeg(picture: Image.Image, quality: int = 85) -> bytes:
    buffer = io.BytesIO()
    picture.save(buffer, "JPEG", quality=quality)
    return buffer.getvalue()


# --- the hash (plain Python) --------------------------------------------------------------------------------


@pytest.mark.parametrize("distortion", DISTORTIONS, ids=["turned 3°", "turned -10°, blurred", "turned 8°, shaded"])
def test_a_photo_of_a_card_hashes_alike_its_picture_and_unlike_other_cards(distortion):
    pictures = [render_art_card(seed) for seed in range(6)]
    hashes = [perceptual_hash(picture) for picture in pictures]
    for seed, picture in enumerate(pictures):
        photo_hash = perceptual_hash(photograph(picture, **distortion))
        assert alike(photo_hash, hashes[seed]), distance(photo_hash, hashes[seed])
        others = [distance(photo_hash, other) for index, other in enumerate(hashes) if index != seed]
        assert min(others) > DUPLICATE_DISTANCE, others


def test_a_hash_survives_re_encoding():
    picture = render_art_card(7)
    original = perceptual_hash(picture)
    as_kept = Image.open(io.BytesIO(check_image(io.BytesIO(jpeg(picture, 60)), ImageLimits()).image.data))
    smaller = picture.resize((315, 440))
    for copy in (as_kept, smaller, Image.open(io.BytesIO(jpeg(picture, 40)))):
        assert distance(original, perceptual_hash(copy)) <= 8


def test_a_picture_without_detail_has_no_hash_and_is_nobodys_duplicate():
    assert perceptual_hash(Image.new("RGB", (400, 560), (90, 90, 90))) is None
    assert not alike(None, None)
    assert same_card_groups({1: None, 2: None}) == {}


def test_photos_alike_are_grouped_under_the_first_and_a_veto_keeps_them_apart():
    a, b = perceptual_hash(render_art_card(1)), perceptual_hash(render_art_card(2))
    a2 = perceptual_hash(photograph(render_art_card(1)))
    assert same_card_groups({1: a, 2: b, 3: a2, 4: a}) == {3: 1, 4: 1}
    assert same_card_groups({1: a, 2: b, 3: a2}, compatible=lambda first, second: False) == {}


# --- card images and reading photos (the database) ----------------------------------------------------------


def upload(data: bytes, name: str = "photo.jpg") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, data, content_type="image/jpeg")


def no_text(*args, **kwargs) -> Reading:
    return Reading(lines=(), tesseract_languages="jpn", photo_size=(900, 1100), corrected_size=(900, 1100),
                   card_corners=None, seconds=0.0)  # fmt: skip


def reading_of(*texts: str):
    """A reading that reads ``texts[0]`` from the first photo read, ``texts[1]`` from the second, …"""
    left = list(texts)

    def read(*args, **kwargs) -> Reading:
        text = left.pop(0)
        box = Box(10, 10, 300, 40)
        line = Line(text, (Word(text, box, box, 0.95),), ((0, len(text)),), box, box, 0.95)
        return Reading(lines=(line,), tesseract_languages="jpn", photo_size=(900, 1100),
                       corrected_size=(900, 1100), card_corners=None, seconds=0.0)  # fmt: skip

    return read


@pytest.fixture
def endbreaker(synthetic_cards) -> Game:
    return Game.objects.get(slug="endbreaker")


def card_with_picture(game: Game, key: str, seed: int, side: str = CardImage.Side.FACE) -> CardImage:
    """The synthetic card ``key`` shown with the art card ``seed``, its picture kept as an upload is."""
    stored = image_store(uploader=make_user(f"uploader{seed}"), stream=io.BytesIO(jpeg(render_art_card(seed), 92)))
    image_hash(stored)  # as when a change set showing it is accepted
    return CardImage.objects.create(card=Card.objects.get(game=game, key=key), image=stored, side=side)


def api_batch(user, photos: list[bytes]) -> dict:
    token = account_services.token_create(user=user)[1]
    client = Client(HTTP_AUTHORIZATION=f"Token {token}", HTTP_ACCEPT_LANGUAGE="en")
    response = client.post("/api/readings/", {"game": "endbreaker", "photo": [upload(data) for data in photos]})
    assert response.status_code == 201, response.json()
    return client.get(response["Location"]).json()


def test_a_photo_of_a_card_with_this_picture_says_so_and_two_photos_of_a_new_card_are_one(
    endbreaker, reader, settings, monkeypatch
):
    settings.TASKS = IMMEDIATE
    monkeypatch.setattr(reading_services, "read_photo", no_text)
    shown = card_with_picture(endbreaker, "EB9-001", seed=1)
    StoredImage.objects.update(perceptual_hash="")  # kept before hashes were: the command computes them
    call_command("hashimages", stdout=io.StringIO())
    shown.image.refresh_from_db()
    assert shown.image.perceptual_hash

    body = api_batch(
        reader,
        [
            jpeg(photograph(render_art_card(1), angle=-7, blur=1.5)),  # the card that has this picture
            jpeg(photograph(render_art_card(21), angle=4)),  # a new card …
            jpeg(photograph(render_art_card(22), angle=2)),  # another new card
            jpeg(photograph(render_art_card(21), angle=-9, perspective=0.06, uneven_light=0.35)),  # … again
        ],
    )
    first, second, third, fourth = body["photos"]
    assert first["duplicate_of"]["card"] == "EB9-001"
    assert first["duplicate_of"]["card_url"].endswith("/api/cards/endbreaker/EB9-001/")
    assert first["duplicate_of"]["distance"] <= DUPLICATE_DISTANCE
    assert [photo["duplicate_of"] for photo in (second, third, fourth)] == [None, None, None]
    assert [photo["same_card_as"] for photo in body["photos"]] == [None, None, None, 2]
    assert all(len(photo["perceptual_hash"]) == 64 for photo in body["photos"])


def test_a_cards_back_is_no_duplicate_and_a_text_matching_another_card_overrules_the_picture(
    endbreaker, reader, settings, monkeypatch
):
    settings.TASKS = IMMEDIATE
    card_with_picture(endbreaker, "EB9-002", seed=3, side=CardImage.Side.BACK)  # a back: many cards share it
    card_with_picture(endbreaker, "EB9-003", seed=4)
    photos = [jpeg(photograph(render_art_card(3))), jpeg(photograph(render_art_card(4), angle=-3))]
    monkeypatch.setattr(reading_services, "read_photo", no_text)
    monkeypatch.setattr(reading_services, "match_card", lambda game, proposals, **kw: (None, ""))
    batch = reading_services.reading_batch_create(user=reader, game=endbreaker, files=[upload(p) for p in photos])
    back, face = batch.photos.order_by("index")
    assert back.duplicate_of is None
    assert face.duplicate_of.card.key == "EB9-003"

    other = Card.objects.get(game=endbreaker, key="EB9-001")
    monkeypatch.setattr(reading_services, "match_card", lambda game, proposals, **kw: (other, "number"))
    batch = reading_services.reading_batch_create(
        user=reader, game=endbreaker, files=[upload(jpeg(photograph(render_art_card(4), angle=5)))]
    )
    [photo] = batch.photos.all()
    assert photo.card == other and photo.duplicate_of is None


def test_photos_alike_whose_texts_differ_are_not_one_card(endbreaker, reader, settings, monkeypatch):
    settings.TASKS = IMMEDIATE
    monkeypatch.setattr(
        reading_services, "read_photo", reading_of("テスト騎士の剣", "まったく別の文です", "テスト騎士の剣")
    )
    picture = render_art_card(30)
    photos = [jpeg(photograph(picture, angle=angle)) for angle in (3, -4, 6)]
    batch = reading_services.reading_batch_create(user=reader, game=endbreaker, files=[upload(p) for p in photos])
    assert list(batch.photos.order_by("index").values_list("same_card_as", flat=True)) == [None, None, 1]


def test_an_accepted_card_picture_is_hashed(endbreaker, reader):
    editor = make_editor(endbreaker, "editor")
    stored = image_store(uploader=editor, stream=io.BytesIO(jpeg(render_art_card(40))))
    assert stored.perceptual_hash == ""  # an upload is hashed when it becomes a card's picture or is read
    contribution_services.submit_change_set(
        author=editor,
        game=endbreaker,
        cards=[],
        source_kind="photo",
        images=[contribution_services.ImageProposal(key="EB9-002", image=stored.pk)],
    )
    stored.refresh_from_db()
    assert CardImage.objects.filter(image=stored).exists()
    assert alike(stored.perceptual_hash, perceptual_hash(photograph(render_art_card(40))))


def test_a_photo_that_cannot_be_hashed_is_still_read(endbreaker, reader, settings, monkeypatch):
    settings.TASKS = IMMEDIATE
    monkeypatch.setattr(reading_services, "read_photo", no_text)
    plain = Image.new("RGB", (300, 420), (200, 190, 180))
    batch = reading_services.reading_batch_create(user=reader, game=endbreaker, files=[upload(jpeg(plain))])
    [photo] = PhotoReading.objects.filter(batch=batch)
    assert photo.status == "done" and photo.duplicate_of is None and photo.same_card_as is None
    assert photo.image.perceptual_hash == ""
