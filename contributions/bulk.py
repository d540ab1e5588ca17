"""A bulk contribution before it is submitted: what a pasted table or an uploaded file would change.

The file is read and checked by the importer (``cards.importing.parse_text``: JSON, CSV or a table pasted
from a spreadsheet, with the CSV's columns); every card is then compared with the database in one query,
and with the change sets still waiting for review. A row changes what it names, as an API record does
(``merging.merge_record``): what it leaves out is kept, and so is what a table's empty cell leaves (a table
cannot say null); a JSON file's ``null`` removes a value. Nothing is written: the view hands the same rows to
``services.submit_change_set`` (``partial``), which merges them with the cards as they are then, checks them
again and stores them as one change set, all or nothing.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field
from typing import Any

from cards.importing import CardRecord, ImportProblem, check_cards, parse_text
from cards.models import Game
from cards.revisions import Change, diff_values, flatten_state
from cards.selectors import keys_by_number
from cards.services import card_states, record_state
from cardsite import jsonlimits

from . import selectors, services
from .merging import merge_record, record_key

MAX_TEXT_CHARACTERS = 2_000_000


@dataclass
class PreviewRow:
    key: str
    status: str  # "new", "changed" or "unchanged"
    changes: tuple[Change, ...]
    pending: list[int]  # change sets waiting for review that touch the same card


@dataclass
class Preview:
    rows: list[PreviewRow] = field(default_factory=list)
    problems: list[ImportProblem] = field(default_factory=list)
    cards: list[dict[str, Any]] = field(default_factory=list)  # what each row names, submitted as it is

    @property
    def counts(self) -> dict[str, int]:
        counted = {"new": 0, "changed": 0, "unchanged": 0}
        for row in self.rows:
            counted[row.status] += 1
        return counted

    @property
    def can_submit(self) -> bool:
        return not self.problems and any(row.status != "unchanged" for row in self.rows)


def _refusal(where: str, field_name: str, code: str, **params: Any) -> ImportProblem:
    from cards.gamedefs.messages import Problem

    problem = Problem(code, params)
    return ImportProblem("", where, field_name, problem.english(), problem)


def preview(game: Game, text: str) -> Preview:
    """What ``text`` would change in ``game``'s cards, row by row, with every problem by row and field."""
    result = Preview()
    if len(text) > MAX_TEXT_CHARACTERS:
        result.problems.append(_refusal("file", "", "too_long", limit=MAX_TEXT_CHARACTERS))
        return result
    key_of_number = keys_by_number(game)
    bundle, problems = parse_text(text, "", key_of_number)
    result.problems.extend(problems)
    if bundle is None:
        return result
    if bundle.game != game.slug:
        result.problems.append(_refusal("file", "game", "one_game", game=game.definition.names))
        return result
    if bundle.terms or bundle.rules:
        result.problems.append(_refusal("file", "", "cards_only"))
    if len(bundle.cards) > services.MAX_CARDS_PER_CHANGE_SET:
        result.problems.append(_refusal("file", "", "too_many_rows", limit=services.MAX_CARDS_PER_CHANGE_SET))
        return result
    keys = [record.key for record in bundle.cards]
    current = card_states(game, keys)
    pending = selectors.pending_changes_of_cards(game, keys)
    places, given = _rows(text, key_of_number)
    # A row of a card that exists changes what it names (merging.merge_record): it needs no name of its own,
    # and the card it makes is checked whole below.
    result.problems = [
        problem
        for problem in result.problems
        if not (getattr(problem.problem, "code", None) == "needs_name" and _key_of(problem) in current)
    ]
    named = [given.get(record.key, _named(record)) for record in bundle.cards]
    merged = [merge_record(current.get(record.key), row) for record, row in zip(bundle.cards, named, strict=True)]
    existing = [card for record, card in zip(bundle.cards, merged, strict=True) if record.key in current]
    checked, merged_problems = check_cards(game.definition, existing, "") if existing else ([], [])
    after_by_key = {record.key: record_state(record) for record in checked}
    reported = {(_key_of(problem), problem.field, problem.message) for problem in result.problems}
    for problem in merged_problems:
        key = _key_of(problem)
        if (key, problem.field, problem.message) not in reported:
            where = f"{places.get(key, 'file')} ({key})"
            result.problems.append(ImportProblem("", where, problem.field, problem.message, problem.problem))
    for record, row in zip(bundle.cards, named, strict=True):
        before = current.get(record.key)
        after = after_by_key.get(record.key, record_state(record)) if before is not None else record_state(record)
        changes = diff_values(flatten_state(before), flatten_state(after))
        status = "new" if before is None else ("changed" if changes else "unchanged")
        result.rows.append(PreviewRow(record.key, status, changes, pending.get(record.key, [])))
        result.cards.append(row)
    return result


def _key_of(problem: ImportProblem) -> str:
    """The card key a problem names ("line 4 (KEY)", "cards[3] (KEY)"); "" for a problem of the whole file."""
    _place, _space, named = problem.where.partition(" (")
    return named[:-1] if named.endswith(")") else ""


def _named(record: CardRecord) -> dict[str, Any]:
    """What a table's row names: its cells that are not empty (a table cannot say null, so it removes nothing)."""
    row: dict[str, Any] = {"key": record.key}
    for name in ("number", "kind", "source"):
        if getattr(record, name):
            row[name] = getattr(record, name)
    for name in ("fields", "texts", "translations"):
        if getattr(record, name):
            row[name] = getattr(record, name)
    return row


def _rows(text: str, key_of_number: dict[str, str]) -> tuple[dict[str, str], dict[str, Any]]:
    """Where each card's row is ("cards[3]", "line 4") and, for a JSON file, its record as written (so that its
    nulls remove values), by key. The text has been read by ``parse_text``: it reads again without surprise."""
    text = text.lstrip("\ufeff")
    places: dict[str, str] = {}
    given: dict[str, Any] = {}
    if text.lstrip().startswith("{"):
        cards = jsonlimits.loads(text).get("cards")
        for index, raw in enumerate(cards if isinstance(cards, list) else []):
            if (key := record_key(raw)) is not None:
                places.setdefault(key, f"cards[{index}]")
                given.setdefault(key, raw)
        return places, given
    header = text.split("\n", 1)[0]
    reader = csv.DictReader(io.StringIO(text), delimiter="\t" if "\t" in header else ",")
    for row in reader:
        key = record_key(row) or key_of_number.get((row.get("number") or "").strip())
        if key is not None:
            places.setdefault(key, f"line {reader.line_num}")
    return places, given


def card_records(result: Preview) -> list[dict[str, Any]]:
    """What the previewed rows name, in the project's card format, as ``services.submit_change_set`` takes them
    with ``partial=True``."""
    return result.cards
