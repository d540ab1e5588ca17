"""What the photo reader reads: the upload's own pixels (turned as its EXIF says), not the stored picture's WebP
re-encoding; and each batch read with one model per printing (``cards.reading.languages_for``). Tesseract is not
needed: the reader is replaced by one that records what it was given."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from cards.models import Game
from cards.reading import Reading
from readings import services
from readings.models import PhotoReading

from .users import make_user

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("media_root")]


@pytest.fixture
def reader_given(monkeypatch, immediate_tasks):
    """The pictures and languages the reader is given, photo by photo."""
    given: list[tuple[Image.Image, tuple[str, ...]]] = []

    def record(picture: Image.Image, languages, **options) -> Reading:
        given.append((picture.copy(), tuple(languages)))
        return Reading((), "jpn", picture.size, picture.size, None, 0.1)

    monkeypatch.setattr(services, "read_photo", record)
    return given


def noisy_jpeg(width: int, height: int, *, orientation: int | None = None) -> io.BytesIO:
    """A photo whose every pixel differs from its neighbours: any lossy re-encoding changes it."""
    rng = random.Random(7)
    image = Image.frombytes("RGB", (width, height), bytes(rng.randrange(256) for _ in range(width * height * 3)))
    buffer = io.BytesIO()
    exif = Image.Exif()
    if orientation is not None:
        exif[0x0112] = orientation
    image.save(buffer, "JPEG", quality=95, exif=exif.tobytes())
    buffer.seek(0)
    buffer.name = "card.jpg"
    return buffer


def test_the_reader_gets_the_uploaded_pixels_not_the_stored_webp(synthetic_cards, reader_given):
    upload = noisy_jpeg(2400, 160)  # wider than the 2,000 pixels a stored picture keeps
    original = Image.open(io.BytesIO(upload.getvalue())).convert("RGB")
    batch = services.reading_batch_create(
        user=make_user("reader"), game=Game.objects.get(slug="endbreaker"), files=[upload]
    )
    photo = PhotoReading.objects.get(batch=batch)
    assert photo.status == PhotoReading.Status.DONE
    with photo.image.file.open("rb") as stream, Image.open(stream) as stored:
        assert stored.format == "WEBP" and stored.size == (2000, 133)
    [(picture, _languages)] = reader_given
    assert picture.size == (2400, 160)
    assert picture.convert("RGB").tobytes() == original.tobytes()
    assert photo.reading["photo_size"] == [2400, 160]


def test_the_reader_gets_the_upload_turned_as_its_exif_says(synthetic_cards, reader_given):
    upload = noisy_jpeg(300, 120, orientation=6)  # shot turned: shown a quarter turn clockwise
    turned = Image.open(io.BytesIO(upload.getvalue())).convert("RGB").transpose(Image.Transpose.ROTATE_270)
    services.reading_batch_create(user=make_user("reader"), game=Game.objects.get(slug="endbreaker"), files=[upload])
    [(picture, _languages)] = reader_given
    assert picture.size == (120, 300)
    assert picture.convert("RGB").tobytes() == turned.tobytes()
    assert not picture.getexif()  # nothing but the pixels is kept for the reader


@pytest.mark.parametrize(
    ("printing", "languages"), [("", ("ja", "zh-hant")), ("ja", ("ja",)), ("zh-hant", ("zh-hant",))]
)
def test_a_batch_is_read_in_the_language_it_is_printed_in_alone(synthetic_cards, reader_given, printing, languages):
    game = Game.objects.get(slug="endbreaker")
    batch = services.reading_batch_create(
        user=make_user("reader"), game=game, files=[noisy_jpeg(60, 80)], printing=printing
    )
    assert batch.printing == printing
    assert [given for _picture, given in reader_given] == [languages]


def test_a_printing_language_the_game_has_not_is_refused_and_nothing_is_kept(synthetic_cards, reader_given):
    with pytest.raises(services.ReadingError) as refused:
        services.reading_batch_create(
            user=make_user("reader"),
            game=Game.objects.get(slug="endbreaker"),
            files=[noisy_jpeg(60, 80)],
            printing="en",
        )
    assert "printing" in refused.value.errors
    assert not PhotoReading.objects.exists() and not reader_given
