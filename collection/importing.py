"""Filling a collection from text: a pasted list (the decklist format of ``decks.decklist``) or a CSV file, and the
collection written back as CSV. Nothing is written until every line is understood; then ``services.import_counts``
writes the whole list in one transaction.

Pasted lists are read by the deck importer's parser and card index, with its line-by-line problems and candidates.
A collection has no zones: headings (``Deck:``) are read and ignored, whatever they say.

CSV (UTF-8, a byte order mark allowed, comma-separated): the first line names the columns. ``count`` is required, and
a column naming the card: ``key`` (the card's key or printed number; the export writes it), else ``card``,
``number`` or ``name`` (a name in any language, as in a pasted list). Other columns (``number`` and ``name`` beside
``key`` in an export) are ignored. A count is a whole number from 0 to ``MAX_OWNED``; 0 means none (with
"replace") and adds nothing (with "add"). A card on several lines adds up.

Every CSV is written by ``cardsite.csvfiles``, which puts a quote before a text a spreadsheet would run as a
formula (a card named ``=HYPERLINK(…)``); the import takes that quote off, so an export reads back unchanged.
"""

from __future__ import annotations

import csv
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from cards.models import Card, Game
from cardsite import csvfiles
from cardsite.types import SiteUser
from decks.decklist import DecklistError, parse_decklist
from decks.decklists.services import MAX_REPORTED, CardIndex, describe, split_number
from decks.rules import get_rules

from .models import MAX_OWNED
from .selectors import owned_rows

# A pasted list: the deck importer's limits (20,000 characters, 300 card lines: decks.decklists.views, decks.decklist).
MAX_LIST_LENGTH = 20_000
# A CSV file: a whole game's cards many times over, small enough to read at once.
MAX_CSV_BYTES = 500_000
MAX_CSV_ROWS = 5_000
CARD_COLUMNS = ("key", "card", "number", "name")
IGNORED_HEADING_CODES = {"unknown-heading", "fixed-zone"}


@dataclass
class Resolved:
    """A list read against a game's cards: copies per card, or the problems (line by line)."""

    counts: dict[Card, int] = field(default_factory=dict)
    errors: list[DecklistError] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors

    @property
    def copies(self) -> int:
        return sum(self.counts.values())


def _lookup(index: CardIndex, line: int, text: str, suggest: bool) -> Card | DecklistError:
    """The one card ``text`` names, or the problem (the deck importer's codes and candidates)."""
    cards, how = index.lookup(text)
    if how == "mismatch":
        number, name = split_number(text)
        params = {"number": number, "name": name, "card": cards[0].display_name(index.language)}
        return DecklistError(line, "number-mismatch", params, (index.candidate(cards[0]),))
    if not cards:
        candidates = tuple(index.candidate(card) for card in index.similar(text)) if suggest else ()
        return DecklistError(line, "unknown-card", {"name": text}, candidates)
    if len(cards) > 1:
        return DecklistError(line, "ambiguous", {"name": text}, tuple(index.candidate(card) for card in cards))
    return cards[0]


def _add(result: Resolved, totals: dict[int, int], card: Card, line: int, count: int) -> None:
    totals[card.pk] += count
    if totals[card.pk] > MAX_OWNED:
        params = {"count": totals[card.pk], "maximum": MAX_OWNED}
        result.errors.append(DecklistError(line, "owned-too-many", params))
        return
    result.counts[card] = totals[card.pk]


def resolve_list(game: Game, text: str, language: str | None = None) -> Resolved:
    """Every card line of a pasted list resolved to a card of ``game``, or every problem."""
    if len(text) > MAX_LIST_LENGTH:
        return Resolved(errors=[DecklistError(None, "list-too-long", {"maximum": MAX_LIST_LENGTH})])
    parsed = parse_decklist(text, get_rules(game.slug))
    result = Resolved(errors=[error for error in parsed.errors if error.code not in IGNORED_HEADING_CODES])
    index = CardIndex(game, language)
    totals: dict[int, int] = defaultdict(int)
    for line in parsed.lines:
        found = _lookup(index, line.line, line.name, suggest=len(result.errors) < MAX_REPORTED)
        if isinstance(found, DecklistError):
            result.errors.append(found)
        else:
            _add(result, totals, found, line.line, line.count)
    if not parsed.lines and not result.errors:
        result.errors.append(DecklistError(None, "empty"))
    result.errors.sort(key=lambda error: error.line or 0)
    return result


def _count(raw: str, line: int) -> int | DecklistError:
    text = raw.strip()
    if not text.isascii() or not text.lstrip("-").isdigit():
        return DecklistError(line, "bad-count", {"count": text})
    digits = text.lstrip("-").lstrip("0")
    if len(digits) > 12:
        # Not converted: Python refuses to read over 4,300 digits as a number, and no such count is kept.
        code = "owned-negative" if text.startswith("-") else "owned-too-many"
        return DecklistError(line, code, {"count": f"{text[:13]}…", "maximum": MAX_OWNED})
    number = int(text)
    if number < 0:
        return DecklistError(line, "owned-negative", {"count": number})
    if number > MAX_OWNED:
        return DecklistError(line, "owned-too-many", {"count": number, "maximum": MAX_OWNED})
    return number


