"""Duplicates among card photos, by the perceptual hash of the card each shows
(``cards.reading.fingerprint``, kept on the ``StoredImage``):

- a photo whose hash is within ``DUPLICATE_DISTANCE`` bits of one of the game's card images (a face or other
  side, not removed; backs are shared by many cards) says so: ``PhotoReading.duplicate_of`` is that card
  image, the closest one, and ``duplicate_distance`` how far ("this card already has this image");
- photos of one batch that hash alike show one card: each but the first of them has ``same_card_as``, the
  index of the first (``fingerprint.same_card_groups``), so that the batch never proposes that card twice.

The hash sees the picture, not the words, and cards without art can hash alike: so the text, once read,
has the last word. A photo whose text matched another card than its duplicate's is no duplicate; two photos
whose texts were both read and differ (``TEXTS_ALIKE``) are not the same card.

``check_photo`` runs on the task worker before the photo is read (``readings.tasks.read_photo``): it hashes the
photo and finds its duplicate; ``after_reading`` applies the text's veto. Both then regroup the whole batch,
holding its row, from every hash and text stored so far: photos read at once by several workers end grouped
alike whichever finishes first (the last to take the lock sees them all). Neither ever fails a reading: an
error is logged and the photo read as if it had no hash.
"""

from __future__ import annotations

import difflib
import logging
from typing import Any

from django.db import transaction

from cards.images.services import image_hash
from cards.models import CardImage
from cards.reading.fingerprint import DUPLICATE_DISTANCE, distance, same_card_groups
from cards.search.normalize import fold

from .models import PhotoReading, ReadingBatch, ReadingStatus

logger = logging.getLogger("readings")


def closest_card_image(game_id: int, value: str) -> tuple[CardImage | None, int | None]:
    """The game's shown card image (not a back) whose hash is closest to ``value`` within
    ``DUPLICATE_DISTANCE``, and the distance; (None, None) when none is that close."""
    candidates = (
        CardImage.objects.filter(card__game_id=game_id, removed_at__isnull=True)
        .exclude(side=CardImage.Side.BACK)
        .exclude(image__perceptual_hash="")
        .values_list("pk", "image__perceptual_hash")
    )
    best: tuple[int, int] | None = None
    for pk, other in candidates.iterator():
        bits = distance(value, other)
        if bits <= DUPLICATE_DISTANCE and (best is None or (bits, pk) < (best[1], best[0])):
            best = (pk, bits)
    if best is None:
        return None, None
    return CardImage.objects.select_related("card").get(pk=best[0]), best[1]


def check_photo(photo_id: int) -> None:
    """Hash a queued photo, find the card image it duplicates, and regroup its batch's photos by card."""
    try:
        _check_photo(photo_id)
    except Exception:
        logger.exception("a photo's duplicates could not be checked", extra={"photo": photo_id})


def _check_photo(photo_id: int) -> None:
    photo = PhotoReading.objects.select_related("batch", "image").filter(pk=photo_id).first()
    if photo is None or photo.status not in (ReadingStatus.QUEUED, ReadingStatus.RUNNING):
        return
    value = image_hash(photo.image)
    card_image, bits = closest_card_image(photo.batch.game_id, value) if value else (None, None)
    with transaction.atomic():
        ReadingBatch.objects.select_for_update().get(pk=photo.batch_id)
        PhotoReading.objects.filter(pk=photo.pk).update(duplicate_of=card_image, duplicate_distance=bits)
        regroup(photo.batch_id)


def after_reading(photo_id: int) -> None:
    """Once the photo is read: no duplicate of another card than the one its text matched; the batch regrouped."""
    try:
        photo = PhotoReading.objects.select_related("duplicate_of").filter(pk=photo_id).first()
        if photo is None:
            return
        with transaction.atomic():
            ReadingBatch.objects.select_for_update().get(pk=photo.batch_id)
            if photo.duplicate_of is not None and photo.card_id not in (None, photo.duplicate_of.card_id):
                PhotoReading.objects.filter(pk=photo.pk).update(duplicate_of=None, duplicate_distance=None)
            regroup(photo.batch_id)
    except Exception:
        logger.exception("a photo's duplicates could not be checked after its reading", extra={"photo": photo_id})


TEXTS_ALIKE = 0.5  # two texts read are of one card when difflib finds them at least this alike (folded)


def _text(reading: Any) -> str:
    lines = (reading or {}).get("lines", []) if isinstance(reading, dict) else []
    return "".join(fold("".join(str(line.get("text", "")) for line in lines)).split())


def regroup(batch_id: int) -> None:
    """Set ``same_card_as`` of every photo of the batch from the hashes and texts stored (the caller holds the
    batch's row)."""
    rows = list(
        PhotoReading.objects.filter(batch_id=batch_id).values_list(
            "pk", "index", "image__perceptual_hash", "card_id", "reading"
        )
    )
    cards = {index: card for _, index, _, card, _ in rows}
    texts = {index: _text(reading) for _, index, _, _, reading in rows}

    def compatible(first: int, second: int) -> bool:
        if cards[first] and cards[second] and cards[first] != cards[second]:
            return False
        if texts[first] and texts[second]:
            return difflib.SequenceMatcher(None, texts[first], texts[second]).ratio() >= TEXTS_ALIKE
        return True

    groups = same_card_groups({index: value for _, index, value, _, _ in rows}, compatible=compatible)
    for pk, index, *_ in rows:
        PhotoReading.objects.filter(pk=pk).exclude(same_card_as=groups.get(index)).update(
            same_card_as=groups.get(index)
        )
