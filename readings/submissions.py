"""Writes of a reviewed reading: one photo's values, or a whole batch's, submitted as a change set of the
contributions (``contributions.services``), with nothing changed that the contributor did not choose.

Split from ``services`` (which starts, reads and cancels batches) because the review is a step of its own: it runs
in the request, after the reading, and writes only through the contributions' change sets.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from cards.models import Card
from cards.search.normalize import fold
from cards.services import card_state, state_digest
from cardsite.errors import AppError, Message
from cardsite.types import SiteUser
from contributions.models import ChangeSet

from .models import PhotoReading, ReadingBatch, ReadingStatus
from .services import ReadingError

# --- submitting a reviewed photo ----------------------------------------------------------------------

SUBMITTED_VALUES = ("key", "number", "kind", "name", "text", "fields")


class NotRead(ReadingError):
    code = "photo_not_read"
    status = 409


class CardInBatch(ReadingError):
    """Another photo of the batch already proposes this new card."""

    code = "card_already_proposed"
    status = 409


def photo_of(batch: ReadingBatch, index: int) -> PhotoReading:
    """The batch's photo ``index`` (1, 2, …); Http404 when it has none."""
    from django.http import Http404

    photo = next((photo for photo in batch.photos.all() if photo.index == index), None)
    if photo is None:
        raise Http404
    return photo


def _error_path(path: str, original: str) -> str:
    """A contribution's problem place (``cards[0].texts.ja.name``, ``images[0].card``) as a submitted value's name
    (``name``; a translation's ``translations.zh-hant.name``)."""
    head, _dot, rest = path.partition(".")
    if head.startswith("images"):
        return "image"
    if not head.startswith("cards"):
        return path
    first, _dot, tail = rest.partition(".")
    if first == "texts":
        code, _dot, part = tail.partition(".")
        return part or "name" if code == original else f"translations.{code}.{part or 'name'}"
    return rest or "key"


def _submitted_record(
    photo: PhotoReading, values: Mapping[str, Any], language: str, card: Card | None
) -> tuple[str, dict[str, Any], dict[str, Any] | None]:
    """The card to propose (the project's card format), its key, and the card as it is now (None: a new card).

    Only the values submitted are set: a matched card keeps every value not submitted as it is."""
    current = card_state(Card.objects.prefetch_related("texts").get(pk=card.pk)) if card is not None else None
    if card is not None and current is not None:
        key = card.key
        record: dict[str, Any] = {
            "key": key,
            "number": current.get("number"),
            "kind": current.get("kind"),
            "fields": dict(current.get("fields") or {}),
            "texts": {code: dict(parts) for code, parts in (current.get("texts") or {}).items()},
            "source": current.get("source") or "",
        }
        if current.get("translations"):
            record["translations"] = current["translations"]
    else:
        key = str(values.get("key") or values.get("number") or values.get("name") or "").strip()
        record = {"key": key, "number": None, "kind": None, "fields": {}, "texts": {}, "source": ""}
    for name in ("number", "kind"):
        if name in values:
            record[name] = values[name] or None
    for name, value in (values.get("fields") or {}).items():
        if value in (None, "", []):
            record["fields"].pop(name, None)
        else:
            record["fields"][name] = value
    given_texts = {language: {part: values[part] for part in ("name", "text") if part in values}}
    given_texts.update(values.get("translations") or {})  # the translation languages' name and text, read too
    for code, given in given_texts.items():
        parts = record["texts"].setdefault(code, {})
        for part in ("name", "text"):
            if part in given:
                parts[part] = given[part] or ""
    record["texts"] = {
        code: kept for code, texts in record["texts"].items() if (kept := {p: v for p, v in texts.items() if v})
    }
    return key, record, current


def matched_card(photo: PhotoReading) -> Card | None:
    """The card the photo shows: the one its text matched, else the one that already has this picture."""
    if photo.card is not None:
        return photo.card
    if photo.duplicate_of is not None:
        return photo.duplicate_of.card
    return None


