"""Reading card photos on the task workers (readings): a batch of clearly synthetic card photos uploaded through
the API, each read (cards.reading), its number proposed and matched to an existing card; cancel, owner-only
access, the day's upload allowance. The readings themselves need Tesseract (skipped without, as
tests/test_reading_core.py); the rest needs nothing.
"""

from __future__ import annotations

import io
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone
from PIL import Image

from cards.images.services import image_store
from cards.models import Term, TermText
from cards.reading import Reading, ReadingUnavailable
from cards.reading.synthetic import TextLine, photograph, render_card
from cardsite import jobs
from contributions.models import GameRole
from readings import services
from readings.models import PhotoReading, ReadingBatch
from readings.tasks import read_photo

from .support.clients import token_client
from .support.reading_jobs import URL, post_batch, upload
from .synthetic_decks import game
from .users import make_user

pytestmark = [pytest.mark.usefixtures("media_root"), pytest.mark.django_db]

IMMEDIATE = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"}}
DUMMY = {"default": {"BACKEND": "django_tasks.backends.dummy.DummyBackend"}}


def card_photo(name: str, number: str, *, angle: float = 3.0) -> bytes:
    """A synthetic card photographed (turned, in perspective, blurred), as the JPEG a phone would send."""
    card = render_card([TextLine(name, 40), TextLine(number, 24), TextLine("ＡＴ：＋３", 30)], language="ja")
    buffer = io.BytesIO()
    photograph(card, angle=angle, blur=1.0, perspective=0.03).save(buffer, "JPEG", quality=90)
    return buffer.getvalue()


def plain_picture(shade: int) -> bytes:
    """A picture the upload takes (no Tesseract needed to make it); ``shade`` makes each one different."""
    image = Image.new("RGB", (300, 420), (240, 230, 200))
    image.paste((20, 20, 20), (10 + shade, 10 + shade, 60 + 2 * shade, 40 + 2 * shade))  # no two alike, re-encoded
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    return buffer.getvalue()


def unavailable(*args, **kwargs):
    """What reading says on a machine without Tesseract's Japanese data."""
    raise ReadingUnavailable("Tesseract cannot read 'ja': install the Debian package tesseract-ocr-jpn")


def test_a_batch_of_two_photos_is_read_its_numbers_proposed_and_an_existing_card_matched(
    tesseract_ready, synthetic_cards, reader, settings
):
    settings.TASKS = IMMEDIATE
    client = token_client(reader)
    existing = card_photo("テスト居合い", "EB9-001")  # a synthetic card loaded by the fixture
    new = card_photo("テスト新騎士", "EB9-951", angle=-4)  # no such card
    response = post_batch(client, [existing, new])
    assert response.status_code == 201, response.json()
    batch_url = response["Location"]

    body = client.get(batch_url).json()
    assert body["status"] == "done" and body["game"] == "endbreaker"
    first, second = body["photos"]
    assert [first["index"], second["index"]] == [1, 2]
    for photo in (first, second):
        assert photo["status"] == "done" and photo["progress"] == 100 and photo["error"] is None
        assert photo["thumbnail_url"].startswith("http://testserver/media/")
        assert client.get(photo["thumbnail_url"]).status_code == 200
        assert any(line["text"].strip() for line in photo["lines"])
    numbers = [[p["value"] for p in photo["proposals"] if p["field"] == "number"] for photo in (first, second)]
    assert numbers == [["EB9-001"], ["EB9-951"]]
    assert first["card"] == "EB9-001" and first["matched_by"] == "number"
    assert first["card_url"].endswith("/api/cards/endbreaker/EB9-001/")
    assert second["card"] is None and second["matched_by"] == ""


def test_a_card_whose_number_is_not_read_is_matched_by_its_name_and_its_keywords_proposed(
    tesseract_ready, synthetic_cards, reader, settings
):
    settings.TASKS = IMMEDIATE
    keyword = Term.objects.create(game=game("endbreaker"), key="test-pierce", category=Term.Category.KEYWORD)
    TermText.objects.create(term=keyword, language="ja", name="テスト貫通")
    rules = [TextLine("ターン開始時、カードを１枚引く。", 24), TextLine("テスト貫通を持つ。", 24)]
    card = render_card([TextLine("テスト仮面", 44), *rules, TextLine("ＡＴ：＋２", 28)], language="ja")
    buffer = io.BytesIO()
    photograph(card, angle=2, blur=0.5, perspective=0.02).save(buffer, "JPEG", quality=90)
    batch = services.reading_batch_create(user=reader, game=game("endbreaker"), files=[upload(buffer.getvalue())])
    [photo] = batch.photos.all()
    assert photo.status == "done"
    assert photo.card is not None, photo.proposals
    assert photo.card.key == "EB9-004" and photo.matched_by == "name"
    # The game's keyword abilities (its glossary) are proposed where read.
    assert [p["value"] for p in photo.proposals if p["field"] == "keyword"] == ["テスト貫通"]


