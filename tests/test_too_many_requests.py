"""Every 429 says, in the reader's language alone, how long to wait, and carries it as Retry-After: a rate
limit, the day's upload allowance and the runs a user may have waiting, on the API and on the pages."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from cards.models import StoredImage

from .support.clients import signed_in
from .support.limits import suikoden_deck
from .support.pictures import picture, propose_picture, upload
from .users import make_user

pytestmark = [pytest.mark.usefixtures("media_root"), pytest.mark.django_db]

DUMMY_TASKS = {"default": {"BACKEND": "django_tasks.backends.dummy.DummyBackend"}}


@pytest.mark.parametrize(
    ("language", "expected"),
    [("zh-Hant", "短時間內請求過多。請等待"), ("ja", "短時間にリクエストが多すぎます。"), ("en", "Too many requests")],
)
def test_a_throttled_api_answer_is_all_in_the_readers_language(language, expected, settings, synthetic_cards):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "search": "1/min"}
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.get("/api/cards/", {"q": "synthetic-1"})
    refused = client.get("/api/cards/", {"q": "synthetic-2"})
    assert refused.status_code == 429
    body = refused.json()
    assert body["code"] == "throttled" and body["detail"].startswith(expected)
    assert "Expected available" not in body["detail"] and "リクエストの処理は絞られました" not in body["detail"]
    if language != "en":
        assert not re.search("[A-Za-z]", body["detail"]), body["detail"]
    # The wait it names is the one Retry-After gives.
    assert str(int(refused["Retry-After"])) in body["detail"]


def test_the_upload_allowance_answers_retry_after_on_the_api_and_the_page(settings, synthetic_cards):
    settings.IMAGE_UPLOADS_PER_DAY = 2
    player = make_user("synthetic-uploader")
    api = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    api.force_authenticate(player)
    for color in ((10, 10, 10), (20, 20, 20)):
        assert (
            api.post("/api/contributions/images/", {"file": upload("card.jpg", picture(color=color))}).status_code
            == 201
        )
    # The older of the two was made 23 hours ago: room comes back in an hour.
    StoredImage.objects.filter(pk=StoredImage.objects.order_by("pk").first().pk).update(
        uploaded_at=timezone.now() - timedelta(hours=23)
    )
    refused = api.post("/api/contributions/images/", {"file": upload("card.jpg", picture(color=(30, 30, 30)))})
    assert refused.status_code == 429 and refused.json()["code"] == "image_uploads_per_day"
    assert 3000 < int(refused["Retry-After"]) <= 3600
    page = propose_picture(signed_in(player), picture(color=(40, 40, 40)))
    assert page.status_code == 429
    assert 3000 < int(page["Retry-After"]) <= 3600
    assert StoredImage.objects.count() == 2


def test_the_runs_allowance_answers_retry_after(settings, synthetic_cards):
    settings.TASKS = DUMMY_TASKS
    settings.MAX_ACTIVE_RUNS_PER_USER = 1
    player = make_user("synthetic-runner")
    deck = suikoden_deck(player)
    client = APIClient(HTTP_ACCEPT_LANGUAGE="ja")
    client.force_authenticate(player)
    url = f"/api/simulator/decks/{deck.pk}/simulations/"
    assert client.post(url, {"games": 1000}, format="json").status_code == 201
    refused = client.post(url, {"games": 1000}, format="json")
    assert refused.status_code == 429
    assert int(refused["Retry-After"]) > 0
