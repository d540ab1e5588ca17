"""Symbols and punctuation restored as the game prints them, where the reading's context says what was meant.

Tesseract reads a card's full-width signs and brackets as look-alikes, and a 。 wrapped onto a line of its own
as a letter or a digit. What is restored here, each recorded on its line as (read, restored) so that the
contributor sees it (``Line.corrections``, carried by the proposals made from the line):

- a sign before a digit: 十, 土 or 士 read for ＋ and 一 for － (only right before a digit, after a colon, an
  opening quote or the line's start: 十 inside a word stays);
- a bracketed label the game declares (``CardLayout.bracket_labels``: [日常], [戦闘]) at the start of a line,
  with its brackets read as | or l, a stray 1 after the closing one, or a character of the label read as a
  look-alike (澤 for 戦, ``confusions.CONFUSIONS``);
- a line holding only a 。 read as 0, o or oO, short and after another line: joined to the end of that line;
- in a list of single half-width letters separated by 、 or commas (skill symbols: P、T、S), an item read as
  a digit and the letter it looks like (5S, 8B, 0O): the letter alone.
"""

from __future__ import annotations

import dataclasses
import re
import unicodedata
from collections.abc import Sequence

from .confusions import CONFUSIONS
from .layout import CardLayout
from .result import Line, Word

_DIGITS = "0-9０-９"
_SIGNS = re.compile(rf"(?:(?<=[:：「(（\s])|^)([十土士一])(?=\s*[{_DIGITS}])")
_LONE_STOP = re.compile(r"^[0oO○°。]{1,2}$")
_OPENING = "[［|lI1【"
_CLOSING = "]］|lI1)】"


def _wide(text: str) -> bool:
    return any(unicodedata.east_asian_width(char) in ("W", "F") for char in text)


_BRACKETED = re.compile(rf"^\s*[{re.escape(_OPENING)}]?([^\]］|\s]{{1,8}}?)[{re.escape(_CLOSING)}]{{1,2}}")
_ALIKE = {(printed, read) for printed, read in CONFUSIONS}
# A letter and the digit drawn like it. Tesseract's LSTM, torn between the two for one printed glyph, at times
# gives both ("S" read "5S"): the recogniser's per-column guesses are collapsed into characters, and a glyph
# whose left half looks like one and right half like the other yields two. In a list of single letters (the
# items between 、 or commas are one letter each, as a card prints its skill symbols P、T、S) an item of a digit
# and its look-alike letter is that one letter; a digit elsewhere (＋２, 1000元) is never touched.
_LETTER_DIGITS = {"S": "5", "B": "8", "O": "0", "D": "0", "I": "1", "Z": "2", "G": "6"}
_LIST_MARK = "、，,"
_DOUBLED = re.compile(
    rf"(?:(?<=[A-Z][{_LIST_MARK}])|(?<=[A-Z][{_LIST_MARK}]\s))"
    rf"(?:([0-9])([A-Z])|([A-Z])([0-9]))"
    rf"(?=\s?[{_LIST_MARK}][A-Z](?![A-Za-z])|(?![A-Za-z0-9]))"
)


def _same(printed: str, read: str) -> bool:
    return printed == read or (printed, read) in _ALIKE


def _label_of(read: str, labels: Sequence[str]) -> str | None:
    """The declared label ``read`` is: every character the same or a look-alike, or, for a label of two
    characters or more and as long, at least half of them the same or look-alikes."""
    for label in sorted(labels, key=len, reverse=True):
        if len(label) != len(read):
            continue
        same = sum(_same(printed, char) for printed, char in zip(label, read, strict=True))
        if same == len(label) or (len(label) >= 2 and same * 2 >= len(label)):
            return label
    return None


def _edit(line: Line, start: int, end: int, replacement: str) -> Line:
    """``line`` with ``text[start:end]`` replaced, the words' texts and spans kept in step (the first word
    touching the edit takes the replacement; a word left empty is dropped)."""
    text = line.text[:start] + replacement + line.text[end:]
    shift = len(replacement) - (end - start)
    words: list[Word] = []
    spans: list[tuple[int, int]] = []
    placed = False
    for word, (w_start, w_end) in zip(line.words, line.spans, strict=True):
        touches = (w_start < end and start < w_end) or (start == end and w_start <= start <= w_end and not placed)
        takes = touches and not placed
        placed = placed or takes
        if w_end <= start and not takes:
            new_start, new_end = w_start, w_end
        elif w_start >= end and not takes:
            new_start, new_end = w_start + shift, w_end + shift
        else:
            new_start = w_start if w_start <= start else (start if takes else start + len(replacement))
            new_end = w_end + shift if w_end >= end else (start + len(replacement) if takes else start)
        if new_end <= new_start:
            continue
        words.append(dataclasses.replace(word, text=text[new_start:new_end]))
        spans.append((new_start, new_end))
    return dataclasses.replace(line, text=text, words=tuple(words), spans=tuple(spans))


def _restore_line(line: Line, layout: CardLayout) -> Line:
    corrections = list(line.corrections)
    # A bracketed label at the line's start: the declared label its characters are, allowing for look-alikes,
    # or, bracketed alike and as long, the label at least half of whose characters were read right.
    match = _BRACKETED.match(line.text)
    label = _label_of(match.group(1), layout.bracket_labels) if match else None
    if match is not None and label is not None:
        opening, closing = ("［", "］") if line.text.lstrip()[:1] in "［【" else ("[", "]")
        restored = f"{opening}{label}{closing}"
        if match.group().strip() != restored:
            corrections.append((match.group().strip(), restored))
            line = _edit(line, len(match.group()) - len(match.group().lstrip()), match.end(), restored)
    for match in reversed(list(_DOUBLED.finditer(line.text))):
        digit, letter = (match.group(1), match.group(2)) if match.group(1) else (match.group(4), match.group(3))
        if _LETTER_DIGITS.get(letter) != digit:
            continue
        corrections.append((match.group(), letter))
        line = _edit(line, match.start(), match.end(), letter)
    for match in reversed(list(_SIGNS.finditer(line.text))):
        read = match.group(1)
        digit = line.text[match.end(1) :].lstrip()[:1]
        sign = "－" if read == "一" else "＋"
        if digit.isascii():
            sign = "-" if read == "一" else "+"
        corrections.append((read, sign))
        line = _edit(line, match.start(1), match.end(1), sign)
    return dataclasses.replace(line, corrections=tuple(corrections))


def restore(lines: Sequence[Line], layout: CardLayout) -> list[Line]:
    """``lines`` with the game's symbols and punctuation restored (see the module), each correction recorded."""
    restored: list[Line] = []
    for line in lines:
        stripped = line.text.strip()
        if (
            restored
            and _LONE_STOP.match(stripped)
            and line.box.width <= 2 * line.box.height
            and restored[-1].language == line.language
            and not line.region
        ):
            previous = restored[-1]
            end = len(previous.text)
            joined = _edit(previous, end, end, "。") if previous.words else previous
            restored[-1] = dataclasses.replace(joined, corrections=(*previous.corrections, (stripped, "。")))
            continue
        restored.append(_restore_line(line, layout))
    return restored
