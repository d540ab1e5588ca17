"""Submitting what was read from a card photo (readings.submissions.submit_photo, POST …/photos/<n>/submit/):
one change set per photo, each value with the photo as its source; an editor accepts it and the card carries its
texts and the photo as its image. The photos are stored as done readings directly (no Tesseract needed), of clearly
synthetic cards.
"""

from __future__ import annotations

import pytest
from django.test import Client

from accounts import services as account_services
from cards.models import Card, CardImage
from contributions import services as contribution_services
from contributions.models import ChangeSet
from readings.models import PhotoReading, ReadingBatch

from .users import make_editor, make_user

pytestmark = [pytest.mark.usefixtures("media_root"), pytest.mark.django_db]


def client_of(user, language: str = "en") -> Client:
    token = account_services.token_create(user=user)[1]
    return Client(HTTP_AUTHORIZATION=f"Token {token}", HTTP_ACCEPT_LANGUAGE=language)


def submit(client: Client, batch: ReadingBatch, index: int, values: dict):
    return client.post(f"/api/readings/{batch.pk}/photos/{index}/submit/", values, content_type="application/json")


def test_a_corrected_photo_of_an_existing_card_becomes_one_change_set_the_editor_accepts(batch, reader):
    client = client_of(reader)
    answer = submit(client, batch, 1, {"name": "テスト居合い", "number": "EB9-001", "fields": {"at": 2}})
    assert answer.status_code == 201, answer.json()
    change_set = ChangeSet.objects.get(pk=answer.json()["change_set"])
    assert change_set.status == ChangeSet.Status.PENDING
    assert change_set.source_kind == ChangeSet.SourceKind.PHOTO
    assert change_set.source_detail == "photo 1, read automatically, confirmed by reader"
    assert change_set.source_photo_id == PhotoReading.objects.get(batch=batch, index=1).image_id
    [change] = change_set.changes.all()
    assert change.key == "EB9-001" and change.proposed["fields"]["at"] == 2
    # Only the submitted values changed: the card's other values and its Chinese name are kept.
    assert change.proposed["fields"]["cost"] == "PT" and change.proposed["texts"]["zh-hant"]["name"] == "測試居合"
    assert [image.key for image in change_set.image_changes.all()] == ["EB9-001"]

    editor = make_editor(batch.game)
    contribution_services.accept_change_set(editor=editor, change_set_id=change_set.pk)
    card = Card.objects.get(game=batch.game, key="EB9-001")
    assert card.fields["at"] == 2
    assert CardImage.objects.filter(card=card, image=change_set.source_photo, removed_at__isnull=True).exists()
    page = Client(HTTP_ACCEPT_LANGUAGE="en").get("/games/endbreaker/cards/EB9-001/")
    assert "photo 1, read automatically, confirmed by reader" in page.content.decode()


def test_a_new_card_from_a_photo_carries_exactly_the_values_submitted(batch, reader):
    client = client_of(reader)
    answer = submit(
        client, batch, 2, {"number": "EB9-951", "name": "テスト新騎士", "text": "テスト効果", "kind": "ability"}
    )
    assert answer.status_code == 201, answer.json()
    [change] = ChangeSet.objects.get(pk=answer.json()["change_set"]).changes.all()
    assert change.base is None and change.key == "EB9-951"
    assert change.proposed["fields"] == {}  # the ＡＴ read was not confirmed: not filled in
    assert list(change.proposed["texts"]) == ["ja"]
    ja = change.proposed["texts"]["ja"]
    assert (ja["name"], ja["text"], ja["notes"]) == ("テスト新騎士", "テスト効果", "")
    editor = make_editor(batch.game)
    contribution_services.accept_change_set(editor=editor, change_set_id=answer.json()["change_set"])
    card = Card.objects.get(game=batch.game, key="EB9-951")
    assert card.texts.get(language="ja").name == "テスト新騎士"
    assert card.images.filter(removed_at__isnull=True).count() == 1


def test_a_double_submit_makes_one_change_set(batch, reader):
    client = client_of(reader)
    first = submit(client, batch, 2, {"number": "EB9-951", "name": "テスト新騎士"})
    second = submit(client, batch, 2, {"number": "EB9-951", "name": "テスト新騎士"})
    assert first.status_code == 201 and second.status_code == 200
    assert second.json()["change_set"] == first.json()["change_set"] and second.json()["created"] is False
    assert ChangeSet.objects.count() == 1


def test_a_batch_never_proposes_the_same_new_card_twice(batch, reader):
    client = client_of(reader, "ja")
    assert submit(client, batch, 2, {"number": "EB9-951", "name": "テスト新騎士"}).status_code == 201
    again = submit(client, batch, 3, {"key": "EB9-951b", "number": "EB9-951", "name": "テスト新騎士"})
    assert again.status_code == 409
    assert again.json()["code"] == "card_already_proposed"
    assert "2" in again.json()["errors"]["key"][0]  # names photo 2 (its words come with the translations)
    assert ChangeSet.objects.count() == 1


