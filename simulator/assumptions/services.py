"""Writes of a deck's assumed values (``models.DeckAssumption``): set one or many, fill a value of every card
that lacks it, add assumed cards of a kind the database lists too few of, drop. Only the deck's owner writes;
every value is checked as the game's field type checks a contribution's, and a batch is written whole or not at
all. Nothing here writes card data."""

from __future__ import annotations

import csv
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from cards.gamedefs.base import FieldValueError
from cards.presentation import field_label, problem_text
from cardsite import pagecache
from cardsite.csvfiles import Reader
from cardsite.db import retry_on_conflict
from cardsite.errors import AppError, FieldProblems
from cardsite.text import name_problem, text_problem
from decks.models import Deck

from ..models import DeckAssumption
from .overlay import assumed_card_key, assumed_card_kind

KIND_FIELD = "kind"
MAX_ASSUMED_CARDS = 50  # assumed cards of one kind a deck may add at once
MAX_ROWS = 2_000  # values in one batch (a sheet's rows)


class AssumptionError(AppError):
    pass


class NotOwner(AssumptionError):
    """Someone who may see the deck, but not its owner, tried to change its assumptions."""

    code = "not_owner"
    status = 403


@dataclass(frozen=True)
class Row:
    """One value to assume, as typed: ``where`` names it in an error (a sheet's row, a form's field)."""

    key: str
    field: str
    raw: Any
    where: str
    # Where a problem of the card key or the value's name is named (the API's ``assumptions[2].field``); empty:
    # at ``where``, as a sheet's row or a form's field names every problem of the row.
    key_where: str = ""
    field_where: str = ""


def _own(user: Any, deck: Deck) -> None:
    if not getattr(user, "is_authenticated", False) or deck.owner_id != user.pk:
        raise NotOwner(_("Only the deck's owner may change its assumed values."))


def clean_value(deck: Deck, key: str, name: str, raw: Any) -> Any:
    """The value as stored, checked as the game's field type checks a card's; raises ``ValueError`` with a message
    in the reader's language."""
    definition = deck.game.definition
    if name == KIND_FIELD:
        kind = definition.kind_named(str(raw)) if isinstance(raw, str) else None
        if kind is None:
            raise ValueError(_("%(value)s is not a kind of this game.") % {"value": str(raw)[:60]})
        return kind.slug
    spec = definition.field(name)
    if spec is None:
        raise ValueError(_("%(field)s is not a value of this game's cards.") % {"field": name[:40]})
    if isinstance(raw, str) and not raw.strip():
        raise ValueError(_("The value is empty."))
    try:
        return spec.type.clean(raw)
    except FieldValueError as error:
        raise ValueError(problem_text(error.problem)) from error


def set_values(user: Any, deck: Deck, rows: Sequence[Row]) -> int:
    """Assume every value of ``rows`` (replacing the deck's earlier assumption of the same value). All or nothing:
    a row that does not check refuses the whole batch, each problem named by its row's ``where``."""
    _own(user, deck)
    if len(rows) > MAX_ROWS:
        raise AssumptionError(_("At most %(count)s values at once.") % {"count": MAX_ROWS}, code="too_many")
    problems: dict[str, list[str]] = {}
    cleaned: dict[tuple[str, str], Any] = {}  # the same value twice in one batch: the later row counts
    for row in rows:
        if not row.key or len(row.key) > 100:
            problems.setdefault(row.key_where or row.where, []).append(
                _("A card key of at most 100 characters is needed.")
            )
            continue
        if (problem := name_problem(row.key, _("card key"))) is not None:
            problems.setdefault(row.key_where or row.where, []).append(str(problem))
            continue
        if not row.field or (row.field != KIND_FIELD and deck.game.definition.field(row.field) is None):
            unknown = _("%(field)s is not a value of this game's cards.") % {"field": row.field[:40] or "—"}
            problems.setdefault(row.field_where or row.where, []).append(f"{row.key} · {unknown}")
            continue
        if isinstance(row.raw, str) and (problem := text_problem(row.raw, _("value"))) is not None:
            problems.setdefault(row.where, []).append(str(problem))
            continue
        try:
            cleaned[(row.key, row.field)] = clean_value(deck, row.key, row.field, row.raw)
        except ValueError as error:
            label = field_label(deck.game, row.field, get_language() or "ja")  # the reader's language
            problems.setdefault(row.where, []).append(f"{row.key} · {label}: {error}")
    if problems:
        raise FieldProblems(problems, code="invalid_assumption")
    _upsert(user, deck, cleaned)
    return len(cleaned)