def test_cancel_stops_a_queued_batch(synthetic_cards, reader, settings):
    settings.TASKS = DUMMY  # queued, not read yet
    client = token_client(reader)
    response = post_batch(client, [plain_picture(10), plain_picture(20)])
    assert response.status_code == 201
    assert response.json()["status"] == "queued"
    assert {photo["status"] for photo in response.json()["photos"]} == {"queued"}

    cancelled = client.post(response.json()["cancel_url"])
    assert cancelled.status_code == 200
    assert cancelled.json()["status"] == "cancelled"
    assert [photo["status"] for photo in cancelled.json()["photos"]] == ["cancelled", "cancelled"]
    # The worker that picks the tasks up later reads nothing.
    for photo in PhotoReading.objects.all():
        assert read_photo.call(photo.pk) is None
    assert client.get(response["Location"]).json()["photos"][0]["status"] == "cancelled"
    # Cancelling again leaves it as it is.
    assert client.post(response.json()["cancel_url"]).json()["status"] == "cancelled"


def test_a_reading_without_tesseract_fails_with_a_clear_message(synthetic_cards, reader, settings, monkeypatch):
    settings.TASKS = IMMEDIATE

    monkeypatch.setattr(services, "read_photo", unavailable)
    client = token_client(reader)
    response = post_batch(client, [plain_picture(30)])
    assert response.status_code == 201
    body = response.json()
    assert body["status"] == "done"  # every photo settled
    [photo] = body["photos"]
    assert photo["status"] == "failed" and photo["error_code"] == "reading_unavailable"
    assert "Tesseract" in photo["error"]


def test_a_batch_is_its_uploaders_alone(synthetic_cards, reader, settings):
    settings.TASKS = DUMMY
    response = post_batch(token_client(reader), [plain_picture(40)])
    location, cancel = response["Location"], response.json()["cancel_url"]
    someone_else = token_client(make_user("someone"))
    assert someone_else.get(location).status_code == 404
    assert someone_else.post(cancel).status_code == 404
    assert ReadingBatch.objects.get().status == "queued"  # not cancelled by them
    assert Client().get(location).status_code == 401
    assert Client().post(URL, {"game": "endbreaker", "photo": upload(plain_picture(41))}).status_code == 401


def test_the_days_upload_allowance_refuses_a_batch_whole(synthetic_cards, reader, settings):
    settings.TASKS = DUMMY
    settings.IMAGE_UPLOADS_PER_DAY = 3
    image_store(uploader=reader, stream=io.BytesIO(plain_picture(50)))
    response = post_batch(token_client(reader), [plain_picture(51), plain_picture(52), plain_picture(53)])
    assert response.status_code == 429
    assert response.json()["code"] == "image_uploads_per_day"
    assert "3 images" in response.json()["detail"]
    assert not ReadingBatch.objects.exists() and not PhotoReading.objects.exists()  # nothing half-kept
    # Within the allowance it is taken.
    assert post_batch(token_client(reader), [plain_picture(51), plain_picture(52)]).status_code == 201


def test_a_batch_needs_a_game_photos_and_at_most_the_stated_number(synthetic_cards, reader, settings):
    settings.TASKS = DUMMY
    settings.READING_MAX_PHOTOS_PER_BATCH = 2
    client = token_client(reader)
    too_many = post_batch(client, [plain_picture(60), plain_picture(61), plain_picture(62)])
    assert too_many.status_code == 400 and too_many.json()["code"] == "too_many_photos"
    assert "at most 2 photos" in too_many.json()["errors"]["photo"][0]
    none = client.post(URL, {"game": "endbreaker"})
    assert none.status_code == 400 and "photo" in none.json()["errors"]
    no_game = client.post(URL, {"game": "nosuchgame", "photo": upload(plain_picture(63))})
    assert no_game.status_code == 400 and "game" in no_game.json()["errors"]
    not_a_picture = client.post(URL, {"game": "endbreaker", "photo": upload(b"not a picture at all" * 20)})
    assert not_a_picture.status_code == 400 and "photo" in not_a_picture.json()["errors"]
    assert not ReadingBatch.objects.exists()


def empty_reading(*args, **kwargs) -> Reading:
    """What reading a photo without text gives (no Tesseract needed)."""
    return Reading(lines=(), tesseract_languages="jpn", photo_size=(300, 420), corrected_size=(300, 420),
                   card_corners=None, seconds=0.0)  # fmt: skip