def _proposed_elsewhere(photo: PhotoReading, key: str, record: dict[str, Any], language: str) -> PhotoReading | None:
    """Another photo of the batch whose change set proposes the same new card: its key, number or name, or a
    photo the perceptual hash found to show the same card (``same_card_as``: read differently, still one card)."""
    group = photo.same_card_as if photo.same_card_as is not None else photo.index
    same_picture = (
        PhotoReading.objects.filter(batch=photo.batch_id, change_set__isnull=False)
        .exclude(pk=photo.pk)
        .filter(Q(index=group) | Q(same_card_as=group))
        .order_by("index")
        .first()
    )
    if same_picture is not None and same_picture.card_id is None:
        return same_picture
    number = record.get("number")
    name = fold((record["texts"].get(language) or {}).get("name", "")).replace(" ", "")
    others = (
        PhotoReading.objects.filter(batch=photo.batch_id, change_set__isnull=False)
        .exclude(pk=photo.pk)
        .select_related("change_set")
        .prefetch_related("change_set__changes")
    )
    for other in others:
        if other.change_set is None:  # not possible here (filtered above); says so to the type checker
            continue
        for change in other.change_set.changes.all():
            if change.base is not None:
                continue
            proposed = change.proposed or {}
            other_name = fold(((proposed.get("texts") or {}).get(language) or {}).get("name", "")).replace(" ", "")
            if change.key == key or (number and proposed.get("number") == number) or (name and other_name == name):
                return other
    return None


def submit_photo(*, user: SiteUser, batch: ReadingBatch, index: int, values: Mapping[str, Any]) -> tuple[Any, bool]:
    """Turn the values the contributor confirmed or corrected for one photo into one change set
    (``contributions.services.submit_change_set``, checked as every contribution is); (change set, made now).

    A matched card: a correction of the submitted values that differ, and the photo proposed as its image
    (``values["image"]``, true unless false). No card matched: a new card of exactly the submitted values, its key
    ``values["key"]`` or else its number or name. The change set's source is the photo ("photo N, read
    automatically, confirmed by <user>", in the contributor's language), so each value it sets carries it.

    A photo submitted already gives its change set back (made now: False): a double submit makes one. A new card
    another photo of the batch already proposes (same key, number or name) is refused (``CardInBatch``, 409).
    Problems of the values are refused with the submitted value's name (``fields.at``, ``name``, ``number`` …).
    """
    from contributions.services import ContributionError, submit_change_set

    with transaction.atomic():
        ReadingBatch.objects.select_for_update().get(pk=batch.pk)  # one submit of the batch at a time
        photo = (
            PhotoReading.objects.select_for_update(of=("self",))
            .select_related("batch", "batch__game", "card", "change_set", "duplicate_of__card")
            .get(batch=batch, index=index)
        )
        if photo.change_set is not None:
            return photo.change_set, False
        game = photo.batch.game
        language = game.definition.original_language
        prepared = _prepared(photo, values, language)
        detail = Message(
            _("photo %(index)s, read automatically, confirmed by %(user)s"),
            {"index": photo.index, "user": user.get_username()},
        )
        try:
            change_set = submit_change_set(
                author=user,
                game=game,
                cards=[prepared.record],
                source_kind=ChangeSet.SourceKind.PHOTO,
                source_detail=str(detail),
                source_photo=photo.image,
                images=prepared.images,
                seen=prepared.seen,
            )
        except ContributionError as error:
            error._errors = {_error_path(path, language): messages for path, messages in error._errors.items()}
            raise
        PhotoReading.objects.filter(pk=photo.pk).update(change_set=change_set)
    return change_set, True


@dataclass(frozen=True)
class _Prepared:
    """One photo's card to propose: its key, the record, the pictures offered and what the contributor saw."""

    key: str
    record: dict[str, Any]
    current: dict[str, Any] | None
    images: list[Any]
    seen: dict[str, str] | None


def _prepared(photo: PhotoReading, values: Mapping[str, Any], language: str) -> _Prepared:
    """Check one photo's submitted values and build its card's record (``submit_photo``, ``submit_batch``)."""
    from contributions.services import ImageProposal

    if photo.status != ReadingStatus.DONE:
        raise NotRead(_("This photo has not been read (yet): there is nothing to submit."))
    game = photo.batch.game
    strange = sorted(set(values.get("translations") or {}) - set(game.definition.translation_languages))
    if strange:
        message = _("This game has no translation in that language.")
        raise ReadingError(message, code="invalid", errors={f"translations.{code}": [message] for code in strange})
    card = matched = matched_card(photo)
    if values.get("card"):  # the contributor says which card the photo shows (a misread number, say)
        card = Card.objects.filter(game=game, key=values["card"]).first()
        if card is None:
            message = _("This game has no card with that key.")
            raise ReadingError(message, code="invalid", errors={"card": [message]})
    key, record, current = _submitted_record(photo, values, language, card)
    if current is None:
        if not key:
            message = _("Give the new card its number or name (or a key).")
            raise ReadingError(message, code="no_key", errors={"key": [message]})
        other = _proposed_elsewhere(photo, key, record, language)
        if other is not None:
            proposed_there = Message(
                _("Photo %(other)s of this batch already proposes this card (change set #%(number)s)."),
                {"other": other.index, "number": other.change_set_id},
            )
            raise CardInBatch(proposed_there, errors={"key": [proposed_there]})
    # A card that already has this picture (the perceptual hash) is not offered it a second time.
    offer_image = values.get("image", True) and photo.duplicate_of is None
    images = [ImageProposal(key=key, image=photo.image_id)] if offer_image else []
    seen = None
    if current is not None:
        # What the contributor saw is the matched card's state; another card chosen is taken as it is now.
        seen_now = values.get("seen") if card == matched else None
        seen = {key: str(seen_now or state_digest(current))}
    return _Prepared(key, record, current, images, seen)


