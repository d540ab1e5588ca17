"""An upload is its uploader's until it is published: another user who learns its id cannot attach it to a change
set (as the source photo or as a card's picture) by the API, the bulk page, the photo reader or the service
itself; the refusal names the field and nothing is written. An upload's address says nothing of its id.

Every user and card is synthetic (tests/synthetic_decks.py); pictures are drawn with Pillow.
"""

from __future__ import annotations

import io
import json

import pytest
from django.core import signing
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from PIL import Image

from cards.images.services import image_store
from cards.models import StoredImage
from contributions import services
from contributions.models import ChangeSet
from readings.models import PhotoReading, ReadingBatch

from .support.clients import token_client
from .users import make_editor, make_user

pytestmark = [
    pytest.mark.usefixtures("media_root"),
    pytest.mark.game("shadowera", synthetic_cards=True),
    pytest.mark.django_db,
]

CARD = "Test Ally 01"


@pytest.fixture
def mallory(db):
    return make_user("test-mallory")


def picture(color: tuple[int, int, int] = (30, 120, 60)) -> bytes:
    image = Image.new("RGB", (600, 840), color)
    image.paste((240, 230, 200), (20, 20, 580, 60))
    buffer = io.BytesIO()
    image.save(buffer, "JPEG")
    return buffer.getvalue()


def upload(data: bytes, name: str = "photo.jpg") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, data, content_type="image/jpeg")


@pytest.fixture
def private_photo(game, alice) -> StoredImage:
    """A photo of alice's reading batch: private, never proposed."""
    batch = ReadingBatch.objects.create(user=alice, game=game, status=ReadingBatch.Status.DONE, language="en")
    photo = PhotoReading.objects.create(
        batch=batch,
        index=1,
        image=image_store(uploader=alice, stream=io.BytesIO(picture()), field="photo"),
        status=PhotoReading.Status.DONE,
    )
    return photo.image


def propose(client: Client, **body):
    payload = {"game": "shadowera", "source_kind": "photo", **body}
    return client.post("/api/contributions/change-sets/", json.dumps(payload), content_type="application/json")


def test_the_api_refuses_another_users_upload_as_source_photo(mallory, private_photo):
    record = {"key": CARD, "kind": "ally", "fields": {"attack": 9}}
    answer = propose(token_client(mallory), source_photo=private_photo.pk, cards=[record])
    assert answer.status_code == 400
    assert answer.json()["code"] == "no_such_upload"
    assert "source_photo" in answer.json()["errors"]
    assert not ChangeSet.objects.exists()


def test_the_api_refuses_another_users_upload_as_a_cards_picture(mallory, private_photo):
    answer = propose(token_client(mallory), images=[{"card": CARD, "image": private_photo.pk, "side": "face"}])
    assert answer.status_code == 400
    assert "images[0].image" in answer.json()["errors"]
    assert not ChangeSet.objects.exists()


def test_the_refusal_does_not_tell_a_private_upload_from_a_missing_one(mallory, private_photo):
    client = token_client(mallory)
    theirs = propose(client, images=[{"card": CARD, "image": private_photo.pk}]).json()["errors"]
    missing = propose(client, images=[{"card": CARD, "image": private_photo.pk + 1000}]).json()["errors"]
    assert theirs["images[0].image"] == [f"There is no upload #{private_photo.pk}."]
    assert missing["images[0].image"] == [f"There is no upload #{private_photo.pk + 1000}."]


def test_the_uploader_attaches_their_own_upload(game, alice, private_photo):
    answer = propose(token_client(alice), images=[{"card": CARD, "image": private_photo.pk, "side": "face"}])
    assert answer.status_code == 201, answer.json()


def test_the_service_itself_refuses_another_users_upload(game, mallory, private_photo):
    with pytest.raises(services.ContributionError) as refused:
        services.submit_change_set(
            author=mallory,
            game=game,
            cards=[],
            source_kind="photo",
            source_photo=private_photo,
            images=[services.ImageProposal(key=CARD, image=private_photo.pk)],
        )
    assert "source_photo" in refused.value.errors
    assert not ChangeSet.objects.exists()


