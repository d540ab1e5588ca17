"""Values a reading suggests for a card, from what the game declares: proposals only, never applied.

- **number**: a token of a line that matches the game's ``number_pattern`` whole (in NFKC: full-width
  ＥＢ９ is EB9). Where none does, look-alike characters are tried in each position (B/8, O/0, I/1, S/5, Z/2,
  G/6, hyphens), fewest changes first; such a proposal is noted "characters_corrected" and marked low.
  A number outside every declared run (``number_ranges``, when the game declares any) is noted
  "outside_declared_ranges".
- **a declared field**: one of the field's labels (its name and its ja, zh-hant and en labels, folded as the
  search folds, so ＡＴ is at) followed by an optional colon and a value of the field's type: an integer with
  its sign (＋３ is 3; 十, 二, 土 and 士 read for ＋ and ー or 一 for − only right there, and up to ``MAX_SKIPPED``
  letters read for the colon skipped: both noted corrected), a string of
  the declared symbols (スキル：ＰＰＴ is "PPT"), a declared choice or its label, a text of the field's pattern.
  The value is cleaned by the field's own type; a value it refuses is not proposed. Free text and
  true/false fields are not proposed (nothing on a card marks them reliably).
- **kind**: a line that is one of the game's kinds (its slug or a label) and nothing else but punctuation.
- **keyword**: a glossary term (passed in; the glossary lives in the database) found in a line, folded.
- **name**: the line read in the name band of the game's card layout (``layout``); without one, the top-most
  of the lines printed largest, a line starting with a label's bracket aside (their words' median height at least
  ``NAME_HEIGHT_SHARE`` of the largest), unless it is where the number or a field was found; only when
  the largest are ``NAME_DISTINCT`` times higher than the median line (else no line stands out as a name).

Every proposal carries the line(s) it came from, the box around its words (corrected image and photo) and
the least confidence of those words, and the characters restored in it (``symbols``; noted "symbols_restored"
and "characters_corrected", which the review shows);
``low_confidence`` is set under ``low_confidence_below``
(``LOW_CONFIDENCE_BELOW`` by default) or when characters were corrected.
"""

from __future__ import annotations

import itertools
import re
import statistics
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from cards.gamedefs.base import (
    ChoiceListType,
    ChoiceType,
    FieldSpec,
    FieldValueError,
    GameDefinition,
    IntegerType,
    SymbolStringType,
    TextType,
)
from cards.search.normalize import fold, fold_with_positions

from .result import Box, Line, Proposal, Reading

LOW_CONFIDENCE_BELOW = 0.80  # a proposal read with less confidence (0–1) than this is marked low
NAME_HEIGHT_SHARE = 0.9
# A name is proposed (without a layout's name band) only when the largest lines are this much higher than the
# median one. Cards print their name 1.1–1.2× the text's height: photos measured 1.08 and 1.19 (1.2 missed both).
NAME_DISTINCT = 1.05
_LABEL_OPENINGS = "[［【(（|"
MAX_CORRECTIONS = 10  # look-alike positions tried in one token (2**10 candidates at most)
MAX_SKIPPED = 2  # characters read for a colon that may stand between a label and an integer

# What Tesseract may read in place of a character of a printed number, both ways.
_NUMBER_LOOKALIKES = {
    "B": "8", "8": "B", "O": "0", "0": "O", "D": "0", "Q": "0", "I": "1", "l": "1", "|": "1", "1": "I",
    "S": "5", "5": "S", "Z": "2", "2": "Z", "G": "6", "6": "G", "‐": "-", "‑": "-", "–": "-", "—": "-",
    "−": "-", "ー": "-", "一": "-",
}  # fmt: skip
# Read in place of a sign or a digit right after a field's label (folded: lower case). Tesseract's jpn reads
# Noto's thin full-width ＋ as 十 and, blurred, as 二 (measured on the synthetic cards of the tests).
_SIGN_LOOKALIKES = {"十": "+", "土": "+", "士": "+", "二": "+", "ー": "-", "一": "-", "−": "-"}
_DIGIT_LOOKALIKES = {"o": "0", "d": "0", "q": "0", "i": "1", "l": "1", "|": "1", "s": "5", "z": "2", "b": "8"}
_SEPARATOR = re.compile(r"\s*:?\s*")
_LIST_SEPARATOR = re.compile(r"\s*[,、/・]?\s*")