def _changes_nothing(prepared: _Prepared) -> bool:
    if prepared.current is None or prepared.images:
        return False
    return state_digest(prepared.current) == state_digest({**prepared.current, **prepared.record})


def submit_batch(*, user: SiteUser, batch: ReadingBatch, values: Mapping[int, Mapping[str, Any]]) -> ChangeSet | None:
    """The values confirmed for several photos of a batch (``values`` by photo index, as ``submit_photo`` takes
    one photo's) as one change set of all their cards, checked as every contribution is; None when they change
    nothing (a matched card kept as it is and no picture offered). Photos already submitted are left out.

    Problems are refused as ``submit_photo``'s, each named ``<index>.<value>`` (``3.fields.at``); two photos
    proposing the same new card (the same key) are refused (``CardInBatch``, 409)."""
    from contributions.services import ContributionError, submit_change_set

    with transaction.atomic():
        ReadingBatch.objects.select_for_update().get(pk=batch.pk)
        photos = {
            photo.index: photo
            for photo in PhotoReading.objects.select_for_update(of=("self",))
            .select_related("batch", "batch__game", "card", "change_set", "duplicate_of__card")
            .filter(batch=batch, index__in=list(values), change_set__isnull=True)
        }
        game = batch.game
        language = game.definition.original_language
        chosen: list[tuple[PhotoReading, _Prepared]] = []
        keys: dict[str, int] = {}
        for index in sorted(photos):
            photo = photos[index]
            try:
                prepared = _prepared(photo, values[index], language)
            except AppError as error:
                error._errors = {f"{index}.{path}": problems for path, problems in error.errors.items()}
                raise
            if _changes_nothing(prepared):
                continue
            if prepared.key in keys and prepared.current is None:
                message = Message(
                    _("Photo %(other)s of this batch already proposes this card."), {"other": keys[prepared.key]}
                )
                raise CardInBatch(message, errors={f"{index}.key": [message]})
            keys[prepared.key] = index
            chosen.append((photo, prepared))
        if not chosen:
            return None
        detail = Message(
            _("photos %(indexes)s, read automatically, confirmed by %(user)s"),
            {"indexes": ", ".join(str(photo.index) for photo, _prepared in chosen), "user": user.get_username()},
        )
        seen: dict[str, str] = {}
        for _photo, prepared in chosen:
            seen.update(prepared.seen or {})
        try:
            change_set = submit_change_set(
                author=user,
                game=game,
                cards=[prepared.record for _photo, prepared in chosen],
                source_kind=ChangeSet.SourceKind.PHOTO,
                source_detail=str(detail),
                source_photo=chosen[0][0].image,
                images=[image for _photo, prepared in chosen for image in prepared.images],
                seen=seen or None,
            )
        except ContributionError as error:
            error._errors = {
                _batch_error_path(path, language, [photo.index for photo, _prepared in chosen]): messages
                for path, messages in error._errors.items()
            }
            raise
        PhotoReading.objects.filter(pk__in=[photo.pk for photo, _prepared in chosen]).update(change_set=change_set)
    return change_set


def _batch_error_path(path: str, original: str, indexes: list[int]) -> str:
    """A contribution's problem place (``cards[2].fields.at``) as ``<photo index>.<value>`` (``5.fields.at``)."""
    head = path.partition(".")[0]
    if head.startswith("cards[") and head.endswith("]") and head[6:-1].isdigit() and int(head[6:-1]) < len(indexes):
        return f"{indexes[int(head[6:-1])]}.{_error_path(path, original)}"
    return path