def resolve_csv(game: Game, data: bytes | str, language: str | None = None) -> Resolved:
    """Every row of a CSV file resolved to a card of ``game`` and a count, or every problem (by line)."""
    size = len(data.encode() if isinstance(data, str) else data)
    if size > MAX_CSV_BYTES:
        return Resolved(errors=[DecklistError(None, "csv-too-large", {"maximum": MAX_CSV_BYTES // 1000})])
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            return Resolved(errors=[DecklistError(None, "csv-encoding")])
    text = data.removeprefix("\ufeff")
    if "\x00" in text:
        return Resolved(errors=[DecklistError(None, "csv-encoding")])
    rows = csvfiles.Reader(text)  # takes off the quote the export put before a formula-like cell
    result = Resolved()
    try:
        header = next(rows, None)
    except csv.Error:
        header = None
    columns = [name.strip().lower() for name in header or []]
    card_column = next((columns.index(name) for name in CARD_COLUMNS if name in columns), None)
    if card_column is None or "count" not in columns:
        return Resolved(errors=[DecklistError(1, "csv-header", {"columns": ", ".join(CARD_COLUMNS)})])
    count_column = columns.index("count")
    index = CardIndex(game, language)
    totals: dict[int, int] = defaultdict(int)
    seen = 0
    try:
        for row in rows:
            line = rows.line_num
            if not any(cell.strip() for cell in row):
                continue
            seen += 1
            if seen > MAX_CSV_ROWS:
                return Resolved(errors=[DecklistError(line, "csv-too-many-rows", {"maximum": MAX_CSV_ROWS})])
            if len(row) <= max(card_column, count_column):
                result.errors.append(DecklistError(line, "csv-short-row", {"columns": len(columns)}))
                continue
            count = _count(row[count_column], line)
            if isinstance(count, DecklistError):
                result.errors.append(count)
                continue
            name = row[card_column].strip()
            if not name:
                result.errors.append(DecklistError(line, "csv-no-card"))
                continue
            found = _lookup(index, line, name, suggest=len(result.errors) < MAX_REPORTED)
            if isinstance(found, DecklistError):
                result.errors.append(found)
            else:
                _add(result, totals, found, line, count)
    except csv.Error as error:
        result.errors.append(DecklistError(rows.line_num, "csv-unreadable", {"reason": str(error)}))
    if not seen and not result.errors:
        result.errors.append(DecklistError(None, "empty"))
    return result


def export_csv(user: SiteUser, game: Game, language: str = "ja") -> str:
    """The user's collection of ``game`` as CSV (``key,number,name,count``), which ``resolve_csv`` reads back."""
    rows = owned_rows(user, game)
    return csvfiles.dumps(
        ["key", "number", "name", "count"],
        ([row.card.key, row.card.number or "", row.card.display_name(language), row.count] for row in rows),
    )


# --- problems in the reader's language


def describe_problem(error: DecklistError, game: str) -> str:
    params = dict(error.params)
    code = error.code
    if code == "owned-too-many":
        return _("A collection holds at most %(maximum)s copies of a card (here %(count)s).") % params
    if code == "owned-negative":
        return _("A collection cannot hold fewer than 0 copies of a card (here %(count)s).") % params
    if code == "count-too-large":  # the parser's bound on one line of a list
        return _("At most %(maximum)s copies on one line of a list (here %(count)s).") % params
    if code == "list-too-long":
        return _("A list may have at most %(maximum)s characters.") % params
    if code == "csv-too-large":
        return _("A CSV file may have at most %(maximum)s kB.") % params
    if code == "csv-too-many-rows":
        return _("A CSV file may have at most %(maximum)s rows.") % params
    if code == "csv-encoding":
        return _("The file is not UTF-8 text.")
    if code == "csv-header":
        return _("The first line must name the columns: count, and one of %(columns)s.") % params
    if code == "csv-short-row":
        return _("This row has fewer columns than the first line names (%(columns)s).") % params
    if code == "csv-no-card":
        return _("This row names no card.")
    if code == "csv-unreadable":
        return _("This row cannot be read as CSV.")
    return describe(error, game)


def problems(errors: list[DecklistError], game: str) -> list[dict[str, Any]]:
    """The problems for a template or a JSON answer: line, code, message, text (with the line), candidates."""
    found = []
    for error in errors:
        message = describe_problem(error, game)
        text = (
            message
            if error.line is None
            else _("Line %(line)s: %(message)s") % {"line": error.line, "message": message}
        )
        found.append(
            {
                "line": error.line,
                "code": error.code,
                "message": message,
                "text": text,
                "candidates": list(error.candidates),
            }
        )
    return found


def listed_text(card: Card, index: CardIndex) -> str:
    """How a list names ``card`` so that it reads back as that card: number and name, else name, else key."""
    from decks.decklist import ListedCard

    listed = ListedCard(1, card.display_name(index.language), card.number)
    found, _how = index.lookup(listed.text)
    return listed.text if [c.pk for c in found] == [card.pk] else card.key


def want_list_text(game: Game, wants: list[tuple[Card, int]], language: str, title: str) -> str:
    """Cards and copies as a list in the decklist format (which a collection's paste and a deck import read)."""
    index = CardIndex(game, language)
    lines = [f"# {title}"]
    lines.extend(f"{count} {listed_text(card, index)}" for card, count in wants)
    return "\n".join(lines) + "\n"


def want_list_csv(needs: list[Any], language: str) -> str:
    """``key,number,name,needed,owned,short``: a row per card with copies short (``selectors.Need``)."""
    return csvfiles.dumps(
        ["key", "number", "name", "needed", "owned", "short"],
        (
            [
                need.card.key,
                need.card.number or "",
                need.card.display_name(language),
                need.needed,
                need.owned,
                need.short,
            ]
            for need in needs
        ),
    )
