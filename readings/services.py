"""Writes of the readings: start a batch of photos, read each photo on a task worker, cancel, recover.

The pattern is ``simulator.services``' (Monte Carlo runs): one task per photo (``readings.tasks.read_photo``),
so that as many workers as there are read a batch at once; each photo is claimed by one statement, its state
written in one statement or one transaction holding the batch's row; a photo whose worker stops beating
(``heartbeat_at``) is read again elsewhere, at most ``MAX_ATTEMPTS`` times.

- ``reading_batch_create`` checks and keeps each photo as every upload is kept (``image_store``: checked,
  re-encoded, de-duplicated, counted against ``IMAGE_UPLOADS_PER_DAY``), at most
  ``settings.READING_MAX_PHOTOS_PER_BATCH`` photos, and queues one task per photo. All or nothing: a photo
  refused, or over the day's allowance, and no batch is kept.
- ``execute_photo`` is a task's body: it reads the photo (``cards.reading``), proposes values, matches them
  to an existing card (the number first, then the name, through the search), and settles the batch when its
  last photo is done.
- ``reading_cancel``: the photos still queued are never read; a photo being read is finished (Tesseract is
  not interrupted), so a cancel is honoured between photos.
- ``recover_stalled``: photos whose worker vanished are queued again (each look at a batch calls it).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone, translation
from django.utils.translation import gettext_lazy as _
from PIL import Image

from cards.models import Card, Game
from cards.reading import ReadingUnavailable, languages_for, propose, read_photo
from cards.search.normalize import fold
from cards.search.selectors import QueryError, run_search
from cards.services import card_state, state_digest
from cards.services_images import image_store
from cardsite import taskqueue
from cardsite.errors import AppError, Message
from cardsite.storage import following_transaction
from contributions.models import ChangeSet
from contributions.services import NotAllowed, contribution_refusal
from simulator.chunked import SAME_TRANSACTION_BACKENDS, worker_name

from .models import PhotoReading, ReadingBatch, ReadingStatus
from .selectors import keyword_terms

logger = logging.getLogger("readings")

Status = ReadingStatus
ACTIVE = (Status.QUEUED, Status.READING)
MAX_ATTEMPTS = 3

# Why a reading failed (``PhotoReading.error_code``), put into words when read.
UNAVAILABLE = "reading_unavailable"
UNREADABLE = "photo_unreadable"
WORKERS_STOPPED = "workers_stopped"
UNEXPECTED = "unexpected"
FAILURES: dict[str, Any] = {
    UNAVAILABLE: _(
        "Reading photos is not available on this site now: Tesseract or its language data is not installed."
    ),
    UNREADABLE: _("The stored photo could not be opened to be read."),
    WORKERS_STOPPED: _("The workers reading this photo stopped several times; it was not read."),
    UNEXPECTED: _("The reading failed unexpectedly; the site's staff can see why in its logs."),
}


def failure_message(code: str) -> str:
    return str(FAILURES.get(code, FAILURES[UNEXPECTED]))


class ReadingError(AppError):
    """A batch that cannot be started; nothing was stored."""

    code = "reading_refused"


def max_photos() -> int:
    return settings.READING_MAX_PHOTOS_PER_BATCH


def batch_body_too_large(content_length: str | None) -> bool:
    """Whether a request says (its Content-Length) it is larger than a batch's photos and the form's other fields
    may be together: refused before its body is read."""
    try:
        length = int(content_length or 0)
    except ValueError:
        return False
    return length > max_photos() * settings.IMAGE_MAX_BYTES + settings.DATA_UPLOAD_MAX_MEMORY_SIZE


def stale_after() -> timedelta:
    return timedelta(seconds=settings.READING_STALE_SECONDS)


# --- starting -----------------------------------------------------------------------------------------


def reading_batch_create(*, user: Any, game: Game, files: Sequence[Any], language: str | None = None) -> ReadingBatch:
    """Keep the photos and queue their reading; with the immediate task backend (tests) they are read on return.

    ``NotAllowed`` (403) for a user who may not contribute to the game; ``ReadingError`` (400, field ``photo``)
    without photos or with more than ``READING_MAX_PHOTOS_PER_BATCH``; the upload's own refusals
    (``ImageError`` 400/413, ``QuotaExceeded`` 429) for a photo, and then nothing is kept.
    """
    refusal = contribution_refusal(user, game)
    if refusal is not None:
        raise NotAllowed(refusal)
    if not files:
        message = Message(_("Send at least one photo as the form field “photo”."))
        raise ReadingError(message, code="no_photo", errors={"photo": [message]})
    limit = max_photos()
    if len(files) > limit:
        message = Message(
            _("A batch holds at most %(limit)s photos; send the others in another batch."), {"limit": limit}
        )
        raise ReadingError(message, code="too_many_photos", errors={"photo": [message]})
    # A photo refused rolls the batch back; the photos kept before it lose their files too (cardsite.storage).
    with following_transaction(), transaction.atomic():
        batch = ReadingBatch.objects.create(
            user=user, game=game, language=language or translation.get_language() or settings.LANGUAGE_CODE
        )
        photos = [
            PhotoReading.objects.create(
                batch=batch, index=index, image=image_store(uploader=user, stream=upload, field="photo")
            )
            for index, upload in enumerate(files, start=1)
        ]
        for photo in photos:
            _enqueue(photo.pk)
    batch.refresh_from_db()
    return batch


def _enqueue(photo_id: int) -> None:
    """Hand the photo to the task backend: at once if its queue is this database (the task row commits with the
    photo), after the commit otherwise (a Redis worker must not look before the photo exists)."""
    from .tasks import read_photo as read_photo_task

    def send() -> None:
        result = read_photo_task.enqueue(photo_id)
        PhotoReading.objects.filter(pk=photo_id).update(task_id=str(result.id)[:64])

    if settings.TASKS["default"]["BACKEND"] in SAME_TRANSACTION_BACKENDS:
        send()
    else:
        transaction.on_commit(send)


# --- reading ------------------------------------------------------------------------------------------


def execute_photo(photo_id: int) -> dict[str, Any] | None:
    """Read one photo (the task's body). None if it was not queued any more (cancelled, or taken)."""
    language = ReadingBatch.objects.filter(photos=photo_id).values_list("language", flat=True).first()
    with translation.override(language or settings.LANGUAGE_CODE):
        return _execute_photo(photo_id)


def _execute_photo(photo_id: int) -> dict[str, Any] | None:
    recover_stalled()
    now = timezone.now()
    claimed = PhotoReading.objects.filter(pk=photo_id, status=Status.QUEUED, batch__status__in=ACTIVE).update(
        status=Status.READING, progress=10, heartbeat_at=now, started_at=now, attempts=F("attempts") + 1
    )
    if not claimed:
        return None
    photo = PhotoReading.objects.select_related("batch", "batch__game", "image").get(pk=photo_id)
    batch = photo.batch
    ReadingBatch.objects.filter(pk=batch.pk, status=Status.QUEUED).update(status=Status.READING)
    logger.info("reading a photo", extra={"batch": batch.pk, "photo": photo.index, "worker": worker_name()})
    definition = batch.game.definition
    try:
        try:
            with photo.image.file.open("rb") as stream:
                picture = Image.open(stream)
                picture.load()
        except (OSError, ValueError) as error:
            _close(photo, status=Status.FAILED, error_code=UNREADABLE, error=str(error) or type(error).__name__)
            return None
        reading = read_photo(picture, languages_for(definition))
        _beat(photo, 80)
        proposals = propose(reading, definition, terms=keyword_terms(batch.game))
        card, matched_by = match_card(batch.game, proposals, ui_language=batch.language)
    except ReadingUnavailable as error:
        _close(photo, status=Status.FAILED, error_code=UNAVAILABLE, error=str(error))
        return None
    except Exception as error:
        _close(photo, status=Status.FAILED, error_code=UNEXPECTED, error=str(error) or type(error).__name__)
        raise
    except BaseException:
        # The worker is being stopped: the photo goes back to the queue for the next worker.
        _requeue(photo)
        raise
    _close(
        photo,
        status=Status.DONE,
        reading=reading.to_json(),
        proposals=[proposal.to_json() for proposal in proposals],
        card=card,
        card_key=card.key if card else "",
        matched_by=matched_by,
    )
    return {"photo": photo.index, "lines": len(reading.lines), "card": card.key if card else None}


def _mine(photo: PhotoReading) -> Any:
    return PhotoReading.objects.filter(pk=photo.pk, status=Status.READING, attempts=photo.attempts)


def _beat(photo: PhotoReading, progress: int) -> None:
    _mine(photo).update(progress=progress, heartbeat_at=timezone.now())


def _close(photo: PhotoReading, *, status: str, **values: Any) -> None:
    """Keep what the reading gave (if the photo is still this worker's) and settle the batch, in one transaction."""
    with transaction.atomic():
        batch = ReadingBatch.objects.select_for_update().get(pk=photo.batch_id)
        now = timezone.now()
        _mine(photo).update(status=status, progress=100, heartbeat_at=now, finished_at=now, **values)
        _settle(batch)


def _settle(batch: ReadingBatch) -> None:
    """Finish the batch once none of its photos waits or is being read (its row is locked by the caller)."""
    if batch.finished_at is not None or batch.photos.filter(status__in=ACTIVE).exists():
        return
    update: dict[str, Any] = {"finished_at": timezone.now()}
    if batch.status in ACTIVE:
        update["status"] = Status.DONE
    ReadingBatch.objects.filter(pk=batch.pk).update(**update)


def _requeue(photo: PhotoReading) -> None:
    with transaction.atomic():
        ReadingBatch.objects.select_for_update().get(pk=photo.batch_id)
        if _mine(photo).update(status=Status.QUEUED, progress=0, heartbeat_at=None):
            _enqueue(photo.pk)


# --- matching -----------------------------------------------------------------------------------------


def match_card(game: Game, proposals: Sequence[Any], *, ui_language: str) -> tuple[Card | None, str]:
    """The existing card the proposals point to, and by what ("number" or "name"); (None, "") when none does.

    The proposed number is searched first (``number:"…"``), then the proposed name (``name:"…"``, a card whose
    name folds to the same text as the one read, or the only card found).
    """
    for field in ("number", "name"):
        for proposal in proposals:
            if proposal.field != field or not isinstance(proposal.value, str) or not proposal.value.strip():
                continue
            card = _search_one(game, field, proposal.value, ui_language)
            if card is not None:
                return card, field
    return None, ""


def _search_one(game: Game, field: str, value: str, ui_language: str) -> Card | None:
    cleaned = value.replace('"', " ").replace("\\", " ").strip()
    if not cleaned:
        return None
    try:
        # The first ten in the search's order, without counting them all.
        found = run_search(
            f'{field}:"{cleaned}"', ui_language, game=game, paginate=lambda outcome: outcome.cards[:10]
        ).rows
    except QueryError:
        return None
    wanted = fold(cleaned).replace(" ", "")
    if field == "number":
        exact = [card for card in found if card.number and fold(card.number) == wanted]
    else:
        exact = [card for card in found if any(fold(text.name).replace(" ", "") == wanted for text in card.texts.all())]
    if len(exact) == 1:
        return exact[0]
    return found[0] if len(found) == 1 and not exact else None


# --- cancelling and recovering ------------------------------------------------------------------------


def reading_cancel(*, batch: ReadingBatch) -> bool:
    """Stop a batch: its queued photos are never read (a photo being read is finished). False if it had ended."""
    with transaction.atomic():
        locked = ReadingBatch.objects.select_for_update().get(pk=batch.pk)
        cancelled = locked.status in ACTIVE
        if cancelled:
            now = timezone.now()
            locked.photos.filter(status=Status.QUEUED).update(status=Status.CANCELLED, finished_at=now)
            ReadingBatch.objects.filter(pk=locked.pk).update(status=Status.CANCELLED)
            locked.status = Status.CANCELLED
            _settle(locked)
    batch.refresh_from_db()
    return cancelled


def recover_stalled(batch: ReadingBatch | None = None) -> int:
    """Queue again (or, after ``MAX_ATTEMPTS``, fail) photos whose worker stopped beating; how many. The task
    queue's rows that the same vanished workers left RUNNING are reclaimed on the way."""
    taskqueue.reclaim_now_and_then()
    cutoff = timezone.now() - stale_after()
    stalled = PhotoReading.objects.filter(status=Status.READING, heartbeat_at__lt=cutoff)
    if batch is not None:
        stalled = stalled.filter(batch=batch)
    recovered = 0
    for photo in stalled[:100]:
        with transaction.atomic():
            locked = ReadingBatch.objects.select_for_update().get(pk=photo.batch_id)
            mine = PhotoReading.objects.filter(pk=photo.pk, status=Status.READING, heartbeat_at__lt=cutoff)
            if locked.status in ACTIVE and photo.attempts < MAX_ATTEMPTS:
                if mine.update(status=Status.QUEUED, progress=0, heartbeat_at=None):
                    logger.warning("a photo's reading stalled; reading it again", extra={"photo": photo.pk})
                    _enqueue(photo.pk)
                    recovered += 1
                continue
            now = timezone.now()
            if mine.update(status=Status.FAILED, error_code=WORKERS_STOPPED, progress=100, finished_at=now):
                recovered += 1
            _settle(locked)
    return recovered


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
    if current is not None:
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
        for change in other.change_set.changes.all():
            if change.base is not None:
                continue
            proposed = change.proposed or {}
            other_name = fold(((proposed.get("texts") or {}).get(language) or {}).get("name", "")).replace(" ", "")
            if change.key == key or (number and proposed.get("number") == number) or (name and other_name == name):
                return other
    return None


def submit_photo(*, user: Any, batch: ReadingBatch, index: int, values: Mapping[str, Any]) -> tuple[Any, bool]:
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
    from contributions.services import ContributionError, ImageProposal, submit_change_set

    with transaction.atomic():
        ReadingBatch.objects.select_for_update().get(pk=batch.pk)  # one submit of the batch at a time
        photo = (
            PhotoReading.objects.select_for_update(of=("self",))
            .select_related("batch", "batch__game", "card", "change_set", "duplicate_of__card")
            .get(batch=batch, index=index)
        )
        if photo.change_set is not None:
            return photo.change_set, False
        if photo.status != Status.DONE:
            raise NotRead(_("This photo has not been read (yet): there is nothing to submit."))
        game = photo.batch.game
        language = game.definition.original_language
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
                message = Message(
                    _("Photo %(other)s of this batch already proposes this card (change set #%(number)s)."),
                    {"other": other.index, "number": other.change_set_id},
                )
                raise CardInBatch(message, errors={"key": [message]})
        # A card that already has this picture (the perceptual hash) is not offered it a second time.
        offer_image = values.get("image", True) and photo.duplicate_of is None
        images = [ImageProposal(key=key, image=photo.image_id)] if offer_image else []
        detail = Message(
            _("photo %(index)s, read automatically, confirmed by %(user)s"),
            {"index": photo.index, "user": user.get_username()},
        )
        seen = None
        if current is not None:
            # What the contributor saw is the matched card's state; another card chosen is taken as it is now.
            seen_now = values.get("seen") if card == matched else None
            seen = {key: str(seen_now or state_digest(current))}
        try:
            change_set = submit_change_set(
                author=user,
                game=game,
                cards=[record],
                source_kind=ChangeSet.SourceKind.PHOTO,
                source_detail=str(detail),
                source_photo=photo.image,
                images=images,
                seen=seen,
            )
        except ContributionError as error:
            error._errors = {_error_path(path, language): messages for path, messages in error._errors.items()}
            raise
        PhotoReading.objects.filter(pk=photo.pk).update(change_set=change_set)
    return change_set, True
