"""The lines of a reading: Tesseract's words joined into lines as the card prints them, and the scripts of a line
(kana, Han, Latin), which tell a line of the original from one of a translation and let a Japanese reading's
kana words be spliced into a Chinese line (see ``ocr``, where the photo is read)."""

from __future__ import annotations

import dataclasses
import unicodedata
from collections.abc import Callable, Iterator, Sequence

from .confusions import confused
from .preprocess import Prepared
from .result import Box, Line, Word


def is_wide(char: str) -> bool:
    """A character of a script written without spaces between words (CJK, kana, full-width forms)."""
    return unicodedata.east_asian_width(char) in ("W", "F")


def join_words(words: Sequence[Word]) -> tuple[str, tuple[tuple[int, int], ...]]:
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
            wide = is_wide(previous.text[-1]) or is_wide(word.text[0])
            if (wide and gap > height) or (not wide and gap > 0.1 * height):
                parts.append(" ")
                position += 1
        spans.append((position, position + len(word.text)))
        parts.append(word.text)
        position += len(word.text)
        previous = word
    return "".join(parts), tuple(spans)


def words_of(data: dict[str, list]) -> Iterator[tuple[tuple[int, int, int, int], str, Box, float]]:
    """Tesseract's TSV rows (image_to_data) that hold a word: its line's key, its text, box and confidence (0–1)."""
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
        yield key, text, box, confidence / 100


def line_of(words: list[Word], prepared: Prepared) -> Line:
    """One line of ``words`` (put in order left to right)."""
    words.sort(key=lambda word: word.box.left)
    text, spans = join_words(words)
    box = Box.around(word.box for word in words)
    weight = sum(len(word.text) for word in words)
    return Line(
        text=text,
        words=tuple(words),
        spans=spans,
        box=box,
        photo_box=prepared.photo_box(box),
        confidence=sum(word.confidence * len(word.text) for word in words) / weight,
    )


def lines_of(data: dict[str, list], prepared: Prepared) -> list[Line]:
    """Tesseract's TSV rows (image_to_data) grouped into lines, top to bottom."""
    grouped: dict[tuple[int, int, int, int], list[Word]] = {}
    for key, text, box, confidence in words_of(data):
        grouped.setdefault(key, []).append(Word(text, box, prepared.photo_box(box), confidence))
    lines = [line_of(words, prepared) for words in grouped.values()]
    lines.sort(key=lambda line: (line.box.top, line.box.left))
    return lines


UNSURE_BELOW = 0.6  # a line read this unsurely may be of another language whatever its characters


def is_kana(char: str) -> bool:
    """Hiragana or katakana (the middle dot ・ aside: Tesseract reads it into Chinese text too)."""
    return char != "\u30fb" and ("\u3040" <= char <= "\u30ff" or "\uff66" <= char <= "\uff9d")


def is_han(char: str) -> bool:
    return "\u3400" <= char <= "\u9fff" or "\uf900" <= char <= "\ufaff"


def is_latin(char: str) -> bool:
    return char.isascii() and char.isalpha()


def share(text: str, test: Callable[[str], bool]) -> float:
    """The share of ``text``'s characters (spaces aside) that pass ``test``."""
    characters = [char for char in text if not char.isspace()]
    return sum(test(char) for char in characters) / len(characters) if characters else 0.0


def in_script(text: str, language: str) -> bool:
    """Whether ``text`` is written as ``language`` is: with kana for Japanese, in Han characters without kana
    for Chinese, mostly in Latin letters for English."""
    if language == "ja":
        return any(is_kana(char) for char in text)
    if language == "zh-hant":
        return any(is_han(char) for char in text) and not any(is_kana(char) for char in text)
    if language == "en":
        return share(text, is_latin) >= 0.5
    return True


def foreign(line: Line, original: str, translation: str) -> bool:
    """Whether ``line``, read in ``original``, may be in ``translation`` instead.

    Japanese original: a line without kana, mostly of Han characters, for Chinese; a line mostly of Latin
    letters read unsurely, for English. Other originals (Chinese, English): a line read unsurely, since their
    models read the other scripts as unsure strings of their own (Chinese has no kana, English no Han).
    """
    unsure = line.confidence < UNSURE_BELOW
    if original == "ja":
        if any(is_kana(char) for char in line.text):
            return False
        if translation == "zh-hant":
            return share(line.text, is_han) >= 0.5
        return unsure and share(line.text, is_latin) >= 0.5
    return unsure


def overlap(first: Box, second: Box) -> float:
    """How much of the lower of the two boxes' heights they share, if they also share some width (0 to 1)."""
    if min(first.right, second.right) <= max(first.left, second.left):
        return 0.0
    shared = min(first.bottom, second.bottom) - max(first.top, second.top)
    return max(0.0, shared / max(1, min(first.height, second.height)))


def x_overlap(first: Box, second: Box) -> float:
    """How much of the narrower of the two boxes' widths they share (0 to 1)."""
    shared = min(first.right, second.right) - max(first.left, second.left)
    return max(0.0, shared / max(1, min(first.width, second.width)))


def replaceable(word: Word, kana: Word) -> bool:
    """Whether the original's ``word`` may give way to the Japanese reading ``kana`` of the same place: it was
    read unsurely, or is no Han character (chi_tra makes strokes and letters of katakana: ノ as /), or is the
    look-alike of one of its characters (一 for ー, ``confusions.CONFUSIONS``)."""
    if word.confidence < UNSURE_BELOW or not all(is_han(char) for char in word.text):
        return True
    return any(confused(char, other) for char in word.text for other in kana.text)


def splice(line: Line, others: Sequence[Line], prepared: Prepared) -> Line | None:
    """``line`` (read in an original without kana) with the words of ``others`` (the same place read in
    Japanese) that hold kana put in place of the original's words they cover, where each such Japanese word is
    surer than every word it covers and those may give way (``replaceable``); None when no word changed or no
    sure Han word of the original is left (then the whole line is the Japanese reading's or the original's).

    Why: a Chinese printing of a Japanese game quotes names in katakana in its text ("除了ジェノサイドハンマー
    以外的卡片"); chi_tra reads the katakana as unsure strokes and Han characters, jpn reads the katakana right
    but the Chinese around them worse (卡片 as 本月). Each model keeps the part of the line in its own script.
    """
    kana_words = [word for other in others for word in other.words if any(is_kana(char) for char in word.text)]
    won: list[Word] = []
    dropped: set[int] = set()
    for kana in kana_words:
        covered = [index for index, word in enumerate(line.words) if x_overlap(word.box, kana.box) >= 0.5]
        if all(
            kana.confidence > line.words[index].confidence and replaceable(line.words[index], kana) for index in covered
        ) and (covered or kana.confidence >= UNSURE_BELOW):
            won.append(kana)
            dropped.update(covered)
    if not won:
        return None
    kept = [word for index, word in enumerate(line.words) if index not in dropped]
    if not any(word.confidence >= UNSURE_BELOW and all(is_han(char) for char in word.text) for word in kept):
        return None
    spliced = line_of([*kept, *won], prepared)
    return dataclasses.replace(spliced, language=line.language, region=line.region, corrections=line.corrections)
