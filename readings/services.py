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

import io
import logging
import secrets
from collections.abc import Callable, Sequence
from typing import Any

from django.conf import settings
from django.core.files.base import ContentFile
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext_lazy as _
from PIL import Image, ImageOps

from cards.images.services import image_store
from cards.models import Card, Game
from cards.reading import ReadingUnavailable, languages_for, propose, read_photo
from cards.reading.confusions import closest_name
from cards.reading.layout import layout_for
from cards.search.normalize import fold
from cards.search.selectors import QueryError, run_search
from cards.selectors import card_names
from cardsite import jobs
from cardsite.errors import AppError, Message
from cardsite.storage import following_transaction, store_file
from cardsite.types import SiteUser, signed_in
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


def _keep_source(upload: Any) -> str:
    """Keep what the reader reads: the upload's own pixels (already checked by ``image_store``), turned as its EXIF
    says, losslessly as PNG without metadata; the stored name. The site's stored picture is a WebP re-encoding
    (quality 88, at most 2,000 pixels), and a reading flips with that change, so the reading does not use it."""
    upload.seek(0)
    with Image.open(upload) as opened:
        turned = ImageOps.exif_transpose(opened)
        if turned.mode not in ("RGB", "RGBA", "L", "LA"):
            turned = turned.convert("RGB")
        output = io.BytesIO()
        turned.save(output, format="PNG", compress_level=1)  # a fast save: the file lives until it is read
    return store_file(f"readings/{secrets.token_urlsafe(18)}.png", ContentFile(output.getvalue()))


def printing_choices(game: Game) -> list[str]:
    """The languages a batch of ``game``'s cards may say they are printed in: its original, then its translations."""
    return list(game.definition.text_languages)


def reading_batch_create(
    *, user: SiteUser, game: Game, files: Sequence[Any], language: str | None = None, printing: str = ""
) -> ReadingBatch:
    """Keep the photos and queue their reading; with the immediate task backend (tests) they are read on return.

    ``NotAllowed`` (403) for a user who may not contribute to the game; ``ReadingError`` (400, field ``photo``)
    without photos or with more than ``READING_MAX_PHOTOS_PER_BATCH``, or printed in a language the game has
    not (field ``printing``; "": not said); the upload's own refusals
    (``ImageError`` 400/413, ``QuotaExceeded`` 429) for a photo, and then nothing is kept.
    """
    user = signed_in(user)
    refusal = contribution_refusal(user, game)
    if refusal is not None:
        raise NotAllowed(refusal)
    if not files:
        message = Message(_("Send at least one photo as the form field “photo”."))
        raise ReadingError(message, code="no_photo", errors={"photo": [message]})
    if printing and printing not in printing_choices(game):
        message = Message(_("This game's cards are not printed in that language."))
        raise ReadingError(message, code="invalid", errors={"printing": [message]})
    limit = max_photos()
    if len(files) > limit:
        message = Message(
            _("A batch holds at most %(limit)s photos; send the others in another batch."), {"limit": limit}
        )
        raise ReadingError(message, code="too_many_photos", errors={"photo": [message]})
    # A photo refused rolls the batch back; the photos kept before it lose their files too (cardsite.storage).
    with following_transaction(), transaction.atomic():
        batch = ReadingBatch.objects.create(
            user=user,
            game=game,
            language=language or translation.get_language() or settings.LANGUAGE_CODE,
            printing=printing,
        )
        photos = [
            PhotoReading.objects.create(
                batch=batch,
                index=index,
                image=image_store(uploader=user, stream=upload, field="photo"),
                source=_keep_source(upload),
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
        # The upload's own pixels (``source``); a photo kept before they were kept is read from its stored picture.
        stored = chunk.source if chunk.source else chunk.image.file
        try:
            with stored.open("rb") as stream:
                picture = Image.open(stream)
                picture.load()
        except (OSError, ValueError) as error:
            raise jobs.ItemFailed(UNREADABLE, detail=str(error) or type(error).__name__) from error
        try:
            reading = read_photo(
                picture, languages_for(definition, printing=run.printing or None), layout=layout_for(definition.slug)
            )
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
    name folds to the same text as the one read, or the only card found); a name the search does not find is
    matched against every name of the game, in all its languages and tracks, allowing for the reader's known
    misreadings (``cards.reading.confusions.closest_name``: 澤 for 戦, ト for ド).
    """
    names = [
        proposal.value
        for proposal in proposals
        if proposal.field == "name" and isinstance(proposal.value, str) and proposal.value.strip()
    ]
    for field in ("number", "name"):
        for proposal in proposals:
            if proposal.field != field or not isinstance(proposal.value, str) or not proposal.value.strip():
                continue
            card = _search_one(game, field, proposal.value, ui_language)
            if card is not None:
                return card, field
    if names:
        every_name = card_names(game)
        for name in names:
            match = closest_name(name, every_name)
            if match is not None:
                return Card.objects.get(pk=match.key), "name"
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
