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

from .test_reading_submit import batch, media_root, read_photo, reader  # noqa: F401 (fixtures)

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


def test_the_stored_value_is_in_the_box_and_the_reading_beside_it_with_its_crop(batch, reader):  # noqa: F811
    card = Card.objects.get(game=batch.game, key="EB9-001")
    page = page_client(reader).get(f"/readings/photos/{batch.pk}/1/").content.decode()
    parser = ReviewForm()
    parser.feed(page)
    boxes = dict(parser.posted)
    assert boxes["field_at"] == str(card.fields["at"]) != "3"  # the ＡＴ read (3, 55% sure) is not pre-filled
    assert boxes["choice_field_at"] == "keep"
    assert "Take the reading" in page and 'class="reading-crop"' in page
    assert "image" not in boxes  # the photo is not proposed as the card's picture unless ticked


def test_submitting_the_page_untouched_changes_nothing(batch, reader):  # noqa: F811
    card = Card.objects.get(game=batch.game, key="EB9-001")
    before = card_state(card)
    client = page_client(reader)
    posted = as_browser_posts(client.get(f"/readings/photos/{batch.pk}/1/").content.decode())
    answer = client.post(f"/readings/photos/{batch.pk}/1/", posted)
    assert answer.status_code == 302 and answer["Location"] == f"/readings/photos/{batch.pk}/2/"
    assert not ChangeSet.objects.exists()
    assert card_state(Card.objects.get(pk=card.pk)) == before
    assert PhotoReading.objects.get(batch=batch, index=1).change_set is None


def test_taking_the_reading_of_one_value_changes_that_value_alone(batch, reader):  # noqa: F811
    client = page_client(reader)
    page = client.get(f"/readings/photos/{batch.pk}/1/").content.decode()
    answer = client.post(f"/readings/photos/{batch.pk}/1/", as_browser_posts(page, choice_field_at="read"))
    assert answer.status_code == 302
    [change] = ChangeSet.objects.get().changes.all()
    stored = card_state(Card.objects.get(game=batch.game, key="EB9-001"))
    assert change.proposed["fields"] == {**stored["fields"], "at": 3}
    assert change.proposed["texts"] == stored["texts"]


def test_editing_a_box_is_taken_as_the_contributors_choice(batch, reader):  # noqa: F811
    client = page_client(reader)
    page = client.get(f"/readings/photos/{batch.pk}/1/").content.decode()
    client.post(f"/readings/photos/{batch.pk}/1/", as_browser_posts(page, field_at="4"))
    [change] = ChangeSet.objects.get().changes.all()
    assert change.proposed["fields"]["at"] == 4


def test_the_sure_readings_are_taken_by_one_button_and_the_unsure_kept(batch, reader):  # noqa: F811
    card = Card.objects.get(game=batch.game, key="EB9-001")
    read_photo(batch, 4, "テスト居合い改", "EB9-001", 3, card=card)  # its name read 93% sure, its ＡＴ 55%
    client = page_client(reader)
    page = client.get(f"/readings/photos/{batch.pk}/4/").content.decode()
    assert "Take the sure readings and submit" in page
    client.post(f"/readings/photos/{batch.pk}/4/", as_browser_posts(page, take_sure="1"))
    [change] = ChangeSet.objects.get().changes.all()
    assert change.proposed["texts"]["ja"]["name"] == "テスト居合い改"
    assert change.proposed["fields"]["at"] == card.fields["at"]
