"""A card's history in the reader's language: each revision with where it came from, and each changed value
labelled and shown as the card page shows it (also the changes a contribution proposes)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy

from .citations import cite
from .gamedefs.base import GameDefinition
from .models import Card
from .presentation import LANGUAGE_NAMES, format_value, revision_source
from .revisions import CardRevision, Change, translation_place


@dataclass
class ChangeView:
    label: str
    before: str | None  # None: not there
    after: str | None
    language: str = ""  # the language of a text's values ("" for the card's values)


@dataclass
class RevisionView:
    id: int
    date: Any
    user: str
    source: str
    changes: list[ChangeView]


def history_view(card: Card, revisions: list[CardRevision], language: str) -> list[RevisionView]:
    """A card's revisions (newest first) as its history page shows them: each change labelled in the reader's
    language, with its values as the card page shows them."""
    return [
        RevisionView(
            id=revision.id,
            date=revision.date,
            user=revision.user,
            source=revision_source(revision),
            changes=changes_view(card.game.definition, revision.changes, language),
        )
        for revision in revisions
    ]


def changes_view(definition: GameDefinition, changes: Iterable[Change], language: str) -> list[ChangeView]:
    """Changed values of a card (a revision, a proposed change), labelled and shown as the card page shows them."""
    return [
        ChangeView(
            label=value_name(definition, change.what, language),
            before=_change_value(definition, change.what, change.before, language),
            after=_change_value(definition, change.what, change.after, language),
            language=change.what.split(".")[1] if change.what.startswith(("texts.", "translations.")) else "",
        )
        for change in changes
    ]


_TEXT_PART_LABELS = {
    "name": pgettext_lazy("part of a card text", "name"),
    "text": pgettext_lazy("part of a card text", "rules text"),
    "notes": pgettext_lazy("part of a card text", "translator's notes"),
    "source": pgettext_lazy("part of a card text", "source"),
}


def value_name(definition: GameDefinition, what: str, language: str) -> str:
    """A card value's name in the reader's language: "fields.attack" → 攻撃力, "texts.ja.name" → 日本語: 名前."""
    head, _dot, rest = what.partition(".")
    if head == "fields":
        spec = definition.field(rest)
        return spec.label(language) if spec else rest
    if head == "texts":
        code, _dot, part = rest.partition(".")
        if not code:  # the texts as a whole (a card needs a name in one language at least)
            return str(_TEXT_PART_LABELS["name"])
        if not part:
            return str(LANGUAGE_NAMES.get(code, code))
        return f"{LANGUAGE_NAMES.get(code, code)}: {_TEXT_PART_LABELS.get(part, part)}"
    if head == "translations":
        code, track, part = translation_place(what)
        return _("%(language)s (%(track)s): %(part)s") % {
            "language": LANGUAGE_NAMES.get(code, code),
            "track": cite(track, definition, language),
            "part": _TEXT_PART_LABELS.get(part, part),
        }
    return {"number": _("Number"), "kind": _("Kind"), "source": _("Values from")}.get(head, what)


def _change_value(definition: GameDefinition, what: str, value: Any, language: str) -> str | None:
    if value is None:
        return None
    head, _dot, rest = what.partition(".")
    if head == "fields":
        return format_value(definition.field(rest), value, language)
    if head == "kind":
        kind = definition.kind(value)
        return kind.label(language) if kind else str(value)
    if what == "source" or (head in ("texts", "translations") and what.endswith(".source")):
        return cite(str(value), definition, language)
    return str(value)
