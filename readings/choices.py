"""The contributor's choices for a whole batch of photos (the API's ``POST /api/readings/<id>/submit/``) made one
change set, with the rule of the pages: nothing changes that the contributor did not choose.

A choice names a photo of the batch and, by the names ``submit_photo`` takes (``number``, ``kind``, ``name``,
``text``, ``fields.<name>``, ``translations.<code>.name``/``.text``), the values whose reading it takes (``take``)
and the values it gives itself (``edit``). A matched card keeps every other value as stored; a new card holds only
the values chosen, and a photo with nothing chosen proposes nothing. ``take_sure`` takes, on every photo left, each
reading at least ``READING_SURE_AT_LEAST`` sure (the pages' "Take the sure readings and submit"). Each photo's
choices go through the review page's form (``reviewing.review_form``), so a value is checked as the page checks
it; ``submissions.submit_batch`` then makes one change set of every photo. All or nothing: any problem is refused,
named ``<photo>.<value>`` (``2.fields.at``) or ``<photo>``, and nothing is written.

Sent again, the photos named already in one change set and nothing else to change: that change set is answered
(``created`` false), so a repeated submit never makes a second one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from cardsite.errors import Message
from cardsite.types import SiteUser
from contributions.models import ChangeSet

from . import reviewing, selectors, submissions
from .forms import EDIT, TAKE_READING, PhotoReviewForm, as_posted
from .models import PhotoReading, ReadingBatch, ReadingStatus
from .services import ReadingError


@dataclass(frozen=True)
class PhotoChoice:
    """What the contributor chose for one photo: the readings taken, the values edited, the photo as the card's
    picture (None: a new card's yes, a matched card's no), the card it shows (a misread match), a new card's key,
    and the matched card's ``state_digest`` as they saw it."""

    photo: int
    take: tuple[str, ...] = ()
    edit: Mapping[str, Any] = field(default_factory=dict)
    image: bool | None = None
    card: str = ""
    key: str = ""
    seen: str = ""


@dataclass(frozen=True)
class BatchSubmitted:
    change_set: ChangeSet | None  # None: nothing was chosen that changes a card
    created: bool
    photos: tuple[int, ...]  # the photos the change set holds


class ChoicesRefused(ReadingError):
    code = "invalid_choices"


class PhotoSubmitted(ReadingError):
    code = "photo_already_submitted"
    status = 409


def _box(form: PhotoReviewForm, name: str) -> str | None:
    found = form.field_for(name)
    return found if found in form.box_names() else None


def _photo_values(
    photo: PhotoReading, choice: PhotoChoice, take_sure: bool
) -> tuple[dict[str, Any] | None, dict[str, list[Any]]]:
    """One photo's values to submit (None: nothing chosen changes its card) and the problems, by ``<photo>.<value>``."""
    card, current, _suggestions, form = reviewing.review_form(photo, None)
    at = f"{photo.index}."
    problems: dict[str, list[Any]] = {}
    taken: list[str] = []
    for name in choice.take:
        box = _box(form, name)
        if box is None:
            problems.setdefault(at + name, []).append(_("This game's cards have no such value."))
        elif box not in form.readings:
            problems.setdefault(at + name, []).append(_("Nothing was read for this value: edit it instead."))
        elif name in choice.edit:
            problems.setdefault(at + name, []).append(_("Take the reading or edit the value, not both."))
        else:
            taken.append(box)
    edited: dict[str, Any] = {}
    for name, value in choice.edit.items():
        box = _box(form, name)
        if box is None:
            problems.setdefault(at + name, []).append(_("This game's cards have no such value."))
        else:
            edited[box] = value
    if problems:
        return None, problems
    data: dict[str, Any] = {"key": choice.key, "card": choice.card}
    if card is not None and current is not None:
        # A matched card: every box as stored (as the page fills it), each reading taken or box edited chosen.
        initial = form.initial
        data.update({name: as_posted(initial.get(name, "")) for name in form.box_names()})
        data["card"] = choice.card or card.key
        data["seen"] = choice.seen or initial.get("seen", "")
        for box in taken:
            if box in form.choice_names:
                data[f"choice_{box}"] = TAKE_READING
        if take_sure:
            data["take_sure"] = "1"
        if choice.image:
            data["image"] = "on"
    else:
        # A new card: only the values chosen, every other box empty (unknown).
        sure = [name for name in form.sure if name in form.readings] if take_sure else []
        for box in dict.fromkeys([*sure, *taken]):
            data[box] = as_posted(form.readings[box])
        if not (taken or edited or sure):
            return None, {}
        if choice.image is not False:
            data["image"] = "on"
    for box, value in edited.items():
        data[box] = as_posted(value)
        if box in form.choice_names:
            data[f"choice_{box}"] = EDIT
    bound = PhotoReviewForm(
        photo.batch.game.definition,
        data,
        new_card=form.new_card,
        stored=form.stored,
        readings=form.readings,
        sure=form.sure,
    )
    if not bound.is_valid():
        for name, messages in bound.errors.items():
            place = str(photo.index) if name == "__all__" else at + reviewing.value_name(bound, name)
            problems.setdefault(place, []).extend(messages)
        return None, problems
    if bound.changes_nothing():
        return None, {}
    return bound.values(), {}


