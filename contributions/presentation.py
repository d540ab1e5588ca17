"""Shapes change sets for the pages, in the reader's language."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from cards import selectors as card_selectors
from cards.gamedefs.base import ChoiceListType, ChoiceType
from cards.history_presentation import ChangeView, changes_view, value_name
from cards.importing import NOTE_ROW_START
from cards.models import CardText, Game, TranslationTrack
from cards.presentation import LANGUAGE_NAMES, problem_text
from cards.revisions import diff_values, flatten_state
from cards.search.normalize import fold
from cards.services import card_state, card_states, state_digest
from cardsite import csvfiles

from .bulk import Preview
from .models import ChangeSet


@dataclass
class CardChangeView:
    key: str
    name: str
    is_new: bool
    exists: bool  # the card is in the database now
    changes: list[ChangeView]
    duplicates: list[tuple[str, str]] = field(default_factory=list)  # (key, name) of cards with a name alike


def _name(state: dict[str, Any] | None, language: str) -> str:
    texts = (state or {}).get("texts") or {}
    for code in (language, "ja", "zh-hant", "en", *texts):
        name = (texts.get(code) or {}).get("name")
        if name:
            return name
    return ""


def _names_by_fold(change_set: ChangeSet) -> dict[str, list[tuple[str, str]]]:
    """Every card name of the game by its folded form (the search's folding: scripts, widths, case)."""
    found: dict[str, list[tuple[str, str]]] = {}
    rows = CardText.objects.filter(card__game=change_set.game).exclude(name="").values_list("card__key", "name")
    for key, name in rows:
        found.setdefault(fold(name), []).append((key, name))
    return found


def change_set_cards(change_set: ChangeSet, language: str, existing_keys: set[str]) -> list[CardChangeView]:
    """Each card of a change set: what it changes (before and after, as the card page shows values), and for a
    new card the cards already in the game whose name is the same once folded (a likely duplicate)."""
    definition = change_set.game.definition
    changes = list(change_set.changes.all())
    names = _names_by_fold(change_set) if any(change.base is None for change in changes) else {}
    views = []
    for change in changes:
        view = CardChangeView(
            key=change.key,
            name=_name(change.proposed, language) or change.key,
            is_new=change.base is None,
            exists=change.key in existing_keys,
            changes=changes_view(
                definition, diff_values(flatten_state(change.base), flatten_state(change.proposed)), language
            ),
        )
        if view.is_new:
            proposed = {fold(parts["name"]) for parts in change.proposed.get("texts", {}).values() if parts.get("name")}
            view.duplicates = sorted(
                {match for folded in proposed for match in names.get(folded, []) if match[0] != change.key}
            )
        views.append(view)
    return views


@dataclass
class PreviewRowView:
    key: str
    status: str
    changes: list[ChangeView]
    pending: list[int]
    problems: list[tuple[str, str]]  # (field, message) of this row


@dataclass
class PreviewView:
    rows: list[PreviewRowView]
    problems: list[tuple[str, str, str]]  # (where, field, message) not tied to a card row
    counts: dict[str, int]
    can_submit: bool


_LINE_PLACE = re.compile(r"line (\d+)(?:, column (\d+))?")


def _place_text(where: str) -> str:
    """Where the importer found a problem, in the reader's language: it names places "line 4" or "line 4,
    column 7" (a CSV or JSON file) and "file" (the whole of it); other places ("cards[3]", a field) are the
    file's own names."""
    if where == "file":
        return _("the whole file")
    found = _LINE_PLACE.fullmatch(where)
    if found is None:
        return where
    line, column = found.groups()
    if column is None:
        return _("line %(number)s") % {"number": line}
    return _("line %(line)s, column %(column)s") % {"line": line, "column": column}


def sheet_column(what: str) -> str:
    """The column of the bulk sheet that holds a card value: "fields.cost" → field:cost, "texts.ja.name" →
    name:ja, "texts" (a name in some language) → name:…; the others are their own column."""
    head, _dot, rest = what.partition(".")
    if head == "fields" and rest:
        return f"field:{rest}"
    if head == "texts":
        language, _dot, part = rest.partition(".")
        return f"{part or 'name'}:{language or '…'}"
    return what


def column_text(definition: Any, what: str, language: str) -> str:
    """A value's name in the reader's language with the column that holds it: "コスト (field:cost)"."""
    named = value_name(definition, what, language)
    column = sheet_column(what)
    return named if named == column else f"{named} ({column})"


def preview_view(game: Game, result: Preview, language: str) -> PreviewView:
    """A bulk preview as the page shows it: per card its state, changes, pending change sets and problems."""
    from cards.presentation import problem_text

    definition = game.definition
    by_key: dict[str, list[tuple[str, str]]] = {}
    loose: list[tuple[str, str, str]] = []
    keys = {row.key for row in result.rows}
    for problem in result.problems:
        message = problem_text(problem.problem) if problem.problem else problem.message
        # The importer names a card's problems "line 4 (KEY)" or "cards[3] (KEY)".
        place, _space, named = problem.where.partition(" (")
        key = named[:-1] if named.endswith(")") else ""
        if key in keys:
            place = _place_text(place)
            if problem.field:
                place = f"{place} · {column_text(definition, problem.field, language)}"
            by_key.setdefault(key, []).append((place, message))
        else:
            column = column_text(definition, problem.field, language) if problem.field else ""
            loose.append((_place_text(problem.where), column, message))
    rows = [
        PreviewRowView(
            key=row.key,
            status=row.status,
            changes=changes_view(definition, row.changes, language),
            pending=row.pending,
            problems=by_key.get(row.key, []),
        )
        for row in result.rows
    ]
    return PreviewView(rows=rows, problems=loose, counts=result.counts, can_submit=result.can_submit)


@dataclass
class SeedConflictView:
    """A seed conflict as the review queue shows it: each value where the card now and the seed differ."""

    id: int
    key: str
    name: str
    game: Game
    changes: list[ChangeView]  # before: the card now; after: what the seed says
    seen: str  # state_digest of the card now, and of the seed's card: a decision on either, changed since, is refused
    seed_seen: str


def seed_conflict_view(conflict: Any, language: str) -> SeedConflictView:
    card = conflict.card
    current = card_state(card)
    return SeedConflictView(
        id=conflict.pk,
        key=card.key,
        name=_name(current, language) or card.key,
        game=card.game,
        changes=changes_view(
            card.game.definition, diff_values(flatten_state(current), flatten_state(conflict.seed)), language
        ),
        seen=state_digest(current),
        seed_seen=state_digest(conflict.seed),
    )


# --- the bulk sheet ---------------------------------------------------------------------------------


SHEET_TEXT_PARTS = ("name", "text")


def _sheet_cell(spec: Any, value: Any, language: str) -> Any:
    """A stored value as the sheet shows it: a choice by its name in the reader's language (the sheet reads it
    back, ``ChoiceType.stored_value``), a list joined by |, a yes/no in the words the importer reads."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if spec is not None and isinstance(spec.type, ChoiceType | ChoiceListType):
        values = value if isinstance(value, list) else [value]
        return "|".join(spec.type.value_label(item, language) for item in values)
    if isinstance(value, list):
        return "|".join(str(item) for item in value)
    return value


def bulk_sheet(game: Game, language: str) -> str:
    """The game's bulk sheet as CSV (``cardsite.csvfiles``): its columns, a note row saying in the reader's
    language what each column takes (the importer skips it), then every card of the game as it is now, to be
    corrected in place; a new card is a new row."""
    definition = game.definition
    texts = [(part, code) for code in definition.text_languages for part in SHEET_TEXT_PARTS]
    header = [
        "game",
        "key",
        "number",
        "kind",
        *(f"field:{spec.name}" for spec in definition.fields),
        *(f"{part}:{code}" for part, code in texts),
        "source",
    ]
    kinds = " / ".join(kind.label(language) for kind in definition.kinds)
    note = [
        NOTE_ROW_START + " " + _("This row explains the columns and is skipped; one card per row below."),
        _("The card's key: its printed number, or its original name. Leave it empty to name a card by its number."),
        _("The printed number, if the card has one."),
        _("Kind: %(kinds)s") % {"kinds": kinds},
        *(
            _("%(field)s (only on %(kinds)s): %(expected)s")
            % {
                "field": spec.label(language),
                "kinds": " / ".join(kind.label(language) for kind in definition.kinds if spec.name in kind.fields),
                "expected": problem_text(spec.type.expectation()),
            }
            for spec in definition.fields
        ),
        *(value_name(definition, f"texts.{code}.{part}", language) for part, code in texts),
        _("Where the values come from (a book, a card, a web page)."),
    ]
    keys = card_selectors.card_keys(game)
    states = card_states(game, keys)
    rows = []
    for key in keys:
        state = states.get(key)
        if state is None:
            continue
        kind = definition.kind(state["kind"]) if state["kind"] else None
        fields = state["fields"] or {}
        card_texts = state["texts"] or {}
        rows.append(
            [
                game.slug,
                key,
                state["number"] or "",
                kind.label(language) if kind else (state["kind"] or ""),
                *(_sheet_cell(spec, fields.get(spec.name), language) for spec in definition.fields),
                *((card_texts.get(code) or {}).get(part) or "" for part, code in texts),
                state["source"] or "",
            ]
        )
    return "\ufeff" + csvfiles.dumps(header, [note, *rows])


@dataclass
class NewTrackView:
    """A translation track a change set makes, as its page names it: its language and status in words."""

    name: str
    language: str
    language_name: str
    status_label: str
    credits: str


def new_tracks_view(tracks: list[dict[str, Any]]) -> list[NewTrackView]:
    """The tracks a change set makes (``ChangeSet.tracks``) with their language and status in the reader's words
    (a stored value nobody labels is shown as stored)."""
    statuses = dict(TranslationTrack.Status.choices)
    return [
        NewTrackView(
            name=str(track.get("name", "")),
            language=str(track.get("language", "")),
            language_name=str(LANGUAGE_NAMES.get(track.get("language", ""), track.get("language", ""))),
            status_label=str(statuses.get(track.get("status") or TranslationTrack.Status.DRAFT, track.get("status"))),
            credits=str(track.get("credits", "")),
        )
        for track in tracks
    ]