@dataclass(frozen=True)
class _Found:
    field: str
    value: Any
    line: int
    start: int  # in the line's text
    end: int
    corrected: bool = False
    notes: tuple[str, ...] = ()


def _nfkc_with_positions(text: str) -> tuple[str, list[int]]:
    parts: list[str] = []
    origins: list[int] = []
    for index, char in enumerate(text):
        normal = unicodedata.normalize("NFKC", char)
        parts.append(normal)
        origins.extend([index] * len(normal))
    return "".join(parts), origins


def _span(origins: list[int], start: int, end: int) -> tuple[int, int]:
    """A span of a normalised text as a span of the text it came from."""
    return origins[start], origins[end - 1] + 1


# --- numbers ---------------------------------------------------------------------------------------------


def _corrected_number(token: str, pattern: re.Pattern[str]) -> str | None:
    """``token`` with the fewest look-alike characters replaced so that it matches ``pattern`` whole."""
    positions = [index for index, char in enumerate(token) if char in _NUMBER_LOOKALIKES][:MAX_CORRECTIONS]
    for count in range(1, len(positions) + 1):
        for chosen in itertools.combinations(positions, count):
            chars = list(token)
            for index in chosen:
                chars[index] = _NUMBER_LOOKALIKES[chars[index]]
            candidate = "".join(chars)
            if pattern.fullmatch(candidate):
                return candidate
    return None


def _in_ranges(number: str, game: GameDefinition) -> bool:
    for run in game.number_ranges:
        if number.startswith(run.prefix):
            digits = number[len(run.prefix) :]
            if digits.isdigit() and len(digits) == run.width and run.first <= int(digits) <= run.last:
                return True
    return False


def _numbers(lines: Sequence[Line], game: GameDefinition) -> list[_Found]:
    pattern = re.compile(game.number_pattern)
    token_chars = "0-9A-Za-z\\-" + "".join(re.escape(char) for char in _NUMBER_LOOKALIKES if not char.isalnum())
    tokens = re.compile(f"[{token_chars}]+")
    found: list[_Found] = []
    for index, line in enumerate(lines):
        text, origins = _nfkc_with_positions(line.text)
        for match in tokens.finditer(text):
            token, corrected = match.group(), False
            if not pattern.fullmatch(token):
                fixed = _corrected_number(token, pattern)
                if fixed is None:
                    continue
                token, corrected = fixed, True
            notes: tuple[str, ...] = ("characters_corrected",) if corrected else ()
            if game.number_ranges and not _in_ranges(token, game):
                notes += ("outside_declared_ranges",)
            start, end = _span(origins, match.start(), match.end())
            found.append(_Found("number", token, index, start, end, corrected, notes))
    return found


# --- labelled fields -------------------------------------------------------------------------------------


def _labels(spec: FieldSpec) -> set[str]:
    return {fold(label) for label in (spec.name, *spec.labels.values()) if label and fold(label)}


def _integer(rest: str) -> tuple[str, int, bool] | None:
    """A signed integer at the start of ``rest`` (folded): (raw, length, corrected)."""
    match = re.match(r"([+-]?)\s*(\d+)", rest)
    if match:
        return match.group(1) + match.group(2), match.end(), False
    head = rest[:8]
    fixed = "".join(_SIGN_LOOKALIKES.get(char, char) for char in head[:1]) + head[1:]
    fixed = fixed[:1] + "".join(_DIGIT_LOOKALIKES.get(char, char) for char in fixed[1:])
    if fixed[:1] not in "+-":
        fixed = "".join(_DIGIT_LOOKALIKES.get(char, char) for char in fixed)
    match = re.match(r"([+-]?)\s*(\d+)(?![a-z])", fixed)
    # A correction needs a digit read as a digit in it: "is" after AT is a word, not 15.
    if match and any(char.isdigit() for char in rest[: match.end()]):
        return match.group(1) + match.group(2), match.end(), True
    return None


def _symbols(rest: str, spec_type: SymbolStringType) -> tuple[str, int] | None:
    by_folded = {fold(symbol): symbol for symbol in spec_type.symbols}
    value: list[str] = []
    length = 0
    for index, char in enumerate(rest):
        if char in by_folded:
            value.append(by_folded[char])
            length = index + 1
        elif not char.isspace():
            break
    return ("".join(value), length) if value else None


