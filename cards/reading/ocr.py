"""Reading the prepared image with Tesseract (pytesseract), keeping each line with its words, boxes and confidence."""

from __future__ import annotations

import dataclasses
import shutil
import statistics
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np
import pytesseract
from PIL import Image

from . import linework
from .layout import CardLayout, Region
from .preprocess import Prepared, Preprocessing, prepare
from .result import Box, Line, Reading, Word
from .symbols import restore

# The site's language codes and Tesseract's traineddata (Debian: tesseract-ocr-jpn, tesseract-ocr-chi-tra).
TESSERACT_LANGUAGES = {"ja": "jpn", "zh-hant": "chi_tra", "en": "eng"}

# The straightened card's long side (``Preprocessing.card_long_side``) for a card read in a language, when no
# pre-processing is passed: dense Han text of Traditional Chinese is read better a little larger (see the
# decisions in ``cards.reading``).
LONG_SIDE = {"zh-hant": 1400}


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
    return linework.lines_of(data, prepared)


# A second reading of unsure lines: Tesseract reads a line as the page's layout analysis cut it, at the page's
# scale, and a misreading there comes back unsure; the same line cut out, brought to another text height and
# segmented afresh is a second, independent opinion (see ``second_reading``). Done for a card read in a language
# listed here (its original language): Traditional Chinese, where benchmarks/ocr.py's scans went from 96.9% to
# 97.8% of characters and photos from 95.5% to 97.1% (on the 32 cards after those ten: 96.0% to 97.1% and
# 95.9% to 96.8%), for 0.2–0.4 s a card. Japanese is read once: in a trial its scans went from 97.5% to 97.4%
# and its photos from 97.5% to 97.8%, for 0.2–0.45 s more a card, which brings its photos close to the reading's
# time limit of 3× plain Tesseract's time (0.4 s a photo).
SECOND_READING = frozenset({"zh-hant"})
SECOND_READING_BELOW = 0.5  # a line with a word read less surely than this is read again
SECOND_READING_HEIGHT = 57  # pixels the text of a line read again is scaled to (from its words' median band)
SECOND_READING_MARGIN = 20  # pixels of white round the lines read again, and between them (plus half a line)


