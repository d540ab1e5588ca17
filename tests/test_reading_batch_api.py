"""A whole batch of photos through the API (``GET /api/readings/<id>/review/``, ``POST /api/readings/<id>/submit/``):
what is left to decide, then the contributor's choices submitted as one change set, all or nothing, with nothing
changed that the contributor did not choose. The photos are stored as done readings of clearly synthetic cards (no
Tesseract): EB9-001, a card the site has, its ＡＴ read as 3 (55% sure); EB9-951, a new card, read twice."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts import services as account_services
from cards.models import Card
from cards.services import card_state
from contributions.models import ChangeSet
from readings.models import PhotoReading, ReadingBatch

from .users import make_user

pytestmark = [pytest.mark.usefixtures("media_root"), pytest.mark.django_db]


def client_of(user, language: str = "en") -> Client:
    token = account_services.token_create(user=user)[1]
    return Client(HTTP_AUTHORIZATION=f"Token {token}", HTTP_ACCEPT_LANGUAGE=language)


def submit(client: Client, batch: ReadingBatch, body: dict):
    return client.post(f"/api/readings/{batch.pk}/submit/", body, content_type="application/json")


def nothing_written(batch: ReadingBatch, before: dict) -> bool:
    card = Card.objects.get(game=batch.game, key="EB9-001")
    return (
        not ChangeSet.objects.exists()
        and not PhotoReading.objects.filter(batch=batch, change_set__isnull=False).exists()
        and card_state(card) == before
    )


@pytest.fixture
def stored(batch):
    return card_state(Card.objects.get(game=batch.game, key="EB9-001"))


def test_the_review_lists_what_is_left_to_decide_by_the_names_the_choices_use(batch, reader):
    answer = client_of(reader).get(f"/api/readings/{batch.pk}/review/")
    assert answer.status_code == 200
    photos = {entry["photo"]: entry for entry in answer.json()["photos"]}
    assert set(photos) == {1, 2, 3}
    # A card the site has: only the value read otherwise than stored, beside the stored one.
    matched = photos[1]
    assert matched["card"] == "EB9-001" and matched["seen"] and matched["actions"] == 1
    [at] = matched["values"]
    assert (at["value"], at["read"], at["sure"], at["to_decide"]) == ("fields.at", 3, False, True)
    assert at["stored"] == Card.objects.get(game=batch.game, key="EB9-001").fields["at"]
    # A new card: every value read; the sure ones (93% and 97%) are not left to decide.
    new = photos[2]
    assert new["card"] is None and new["actions"] == 1
    assert {value["value"]: value["sure"] for value in new["values"]} == {
        "name": True,
        "number": True,
        "fields.at": False,
    }


def test_an_empty_choice_list_changes_nothing(batch, reader, stored):
    for body in ({}, {"choices": []}):
        answer = submit(client_of(reader), batch, body)
        assert answer.status_code == 200, answer.json()
        assert answer.json() == {"change_set": None, "url": None, "status": None, "created": False, "photos": []}
    assert nothing_written(batch, stored)


def test_the_choices_become_one_change_set_of_exactly_what_was_chosen(batch, reader):
    card = Card.objects.get(game=batch.game, key="EB9-001")
    body = {
        "choices": [
            {"photo": 1, "take": ["fields.at"]},
            {"photo": 2, "take": ["name", "number"], "edit": {"text": "テスト効果"}},
        ]
    }
    answer = submit(client_of(reader), batch, body)
    assert answer.status_code == 201, answer.json()
    assert answer.json()["photos"] == [1, 2] and answer.json()["created"] is True
    change_set = ChangeSet.objects.get()
    assert change_set.pk == answer.json()["change_set"]
    assert change_set.source_detail == "photos 1, 2, read automatically, confirmed by reader"
    changes = {change.key: change for change in change_set.changes.all()}
    assert set(changes) == {"EB9-001", "EB9-951"}
    # The matched card: its ＡＴ taken from the reading, every other value as stored; its photo not offered.
    assert changes["EB9-001"].proposed["fields"] == {**card.fields, "at": 3}
    assert changes["EB9-001"].proposed["texts"]["zh-hant"]["name"] == "測試居合"
    # The new card: the values chosen and nothing else (its ＡＴ, not chosen, stays unknown); its photo offered.
    new = changes["EB9-951"].proposed
    assert new["fields"] == {} and new["number"] == "EB9-951"
    assert (new["texts"]["ja"]["name"], new["texts"]["ja"]["text"]) == ("テスト新騎士", "テスト効果")
    assert [image.key for image in change_set.image_changes.all()] == ["EB9-951"]
    submitted = dict(PhotoReading.objects.filter(batch=batch).values_list("index", "change_set"))
    assert submitted == {1: change_set.pk, 2: change_set.pk, 3: None}


def test_a_repeated_submit_answers_the_first_change_set_and_makes_no_second(batch, reader):
    client = client_of(reader)
    body = {"choices": [{"photo": 1, "take": ["fields.at"]}, {"photo": 2, "take": ["name", "number"]}]}
    first = submit(client, batch, body)
    again = submit(client, batch, body)
    assert first.status_code == 201 and again.status_code == 200
    assert again.json()["change_set"] == first.json()["change_set"] and again.json()["created"] is False
    assert ChangeSet.objects.count() == 1
    # A photo already submitted, named again with something else to change: refused, named, nothing written.
    more = submit(client, batch, {"choices": [{"photo": 1}, {"photo": 3, "take": ["name"], "key": "EB9-951b"}]})
    assert more.status_code == 409 and more.json()["code"] == "photo_already_submitted"
    assert list(more.json()["errors"]) == ["1"]
    assert ChangeSet.objects.count() == 1


def test_a_bad_choice_list_names_the_photo_and_value_and_writes_nothing(batch, reader, stored):
    client = client_of(reader, "ja")
    body = {
        "choices": [
            {"photo": 1, "take": ["fields.at", "fields.nothing"]},  # the first would do; the second is not a value
            {"photo": 2, "take": ["name", "text"]},  # nothing was read as the text
            {"photo": 9, "take": ["name"]},  # no such photo
        ]
    }
    answer = submit(client, batch, body)
    assert answer.status_code == 400
    assert answer.json()["code"] == "invalid_choices"
    errors = answer.json()["errors"]
    assert set(errors) == {"1.fields.nothing", "2.text", "9"}
    assert errors["9"] == ["このバッチに写真 9 はありません。"]  # in the reader's language
    assert errors["1.fields.nothing"] == ["このゲームのカードにはその値がありません。"]
    assert nothing_written(batch, stored)


def test_a_value_the_game_refuses_is_named_by_its_photo_and_nothing_is_kept(batch, reader, stored):
    body = {"choices": [{"photo": 1, "take": ["fields.at"]}, {"photo": 2, "take": ["name"], "edit": {"fields.at": -4}}]}
    answer = submit(client_of(reader, "ja"), batch, body)
    assert answer.status_code == 400
    errors = answer.json()["errors"]
    assert list(errors) == ["2.fields.at"] and not errors["2.fields.at"][0].isascii()
    assert nothing_written(batch, stored)


def test_two_photos_proposing_one_new_card_are_named_and_nothing_is_kept(batch, reader, stored):
    body = {"choices": [{"photo": 1, "take": ["fields.at"]}, {"photo": 2, "take": ["name"], "edit": {"number": ""}}]}
    answer = submit(client_of(reader), batch, {**body, "choices": [*body["choices"], {"photo": 3, "take": ["name"]}]})
    # Photos 2 and 3 both propose the new card テスト新騎士: the second is refused, and so is the whole batch.
    assert answer.status_code == 409 and answer.json()["code"] == "card_already_proposed"
    assert list(answer.json()["errors"]) == ["3.key"]
    assert nothing_written(batch, stored)


def test_a_malformed_choice_list_is_refused_by_its_place(batch, reader, stored):
    client = client_of(reader)
    for body, place in (
        ({"choices": [{"take": ["name"]}]}, "choices[0].photo"),
        ({"choices": [{"photo": 1, "take": "name"}]}, "choices[0].take"),
        ({"choices": [{"photo": 1, "colour": "red"}]}, "choices[0].colour"),
        ({"choices": [{"photo": 2, "take": ["name"]}, {"photo": 2, "take": ["number"]}]}, "2"),
        ({"choices": [{"photo": 2, "take": ["name"], "edit": {"name": "テスト"}}]}, "2.name"),
    ):
        answer = submit(client, batch, body)
        assert answer.status_code == 400, body
        assert place in answer.json()["errors"], (body, answer.json())
    assert nothing_written(batch, stored)


def test_take_sure_takes_only_the_sure_readings(batch, reader, stored):
    PhotoReading.objects.filter(batch=batch, index=3).delete()  # the same new card again
    answer = submit(client_of(reader), batch, {"take_sure": True})
    assert answer.status_code == 201, answer.json()
    assert answer.json()["photos"] == [2]  # EB9-001's only difference, its ＡＴ, is not sure: left as stored
    [change] = ChangeSet.objects.get().changes.all()
    assert change.key == "EB9-951" and change.proposed["fields"] == {}
    assert change.proposed["texts"]["ja"]["name"] == "テスト新騎士"
    assert card_state(Card.objects.get(game=batch.game, key="EB9-001")) == stored


def test_a_batch_is_its_uploaders_alone(batch, reader, stored):
    other = make_user("other")
    body = {"choices": [{"photo": 1, "take": ["fields.at"]}]}
    assert client_of(other).get(f"/api/readings/{batch.pk}/review/").status_code == 404
    assert submit(client_of(other), batch, body).status_code == 404
    assert Client().get(f"/api/readings/{batch.pk}/review/").status_code == 401
    assert submit(Client(), batch, body).status_code == 401
    assert nothing_written(batch, stored)


def test_submits_are_limited_per_contributor(batch, reader, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "contribution": "1/day"}
    client = client_of(reader)
    assert submit(client, batch, {}).status_code == 200
    refused = submit(client, batch, {"choices": [{"photo": 1, "take": ["fields.at"]}]})
    assert refused.status_code == 429 and refused.json()["code"] == "throttled" and "Retry-After" in refused
    assert not ChangeSet.objects.exists()
