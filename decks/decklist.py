"""Decklists as text: read a pasted list, write a deck as one (plain Python, no Django).

The format, as ``format_decklist`` writes it and ``parse_decklist`` reads it::

    # 林沖デッキ — comments start with # or //; blank lines are ignored
    人物：                 a heading: a zone of the game (see below), ending in : or ：
    1 林沖                 count, space, card
    4 EB1-008 居合い斬り    a card with a printed number: number, then name (the number decides,
                           the name must be one of that card's names; see decklist_resolve)
    Deck (59):             a heading may carry a count, which is ignored
    2x Sub-Zero            also: 2 x Sub-Zero, 2× 林沖, ３ 林沖 (full-width digits), 2枚 林沖,
    Sub-Zero x2            Sub-Zero x 2, 林沖 ×2, 林沖 2枚
    林沖                   a bare name: one copy
    Hero: Zaladar          a heading and the first card under it on one line

A heading names a zone of the deck's game (``decks.rules``) by its slug or by its label in
any language (ja, zh-hant, en), with or without the label's bracketed part ("サプライ" for
"サプライ（アビリティ9種）"); headings and labels are compared with
``cards.search.normalize.fold`` (NFKC, case, kana, Simplified→Traditional) with spaces
removed. A line that starts with a number reads it as the count: a card whose name or
number starts with digits needs a count before it ("1 012").

Lines before any heading have no zone; the resolver (``decks.decklists.services``) puts each
card in the first zone of its game that takes its kind.

Errors are structured — a line number, a ``code`` and ``params`` — so that the site can
show them in the reader's language; ``DecklistError.message()`` gives an English sentence
for use outside the site. Codes: ``bad-count``, ``zero-count``, ``count-too-large``,
``unknown-heading``, ``fixed-zone`` (here) and ``unknown-card``, ``ambiguous``,
``number-mismatch``, ``wrong-zone``, ``no-zone``, ``empty`` (from the resolver).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from cards.search.normalize import fold
from cardsite.labels import pick

from .rules.base import DeckRules, Zone

# The most copies of a card one zone may hold (decks.services.MAX_COPIES_PER_ENTRY).
MAX_COUNT = 99
# The most card lines a list may have: far more than any deck of these games (≤ 81 cards), few
# enough that a list is resolved in well under a second.
MAX_LINES = 300

_X = "xXｘＸ"  # "2x Foo", "Foo x2"
_TIMES = "×✕"  # "2×Foo", "Foo×2"
_UNIT = "枚張"  # "2枚 Foo", "Foo 2枚"
_NUMBER = r"[-−－]?\d+(?:[.,．，]\d+)?"  # \d: any decimal digit, full-width too; signs and fractions are errors
_PREFIX = re.compile(
    rf"^(?P<count>{_NUMBER})(?:\s*[{_TIMES}]\s*|[{_X}]\s+|\s+[{_X}]\s+|\s*[{_UNIT}]\s*|\s+)(?P<name>\S.*)$"
)
# A count at the end of a line ("Foo x2", "Foo×2", "Foo 2枚"), read backwards from the end: an anchored match on
# the reversed line is linear in its length, where a pattern anchored at both ends backtracks over every split
# of the line (a 20,000-character line of digits took minutes).
_NUMBER_WHOLE = re.compile(_NUMBER)
_NUMBER_REVERSED = re.compile(r"\d+(?:[.,．，]\d+)?[-−－]?")
_COLONS = ":："
_HEADING_COUNT = re.compile(r"\s*[(（\[［]\s*\d*\s*[)）\]］]\s*$")  # "Deck (59)"
_LABEL_BRACKET = re.compile(r"\s*[(（].*[)）]\s*$")  # "Supply (9 ability piles)"

ENGLISH = {
    "bad-count": "'{count}' is not a number of copies",
    "zero-count": "a count of 0 adds nothing; leave the line out or write at least 1",
    "count-too-large": "at most {maximum} copies of a card in one zone (here {count})",
    "unknown-heading": "no zone called '{heading}' in this game (zones: {zones})",
    "fixed-zone": "'{heading}' is fixed by the game; its cards are not part of a list",
    "unknown-card": "no card named '{name}'",
    "ambiguous": "'{name}' names several cards; write the number or the full name of one",
    "number-mismatch": "{number} is '{card}', not '{name}'",
    "wrong-zone": "{card} is a card of kind {kind} and cannot go in {zone}",
    "no-zone": "no zone of this game takes {card} (kind {kind})",
    "empty": "the list names no cards",
}


@dataclass(frozen=True)
class Candidate:
    """A card an error suggests instead (filled in by the resolver)."""

    key: str
    name: str
    number: str | None = None

    def __str__(self) -> str:
        if self.number and self.number != self.name:
            return f"{self.number} {self.name}"
        return self.name if fold(self.name) == fold(self.key) else f"{self.name} ({self.key})"


@dataclass(frozen=True)
class DecklistError:
    """A problem with one line of a list (``line`` None: with the list as a whole)."""

    line: int | None
    code: str
    params: Mapping[str, Any] = field(default_factory=dict)
    candidates: tuple[Candidate, ...] = ()

    def message(self) -> str:
        """The problem as an English sentence, with the line number and any candidates."""
        text = ENGLISH[self.code].format(**self.params)
        if self.candidates:
            text += "; did you mean: " + ", ".join(map(str, self.candidates))
        return text if self.line is None else f"line {self.line}: {text}"

    __str__ = message


@dataclass(frozen=True)
class DecklistLine:
    """One card line: how many copies of what, under which heading."""

    line: int  # 1-based line number in the pasted text
    count: int
    name: str  # the card as written: a name, a number or key, or a number and a name
    zone: str | None = None  # the slug of the heading's zone; None before any heading
    zone_failed: bool = False  # under a heading that is itself an error (no zone to check against)


@dataclass
class Decklist:
    lines: list[DecklistLine] = field(default_factory=list)
    errors: list[DecklistError] = field(default_factory=list)


def _compact(text: str) -> str:
    return "".join(char for char in fold(text) if not char.isspace())


def zone_keys(zone: Zone) -> set[str]:
    """What a heading may say to name the zone, compacted (see ``_compact``)."""
    keys = {_compact(zone.slug)}
    for label in zone.labels.values():
        keys.add(_compact(label))
        keys.add(_compact(_LABEL_BRACKET.sub("", label)))
    keys.discard("")
    return keys


def find_zone(rules: DeckRules, heading: str) -> Zone | None:
    """The zone a heading names (slug or label in any language, compared folded), or None."""
    wanted = _compact(_HEADING_COUNT.sub("", heading))
    if not wanted:
        return None
    return next((zone for zone in rules.zones if wanted in zone_keys(zone)), None)


def _count_error(line: int, raw: str) -> DecklistError | None:
    if not re.fullmatch(r"\d+", raw):
        return DecklistError(line, "bad-count", {"count": raw})
    if len(raw.lstrip("0")) > 12:
        # Far too many to be a count; not converted (Python refuses to read over 4,300 digits as a number).
        return DecklistError(line, "count-too-large", {"count": f"{raw.lstrip('0')[:12]}…", "maximum": MAX_COUNT})
    count = int(raw)
    if count == 0:
        return DecklistError(line, "zero-count", {"count": 0})
    if count > MAX_COUNT:
        return DecklistError(line, "count-too-large", {"count": count, "maximum": MAX_COUNT})
    return None


def _card_line(number: int, text: str) -> tuple[int, str] | DecklistError:
    """The count and card of a line such as ``3 林沖`` or ``Sub-Zero x2``; a bare name counts 1."""
    match = _PREFIX.match(text)
    if match:
        raw, name = match["count"], match["name"]
    else:
        suffix = _count_at_end(text)
        if suffix is None:
            return 1, text
        name, raw = suffix
    error = _count_error(number, raw)
    return error if error else (int(raw), name.strip())


def _count_at_end(text: str) -> tuple[str, str] | None:
    """``(name, count)`` of a line whose count comes last: ``Foo x2``, ``Foo ×2``, ``Foo×2`` or ``Foo 2枚``."""
    unit = bool(text) and text[-1] in _UNIT
    body = text[:-1].rstrip() if unit else text
    match = _NUMBER_REVERSED.match(body[::-1])
    if match is None:
        return None
    raw = match.group()[::-1]
    rest = body[: len(body) - len(raw)]
    if unit:
        name = rest.rstrip()
    else:
        before = rest.rstrip()
        mark, name = before[-1:], before[:-1].rstrip()
        # "Foo×2" and "Foo × 2", but "Foo x2" only with a space before the x ("Foox2" is a name)
        times = bool(mark) and mark in _TIMES
        spaced_x = bool(mark) and mark in _X and name != before[:-1]
        if not (times or spaced_x):
            return None
    if not name and unit and len(raw) > 1 and _NUMBER_WHOLE.fullmatch(raw[1:]):
        # "22枚": a name of one character before the count, as a line "X 2枚" reads
        name, raw = raw[0], raw[1:]
    return (name, raw) if name else None


def _heading(line: str, rules: DeckRules) -> tuple[str, str] | None:
    """``(heading, rest)`` when the line is a heading (``Deck:``) or a heading and a card (``Hero: X``)."""
    if line[-1] in _COLONS:
        return line[:-1].strip(), ""
    position = min((line.find(colon) for colon in _COLONS if colon in line), default=-1)
    if position > 0 and find_zone(rules, line[:position]) is not None:
        return line[:position].strip(), line[position + 1 :].strip()
    return None


def parse_decklist(text: str, rules: DeckRules) -> Decklist:
    """Read a pasted list: card lines with their zones, and the problems, each with its line number."""
    result = Decklist()
    zone: str | None = None
    zone_failed = False
    for number, raw_line in enumerate(text.splitlines(), start=1):
        line = raw_line.strip()
        if not line or line.startswith(("#", "//", "＃", "／／")):
            continue
        heading = _heading(line, rules)
        if heading is not None:
            label, line = heading
            found = find_zone(rules, label)
            if found is None:
                zones = ", ".join(z.slug for z in rules.zones if not z.fixed)
                result.errors.append(DecklistError(number, "unknown-heading", {"heading": label, "zones": zones}))
                zone, zone_failed = None, True
            elif found.fixed:
                result.errors.append(DecklistError(number, "fixed-zone", {"heading": label, "zone": found.slug}))
                zone, zone_failed = None, True
            else:
                zone, zone_failed = found.slug, False
            if not line:
                continue
        if len(result.lines) + len(result.errors) >= MAX_LINES:
            # Refused whole: nothing else about such a list is worth reading.
            return Decklist(errors=[DecklistError(number, "too-many-lines", {"maximum": MAX_LINES})])
        parsed = _card_line(number, line)
        if isinstance(parsed, DecklistError):
            result.errors.append(parsed)
            continue
        count, name = parsed
        result.lines.append(DecklistLine(number, count, name, zone, zone_failed))
    return result


@dataclass(frozen=True)
class ListedCard:
    """A card as a list writes it: ``count number name`` (number left out when it has none)."""

    count: int
    name: str
    number: str | None = None

    @property
    def text(self) -> str:
        if self.number and self.name and _compact(self.name) != _compact(self.number):
            return f"{self.number} {self.name}"
        return self.number or self.name


def format_decklist(
    rules: DeckRules,
    zones: Mapping[str, Sequence[ListedCard]],
    language: str,
    *,
    title: Sequence[str] = (),
) -> str:
    """The deck as a list ``parse_decklist`` reads back: a heading per zone in ``language``, then its cards.

    Zones come in the game's order (fixed zones are the game's, not the deck's, and are left
    out); ``title`` lines are written first as comments. A zone the game no longer declares
    is written under its slug, so that reading the list back reports it.
    """
    colon = ":" if language == "en" else "："
    out = [f"# {line}" for line in title]
    known = [zone.slug for zone in rules.zones if not zone.fixed]
    for slug in [*known, *sorted(set(zones) - set(known))]:
        cards = zones.get(slug) or ()
        if not cards:
            continue
        if out:
            out.append("")
        zone = rules.zone(slug)
        out.append(f"{pick(zone.labels, language) if zone else slug}{colon}")
        out.extend(f"{card.count} {card.text}" for card in cards)
    return "\n".join(out) + "\n" if out else ""


def loose(text: str) -> str:
    """The folded text with spaces and punctuation dropped ("Sub Zero" and "sub-zero" alike)."""
    return "".join(char for char in fold(text) if unicodedata.category(char)[0] in "LNM")


# --- mending one line of a pasted list (the import page's "did you mean", applied in place)


def _card_part(line: str, rules: DeckRules) -> tuple[str, str]:
    """``(heading prefix, card part)`` of a line: "Hero: 1 X" → ("Hero: ", "1 X"); "2 X" → ("", "2 X")."""
    stripped = line.strip()
    heading = _heading(stripped, rules) if stripped else None
    if heading is None or not heading[1]:
        return "", stripped
    return stripped[: len(stripped) - len(heading[1])], heading[1]


def _count_of(number: int, card_part: str) -> int:
    parsed = _card_line(number, card_part)
    return 1 if isinstance(parsed, DecklistError) else parsed[0]


def replace_card(text: str, rules: DeckRules, line: int, card: str) -> str:
    """``text`` with the card of line ``line`` (1-based) replaced by ``card`` (a key or number the resolver
    finds exactly), its count and its heading kept; the text as it was for a line it does not have."""
    lines = text.splitlines()
    if not 1 <= line <= len(lines):
        return text
    prefix, card_part = _card_part(lines[line - 1], rules)
    if not card_part:
        return text
    lines[line - 1] = f"{prefix}{_count_of(line, card_part)} {card}"
    return "\n".join(lines) + "\n"


def move_to_zone(text: str, rules: DeckRules, line: int, zone: Zone, language: str) -> str:
    """``text`` with line ``line``'s card moved under the heading of ``zone`` (its count kept): after the first
    heading of that zone, or at the end under a new one; the text as it was for a line it does not have."""
    lines = text.splitlines()
    if not 1 <= line <= len(lines):
        return text
    _prefix, card_part = _card_part(lines[line - 1], rules)
    if not card_part:
        return text
    parsed = _card_line(line, card_part)
    moved = card_part if isinstance(parsed, DecklistError) else f"{parsed[0]} {parsed[1]}"
    del lines[line - 1]
    for index, other in enumerate(lines):
        heading = _heading(other.strip(), rules) if other.strip() else None
        if heading is not None and not heading[1] and find_zone(rules, heading[0]) is zone:
            lines.insert(index + 1, moved)
            return "\n".join(lines) + "\n"
    colon = ":" if language == "en" else "："
    lines.extend([f"{pick(zone.labels, language)}{colon}", moved])
    return "\n".join(lines) + "\n"