def test_a_cancel_while_a_photo_is_read_lets_it_finish_and_reads_no_other(
    synthetic_cards, reader, settings, monkeypatch
):
    settings.TASKS = DUMMY
    client = token_client(reader)
    response = post_batch(client, [plain_picture(70), plain_picture(71)])
    batch = ReadingBatch.objects.get()

    def cancelled_meanwhile(*args, **kwargs) -> Reading:
        assert client.post(response.json()["cancel_url"]).json()["status"] == "cancelled"
        return empty_reading()

    monkeypatch.setattr(services, "read_photo", cancelled_meanwhile)
    first, second = batch.photos.order_by("index")
    assert read_photo.call(first.pk) is not None  # the worker reading it when the cancel came finishes it
    assert read_photo.call(second.pk) is None
    body = client.get(response["Location"]).json()
    assert body["status"] == "cancelled" and body["finished_at"] is not None
    assert [photo["status"] for photo in body["photos"]] == ["done", "cancelled"]


def test_a_photo_whose_worker_vanished_is_read_again_then_given_up(synthetic_cards, reader, settings, monkeypatch):
    settings.TASKS = DUMMY
    monkeypatch.setattr(services, "read_photo", empty_reading)
    client = token_client(reader)
    response = post_batch(client, [plain_picture(80)])
    photo = PhotoReading.objects.get()
    long_ago = timezone.now() - timedelta(seconds=settings.READING_STALE_SECONDS + 60)
    PhotoReading.objects.filter(pk=photo.pk).update(status="running", attempts=1, progress=10, heartbeat_at=long_ago)

    assert client.get(response["Location"]).json()["photos"][0]["status"] == "running"  # a look only reads
    jobs.recover_all()  # a worker's recovery pass notices the vanished worker
    body = client.get(response["Location"]).json()
    assert body["photos"][0]["status"] == "queued" and body["photos"][0]["progress"] == 0
    assert read_photo.call(photo.pk) is not None
    assert client.get(response["Location"]).json()["status"] == "done"

    again = post_batch(client, [plain_picture(81)])
    stalled = PhotoReading.objects.get(batch_id=again.json()["id"])
    PhotoReading.objects.filter(pk=stalled.pk).update(
        status="running", attempts=services.MAX_ATTEMPTS, heartbeat_at=long_ago
    )
    jobs.recover_all()
    body = client.get(again["Location"]).json()
    assert body["status"] == "done"
    assert body["photos"][0]["status"] == "failed" and body["photos"][0]["error_code"] == "workers_stopped"
    assert "stopped several times" in body["photos"][0]["error"]


def test_a_user_blocked_from_the_game_may_not_upload_photos_to_read(synthetic_cards, reader, settings):
    settings.TASKS = DUMMY
    GameRole.objects.create(user=reader, game=game("endbreaker"), role=GameRole.Role.BLOCKED)
    response = post_batch(token_client(reader), [plain_picture(90)])
    assert response.status_code == 403 and response.json()["code"] == "not_allowed"
    assert "blocked" in response.json()["detail"]
    assert not ReadingBatch.objects.exists()
    # Another game's cards are still welcome.
    assert post_batch(token_client(reader), [plain_picture(90)], game_slug="suikoden").status_code == 201


def test_the_staff_see_a_batch_and_why_its_photos_failed_in_the_admin(synthetic_cards, reader, settings, monkeypatch):
    settings.TASKS = IMMEDIATE
    monkeypatch.setattr(services, "read_photo", unavailable)
    batch = services.reading_batch_create(user=reader, game=game("endbreaker"), files=[upload(plain_picture(95))])
    staff = get_user_model().objects.create_superuser("staff", password="staff-password-42")
    client = Client()
    client.force_login(staff)
    assert client.get("/admin/readings/readingbatch/").status_code == 200
    page = client.get(f"/admin/readings/readingbatch/{batch.pk}/change/")
    assert page.status_code == 200 and "reading_unavailable" in page.content.decode()


def test_a_body_larger_than_a_whole_batch_is_refused_before_it_is_read(synthetic_cards, reader, settings):
    settings.IMAGE_MAX_BYTES = 1000
    settings.READING_MAX_PHOTOS_PER_BATCH = 2
    too_large = str(2 * 1000 + settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1)
    api = token_client(reader).post(URL, {"game": "endbreaker"}, CONTENT_LENGTH=too_large)
    assert api.status_code == 413 and api.json()["errors"]["photo"]
    page_client = Client(HTTP_ACCEPT_LANGUAGE="en")
    page_client.force_login(reader)
    page = page_client.post("/readings/photos/", {"game": "endbreaker"}, CONTENT_LENGTH=too_large)
    assert page.status_code == 413
    # The form again, the refusal beside the photos, the limit in megabytes.
    assert page.context["photo_errors"] == ["The file is larger than 0.001 MB, the most an upload may be."]
    assert 'id="id_photo"' in page.content.decode()
    assert not ReadingBatch.objects.exists()