def _choices(rest: str, spec_type: ChoiceType | ChoiceListType, many: bool) -> tuple[Any, int] | None:
    names: dict[str, str] = {}
    for value in spec_type.choices:
        names[fold(value)] = value
        for label in spec_type.value_labels.get(value, {}).values():
            if fold(label):
                names.setdefault(fold(label), value)
    ordered = sorted(names, key=len, reverse=True)
    values: list[str] = []
    position = 0
    while True:
        name = next((name for name in ordered if rest.startswith(name, position)), None)
        if name is None:
            break
        position += len(name)
        value = names[name]
        # A choice printed with its number (水滸伝's 射擊X: 射擊2), where the field's type takes it.
        digits = re.match(r"\d+", rest[position:])
        if digits and isinstance(spec_type, ChoiceListType) and spec_type.accepts(value + digits.group()):
            value += digits.group()
            position += digits.end()
        values.append(value)
        if not many:
            break
        separator = _LIST_SEPARATOR.match(rest, position)
        if separator is None or not any(rest.startswith(name, separator.end()) for name in ordered):
            break
        position = separator.end()
    if not values:
        return None
    return (values if many else values[0]), position


def _value(rest: str, spec: FieldSpec) -> tuple[Any, int, bool] | None:
    """The raw value of ``spec``'s type at the start of ``rest`` (folded): (raw, length, corrected)."""
    kind = spec.type
    if isinstance(kind, IntegerType):
        return _integer(rest)
    if isinstance(kind, SymbolStringType):
        symbols = _symbols(rest, kind)
        return (symbols[0], symbols[1], False) if symbols else None
    if isinstance(kind, ChoiceType | ChoiceListType):
        chosen = _choices(rest, kind, many=isinstance(kind, ChoiceListType))
        return (chosen[0], chosen[1], False) if chosen else None
    if isinstance(kind, TextType) and kind.pattern:
        match = re.match(kind.pattern, rest)
        return (match.group(), match.end(), False) if match and match.group() else None
    return None


def _fields(lines: Sequence[Line], fields: Sequence[FieldSpec]) -> list[_Found]:
    found: list[_Found] = []
    for index, line in enumerate(lines):
        text, origins = fold_with_positions(line.text)
        # Every label found, longest first; a label inside a longer one found there (コスト in 能力コスト) is not.
        hits: list[tuple[int, int, FieldSpec]] = []
        for spec in fields:
            for label in _labels(spec):
                for match in re.finditer(r"(?<![0-9a-z])" + re.escape(label), text):
                    hits.append((match.start(), match.end(), spec))
        hits.sort(key=lambda hit: hit[1] - hit[0], reverse=True)
        taken: list[tuple[int, int]] = []
        for start, end, spec in hits:
            if any(s <= start and end <= e for s, e in taken):
                continue
            separator = _SEPARATOR.match(text, end)
            value_start = separator.end() if separator else end
            read = _value(text[value_start:], spec)
            if read is None and isinstance(spec.type, IntegerType):
                # The colon of spaced full-width text is often read as a letter or two (ＡＴ：＋３ as "AT SI土3").
                for skip in range(1, MAX_SKIPPED + 1):
                    skipped = text[value_start : value_start + skip]
                    if len(skipped) < skip or any(char.isdigit() or char.isspace() for char in skipped):
                        break
                    read = _value(text[value_start + skip :], spec)
                    if read is not None:
                        raw, length, _ = read
                        read, value_start = (raw, length, True), value_start + skip
                        break
            if read is None:
                continue
            raw, length, corrected = read
            try:
                value = spec.type.clean(raw)
            except FieldValueError:
                continue  # the field's type refuses it: not proposed
            taken.append((start, end))
            span = _span(origins, start, value_start + length)
            notes = ("characters_corrected",) if corrected else ()
            found.append(_Found(spec.name, value, index, span[0], span[1], corrected, notes))
    return found


# --- the kind ---------------------------------------------------------------------------------------------


def _kinds(lines: Sequence[Line], game: GameDefinition) -> list[_Found]:
    """A line that is a kind's label and nothing else (ジョブ printed alone; not ジョブ inside a rules text)."""
    labels = {fold(label): kind.slug for kind in game.kinds for label in (kind.slug, *kind.labels.values()) if label}
    found: list[_Found] = []
    for index, line in enumerate(lines):
        bare = re.sub(r"[\W_]+", "", fold(line.text))
        if bare and bare in labels:
            found.append(_Found("kind", labels[bare], index, 0, len(line.text)))
    return found


