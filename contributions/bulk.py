"""A bulk contribution before it is submitted: what a pasted table or an uploaded file would change.

The file is read and checked by the importer (``cards.importing.parse_text``: JSON, CSV or a table pasted
from a spreadsheet, with the CSV's columns); every card is then compared with the database in one query,
and with the change sets still waiting for review. A row corrects and completes a card: what it leaves out
or empty is kept (``merge``). Nothing is written: the view hands the same cards to
``services.submit_change_set``, which checks them again and stores them as one change set, all or nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cards.importing import ImportProblem, check_cards, parse_text
from cards.models import Game
from cards.revisions import Change, diff_values, flatten_state
from cards.services import card_states, record_state

from . import selectors, services

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
    cards: list[dict[str, Any]] = field(default_factory=list)  # each card as submitting would make it

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
    bundle, problems = parse_text(text, "")
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
    merged: list[dict[str, Any]] = []
    for record in bundle.cards:
        before = current.get(record.key)
        after = merge(before, record_state(record))
        changes = diff_values(flatten_state(before), flatten_state(after))
        status = "new" if before is None else ("changed" if changes else "unchanged")
        result.rows.append(PreviewRow(record.key, status, changes, pending.get(record.key, [])))
        merged.append({"key": record.key, **after})
    # A row that leaves the kind to the card's own is checked again against that kind's fields.
    recheck = [card for card, record in zip(merged, bundle.cards, strict=True) if card["kind"] != record.kind]
    if recheck:
        result.problems.extend(check_cards(game.definition, recheck, "")[1])
    result.cards = merged
    return result


def merge(before: dict[str, Any] | None, given: dict[str, Any]) -> dict[str, Any]:
    """A card as a bulk row leaves it: the values the row gives replace the card's, and what the row leaves out
    or empty is kept (a table corrects and completes cards; removing a value is done on the card's form)."""
    if before is None:
        return given
    result = {name: given.get(name) or before.get(name) for name in ("number", "kind", "source")}
    result["fields"] = {**(before.get("fields") or {}), **(given.get("fields") or {})}
    texts = {language: dict(parts) for language, parts in (before.get("texts") or {}).items()}
    for language, parts in (given.get("texts") or {}).items():
        kept = texts.setdefault(language, {part: "" for part in parts})
        kept.update({part: value for part, value in parts.items() if value})
    result["texts"] = dict(sorted(texts.items()))
    translations = {code: dict(by_track) for code, by_track in (before.get("translations") or {}).items()}
    for code, by_track in (given.get("translations") or {}).items():
        translations.setdefault(code, {}).update(by_track)
    if translations:
        result["translations"] = translations
    return result


def card_records(result: Preview) -> list[dict[str, Any]]:
    """The previewed cards in the project's card format, as ``services.submit_change_set`` takes them."""
    return result.cards
