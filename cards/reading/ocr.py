"""Reading the prepared image with Tesseract (pytesseract), keeping each line with its words, boxes and confidence."""

from __future__ import annotations

import shutil
import time
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

import pytesseract
from PIL import Image

from .preprocess import Prepared, Preprocessing, prepare
from .result import Box, Line, Reading, Word

# The site's language codes and Tesseract's traineddata (Debian: tesseract-ocr-jpn, tesseract-ocr-chi-tra).
TESSERACT_LANGUAGES = {"ja": "jpn", "zh-hant": "chi_tra", "en": "eng"}


class ReadingUnavailable(RuntimeError):
    """Tesseract, or the data of a language asked for, is not installed."""


@dataclass(frozen=True)
class OcrSettings:
    """How Tesseract is asked to read."""

    page_segmentation: int = 3  # Tesseract's --psm: 3 finds the blocks and lines of the page itself
    engine: int = 1  # --oem 1: the LSTM recogniser (the only one Debian's data carries for jpn and chi_tra)
    timeout: float = 60.0  # seconds before Tesseract is stopped (pytesseract raises RuntimeError)


def tesseract_available() -> bool:
    return shutil.which("tesseract") is not None


@lru_cache(maxsize=1)
def installed_languages() -> frozenset[str]:
    """Tesseract's installed traineddata ("jpn", "chi_tra", …); empty when Tesseract is not installed."""
    if not tesseract_available():
        return frozenset()
    try:
        return frozenset(pytesseract.get_languages(config=""))
    except (pytesseract.TesseractError, OSError):
        return frozenset()


def tesseract_languages(languages: Sequence[str]) -> str:
    """Tesseract's "-l" for the site's ``languages`` (in that order: the first is the main one).

    Raises ``ReadingUnavailable`` naming the Debian package of a language whose data is not installed.
    """
    names: list[str] = []
    for language in languages:
        name = TESSERACT_LANGUAGES.get(language)
        if name is None:
            raise ReadingUnavailable(f"no Tesseract language for {language!r}")
        if name not in installed_languages():
            package = "tesseract-ocr-" + name.replace("_", "-")
            raise ReadingUnavailable(f"Tesseract cannot read {language!r}: install the Debian package {package}")
        if name not in names:
            names.append(name)
    if not names:
        raise ReadingUnavailable("no language to read")
    return "+".join(names)


def _is_wide(char: str) -> bool:
    """A character of a script written without spaces between words (CJK, kana, full-width forms)."""
    return unicodedata.east_asian_width(char) in ("W", "F")


def _join(words: Sequence[Word]) -> tuple[str, tuple[tuple[int, int], ...]]:
    """The line's text and each word's (start, end) in it.

    Tesseract cuts Japanese and Chinese into words of one or a few characters: two words meet without a space
    when either side is a wide character, unless the gap between them is wider than the line is high; other
    words are kept apart by a space unless they touch (a gap under a tenth of the height).
    """
    height = max(word.box.height for word in words)
    parts: list[str] = []
    spans: list[tuple[int, int]] = []
    position = 0
    previous: Word | None = None
    for word in words:
        if previous is not None:
            gap = word.box.left - previous.box.right
            wide = _is_wide(previous.text[-1]) or _is_wide(word.text[0])
            if (wide and gap > height) or (not wide and gap > 0.1 * height):
                parts.append(" ")
                position += 1
        spans.append((position, position + len(word.text)))
        parts.append(word.text)
        position += len(word.text)
        previous = word
    return "".join(parts), tuple(spans)


def _lines(data: dict[str, list], prepared: Prepared) -> list[Line]:
    """Tesseract's TSV rows (image_to_data) grouped into lines, top to bottom."""
    grouped: dict[tuple[int, int, int, int], list[Word]] = {}
    for index, text in enumerate(data["text"]):
        confidence = float(data["conf"][index])
        text = (text or "").strip()
        if not text or confidence < 0:
            continue
        box = Box(
            int(data["left"][index]), int(data["top"][index]), max(1, int(data["width"][index])),
            max(1, int(data["height"][index])),
        )  # fmt: skip
        key = (data["page_num"][index], data["block_num"][index], data["par_num"][index], data["line_num"][index])
        grouped.setdefault(key, []).append(Word(text, box, prepared.photo_box(box), confidence / 100))
    lines: list[Line] = []
    for words in grouped.values():
        words.sort(key=lambda word: word.box.left)
        text, spans = _join(words)
        box = Box.around(word.box for word in words)
        weight = sum(len(word.text) for word in words)
        lines.append(
            Line(
                text=text,
                words=tuple(words),
                spans=spans,
                box=box,
                photo_box=prepared.photo_box(box),
                confidence=sum(word.confidence * len(word.text) for word in words) / weight,
            )
        )
    lines.sort(key=lambda line: (line.box.top, line.box.left))
    return lines


def read_prepared(prepared: Prepared, languages: Sequence[str], settings: OcrSettings | None = None) -> list[Line]:
    """The lines Tesseract reads in the prepared image, in ``languages`` (the site's codes)."""
    settings = settings or OcrSettings()
    data = pytesseract.image_to_data(
        Image.fromarray(prepared.image),
        lang=tesseract_languages(languages),
        config=f"--psm {settings.page_segmentation} --oem {settings.engine}",
        output_type=pytesseract.Output.DICT,
        timeout=settings.timeout,
    )
    return _lines(data, prepared)


def read_photo(
    photo: Image.Image,
    languages: Iterable[str],
    *,
    preprocessing: Preprocessing | None = None,
    ocr: OcrSettings | None = None,
) -> Reading:
    """Read a card photo: pre-process it (``preprocess.prepare``), then read it in ``languages``.

    Raises ``ReadingUnavailable`` when Tesseract or a language's data is missing.
    """
    started = time.perf_counter()
    languages = tuple(languages)
    names = tesseract_languages(languages)  # fails before any image work when a language is missing
    prepared = prepare(photo, preprocessing)
    lines = read_prepared(prepared, languages, ocr)
    height, width = prepared.image.shape[:2]
    return Reading(
        lines=tuple(lines),
        tesseract_languages=names,
        photo_size=prepared.photo_size,
        corrected_size=(width, height),
        card_corners=prepared.card_corners,
        seconds=time.perf_counter() - started,
    )
