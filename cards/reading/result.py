"""What a reading of a card photo gives: lines with their boxes and confidences, and proposed values.

Plain dataclasses; ``to_json`` gives plain dicts and lists that a later service stores in a JSONField, and
``from_json`` reads them back. Confidences are between 0 and 1 (Tesseract's 0–100, divided by 100).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass
from typing import Any


@dataclass(frozen=True)
class Box:
    """An axis-aligned rectangle in pixels: ``left``/``top`` included, ``width``/``height`` at least 1."""

    left: int
    top: int
    width: int
    height: int

    @property
    def right(self) -> int:
        return self.left + self.width

    @property
    def bottom(self) -> int:
        return self.top + self.height

    @classmethod
    def around(cls, boxes: Iterable[Box]) -> Box:
        """The smallest box holding all of ``boxes`` (at least one)."""
        boxes = list(boxes)
        left = min(box.left for box in boxes)
        top = min(box.top for box in boxes)
        right = max(box.right for box in boxes)
        bottom = max(box.bottom for box in boxes)
        return cls(left, top, max(1, right - left), max(1, bottom - top))

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Box:
        return cls(int(data["left"]), int(data["top"]), int(data["width"]), int(data["height"]))


@dataclass(frozen=True)
class Word:
    """One word as Tesseract read it (in Japanese and Chinese often a single character)."""

    text: str
    box: Box  # in the corrected image (``Reading.corrected_size``)
    photo_box: Box  # in the photo as uploaded (after its EXIF turn): the corrected box's corners mapped back
    confidence: float

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Word:
        return cls(
            str(data["text"]), Box.from_json(data["box"]), Box.from_json(data["photo_box"]), float(data["confidence"])
        )


@dataclass(frozen=True)
class Line:
    """One recognised line: its text, its words, where it stands and how sure Tesseract was of it."""

    text: str
    words: tuple[Word, ...]
    # Where each word stands in ``text``: (start, end) character offsets, one pair per word.
    spans: tuple[tuple[int, int], ...]
    box: Box
    photo_box: Box
    confidence: float  # the words' confidences, weighted by their length
    # The language it was read in (the site's code: "ja", "zh-hant", "en"); "" in a reading kept before lines
    # had one.
    language: str = ""
    # The card layout's region it was read from on its own ("name", "text", "number"), "" for the page's lines.
    region: str = ""
    # Characters restored as the game prints them (``symbols.restore``): (as read, as restored), in order.
    corrections: tuple[tuple[str, str], ...] = ()

    def words_between(self, start: int, end: int) -> tuple[Word, ...]:
        """The words holding any of the characters ``text[start:end]``."""
        return tuple(
            word
            for word, (w_start, w_end) in zip(self.words, self.spans, strict=True)
            if w_start < end and start < w_end
        )

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Line:
        return cls(
            text=str(data["text"]),
            words=tuple(Word.from_json(word) for word in data["words"]),
            spans=tuple((int(start), int(end)) for start, end in data["spans"]),
            box=Box.from_json(data["box"]),
            photo_box=Box.from_json(data["photo_box"]),
            confidence=float(data["confidence"]),
            language=str(data.get("language", "")),
            region=str(data.get("region", "")),
            corrections=tuple((str(read), str(restored)) for read, restored in data.get("corrections", ())),
        )


@dataclass(frozen=True)
class Reading:
    """A photo read: its lines top to bottom, and what the pre-processing found."""

    lines: tuple[Line, ...]
    # The languages Tesseract read in, joined by "+", e.g. "jpn+chi_tra": the original, then each translation
    # language read in a second pass (``ocr.read_photo``).
    tesseract_languages: str
    photo_size: tuple[int, int]  # (width, height) of the photo after its EXIF turn
    corrected_size: tuple[int, int]  # (width, height) of the image Tesseract read
    # The card's corners in the photo (top left, top right, bottom right, bottom left), or None when no card
    # outline was found and the whole photo was read.
    card_corners: tuple[tuple[float, float], ...] | None
    seconds: float  # pre-processing and reading, wall clock

    @property
    def text(self) -> str:
        return "\n".join(line.text for line in self.lines)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Reading:
        corners = data.get("card_corners")
        return cls(
            lines=tuple(Line.from_json(line) for line in data["lines"]),
            tesseract_languages=str(data["tesseract_languages"]),
            photo_size=(int(data["photo_size"][0]), int(data["photo_size"][1])),
            corrected_size=(int(data["corrected_size"][0]), int(data["corrected_size"][1])),
            card_corners=tuple((float(x), float(y)) for x, y in corners) if corners else None,
            seconds=float(data["seconds"]),
        )


@dataclass(frozen=True)
class Proposal:
    """A value the reading suggests for a card: never applied by itself, the contributor confirms or corrects it.

    ``field`` is "number", "name", "kind", "keyword" (a glossary term found in the text) or a field the game
    declares.
    ``value`` is the value as the field's type cleans it (an int for an integer field, "PPT" for symbols);
    ``read`` the characters it was read from, as read. ``notes`` are codes: "characters_corrected" (look-alike
    characters were read as digits, e.g. O as 0), "outside_declared_ranges" (a number no declared run holds).
    """

    field: str
    value: Any
    read: str
    lines: tuple[int, ...]  # indices into ``Reading.lines``
    box: Box  # around the words it came from, in the corrected image
    photo_box: Box  # the same in the photo
    confidence: float  # the least confident of those words
    low_confidence: bool
    notes: tuple[str, ...] = ()
    # Characters of ``read`` restored as the game prints them (as read, as restored): shown to the contributor.
    corrections: tuple[tuple[str, str], ...] = ()

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Proposal:
        return cls(
            field=str(data["field"]),
            value=data["value"],
            read=str(data["read"]),
            lines=tuple(int(index) for index in data["lines"]),
            box=Box.from_json(data["box"]),
            photo_box=Box.from_json(data["photo_box"]),
            confidence=float(data["confidence"]),
            low_confidence=bool(data["low_confidence"]),
            notes=tuple(str(note) for note in data.get("notes", ())),
            corrections=tuple((str(read), str(restored)) for read, restored in data.get("corrections", ())),
        )