def batch_submit_choices(
    *, user: SiteUser, batch_id: int, choices: Sequence[PhotoChoice], take_sure: bool = False
) -> BatchSubmitted:
    """The contributor's ``choices`` (and, with ``take_sure``, every sure reading of the photos left) as one change
    set of the batch's cards (see the module). ``Http404`` for a batch the user did not upload; ``ChoicesRefused``
    (400) naming each photo and value at fault; ``PhotoSubmitted`` (409) for a photo named that another change set
    already holds while something else is to change; the contributions' refusals (``card_changed_since`` …) as
    ``submit_batch`` names them. Nothing is written unless everything is taken."""
    batch = selectors.batch_of(user, batch_id)  # its uploader's alone: Http404 for anyone else
    with transaction.atomic():
        ReadingBatch.objects.select_for_update().get(pk=batch.pk)  # one submit of the batch at a time
        photos = {
            photo.index: photo
            for photo in PhotoReading.objects.select_related(
                "batch", "batch__game", "card", "change_set", "duplicate_of__card"
            ).filter(batch=batch)
        }
        problems: dict[str, list[Any]] = {}
        named: dict[int, PhotoChoice] = {}
        for choice in choices:
            photo = photos.get(choice.photo)
            if choice.photo in named:
                problems.setdefault(str(choice.photo), []).append(
                    _("This photo is named twice: give all its choices in one entry.")
                )
            elif photo is None:
                problems.setdefault(str(choice.photo), []).append(
                    Message(_("This batch has no photo %(index)s."), {"index": choice.photo})
                )
            elif photo.status != ReadingStatus.DONE:
                problems.setdefault(str(choice.photo), []).append(
                    _("This photo has not been read (yet): there is nothing to submit.")
                )
            named[choice.photo] = choice
        values: dict[int, dict[str, Any]] = {}
        for index, photo in sorted(photos.items()):
            if photo.status != ReadingStatus.DONE or photo.change_set_id is not None:
                continue
            if index not in named and not take_sure:
                continue
            photo_values, found = _photo_values(photo, named.get(index) or PhotoChoice(index), take_sure)
            problems.update(found)
            if photo_values is not None:
                values[index] = photo_values
        if problems:
            raise ChoicesRefused(
                _("Some choices cannot be taken; nothing was submitted."), errors=dict(sorted(problems.items()))
            )
        submitted = sorted(
            (photos[index] for index in named if photos[index].change_set_id is not None), key=lambda p: p.index
        )
        if submitted:
            earlier = {photo.change_set_id for photo in submitted}
            if not values and len(earlier) == 1 and submitted[0].change_set is not None:
                return BatchSubmitted(submitted[0].change_set, False, tuple(photo.index for photo in submitted))
            message = Message(
                _("Photo %(index)s is already submitted, as change set #%(number)s: leave it out."),
                {"index": submitted[0].index, "number": submitted[0].change_set_id},
            )
            raise PhotoSubmitted(message, errors={str(submitted[0].index): [message]})
        if not values:
            return BatchSubmitted(None, False, ())
        change_set = submissions.submit_batch(user=user, batch=batch, values=values)
        if change_set is None:
            return BatchSubmitted(None, False, ())
        held = PhotoReading.objects.filter(batch=batch, change_set=change_set).order_by("index")
        return BatchSubmitted(change_set, True, tuple(held.values_list("index", flat=True)))
