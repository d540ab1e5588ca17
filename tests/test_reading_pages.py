"""The reading pages (readings.views): the upload page, the batch's queue (polling while photos wait), and the review
of one photo (the regions read outlined, each value editable with its confidence) submitted as a change set. Photos
are stored as read directly (tests/test_reading_submit.py), so no Tesseract is needed; the cards are synthetic."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from contributions.models import ChangeSet
from readings.models import PhotoReading, ReadingBatch

from .support.reading_submit import picture
from .users import make_user

pytestmark = pytest.mark.django_db

LANGUAGES = {"ja": "写真", "zh-hant": "照片", "en": "Photo"}


def page_client(user, language: str = "en") -> Client:
    client = Client()
    client.force_login(user)
    client.cookies["django_language"] = language
    return client


@pytest.mark.parametrize("language", ["ja", "zh-hant", "en"])
def test_the_owner_sees_the_upload_queue_and_review_pages_in_their_language(batch, reader, language):
    client = page_client(reader, language)
    for url in ("/readings/photos/", f"/readings/photos/{batch.pk}/", f"/readings/photos/{batch.pk}/1/"):
        answer = client.get(url)
        assert answer.status_code == 200, url
        assert f'lang="{language}"' in answer.content.decode()[:400]
    review = client.get(f"/readings/photos/{batch.pk}/1/").content.decode()
    # The photo with the lines read outlined, the low-confidence ＡＴ marked, the next photo one key away.
    assert review.count("<rect ") == 6  # three lines and three values
    assert 'class="region-value low"' in review and 'data-field="field_at"' in review
    assert re.search(r'<a rel="next" accesskey="n"[^>]*href="/readings/photos/\d+/2/"', review)
    assert 'value="テスト居合い"' in review and "onclick" not in review and "<script>" not in review


def test_the_queue_polls_while_photos_wait_and_stops_when_done(batch, reader):
    client = page_client(reader)
    done = client.get(f"/readings/photos/{batch.pk}/", HTTP_HX_REQUEST="true").content.decode()
    assert "hx-trigger" not in done and 'id="reading-queue"' in done and "<html" not in done
    ReadingBatch.objects.filter(pk=batch.pk).update(status=ReadingBatch.Status.RUNNING)
    PhotoReading.objects.filter(batch=batch, index=3).update(status=PhotoReading.Status.QUEUED)
    waiting = client.get(f"/readings/photos/{batch.pk}/").content.decode()
    assert 'hx-trigger="every 2s"' in waiting and 'id="reading-cancel"' in waiting
    assert client.post(f"/readings/photos/{batch.pk}/cancel/").status_code == 302
    assert PhotoReading.objects.get(batch=batch, index=3).status == PhotoReading.Status.CANCELLED


def test_reviewing_a_photo_submits_one_change_set_and_goes_to_the_next(batch, reader):
    client = page_client(reader)
    form = {"number": "EB9-001", "name": "テスト居合い", "field_at": "2", "image": "on"}
    answer = client.post(f"/readings/photos/{batch.pk}/1/", form)
    assert answer.status_code == 302 and answer["Location"] == f"/readings/photos/{batch.pk}/2/"
    again = client.post(f"/readings/photos/{batch.pk}/1/", form)
    assert again.status_code == 302
    change_set = ChangeSet.objects.get()
    assert change_set.changes.get().proposed["fields"]["at"] == 2
    assert "EB9-001" in [change.key for change in change_set.image_changes.all()]
    queue = client.get(f"/readings/photos/{batch.pk}/").content.decode()
    assert f"/contributions/{change_set.pk}/" in queue


def test_a_bad_value_is_shown_beside_its_field_and_nothing_is_submitted(batch, reader):
    client = page_client(reader, "ja")
    answer = client.post(f"/readings/photos/{batch.pk}/2/", {"number": "EB9-951", "name": "テスト", "field_at": "-4"})
    assert answer.status_code == 400
    page = answer.content.decode()
    field = re.search(r'<div class="field reading-value[^"]*" data-field="field_at">(.*?)</div>', page, re.S)
    assert field is not None and "最小値" in field.group(1)
    assert not ChangeSet.objects.exists()


def test_another_user_gets_404_on_every_page_of_the_batch(batch):
    client = page_client(make_user("other"))
    for url in (f"/readings/photos/{batch.pk}/", f"/readings/photos/{batch.pk}/1/"):
        assert client.get(url).status_code == 404
    assert client.post(f"/readings/photos/{batch.pk}/1/", {"name": "x"}).status_code == 404
    assert client.post(f"/readings/photos/{batch.pk}/cancel/").status_code == 404
    assert not ChangeSet.objects.exists()


def test_the_upload_page_starts_a_batch_and_shows_its_queue(synthetic_cards, reader, settings):
    settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.dummy.DummyBackend"}}
    client = page_client(reader)
    photos = [picture(1), picture(2)]
    answer = client.post("/readings/photos/", {"game": "endbreaker", "photo": photos})
    made = ReadingBatch.objects.get(user=reader)
    assert answer.status_code == 302 and answer["Location"] == f"/readings/photos/{made.pk}/"
    assert made.photos.count() == 2
    refused = client.post("/readings/photos/", {"game": "endbreaker"})
    assert refused.status_code == 400 and "photo" in refused.content.decode()


def test_the_matched_cards_values_among_choices_are_shown_by_their_label(batch, reader):
    review = page_client(reader, "ja").get(f"/readings/photos/{batch.pk}/1/").content.decode()
    # EB9-001 is an ability: beside the kind it says so in Japanese, not by the stored slug.
    assert re.search(r'class="reading-now">[^<]*アビリティ</small>', review)
    assert not re.search(r'class="reading-now">[^<]*ability</small>', review)