def test_the_bulk_page_refuses_another_users_upload_even_signed_for_the_user(game, mallory, private_photo):
    from contributions.forms import BulkContributionForm

    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(mallory)
    table = "game\tkey\tkind\tfield:health\tfield:faction\tname:ja\nshadowera\tSE9-P1\thero\t30\thuman\tテスト写真甲\n"
    kept = signing.dumps(private_photo.pk, salt=BulkContributionForm._salt(mallory))
    answer = client.post(
        "/contributions/games/shadowera/contribute/bulk/",
        {"text": table, "source_kind": "photo", "kept_photo": kept, "action": "submit"},
    )
    assert answer.status_code == 400
    assert f"There is no upload #{private_photo.pk}." in answer.content.decode()
    assert not ChangeSet.objects.exists()


def test_a_published_picture_may_be_proposed_again_by_anyone(game, alice, mallory):
    """A picture shown on a card (an editor's, applied at once) is public: putting it on another card or
    back after its removal is not a leak."""
    editor = make_editor(game, "test-editor")
    stored = image_store(uploader=editor, stream=io.BytesIO(picture((200, 10, 10))))
    services.submit_change_set(
        author=editor,
        game=game,
        cards=[],
        source_kind="photo",
        images=[services.ImageProposal(key=CARD, image=stored.pk)],
    )
    answer = propose(token_client(mallory), images=[{"card": "Test Ally 02", "image": stored.pk}])
    assert answer.status_code == 201, answer.json()


def test_an_uploads_address_is_not_derived_from_its_id_or_its_content(alice, mallory):
    data = picture((90, 90, 200))
    first = image_store(uploader=alice, stream=io.BytesIO(data))
    second = image_store(uploader=mallory, stream=io.BytesIO(data))
    # The same picture from two users: two uploads, each its uploader's, at unrelated addresses.
    assert first.pk != second.pk and first.sha256 == second.sha256
    assert first.file.name != second.file.name
    for stored in (first, second):
        stem = stored.file.name.rsplit("/", 1)[-1].split(".")[0]
        assert str(stored.pk) not in stored.file.name.split("/")
        assert stored.sha256[:16] not in stored.file.name
        assert len(stem) >= 20 and stem != str(stored.pk)
        assert stored.url.endswith(stored.file.name)
    # The same user uploading the same picture again gets the upload kept.
    assert image_store(uploader=alice, stream=io.BytesIO(data)).pk == first.pk


def test_a_photo_of_the_users_own_reading_batch_is_theirs_even_if_stored_for_another_first(game, alice, mallory):
    """Before uploads were kept per uploader, a picture sent by two users was one row, its first uploader's: the
    second user's reading batch names it, and they may still submit what they read from it."""
    shared = image_store(uploader=alice, stream=io.BytesIO(picture((70, 70, 70))))
    batch = ReadingBatch.objects.create(user=mallory, game=game, status=ReadingBatch.Status.DONE, language="en")
    PhotoReading.objects.create(batch=batch, index=1, image=shared, status=PhotoReading.Status.DONE)
    change_set = services.submit_change_set(
        author=mallory,
        game=game,
        cards=[],
        source_kind="photo",
        source_photo=shared,
        images=[services.ImageProposal(key=CARD, image=shared.pk)],
    )
    assert change_set.source_photo_id == shared.pk


@pytest.mark.django_db(transaction=True)
def test_uploads_kept_under_their_content_hash_are_renamed_by_a_command(alice, media_root):
    from django.core.files.base import ContentFile
    from django.core.files.storage import default_storage
    from django.core.management import call_command

    legacy = image_store(uploader=alice, stream=io.BytesIO(picture((10, 200, 10))))
    data = legacy.file.read()
    legacy.file.close()
    old = f"images/{legacy.sha256[:2]}/{legacy.sha256}.webp", f"images/{legacy.sha256[:2]}/{legacy.sha256}-thumb.webp"
    for name in old:  # as uploads were stored before their names were random
        default_storage.save(name, ContentFile(data))
    StoredImage.objects.filter(pk=legacy.pk).update(file=old[0], thumbnail=old[1])

    call_command("rename_uploads")
    legacy.refresh_from_db()
    assert legacy.sha256 not in legacy.file.name and legacy.sha256 not in legacy.thumbnail.name
    assert legacy.file.read() == data
    legacy.file.close()
    assert not any((media_root / name).exists() for name in old)
    assert Client().get(legacy.url).status_code == 200
    assert Client().get(f"/media/{old[0]}").status_code == 404