# --- keywords and the name -------------------------------------------------------------------------------


def _keywords(lines: Sequence[Line], terms: Iterable[str]) -> list[_Found]:
    found: list[_Found] = []
    folded_terms = {fold(term): term for term in terms if len(fold(term)) >= 2}
    seen: set[str] = set()
    for index, line in enumerate(lines):
        text, origins = fold_with_positions(line.text)
        for folded, term in sorted(folded_terms.items(), key=lambda item: len(item[0]), reverse=True):
            position = text.find(folded)
            if position < 0 or term in seen:
                continue
            seen.add(term)
            start, end = _span(origins, position, position + len(folded))
            found.append(_Found("keyword", term, index, start, end))
    return found


def _name(lines: Sequence[Line], taken: set[int]) -> list[_Found]:
    if not lines:
        return []
    band = [index for index, line in enumerate(lines) if line.region == "name" and line.text.strip()]
    if band:  # the game's layout says where the name is printed, and it was read there on its own
        index = band[0]
        return [_Found("name", lines[index].text.strip(), index, 0, len(lines[index].text))]
    # A line starting with a label's bracket ("[戦闘]…") is a text line however tall its brackets make it.
    candidates = [index for index, line in enumerate(lines) if line.text.lstrip()[:1] not in _LABEL_OPENINGS]
    heights = [statistics.median(word.box.height for word in line.words) for line in lines]
    if len(lines) < 2 or not candidates:
        return []
    tallest = max(heights[index] for index in candidates)
    others = [height for index, height in enumerate(heights) if index not in candidates or height < tallest]
    if not others or tallest < NAME_DISTINCT * statistics.median(others):
        return []  # no line stands out from the rest
    for index in candidates:
        if heights[index] >= NAME_HEIGHT_SHARE * tallest:
            line = lines[index]
            if index in taken or not line.text.strip():
                return []
            return [_Found("name", line.text.strip(), index, 0, len(line.text))]
    return []


# --- proposals -------------------------------------------------------------------------------------------


def _with_restored(notes: tuple[str, ...], corrections: tuple[tuple[str, str], ...]) -> tuple[str, ...]:
    if not corrections:
        return notes
    added = [note for note in ("characters_corrected", "symbols_restored") if note not in notes]
    return (*notes, *added)


def _proposal(found: _Found, lines: Sequence[Line], low_confidence_below: float) -> Proposal:
    line = lines[found.line]
    words = line.words_between(found.start, found.end) or line.words
    confidence = min(word.confidence for word in words)
    read = line.text[found.start : found.end]
    corrections = tuple(pair for pair in line.corrections if pair[1] in read)
    return Proposal(
        field=found.field,
        value=found.value,
        read=read,
        lines=(found.line,),
        box=Box.around(word.box for word in words),
        photo_box=Box.around(word.photo_box for word in words),
        confidence=confidence,
        # A restored symbol is a correction like a look-alike digit: the review shows it and asks for a check.
        low_confidence=confidence < low_confidence_below or found.corrected or bool(corrections),
        notes=_with_restored(found.notes, corrections),
        corrections=corrections,
    )


def propose(
    reading: Reading | Sequence[Line],
    game: GameDefinition,
    *,
    kind: str | None = None,
    terms: Iterable[str] = (),
    low_confidence_below: float = LOW_CONFIDENCE_BELOW,
) -> list[Proposal]:
    """What ``reading`` suggests for a card of ``game`` (of ``kind``, when known: only its fields are looked for).

    ``terms`` are the game's glossary terms in any language. Proposals come in the order of the lines; for one
    field there may be several (two numbers read on one card): the contributor chooses.
    """
    lines = reading.lines if isinstance(reading, Reading) else tuple(reading)
    found = _numbers(lines, game) + _kinds(lines, game) + _fields(lines, game.fields_for_kind(kind))
    found += _keywords(lines, terms)
    found += _name(lines, {item.line for item in found if item.field != "keyword"})
    found.sort(key=lambda item: (item.line, item.start))
    return [_proposal(item, lines, low_confidence_below) for item in found]
