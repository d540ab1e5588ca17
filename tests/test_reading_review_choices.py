"""The review page of a photo of a matched card overwrites nothing unless the contributor chooses so: each box holds
the stored value, the reading is offered beside it with the part of the photo it was read from, and each value is
kept, taken from the reading or edited. Submitted untouched, nothing changes; "take the sure readings" takes only
the readings read at least ``READING_SURE_AT_LEAST`` sure. Photos are stored as done readings (no Tesseract)."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from django.test import Client

from cards.models import Card
from cards.services import card_state
from contributions.models import ChangeSet
from readings.models import PhotoReading

from .support.reading_submit import read_photo

pytestmark = pytest.mark.django_db


class ReviewForm(HTMLParser):
    """What a browser posts for the review form as the page shows it: every box, the checked radios and boxes."""

    def __init__(self) -> None:
        super().__init__()
        self.posted: list[tuple[str, str]] = []
        self._inside = False
        self._select: str | None = None
        self._textarea: str | None = None
        self._text = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = {key: value or "" for key, value in attrs}
        if tag == "form" and "reading-form" in named.get("class", ""):
            self._inside = True
        if not self._inside or (not named.get("name") and tag != "option"):
            return
        name = named.get("name", "")
        if tag == "input" and named.get("type") in ("radio", "checkbox"):
            if "checked" in named:
                self.posted.append((name, named.get("value", "on")))
        elif tag == "input" and named.get("type") not in ("submit", "button"):
            self.posted.append((name, named.get("value", "")))
        elif tag == "select":
            self._select = name
        elif tag == "option" and self._select and "selected" in named:
            self.posted.append((self._select, named.get("value", "")))
        elif tag == "textarea":
            self._textarea, self._text = name, ""

    def handle_data(self, data: str) -> None:
        if self._textarea:
            self._text += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self._select = None
        elif tag == "textarea" and self._textarea:
            # A browser drops the newline right after <textarea> and sends its lines with CR LF.
            self.posted.append((self._textarea, self._text.removeprefix("\n").replace("\n", "\r\n")))
            self._textarea = None
        elif tag == "form":
            self._inside = False


def page_client(user) -> Client:
    client = Client()
    client.force_login(user)
    client.cookies["django_language"] = "en"
    return client


def as_browser_posts(page: str, **changed: str) -> dict[str, list[str]]:
    parser = ReviewForm()
    parser.feed(page)
    posted: dict[str, list[str]] = {}
    for name, value in parser.posted:
        posted.setdefault(name, []).append(value)
    posted.update({name: [value] for name, value in changed.items()})
    return posted


def test_the_stored_value_is_in_the_box_and_the_reading_beside_it_with_its_crop(batch, reader):
    card = Card.objects.get(game=batch.game, key="EB9-001")
    page = page_client(reader).get(f"/readings/photos/{batch.pk}/1/").content.decode()
    parser = ReviewForm()
    parser.feed(page)
    boxes = dict(parser.posted)
    assert boxes["field_at"] == str(card.fields["at"]) != "3"  # the ＡＴ read (3, 55% sure) is not pre-filled
    assert boxes["choice_field_at"] == "keep"
    assert "Take the reading" in page and 'class="reading-crop"' in page
    assert "image" not in boxes  # the photo is not proposed as the card's picture unless ticked


def test_submitting_the_page_untouched_changes_nothing(batch, reader):
    card = Card.objects.get(game=batch.game, key="EB9-001")
    before = card_state(card)
    client = page_client(reader)
    posted = as_browser_posts(client.get(f"/readings/photos/{batch.pk}/1/").content.decode())
    answer = client.post(f"/readings/photos/{batch.pk}/1/", posted)
    assert answer.status_code == 302 and answer["Location"] == f"/readings/photos/{batch.pk}/2/"
    assert not ChangeSet.objects.exists()
    assert card_state(Card.objects.get(pk=card.pk)) == before
    assert PhotoReading.objects.get(batch=batch, index=1).change_set is None


def test_taking_the_reading_of_one_value_changes_that_value_alone(batch, reader):
    client = page_client(reader)
    page = client.get(f"/readings/photos/{batch.pk}/1/").content.decode()
    answer = client.post(f"/readings/photos/{batch.pk}/1/", as_browser_posts(page, choice_field_at="read"))
    assert answer.status_code == 302
    [change] = ChangeSet.objects.get().changes.all()
    stored = card_state(Card.objects.get(game=batch.game, key="EB9-001"))
    assert change.proposed["fields"] == {**stored["fields"], "at": 3}
    assert change.proposed["texts"] == stored["texts"]


def test_editing_a_box_is_taken_as_the_contributors_choice(batch, reader):
    client = page_client(reader)
    page = client.get(f"/readings/photos/{batch.pk}/1/").content.decode()
    client.post(f"/readings/photos/{batch.pk}/1/", as_browser_posts(page, field_at="4"))
    [change] = ChangeSet.objects.get().changes.all()
    assert change.proposed["fields"]["at"] == 4


def test_the_sure_readings_are_taken_by_one_button_and_the_unsure_kept(batch, reader):
    card = Card.objects.get(game=batch.game, key="EB9-001")
    read_photo(batch, 4, "テスト居合い改", "EB9-001", 3, card=card)  # its name read 93% sure, its ＡＴ 55%
    client = page_client(reader)
    page = client.get(f"/readings/photos/{batch.pk}/4/").content.decode()
    assert "Take the sure readings and submit" in page
    client.post(f"/readings/photos/{batch.pk}/4/", as_browser_posts(page, take_sure="1"))
    [change] = ChangeSet.objects.get().changes.all()
    assert change.proposed["texts"]["ja"]["name"] == "テスト居合い改"
    assert change.proposed["fields"]["at"] == card.fields["at"]


# --- a whole batch on one page, one change set ---------------------------------------------------------------


def test_the_batch_page_shows_a_new_card_whole_and_a_matched_card_only_where_it_differs(batch, reader):
    page = page_client(reader).get(f"/readings/photos/{batch.pk}/review/").content.decode()
    parser = ReviewForm()
    parser.feed(page)
    boxes = dict(parser.posted)
    # EB9-001: its name and number read as stored, its ＡＴ read otherwise (55% sure): one value to decide.
    assert "p1-field_at" in boxes and "p1-name" not in boxes and "p1-number" not in boxes
    assert boxes["p1-choice_field_at"] == "keep"
    assert '<section class="reading-card" id="photo-1">' in page
    assert 'data-actions="1">1 value to decide<' in page
    # A new card: every value read, pre-filled.
    assert boxes["p2-name"] == "テスト新騎士" and boxes["p2-number"] == "EB9-951" and boxes["p2-field_at"] == "2"


def test_the_batch_page_submitted_untouched_proposes_the_new_card_and_changes_no_stored_one(batch, reader):
    PhotoReading.objects.filter(batch=batch, index=3).delete()  # the same new card again: see the next test
    card = Card.objects.get(game=batch.game, key="EB9-001")
    before = card_state(card)
    client = page_client(reader)
    posted = as_browser_posts(client.get(f"/readings/photos/{batch.pk}/review/").content.decode())
    answer = client.post(f"/readings/photos/{batch.pk}/review/", posted)
    assert answer.status_code == 302 and answer["Location"] == f"/readings/photos/{batch.pk}/"
    change_set = ChangeSet.objects.get()
    assert [change.key for change in change_set.changes.all()] == ["EB9-951"]
    assert change_set.changes.get().base is None
    assert card_state(Card.objects.get(pk=card.pk)) == before
    submitted = dict(PhotoReading.objects.filter(batch=batch).values_list("index", "change_set"))
    assert submitted == {1: None, 2: change_set.pk}


def test_two_photos_proposing_the_same_new_card_are_refused_and_nothing_is_kept(batch, reader):
    client = page_client(reader)
    posted = as_browser_posts(client.get(f"/readings/photos/{batch.pk}/review/").content.decode())
    answer = client.post(f"/readings/photos/{batch.pk}/review/", posted)
    assert answer.status_code == 409
    page = answer.content.decode()
    section = page[page.index('id="photo-3"') :]
    assert "Photo 2 of this batch already proposes this card." in section
    assert not ChangeSet.objects.exists()


def test_one_button_takes_every_sure_reading_of_the_batch(batch, reader):
    card = Card.objects.get(game=batch.game, key="EB9-001")
    PhotoReading.objects.filter(batch=batch, index__in=[1, 2, 3]).delete()
    read_photo(batch, 4, "テスト居合い改", "EB9-001", 3, card=card)  # its name read 93% sure, its ＡＴ 55%
    client = page_client(reader)
    page = client.get(f"/readings/photos/{batch.pk}/review/").content.decode()
    assert 'data-actions="1"' in page  # the ＡＴ; the sure name is the button's
    client.post(f"/readings/photos/{batch.pk}/review/", as_browser_posts(page, take_sure="1"))
    [change] = ChangeSet.objects.get().changes.all()
    assert change.proposed["texts"]["ja"]["name"] == "テスト居合い改"
    assert change.proposed["fields"]["at"] == card.fields["at"]


@pytest.mark.parametrize(("language", "count"), [("ja", "決める値：1 件"), ("zh-hant", "待決定的值：1 個")])
def test_the_batch_page_counts_the_values_to_decide_in_the_readers_language(batch, reader, language, count):
    client = page_client(reader)
    client.cookies["django_language"] = language
    page = client.get(f"/readings/photos/{batch.pk}/review/").content.decode()
    assert f'data-actions="1">{count}<' in page