def _band(line: Line, image: np.ndarray) -> tuple[int, int, int, int, float]:
    """(left, top, right, bottom) of the part of ``image`` holding ``line``, and its text's height.

    The text's band is the median of its words' tops and of their bottoms: Tesseract gives some words of a
    Chinese or Japanese line a box reaching into the next line. A quarter of that height is added above and
    below (the strokes out of the band), half of it left and right.
    """
    top = int(statistics.median(word.box.top for word in line.words))
    bottom = int(statistics.median(word.box.bottom for word in line.words))
    height = max(1, bottom - top)
    rows, columns = image.shape[:2]
    left = max(0, min(word.box.left for word in line.words) - height // 2)
    right = min(columns, max(word.box.right for word in line.words) + height // 2)
    pad = round(0.25 * height)
    return left, max(0, top - pad), max(left + 1, right), min(rows, bottom + pad), float(height)


def second_reading(
    prepared: Prepared, lines: Sequence[Line], languages: Sequence[str], settings: OcrSettings | None = None
) -> list[Line]:
    """``lines`` (read in ``prepared.image``), each line holding a word read less surely than
    ``SECOND_READING_BELOW`` replaced by a second reading of its place when that one is surer as a whole.

    Why: Tesseract's reading of a line depends on how the page's layout analysis cut it and on the scale of
    its text, and where it misreads, its confidence falls. Traditional Chinese shows it most: chi_tra reads a
    half-width bracket together with the character after it as one character, or drops it ("[日常]" as "[舊測"
    or "日常]"), with a confidence of 0–50% on those words. The same line cut out of the image
    (``_band``), scaled so that its text is ``SECOND_READING_HEIGHT`` pixels high and read as a uniform block
    of text (page segmentation 6) is cut into characters afresh and mostly read right. Neither reading is
    always the better one, so the surer wins: the second replaces the first when its confidence (its words',
    weighted by their length, as ``Line.confidence``) is higher. Nothing here knows brackets or any text: an
    unsure line of any card is read again the same way.

    Cost: all the unsure lines are read in one Tesseract call, stacked one under another with white between
    (starting Tesseract and loading a language's model is a large share of a call), and in ``languages[0]``
    alone, without the quoted languages (twice as fast; a line that needs them, such as katakana in Chinese
    text, is read worse and keeps its first reading).
    """
    settings = settings or OcrSettings()
    unsure = [
        index
        for index, line in enumerate(lines)
        if line.words and min(word.confidence for word in line.words) < SECOND_READING_BELOW
    ]
    result = list(lines)
    if not unsure:
        return result
    margin = SECOND_READING_MARGIN
    places: list[tuple[int, int, int, int, float]] = []  # left, top (in the image), slot top, bottom, scale
    pieces: list[np.ndarray] = []
    for index in unsure:
        left, top, right, bottom, height = _band(lines[index], prepared.image)
        scale = min(4.0, SECOND_READING_HEIGHT / height)
        piece = cv2.resize(
            prepared.image[top:bottom, left:right],
            None,
            fx=scale,
            fy=scale,
            interpolation=cv2.INTER_CUBIC if scale > 1 else cv2.INTER_AREA,
        )
        pieces.append(piece)
        places.append((left, top, 0, 0, scale))
    gap = margin + max(piece.shape[0] for piece in pieces) // 2
    canvas = np.full(
        (sum(piece.shape[0] for piece in pieces) + gap * (len(pieces) - 1) + 2 * margin,
         max(piece.shape[1] for piece in pieces) + 2 * margin),
        255,
        dtype=np.uint8,
    )  # fmt: skip
    y = margin
    for slot, piece in enumerate(pieces):
        canvas[y : y + piece.shape[0], margin : margin + piece.shape[1]] = piece
        left, top, _, _, scale = places[slot]
        places[slot] = (left, top, y, y + piece.shape[0], scale)
        y += piece.shape[0] + gap
    data = pytesseract.image_to_data(
        Image.fromarray(canvas),
        lang=tesseract_languages(languages[:1]),
        config=f"--psm 6 --oem {settings.engine}",
        output_type=pytesseract.Output.DICT,
        timeout=settings.timeout,
    )
    found: dict[int, list[Word]] = {}
    for _, text, box, confidence in linework.words_of(data):
        middle = box.top + box.height / 2
        held = next((slot for slot, place in enumerate(places) if place[2] <= middle < place[3]), None)
        if held is None:  # between the lines
            continue
        left, top, start, _, scale = places[held]
        placed = Box(
            max(0, round(left + (box.left - margin) / scale)),
            max(0, round(top + (box.top - start) / scale)),
            max(1, round(box.width / scale)),
            max(1, round(box.height / scale)),
        )
        found.setdefault(held, []).append(Word(text, placed, prepared.photo_box(placed), confidence))
    for slot, words in found.items():
        index = unsure[slot]
        again = linework.line_of(words, prepared)
        if again.confidence > result[index].confidence:
            result[index] = dataclasses.replace(again, language=result[index].language)
    return result


# Translation languages: a card may show its text in the game's original language and in a
# translation. Reading both at once ("jpn+chi_tra") slows Tesseract and lets each language's model misread the
# other's lines; instead the photo is read in the original, then, only when some line may not be the original's
# (``linework.foreign``), read again in each translation language, and such a line is replaced by the translation's
# reading of the same place when that one is surer (by more than ``SURER_BY``) and is in the translation's
# script (``linework.in_script``). A card in its original language alone is read once.
SURER_BY = 0.0


def _with_translations(
    prepared: Prepared, lines: list[Line], languages: Sequence[str], settings: OcrSettings | None
) -> tuple[list[Line], list[str]]:
    """``lines`` read in ``languages[0]``, each foreign one replaced by a translation language's surer reading;
    and the translation languages read."""
    original, translations = (
        languages[0],
        [
            language
            for language in languages[1:]
            if TESSERACT_LANGUAGES.get(language) in installed_languages() and language != languages[0]
        ],
    )
    read: list[str] = []
    for translation in translations:
        foreign = [
            index
            for index, line in enumerate(lines)
            if line.language == original and linework.foreign(line, original, translation)
        ]
        if not foreign:
            continue
        read.append(translation)
        others = read_prepared(prepared, [translation], settings)
        # Lines with an unsure word, in an original without kana read again in Japanese: such a line may
        # quote a name in katakana among the original's words (spliced below). No call is added for them.
        mixed = (
            [
                index
                for index, line in enumerate(lines)
                if line.language == original
                and not line.region
                and any(word.confidence < linework.UNSURE_BELOW for word in line.words)
            ]
            if original != "ja" and translation == "ja"
            else []
        )
        for index in sorted({*foreign, *mixed}):
            line = lines[index]
            same_place = [other for other in others if linework.overlap(line.box, other.box) >= 0.5]
            if not same_place:
                continue
            best = max(same_place, key=lambda other: other.confidence)
            whole: Line | None = None
            if (
                index in foreign
                and best.confidence > line.confidence + SURER_BY
                and linework.in_script(best.text, translation)
            ):
                # The line keeps its region: the name band read in a translation language is still the name.
                whole = dataclasses.replace(best, language=translation, region=line.region)
            spliced = linework.splice(line, same_place, prepared) if index in mixed else None
            if spliced is not None and (whole is None or spliced.confidence >= whole.confidence):
                lines[index] = spliced
            elif whole is not None:
                lines[index] = whole
    return lines, read


# The name band read on its own: the page's layout analysis (psm 3) drops a name printed a little larger than
# the text, or merges it with a neighbour; the band cut out and read as a single line (psm 7) keeps it. Read at
# each scale here, the most confident reading kept (on photos of printed cards a name scaled by 1.5 read where
# 1.0 garbled it, and 1.2 garbled it too). A first reading this sure is kept without trying the others.
NAME_SCALES = (1.0, 1.5)
READ_REGIONS = False  # the page read whole (psm 3), the name band alone: see the decisions
SURE_ENOUGH = 0.9
REGION_PAD = 16  # pixels of white round a cut-out region


def region_pixels(prepared: Prepared, region: Region) -> tuple[int, int, int, int]:
    """(left, top, right, bottom) of ``region`` (shares of the card) in the prepared image."""
    height, width = prepared.image.shape[:2]
    frame_left, frame_top, frame_width, frame_height = prepared.card_frame or (0.0, 0.0, width, height)
    return (
        max(0, round(frame_left + region.left * frame_width)),
        max(0, round(frame_top + region.top * frame_height)),
        min(width, round(frame_left + region.right * frame_width)),
        min(height, round(frame_top + region.bottom * frame_height)),
    )


def _read_cut(
    prepared: Prepared, region: Region, languages: Sequence[str], scale: float, settings: OcrSettings
) -> list[list[Word]]:
    """The words Tesseract reads in ``region`` cut out, scaled by ``scale`` and padded, with its own page
    segmentation: grouped by Tesseract's lines, boxes in the prepared image."""
    left, top, right, bottom = region_pixels(prepared, region)
    if right - left < 8 or bottom - top < 8:
        return []
    cut = prepared.image[top:bottom, left:right]
    scaled = cut if scale == 1 else cv2.resize(cut, None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC)
    padded = cv2.copyMakeBorder(scaled, REGION_PAD, REGION_PAD, REGION_PAD, REGION_PAD, cv2.BORDER_CONSTANT, value=255)
    data = pytesseract.image_to_data(
        Image.fromarray(padded),
        lang=tesseract_languages(languages),
        config=f"--psm {region.segmentation} --oem {settings.engine}",
        output_type=pytesseract.Output.DICT,
        timeout=settings.timeout,
    )
    grouped: dict[tuple[int, int, int, int], list[Word]] = {}
    for key, text, box, confidence in linework.words_of(data):
        mapped = Box(
            left + max(0, round((box.left - REGION_PAD) / scale)),
            top + max(0, round((box.top - REGION_PAD) / scale)),
            max(1, round(box.width / scale)),
            max(1, round(box.height / scale)),
        )
        grouped.setdefault(key, []).append(Word(text, mapped, prepared.photo_box(mapped), confidence))
    return list(grouped.values())


def read_region(
    prepared: Prepared,
    region: Region,
    languages: Sequence[str],
    *,
    name: str,
    scales: Sequence[float] = (1.0,),
    settings: OcrSettings | None = None,
) -> Line | None:
    """``region`` (a single line: the name band) cut out of the prepared image and read with its own page
    segmentation at each of ``scales``: the most confident reading as one line (boxes in the prepared image),
    marked as the region ``name``; None when nothing is read there."""
    settings = settings or OcrSettings()
    best: Line | None = None
    for scale in scales:
        words = [word for group in _read_cut(prepared, region, languages, scale, settings) for word in group]
        if not words:
            continue
        line = dataclasses.replace(linework.line_of(words, prepared), region=name)
        if best is None or line.confidence > best.confidence:
            best = line
        if best.confidence >= SURE_ENOUGH:
            break
    return best


def read_block(
    prepared: Prepared, region: Region, languages: Sequence[str], *, name: str, settings: OcrSettings | None = None
) -> list[Line]:
    """``region`` (a block of lines: the text box) cut out and read with its own page segmentation."""
    groups = _read_cut(prepared, region, languages, 1.0, settings or OcrSettings())
    return [dataclasses.replace(linework.line_of(words, prepared), region=name) for words in groups]


def with_name_band(
    prepared: Prepared,
    lines: list[Line],
    layout: CardLayout,
    languages: Sequence[str],
    language: str,
    settings: OcrSettings | None = None,
) -> list[Line]:
    """``lines`` with the name band read: the page's one line standing in the band, when read surely
    (``SURE_ENOUGH``), is marked as the name as it is (no second call to Tesseract); otherwise the band's own
    reading takes the place of the page's lines standing in it, or is added where the page dropped the name."""
    left, top, right, bottom = region_pixels(prepared, layout.name)

    def in_band(line: Line) -> bool:
        middle_x = line.box.left + line.box.width / 2
        middle_y = line.box.top + line.box.height / 2
        return left <= middle_x <= right and top <= middle_y <= bottom

    standing = [index for index, line in enumerate(lines) if in_band(line)]
    if len(standing) == 1 and lines[standing[0]].confidence >= SURE_ENOUGH and lines[standing[0]].text.strip():
        marked = list(lines)
        marked[standing[0]] = dataclasses.replace(lines[standing[0]], region="name")
        return marked
    band = read_region(prepared, layout.name, languages, name="name", scales=NAME_SCALES, settings=settings)
    if band is None or not band.text.strip():
        return lines
    kept = [line for line in lines if not in_band(line)]
    kept.append(dataclasses.replace(band, language=language))
    kept.sort(key=lambda line: (line.box.top, line.box.left))
    return kept


def name_in_translations(
    prepared: Prepared,
    lines: list[Line],
    layout: CardLayout,
    languages: Sequence[str],
    settings: OcrSettings | None = None,
) -> list[Line]:
    """``lines`` whose name (the line of the name band, ``with_name_band``) is still the original's reading and
    unsure (under ``SURE_ENOUGH``), or missing, with the band read in each translation language of ``languages``
    (``languages[0]`` the original): such a reading takes the name's place when surer and written in its
    language's script (``linework.in_script``: kana for Japanese).

    Why: a translated printing often keeps the original's name (a Chinese printing of a Japanese game quotes it
    in katakana, which chi_tra cannot read: it makes unsure Han characters of it, or nothing), and the page's
    reading in the translation language (``_with_translations``), when there was one, may have missed the
    name printed larger than the text. One call a translation language, on the band alone, at its first scale.
    """
    original = languages[0]
    at = next((index for index, line in enumerate(lines) if line.region == "name"), None)
    name = lines[at] if at is not None else None
    if name is not None and (name.language != original or name.confidence >= SURE_ENOUGH):
        return lines
    for translation in languages[1:]:
        if translation == original or TESSERACT_LANGUAGES.get(translation) not in installed_languages():
            continue
        other = read_region(
            prepared, layout.name, [translation], name="name", scales=NAME_SCALES[:1], settings=settings
        )
        if other is None or not linework.in_script(other.text, translation):
            continue
        if name is None or other.confidence > name.confidence + SURER_BY:
            name = dataclasses.replace(other, language=translation)
    if name is None or (at is not None and name is lines[at]):
        return lines
    kept = [line for index, line in enumerate(lines) if index != at]
    kept.append(name)
    kept.sort(key=lambda line: (line.box.top, line.box.left))
    return kept


def read_photo(
    photo: Image.Image,
    languages: Iterable[str],
    *,
    preprocessing: Preprocessing | None = None,
    ocr: OcrSettings | None = None,
    layout: CardLayout | None = None,
) -> Reading:
    """Read a card photo: pre-process it (``preprocess.prepare``), then read it in ``languages``: the first is the
    card's original language, read always; the others are translation languages, read again only where a line
    is not the original's (see ``_with_translations``). Each line keeps the language it was read in.

    With the game's card ``layout`` (``layout.layout_for``), its name band is read on its own (``with_name_band``)
    and the symbols and punctuation the game prints are restored (``symbols.restore``), each correction kept
    on its line.

    Raises ``ReadingUnavailable`` when Tesseract or the original language's data is missing (a translation
    language whose data is missing is not read).
    """
    started = time.perf_counter()
    languages = tuple(dict.fromkeys(languages))
    # The original alone: one model per reading (``cards.reading.languages_for``).
    original = list(languages[:1])
    names = tesseract_languages(original)  # fails before any image work when the language is missing
    if preprocessing is None:
        preprocessing = Preprocessing(card_long_side=LONG_SIDE.get(languages[0], Preprocessing.card_long_side))
    prepared = prepare(photo, preprocessing)
    if layout is not None and READ_REGIONS:
        page = read_block(prepared, layout.text, original, name="text", settings=ocr)
        if layout.number is not None:
            page += read_block(prepared, layout.number, original, name="number", settings=ocr)
    else:
        page = read_prepared(prepared, original, ocr)
    lines = [dataclasses.replace(line, language=languages[0]) for line in page]
    if languages[0] in SECOND_READING:
        lines = second_reading(prepared, lines, original, ocr)
    if layout is not None:
        lines = with_name_band(prepared, lines, layout, original, languages[0], ocr)
    if len(languages) > 1:
        lines, translations = _with_translations(prepared, lines, languages, ocr)
        if layout is not None:
            lines = name_in_translations(prepared, lines, layout, languages, ocr)
        kept = {line.language for line in lines}
        used = [language for language in languages[1:] if language in translations or language in kept]
        if used:
            names = tesseract_languages([*original, *used])
    if layout is not None:
        lines = restore(lines, layout)
    height, width = prepared.image.shape[:2]
    return Reading(
        lines=tuple(lines),
        tesseract_languages=names,
        photo_size=prepared.photo_size,
        corrected_size=(width, height),
        card_corners=prepared.card_corners,
        seconds=time.perf_counter() - started,
    )
