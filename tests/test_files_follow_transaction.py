"""Files follow the database: an upload the database refuses, or a batch of photos refused for one of them, leaves
no file in the media storage; a committed upload keeps its files; and ``manage.py orphan_files`` lists (and with
``--delete`` removes) the files that no row names.

Every user and card is synthetic; pictures are drawn with Pillow.
"""

from __future__ import annotations

import io
import os
import re
import sqlite3
import time
from pathlib import Path

import pytest
from django.core.files.base import ContentFile
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.db import OperationalError, transaction
from django.test import Client
from PIL import Image

from cards.images.services import ImageError, image_store
from cards.models import Game, StoredImage
from cardsite.storage import remove_rolled_back, store_file
from readings import services as reading_services
from readings.models import ReadingBatch

from .support.clients import token_client
from .support.database import read_only_database
from .users import make_user

pytestmark = pytest.mark.usefixtures("media_root")


def files_in(root: Path) -> list[str]:
    return sorted(str(path.relative_to(root)) for path in root.rglob("*") if path.is_file()) if root.exists() else []


def picture(shade: int = 40) -> bytes:
    image = Image.new("RGB", (600, 840), (shade, 120, 60))
    image.paste((240, 230, 200), (20, 20, 580, 60))
    buffer = io.BytesIO()
    image.save(buffer, "JPEG")
    return buffer.getvalue()


def upload(data: bytes, name: str = "photo.jpg") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, data, content_type="image/jpeg")


@pytest.mark.django_db(transaction=True)
def test_an_upload_refused_by_a_read_only_database_leaves_no_file(media_root):
    client = Client(HTTP_ACCEPT_LANGUAGE="en")  # signed in by session: a token's use would be a write itself
    client.force_login(make_user("test-uploader"))
    with read_only_database():
        refused = client.post("/api/contributions/images/", {"file": upload(picture())})
    assert refused.status_code == 503
    assert not StoredImage.objects.exists()
    assert files_in(media_root) == []
    # The same upload once the database writes again: the image and its thumbnail are kept.
    kept = client.post("/api/contributions/images/", {"file": upload(picture())})
    assert kept.status_code == 201
    stored = StoredImage.objects.get()
    assert files_in(media_root) == sorted([stored.file.name, stored.thumbnail.name])


@pytest.mark.django_db
def test_an_upload_whose_row_the_database_refuses_leaves_no_file(media_root, monkeypatch):
    """The database refuses the upload's row itself (its disk full at the insert): 503, and no file is left."""

    def disk_full(*args, **kwargs):
        error = sqlite3.OperationalError("database or disk is full")
        error.sqlite_errorcode = 13
        raise OperationalError("database or disk is full") from error

    monkeypatch.setattr(StoredImage, "save", disk_full)
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(make_user("test-uploader"))
    refused = client.post("/api/contributions/images/", {"file": upload(picture())})
    assert refused.status_code == 503
    assert not StoredImage.objects.exists()
    assert files_in(media_root) == []


@pytest.mark.django_db
def test_a_reading_batch_refused_for_one_photo_keeps_no_file_of_the_others(synthetic_cards, media_root):
    client = token_client(make_user("test-reader"))
    photos = [upload(picture(10), "good.jpg"), upload(b"not a picture at all" * 20, "bad.jpg")]
    refused = client.post("/api/readings/", {"game": "endbreaker", "photo": photos})
    assert refused.status_code == 400 and "photo" in refused.json()["errors"]
    assert not ReadingBatch.objects.exists() and not StoredImage.objects.exists()
    assert files_in(media_root) == []


@pytest.mark.django_db
def test_the_reading_service_refused_for_one_photo_keeps_no_file(synthetic_cards, media_root):
    user = make_user("test-reader")
    game = Game.objects.get(slug="endbreaker")
    files = [io.BytesIO(picture(20)), io.BytesIO(b"not a picture at all" * 20)]
    with pytest.raises(ImageError):
        reading_services.reading_batch_create(user=user, game=game, files=files)
    assert not StoredImage.objects.exists()
    assert files_in(media_root) == []


@pytest.mark.django_db
def test_a_file_written_in_a_transaction_that_rolls_back_is_removed(media_root):
    class Refused(Exception):
        pass

    with pytest.raises(Refused), transaction.atomic():
        name = store_file("notes/test-rolled-back.txt", ContentFile(b"synthetic"))
        assert (media_root / name).exists()  # readable inside the transaction
        raise Refused
    assert remove_rolled_back() == [name]
    assert files_in(media_root) == []


@pytest.mark.django_db(transaction=True)
def test_a_file_written_in_a_transaction_that_commits_is_kept(media_root):
    with transaction.atomic():
        name = store_file("notes/test-committed.txt", ContentFile(b"synthetic"))
    assert remove_rolled_back() == []
    assert files_in(media_root) == [name]


@pytest.mark.django_db
def test_an_upload_rolled_back_by_its_caller_leaves_no_file_once_the_caller_is_done(media_root):
    uploader = make_user("test-uploader")

    class CallerFailed(Exception):
        pass

    with pytest.raises(CallerFailed), transaction.atomic():
        image_store(uploader=uploader, stream=io.BytesIO(picture(30)))
        assert len(files_in(media_root)) == 2
        raise CallerFailed
    remove_rolled_back()  # what the end of every request does
    assert files_in(media_root) == []


@pytest.mark.django_db
def test_orphan_files_lists_and_removes_only_the_files_no_row_names(media_root, capsys):
    stored = image_store(uploader=make_user("test-uploader"), stream=io.BytesIO(picture(50)))
    stray = media_root / "images" / "zz" / "left-behind.webp"
    stray.parent.mkdir(parents=True)
    stray.write_bytes(b"synthetic")
    fresh = media_root / "images" / "zz" / "being-written.webp"
    fresh.write_bytes(b"synthetic")
    an_hour_ago = time.time() - 2 * 3600
    os.utime(stray, (an_hour_ago, an_hour_ago))

    call_command("orphan_files")
    listed = capsys.readouterr().out
    assert "images/zz/left-behind.webp" in listed
    assert "being-written" not in listed  # newer than --min-age: perhaps an upload not yet committed
    assert stored.file.name not in listed and stored.thumbnail.name not in listed
    assert stray.exists()  # listing removes nothing

    call_command("orphan_files", "--delete", "--min-age", "0")
    removed = capsys.readouterr().out
    assert "left-behind" in removed and "being-written" in removed
    assert files_in(media_root) == sorted([stored.file.name, stored.thumbnail.name])


def test_every_write_to_the_media_storage_goes_through_the_one_helper():
    """A new path that wrote files its own way would leave them behind on a rollback again."""
    root = Path(__file__).resolve().parent.parent
    pattern = re.compile(r"storage\.save\(|\.(file|thumbnail)\.save\(|FieldFile\.save\(")
    skipped = {".venv", "node_modules", "tests", "build", "benchmarks", "tools"}
    offenders = [
        str(path.relative_to(root))
        for path in root.rglob("*.py")
        if not skipped & set(path.relative_to(root).parts)
        and path.relative_to(root) != Path("cardsite/storage.py")
        and pattern.search(path.read_text(encoding="utf-8"))
    ]
    assert offenders == []