def test_another_user_gets_404_and_the_anonymous_401(batch, reader):
    other = make_user("other")
    assert submit(client_of(other), batch, 2, {"name": "x"}).status_code == 404
    assert submit(Client(), batch, 2, {"name": "x"}).status_code in (401, 403)
    assert submit(client_of(reader), batch, 9, {"name": "x"}).status_code == 404
    assert ChangeSet.objects.count() == 0


def test_bad_values_are_refused_with_their_names_in_the_readers_language(batch, reader):
    answer = submit(client_of(reader, "ja"), batch, 2, {"number": "EB9-951", "name": "テスト", "fields": {"at": -4}})
    assert answer.status_code == 400
    errors = answer.json()["errors"]
    assert list(errors) == ["fields.at"]
    assert not errors["fields.at"][0].isascii()  # in Japanese
    wrong_type = submit(client_of(reader), batch, 2, {"fields": "at"})
    assert wrong_type.status_code == 400 and "fields" in wrong_type.json()["errors"]
    assert ChangeSet.objects.count() == 0
    assert PhotoReading.objects.get(batch=batch, index=2).change_set_id is None


def test_photos_the_hash_found_to_show_one_card_propose_it_once_even_when_read_differently(batch, reader):
    PhotoReading.objects.filter(batch=batch, index=3).update(same_card_as=2)
    client = client_of(reader)
    assert submit(client, batch, 2, {"number": "EB9-951", "name": "テスト新騎士"}).status_code == 201
    # Photo 3 misread as another number and name: the picture still says it is photo 2's card.
    again = submit(client, batch, 3, {"number": "EB9-958", "name": "テスト新騎土"})
    assert again.status_code == 409 and again.json()["code"] == "card_already_proposed"
    assert ChangeSet.objects.count() == 1


def test_a_photo_of_a_card_that_already_has_this_picture_corrects_that_card_without_a_second_image(batch, reader):
    game = batch.game
    card = Card.objects.get(game=game, key="EB9-001")
    existing = CardImage.objects.create(card=card, image=PhotoReading.objects.get(batch=batch, index=2).image)
    # Photo 2's text matched nothing, but its picture is EB9-001's.
    PhotoReading.objects.filter(batch=batch, index=2).update(duplicate_of=existing, duplicate_distance=12)
    answer = submit(client_of(reader), batch, 2, {"fields": {"at": 2}})
    assert answer.status_code == 201, answer.json()
    change_set = ChangeSet.objects.get(pk=answer.json()["change_set"])
    [change] = change_set.changes.all()
    assert change.key == "EB9-001" and change.base is not None
    assert change.proposed["fields"]["at"] == 2
    assert not change_set.image_changes.exists()


def test_the_translation_read_is_submitted_under_its_language_and_a_misread_match_is_corrected(batch, reader):
    client = client_of(reader)
    # Photo 2 was read as a new card; the contributor says it shows EB9-002 and gives its Chinese name.
    answer = submit(client, batch, 2, {"card": "EB9-002", "translations": {"zh-hant": {"name": "測試盾牌"}}})
    assert answer.status_code == 201, answer.json()
    [change] = ChangeSet.objects.get(pk=answer.json()["change_set"]).changes.all()
    assert change.key == "EB9-002" and change.base is not None
    assert change.proposed["texts"]["zh-hant"]["name"] == "測試盾牌"
    assert change.proposed["texts"]["ja"]["name"] == "テストシールド"  # kept as the card has it
    contribution_services.accept_change_set(editor=make_editor(batch.game), change_set_id=change.change_set_id)
    card = Card.objects.get(game=batch.game, key="EB9-002")
    assert card.text_in("zh-hant").name == "測試盾牌"


def test_a_card_or_language_the_game_does_not_have_is_refused_by_name(batch, reader):
    client = client_of(reader, "ja")
    unknown_card = submit(client, batch, 2, {"card": "EB9-999"})
    assert unknown_card.status_code == 400 and list(unknown_card.json()["errors"]) == ["card"]
    unknown_language = submit(client, batch, 2, {"translations": {"en": {"name": "Test"}}})
    assert unknown_language.status_code == 400 and list(unknown_language.json()["errors"]) == ["translations.en"]
    assert not unknown_language.json()["errors"]["translations.en"][0].isascii()  # in Japanese
    assert ChangeSet.objects.count() == 0


@pytest.mark.parametrize("translations", ["測試", {"zh-hant": "測試"}, {"zh-hant": {"name": "x" * 201}}])
def test_malformed_translations_are_refused_under_their_name_and_nothing_is_written(batch, reader, translations):
    answer = submit(client_of(reader), batch, 2, {"translations": translations})
    assert answer.status_code == 400
    assert any(name.startswith("translations") for name in answer.json()["errors"])
    assert ChangeSet.objects.count() == 0
    assert PhotoReading.objects.get(batch=batch, index=2).change_set_id is None
