"""Writes of the readings: start a batch of photos, read each photo on a task worker, cancel.

A batch is a job of ``cardsite.jobs`` and each photo one of its items (``PhotoReadings``, the kind): one task per
photo (``readings.tasks.read_photo``), so that as many workers as there are read a batch at once; claiming,
heartbeats, cancelling and recovering a photo whose worker vanished (at most ``MAX_ATTEMPTS`` times) are the
lifecycle's, the same as the simulator's runs. What differs is declared here: a photo that cannot be read fails
alone (the batch goes on with the others), the batch is done once no photo waits or is being read, and a photo
being read when the batch is cancelled is finished (Tesseract is not interrupted).

- ``reading_batch_create`` checks and keeps each photo as every upload is kept (``image_store``: checked,
  re-encoded, de-duplicated, counted against ``IMAGE_UPLOADS_PER_DAY``), at most
  ``settings.READING_MAX_PHOTOS_PER_BATCH`` photos, and queues one task per photo. All or nothing: a photo
  refused, or over the day's allowance, and no batch is kept.
- ``PhotoReadings.execute_chunk`` is a task's body: it reads the photo (``cards.reading``), proposes values and
  matches them to an existing card (the number first, then the name, through the search).
- ``reading_cancel``: the photos still queued are never read.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone, translation
from django.utils.translation import gettext_lazy as _
from PIL import Image

from cards.images.services import image_store
from cards.models import Card, Game
from cards.reading import ReadingUnavailable, languages_for, propose, read_photo
from cards.search.normalize import fold
from cards.search.selectors import QueryError, run_search
from cards.services import card_state, state_digest
from cardsite import jobs
from cardsite.errors import AppError, Message
from cardsite.storage import following_transaction
from cardsite.types import SiteUser, signed_in
from contributions.models import ChangeSet
from contributions.services import NotAllowed, contribution_refusal

from . import duplicates
from .failures import UNAVAILABLE, UNREADABLE
from .models import PhotoReading, ReadingBatch, ReadingStatus
from .selectors import keyword_terms

logger = logging.getLogger("readings")

Status = ReadingStatus
ACTIVE = jobs.ACTIVE
MAX_ATTEMPTS = jobs.MAX_ATTEMPTS


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


# --- starting -----------------------------------------------------------------------------------------


def reading_batch_create(
    *, user: SiteUser, game: Game, files: Sequence[Any], language: str | None = None
) -> ReadingBatch:
    """Keep the photos and queue their reading; with the immediate task backend (tests) they are read on return.

    ``NotAllowed`` (403) for a user who may not contribute to the game; ``ReadingError`` (400, field ``photo``)
    without photos or with more than ``READING_MAX_PHOTOS_PER_BATCH``; the upload's own refusals
    (``ImageError`` 400/413, ``QuotaExceeded`` 429) for a photo, and then nothing is kept.
    """
    user = signed_in(user)
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
            READINGS.enqueue(photo.pk)
    batch.refresh_from_db()
    return batch


class PhotoReadings(jobs.JobKind[ReadingBatch, PhotoReading, dict[str, Any]]):
    """Batches of photos as jobs: an item reads one photo; the result is what was read, proposed and matched."""

    run_model = ReadingBatch
    chunk_model = PhotoReading
    unit = "percent"
    run_fk = "batch"
    chunks_related = "photos"
    owner_field = "user"
    played_field = "progress"  # a photo's progress, in percent
    chunk_relations = ("batch", "batch__game", "image")
    stale_setting = "READING_STALE_SECONDS"
    fails_job_with_item = False
    done_when_settled = True
    tracks_progress = False
    stops_mid_item = False

    def send(self, chunk_id: int) -> Any:
        from .tasks import read_photo as read_photo_task

        return read_photo_task.enqueue(chunk_id)

    def execute_chunk(self, chunk_id: int) -> dict[str, Any] | None:
        """Read one photo (the task's body): first its perceptual hash, the card image it duplicates and the
        batch's photos of the same card (``duplicates.check_photo``), then its text; a photo whose text matched
        no card is then matched by its image (``duplicates.after_reading``). None if it was not queued any more
        (cancelled, or taken), or could not be read (the photo then says why)."""
        duplicates.check_photo(chunk_id)
        outcome = super().execute_chunk(chunk_id)
        duplicates.after_reading(chunk_id)
        return outcome

    def play(self, run: ReadingBatch, chunk: PhotoReading, report: Callable[[int], bool]) -> dict[str, Any]:
        report(10)
        logger.info("reading a photo", extra={"batch": run.pk, "photo": chunk.index, "worker": jobs.worker_name()})
        definition = run.game.definition
        try:
            with chunk.image.file.open("rb") as stream:
                picture = Image.open(stream)
                picture.load()
        except (OSError, ValueError) as error:
            raise jobs.ItemFailed(UNREADABLE, detail=str(error) or type(error).__name__) from error
        try:
            reading = read_photo(picture, languages_for(definition))
            report(80)
            proposals = propose(reading, definition, terms=keyword_terms(run.game))
            card, matched_by = match_card(run.game, proposals, ui_language=run.language)
        except ReadingUnavailable as error:
            raise jobs.ItemFailed(UNAVAILABLE, detail=str(error)) from error
        return {
            "reading": reading.to_json(),
            "proposals": [proposal.to_json() for proposal in proposals],
            "card": card,
            "card_key": card.key if card else "",
            "matched_by": matched_by,
        }

    def empty_result(self, run: ReadingBatch) -> dict[str, Any]:
        return {}

    def count(self, result: dict[str, Any]) -> int:
        return 100  # a photo's progress once it is closed, read or not

    def merge(self, run: ReadingBatch, chunks: list[PhotoReading], *, all_done: bool) -> jobs.Merged:
        return jobs.Merged(progress=0, result=None, done=True)

    def item_fields(self, result: dict[str, Any], status: str) -> dict[str, Any]:
        return {**result, "finished_at": timezone.now()}

    def claim_fields(self) -> dict[str, Any]:
        return {"started_at": timezone.now()}

    def failed_item_fields(self, code: str, detail: str) -> dict[str, Any]:
        return {"error_code": code, "error": detail, "progress": 100, "finished_at": timezone.now()}

    def cancelled_item_fields(self) -> dict[str, Any]:
        return {"finished_at": timezone.now()}

    def task_report(self, chunk: PhotoReading, result: dict[str, Any]) -> dict[str, Any]:
        card = result.get("card")
        return {"photo": chunk.index, "lines": len(result["reading"]["lines"]), "card": card.key if card else None}


READINGS = PhotoReadings()


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
        found: list[Any] = run_search(
            f'{field}:"{cleaned}"',
            ui_language,
            game=game,
            paginate=lambda outcome: [] if outcome.cards is None else outcome.cards[:10],
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
    return READINGS.cancel(batch)


recover_stalled = READINGS.recover_stalled


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
                proposed_there = Message(
                    _("Photo %(other)s of this batch already proposes this card (change set #%(number)s)."),
                    {"other": other.index, "number": other.change_set_id},
                )
                raise CardInBatch(proposed_there, errors={"key": [proposed_there]})
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
