"""What the review page of a photo shows: the lines read as boxes over the photo, and beside each value of the card
the proposal it came from (what was read, its confidence, low confidence marked) and, for a matched card, its value
now. Plain functions over the stored reading (``PhotoReading.reading``/``proposals``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _

from cards.reading.result import Proposal

from .models import PhotoReading

TEXT_VALUES = ("name", "text")


@dataclass(frozen=True)
class Region:
    """A box drawn over the photo (its pixels): a line read, or the words a value was read from."""

    left: int
    top: int
    width: int
    height: int
    label: str
    low: bool
    field: str = ""  # the value's form field, for a proposal's box


@dataclass(frozen=True)
class Crop:
    """The part of the photo a value was read from (its words' box with a margin), in the photo's pixels."""

    left: int
    top: int
    width: int
    height: int

    @classmethod
    def around(cls, left: int, top: int, right: int, bottom: int, size: tuple[int, int]) -> Crop:
        margin = max(8, (bottom - top) // 2)
        left, top = max(0, left - margin), max(0, top - margin)
        right, bottom = min(size[0], right + margin), min(size[1], bottom + margin)
        return cls(left, top, max(1, right - left), max(1, bottom - top))


FULL_WIDTH_SIGNS = frozenset("＋－")
ASCII_SIGNS = frozenset("+-")
FULL_STOP = "。"


@dataclass(frozen=True)
class Correction:
    """A character or symbol restored as the game prints it (``cards.reading.symbols``): what was read, what it was
    taken as, and why, said to the contributor in their language."""

    read: str
    restored: str

    def said(self) -> str:
        values = {"read": self.read, "restored": self.restored}
        if self.restored in FULL_WIDTH_SIGNS:
            return _("Read “%(read)s”, taken as “%(restored)s” (the game prints full-width signs).") % values
        if self.restored in ASCII_SIGNS:
            return _("Read “%(read)s”, taken as “%(restored)s” (a sign before a number).") % values
        if self.restored == FULL_STOP:
            return (
                _("Read “%(read)s” on a line of its own, taken as “。” at the end of the line before (a full stop).")
                % values
            )
        if self.restored[:1] in "[［" and self.restored[-1:] in "]］":
            return _("Read “%(read)s”, taken as “%(restored)s” (a label the game prints in brackets).") % values
        return _("Read “%(read)s”, taken as “%(restored)s”.") % values


def corrections_of(pairs: Any) -> tuple[Correction, ...]:
    """The stored (read, restored) pairs as corrections, each once, in order."""
    found = [Correction(str(read), str(restored)) for read, restored in pairs or ()]
    return tuple(dict.fromkeys(found))


@dataclass(frozen=True)
class Suggestion:
    read: str
    confidence: int  # percent
    low: bool
    corrected: bool
    sure: bool = False  # read at least ``READING_SURE_AT_LEAST`` sure: the "take the sure readings" button takes it
    crop: Crop | None = None
    corrections: tuple[Correction, ...] = ()  # what was restored as the game prints it, shown beside the value


def proposals_of(photo: PhotoReading) -> dict[str, Proposal]:
    """The first proposal of each value (``number``, ``name``, ``kind``, a declared field)."""
    found: dict[str, Proposal] = {}
    for data in photo.proposals or []:
        proposal = Proposal.from_json(data)
        if proposal.field != "keyword":
            found.setdefault(proposal.field, proposal)
    return found


def form_name(field: str) -> str:
    """The review form's field of a proposed value."""
    return field if field in ("number", "kind", "name", "text") else f"field_{field}"


def lines_of(photo: PhotoReading) -> list[dict[str, Any]]:
    return list((photo.reading or {}).get("lines", []))


def text_languages(photo: PhotoReading) -> dict[str, set[str]]:
    """The form field of each text read (``text``, ``text_zh-hant`` …) and the languages of the lines it takes:
    the original's text takes the lines read in the original (and those read before lines kept a language)."""
    definition = photo.batch.game.definition
    fields = {"text": {"", definition.original_language}}
    fields.update({f"text_{code}": {code} for code in definition.translation_languages})
    return fields


def remaining_text(photo: PhotoReading, languages: set[str] | None = None) -> tuple[str, Suggestion | None]:
    """The lines no value was read from (of ``languages``, by the language each was read in; None: all), as a
    card's text (a proposal like the others), with their least confidence; ("", None) when none is left."""
    used = {index for data in photo.proposals or [] for index in data.get("lines", [])}
    rest = [
        line
        for index, line in enumerate(lines_of(photo))
        if index not in used and line["text"].strip() and (languages is None or line.get("language", "") in languages)
    ]
    if not rest:
        return "", None
    confidence = min(float(line["confidence"]) for line in rest)
    from cards.reading import LOW_CONFIDENCE_BELOW

    text = "\n".join(line["text"] for line in rest)
    boxes = [line["photo_box"] for line in rest if line.get("photo_box")]
    crop = (
        Crop.around(
            min(box["left"] for box in boxes),
            min(box["top"] for box in boxes),
            max(box["left"] + box["width"] for box in boxes),
            max(box["top"] + box["height"] for box in boxes),
            photo_size(photo),
        )
        if boxes
        else None
    )
    corrections = corrections_of(pair for line in rest for pair in line.get("corrections", ()))
    suggestion = Suggestion(
        text,
        round(confidence * 100),
        confidence < LOW_CONFIDENCE_BELOW,
        False,
        _sure(confidence),
        crop,
        corrections,
    )
    return text, suggestion


def _sure(confidence: float) -> bool:
    return confidence >= settings.READING_SURE_AT_LEAST


def read_values(photo: PhotoReading) -> dict[str, Any]:
    """What was read for each value, by the review form's field, as the value it proposes (a number of a
    declared field as a number, true or false, a choice), the card's text as the lines no value was read from."""
    found: dict[str, Any] = {form_name(field): proposal.value for field, proposal in proposals_of(photo).items()}
    for field, languages in text_languages(photo).items():
        text, _suggestion = remaining_text(photo, languages)
        if text:
            found[field] = text
    return found


def suggestions(photo: PhotoReading) -> dict[str, Suggestion]:
    """What was read for each form field, by the form field's name."""
    size = photo_size(photo)
    found = {
        form_name(field): Suggestion(
            proposal.read,
            round(proposal.confidence * 100),
            proposal.low_confidence,
            "characters_corrected" in proposal.notes,
            _sure(proposal.confidence) and not proposal.low_confidence,
            Crop.around(
                proposal.photo_box.left,
                proposal.photo_box.top,
                proposal.photo_box.right,
                proposal.photo_box.bottom,
                size,
            ),
            corrections_of(proposal.corrections),
        )
        for field, proposal in proposals_of(photo).items()
    }
    for field, languages in text_languages(photo).items():
        _text, text_suggestion = remaining_text(photo, languages)
        if text_suggestion is not None:
            found[field] = text_suggestion
    return found


def regions(photo: PhotoReading) -> list[Region]:
    """The boxes drawn over the photo: each line read, then each value's words."""
    from cards.reading import LOW_CONFIDENCE_BELOW

    drawn = [
        Region(**line["photo_box"], label=line["text"], low=float(line["confidence"]) < LOW_CONFIDENCE_BELOW)
        for line in lines_of(photo)
    ]
    for field, proposal in proposals_of(photo).items():
        box = proposal.photo_box
        drawn.append(
            Region(box.left, box.top, box.width, box.height, proposal.read, proposal.low_confidence, form_name(field))
        )
    return drawn


def photo_size(photo: PhotoReading) -> tuple[int, int]:
    size = (photo.reading or {}).get("photo_size") or (photo.image.width or 1, photo.image.height or 1)
    return int(size[0]), int(size[1])
