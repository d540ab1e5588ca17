"""Reading card photos from upload to accepted cards, as a contributor and an editor go through it (the API; the
pages are tested in tests/test_reading_pages.py): ten photograph-style pictures of clearly synthetic cards, made
as the benchmark makes them, one at each distortion level in each language, uploaded as one batch and read on the
task worker (immediate here); each shows its text read and the card matched, or a new card proposed; the
contributor corrects what was misread and submits; an editor accepts; the cards then carry their picture and
texts, each value with its source. Needs Tesseract and the Noto CJK fonts (skipped without, a failure under CI)."""

from __future__ import annotations

import io
import unicodedata

import pytest
from django.test import Client

from cards.models import Card, CardImage
from cards.reading.synthetic import TextLine, photograph, render_card
from contributions import services as contribution_services
from contributions.models import ChangeSet

from .support.clients import token_client
from .support.reading_jobs import post_batch
from .support.tasks import IMMEDIATE
from .users import make_editor

pytestmark = pytest.mark.django_db

# From a flat scan to a tilted, blurred, unevenly lit phone photo (the benchmark's range: up to 10°).
LEVELS = [
    None,  # a clean scan
    {"angle": 2.0, "perspective": 0.02, "blur": 0.6, "uneven_light": 0.1, "jpeg_quality": 85},
    {"angle": -4.0, "perspective": 0.03, "blur": 0.8, "uneven_light": 0.2, "jpeg_quality": 80},
    {"angle": 7.0, "perspective": 0.04, "blur": 1.0, "uneven_light": 0.25, "jpeg_quality": 75},
    {"angle": -10.0, "perspective": 0.05, "blur": 1.2, "uneven_light": 0.3, "jpeg_quality": 70},
]
# (language printed, number, name printed, the card's key if it exists). EB9-001 … EB9-006 are the synthetic
# cards of tests/synthetic_decks.py; EB9-96x are new.
PHOTOS = [
    ("ja", "EB9-001", "テスト居合い", "EB9-001"),
    ("ja", "EB9-961", "テスト新騎士", None),
    ("ja", "EB9-962", "テスト新狩人", None),
    ("ja", "EB9-963", "テスト新術士", None),
    ("ja", "EB9-964", "テスト新戦士", None),
    ("zh-hant", "EB9-002", "測試盾牌", "EB9-002"),
    ("zh-hant", "EB9-003", "測試職業", "EB9-003"),
    ("zh-hant", "EB9-005", "測試荊棘", "EB9-005"),
    ("zh-hant", "EB9-006", "測試未知", "EB9-006"),
    ("zh-hant", "EB9-965", "測試新弓手", None),
]


def picture(language: str, number: str, name: str, level: dict | None) -> bytes:
    card = render_card([TextLine(name, 44), TextLine(number, 30)], language=language)
    shot = card.convert("RGB") if level is None else photograph(card, **level)
    buffer = io.BytesIO()
    shot.save(buffer, "JPEG", quality=92)
    return buffer.getvalue()


def shares_most_of(read: str, printed: str) -> bool:
    """Whether most characters of ``printed`` were read (NFKC, as the benchmark counts)."""
    read = unicodedata.normalize("NFKC", read)
    return sum(ch in read for ch in printed) >= 0.6 * len(printed)


def test_ten_photos_read_corrected_submitted_and_accepted(tesseract_ready, synthetic_cards, reader, settings):
    settings.TASKS = IMMEDIATE
    client = token_client(reader)
    photos = [picture(lang, number, name, LEVELS[i % 5]) for i, (lang, number, name, _key) in enumerate(PHOTOS)]
    answer = post_batch(client, photos)
    assert answer.status_code == 201, answer.json()
    batch = client.get(answer["Location"]).json()
    assert batch["status"] == "done"

    read_well = 0
    for shown, (_language, _number, name, key) in zip(batch["photos"], PHOTOS, strict=True):
        assert shown["status"] == "done"
        text = "".join(line["text"] for line in shown["lines"])
        read_well += shares_most_of(text, name)
        # The match, or a new card proposed: never a wrong existing card.
        assert shown["card"] in (key, None)
    # Every photo's text is read in its language: at most the most distorted photo of each language may lose it.
    assert read_well >= 8

    # The contributor confirms or corrects each photo: the right card (an existing one by its key), the number
    # and name as printed (a Chinese printing's name under its language).
    for shown, (language, number, name, key) in zip(batch["photos"], PHOTOS, strict=True):
        values: dict = {"number": number}
        if key:
            values["card"] = key
        if language == "ja":
            values["name"] = name
        else:
            values["translations"] = {"zh-hant": {"name": name}}
            if key is None:
                values["name"] = "テスト新弓手"  # a new card needs its name in the original language too
        submitted = client.post(shown["submit_url"], values, content_type="application/json")
        assert submitted.status_code == 201, (number, submitted.json())

    editor = make_editor(Card.objects.get(key="EB9-001").game)
    for change_set in ChangeSet.objects.filter(status=ChangeSet.Status.PENDING).order_by("pk"):
        contribution_services.accept_change_set(editor=editor, change_set_id=change_set.pk)
    assert not ChangeSet.objects.filter(status=ChangeSet.Status.PENDING).exists()

    page_client = Client(HTTP_ACCEPT_LANGUAGE="en")
    for index, (language, number, name, key) in enumerate(PHOTOS, start=1):
        card = Card.objects.get(key=key or number)
        assert card.number == number
        assert card.text_in(language).name == name
        assert CardImage.objects.filter(card=card, removed_at__isnull=True).exists()
        if (key, language) == ("EB9-001", "ja"):
            continue  # read as the card already was: only its picture is new, and pictures are not values
        page = page_client.get(f"/games/endbreaker/cards/{card.key}/").content.decode()
        assert f"photo {index}, read automatically, confirmed by reader" in page, card.key