@retry_on_conflict
def _upsert(user: Any, deck: Deck, values: dict[tuple[str, str], Any]) -> None:
    """One ``INSERT … ON CONFLICT (deck, key, field) DO UPDATE`` per batch, keys in order: two requests setting
    the same value at once both succeed (the later one's value stays), never a duplicate or a 500."""
    DeckAssumption.objects.bulk_create(
        [
            DeckAssumption(deck=deck, key=key, field=name, value=value, author=user)
            for (key, name), value in sorted(values.items())
        ],
        update_conflicts=True,
        unique_fields=["deck", "key", "field"],
        update_fields=["value", "author", "updated_at"],
        batch_size=500,
    )
    pagecache.bump("decks")  # the deck's page lists them, for readers the page cache serves too


def copy_assumptions(source: Deck, copy: Deck) -> int:
    """A copy of ``source`` takes its assumed values, as its owner's (``decks.extensions.register_deck_copied``:
    called inside the copy's transaction, after whoever copies was allowed to see ``source``). Returns how many."""
    rows = [
        DeckAssumption(deck=copy, key=row.key, field=row.field, value=row.value, author_id=copy.owner_id)
        for row in DeckAssumption.objects.filter(deck=source).order_by("key", "field")
    ]
    DeckAssumption.objects.bulk_create(rows)
    return len(rows)


def add_assumed_cards(user: Any, deck: Deck, kind: str, count: int) -> list[str]:
    """Add ``count`` assumed cards of ``kind`` (numbered after the deck's earlier ones); their values are then
    missing like any card's, to be assumed one by one or in bulk. Returns their keys."""
    _own(user, deck)
    if deck.game.definition.kind(kind) is None:
        raise AssumptionError(_("%(value)s is not a kind of this game.") % {"value": kind[:60]}, code="invalid")
    if not 1 <= count <= MAX_ASSUMED_CARDS:
        raise AssumptionError(
            _("Add between 1 and %(count)s assumed cards.") % {"count": MAX_ASSUMED_CARDS}, code="invalid"
        )
    with transaction.atomic():
        taken = {
            key
            for key in DeckAssumption.objects.filter(deck=deck).values_list("key", flat=True)
            if assumed_card_kind(key) == kind
        }
        keys: list[str] = []
        number = 1
        while len(keys) < count:
            key = assumed_card_key(kind, number)
            if key not in taken:
                keys.append(key)
                DeckAssumption.objects.create(deck=deck, key=key, field=KIND_FIELD, value=kind, author=user)
            number += 1
        pagecache.bump("decks")
    return keys


def drop(user: Any, deck: Deck, key: str, name: str) -> bool:
    """Drop one assumption (an assumed card's kind: the card and all its values). True if there was one."""
    _own(user, deck)
    found = DeckAssumption.objects.filter(deck=deck, key=key)
    if not (name == KIND_FIELD and assumed_card_kind(key) is not None):
        found = found.filter(field=name)
    deleted, _counts = found.delete()
    if deleted:
        pagecache.bump("decks")
    return deleted > 0


def fill_every(user: Any, deck: Deck, targets: Sequence[tuple[str, str]], raw: Any, where: str) -> int:
    """Assume ``raw`` for every (card key, field) of ``targets`` (the missing values a bulk fill chose)."""
    return set_values(user, deck, [Row(key, name, raw, where) for key, name in targets])


SHEET_HEADER = ("key", "name", "field", "value")


def rows_from_sheet(text: str) -> list[Row]:
    """The values of a sheet (``selectors.sheet``'s columns): a row whose value is empty is left alone. Each row
    is named by its line and the value's column, as a spreadsheet shows them."""
    reader = Reader(text)
    try:
        header = [cell.strip() for cell in next(reader)]
    except StopIteration:
        raise AssumptionError(_("The sheet is empty."), code="empty_sheet") from None
    except csv.Error as error:
        raise AssumptionError(_("The sheet is not CSV: %(detail)s") % {"detail": error}, code="bad_sheet") from None
    missing = [name for name in ("key", "field", "value") if name not in header]
    if missing:
        raise AssumptionError(
            _("The sheet's first row lacks the columns %(columns)s.") % {"columns": ", ".join(missing)},
            code="bad_sheet",
        )
    at = {name: header.index(name) for name in ("key", "field", "value")}
    column = _column_letter(at["value"])
    rows: list[Row] = []
    try:
        for cells in reader:
            if len(rows) > MAX_ROWS:
                raise AssumptionError(_("At most %(count)s values at once.") % {"count": MAX_ROWS}, code="too_many")
            padded = cells + [""] * (len(header) - len(cells))
            value = padded[at["value"]].strip()
            if not value:
                continue
            where = _("row %(row)s, column %(column)s (value)") % {"row": reader.line_num, "column": column}
            rows.append(Row(padded[at["key"]].strip(), padded[at["field"]].strip(), value, where))
    except csv.Error as error:
        raise AssumptionError(
            _("Row %(row)s is not CSV: %(detail)s") % {"row": reader.line_num, "detail": error}, code="bad_sheet"
        ) from None
    return rows


def _column_letter(index: int) -> str:
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters
