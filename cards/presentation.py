"""Shapes cards, rules and glossaries for the templates, in the reader's language."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.utils.html import escape, format_html
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, pgettext_lazy
from django.utils.translation import gettext as _

from .citations import cite
from .gamedefs.base import ChoiceListType, FieldSpec
from .glossing import Segment, gloss
from .models import LANGUAGE_CHOICES, Card, Game, RevisionSource, Term
from .revisions import TEXT_PARTS, CardRevision

# The language a text is written in, named in the reader's language (英語 on a Japanese page); the
# language switcher and the glossary's column heads name each language in itself instead.
LANGUAGE_NAMES = {
    "ja": pgettext_lazy("language of a text", "Japanese"),
    "zh-hant": pgettext_lazy("language of a text", "Traditional Chinese"),
    "en": pgettext_lazy("language of a text", "English"),
}


@dataclass
class KindCount:
    slug: str
    label: str
    count: int


def kind_counts(game: Game, language: str) -> list[KindCount]:
    counts: dict[str | None, int] = {}
    for kind in game.cards.values_list("kind", flat=True):
        counts[kind] = counts.get(kind, 0) + 1
    rows = [KindCount(kind.slug, kind.label(language), counts.get(kind.slug, 0)) for kind in game.definition.kinds]
    if counts.get(None):
        rows.append(KindCount("unknown", _("unknown kind"), counts[None]))
    return rows


def kind_label(game: Game, kind_slug: str | None, language: str) -> str:
    kind = game.definition.kind(kind_slug) if kind_slug else None
    return kind.label(language) if kind else _("unknown kind")


@dataclass
class RuleView:
    key: str
    texts: list[dict[str, Any]]


def rule_sections(game: Game, language: str) -> list[RuleView]:
    from .selectors import rule_sections as select_sections

    views = []
    for section in select_sections(game):
        texts = sorted(section.texts.all(), key=lambda text: text.language != language)
        views.append(
            RuleView(
                key=section.key,
                texts=[
                    {
                        "language": text.language,
                        "language_name": LANGUAGE_NAMES.get(text.language, text.language),
                        "title": text.title,
                        "lines": text.body.split("\n"),
                        "source": cite(text.source, game.definition, language),
                    }
                    for text in texts
                ],
            )
        )
    return views


def glossary_rows(game: Game) -> list[dict[str, Any]]:
    from .selectors import glossary

    rows = []
    for term in glossary(game):
        texts = {text.language: text for text in term.texts.all()}
        rows.append({"term": term, "texts": [texts.get(code) for code, _name in LANGUAGE_CHOICES]})
    return rows


def format_value(spec: FieldSpec | None, value: Any, language: str | None = None) -> str:
    """A known field value as the pages print it: a choice by its label in ``language`` (the active language
    unless given), lists joined, booleans as yes/no."""
    language = language or get_language() or "en"
    if (spec is not None and isinstance(spec.type, ChoiceListType)) or isinstance(value, list):
        return " / ".join(spec.type.value_label(item, language) if spec else str(item) for item in value)
    if spec is not None and not isinstance(value, bool):
        return spec.type.value_label(value, language)
    if value is True:
        return _("yes")
    if value is False:
        return _("no")
    return str(value)


@dataclass
class FieldView:
    name: str
    label: str
    value: str | None  # None: unknown
    unit: str
    invalid: str | None = None  # a stored value its declaration refuses, as stored (shown marked, never used)
    problem: str = ""
    origin: str = ""  # where the value came from: the source of the revision that last set it


@dataclass
class TextView:
    language: str
    language_name: str
    name: str
    lines: list[list[Segment]]
    notes: str
    source: str
    is_original: bool
    origin: str = ""  # the source of the revision that last changed this text
    # A translation that gives no name shows the original's, marked as not translated (the seed's Chinese card
    # table heads each text with the Japanese name): the name, and its language.
    untranslated_name: str = ""
    untranslated_language: str = ""


@dataclass
class CardView:
    kind_label: str
    invalid_kind: str | None = None
    fields: list[FieldView] = field(default_factory=list)
    texts: list[TextView] = field(default_factory=list)
    missing_languages: list[str] = field(default_factory=list)
    source: str = ""  # where the values came from, in the reader's words (``cards.citations``)


def _glosses_by_language(terms: list[Term]) -> dict[str, dict[str, str]]:
    """For each language, term name in that language -> its names in the other languages."""
    glosses: dict[str, dict[str, str]] = {code: {} for code, _name in LANGUAGE_CHOICES}
    for term in terms:
        names = {text.language: text.name for text in term.texts.all() if text.name}
        for language, surface in names.items():
            others = [names[code] for code, _name in LANGUAGE_CHOICES if code != language and code in names]
            others = [other for other in others if other != surface]
            if others:
                glosses[language][surface] = " · ".join(others)
    return glosses


def _stored(value: Any) -> str:
    """A stored value as it is, for showing one that breaks its declaration (never an exception)."""
    text = value if isinstance(value, str) else repr(value)
    return text if len(text) <= 80 else text[:79] + "…"


def card_view(card: Card, language: str, terms, origins: Mapping[str, CardRevision] | None = None) -> CardView:
    """What the card page shows; ``origins`` (``cards.revisions.value_origins``) says where each value came from."""
    origins = origins or {}
    definition = card.game.definition
    checked = card.checked
    invalid = checked.invalid_fields()
    stored = card.fields if isinstance(card.fields, dict) else {}
    view = CardView(
        kind_label=kind_label(card.game, checked.kind, language),
        invalid_kind=_stored(card.kind) if "kind" in invalid else None,
        source=cite(card.source, definition, language),
    )
    shown = set()
    for spec in definition.fields_for_kind(checked.kind):
        value = checked.fields.get(spec.name)
        view.fields.append(
            FieldView(
                name=spec.name,
                label=spec.label(language),
                value=None if value is None else format_value(spec, value),
                unit=spec.unit_label(language),
                invalid=_stored(stored.get(spec.name)) if spec.name in invalid else None,
                problem=invalid.get(spec.name, ""),
                origin=_origin(origins.get(f"fields.{spec.name}")),
            )
        )
        shown.add(spec.name)
    for name, problem in invalid.items():
        if name not in shown and name != "kind":
            spec = definition.field(name)
            view.fields.append(
                FieldView(
                    name=name,
                    label=spec.label(language) if spec else name,
                    value=None,
                    unit="",
                    invalid=_stored(stored.get(name, card.fields)),
                    problem=problem,
                )
            )
    glosses = _glosses_by_language(list(terms))
    original = definition.original_language
    texts = {text.language: text for text in card.texts.all()}
    order = [original] + [code for code, _name in LANGUAGE_CHOICES if code != original]
    original_name = texts[original].name if original in texts else ""
    for code in order:
        text = texts.get(code)
        if text is None:
            view.missing_languages.append(LANGUAGE_NAMES[code])
            continue
        untranslated = original_name if not text.name and code != original else ""
        view.texts.append(
            TextView(
                language=code,
                language_name=LANGUAGE_NAMES[code],
                name=text.name,
                lines=[gloss(line, glosses.get(code, {})) for line in text.text.split("\n")] if text.text else [],
                notes=text.notes,
                source=cite(text.source, definition, language),
                is_original=code == original,
                origin=_origin(
                    max(
                        (origins[what] for part in TEXT_PARTS if (what := f"texts.{code}.{part}") in origins),
                        key=lambda revision: revision.date,
                        default=None,
                    )
                ),
                untranslated_name=untranslated,
                untranslated_language=original if untranslated else "",
            )
        )
    return view


def _origin(revision: CardRevision | None) -> str:
    return revision_source(revision) if revision is not None else ""


def revision_source(revision: CardRevision) -> str:
    """Where a revision came from, in the reader's words: "seed data (suikoden.json)", "admin, by editor".

    Safe HTML: the file or user name is marked as having no language (``lang="zxx"``), being a name, not a
    word of the page.
    """
    label = str(RevisionSource.Kind(revision.kind).label) if revision.kind in RevisionSource.Kind.values else ""
    label = label or _("not recorded")
    if revision.kind == RevisionSource.Kind.ADMIN and revision.user:
        template, params = _("%(source)s, by %(user)s"), {"user": _name(revision.user)}
    elif revision.detail:
        template, params = _("%(source)s (%(detail)s)"), {"detail": _name(revision.detail)}
    else:
        return escape(label)
    return mark_safe(template % {"source": escape(label), **params})


def _name(name: str) -> str:
    return format_html('<span class="name" lang="zxx">{}</span>', name)


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
            changes=[
                ChangeView(
                    label=_change_label(card, change.what, language),
                    before=_change_value(card, change.what, change.before, language),
                    after=_change_value(card, change.what, change.after, language),
                    language=change.what.split(".")[1] if change.what.startswith("texts.") else "",
                )
                for change in revision.changes
            ],
        )
        for revision in revisions
    ]


_TEXT_PART_LABELS = {
    "name": pgettext_lazy("part of a card text", "name"),
    "text": pgettext_lazy("part of a card text", "rules text"),
    "notes": pgettext_lazy("part of a card text", "translator's notes"),
    "source": pgettext_lazy("part of a card text", "source"),
}


def _change_label(card: Card, what: str, language: str) -> str:
    head, _dot, rest = what.partition(".")
    if head == "fields":
        spec = card.game.definition.field(rest)
        return spec.label(language) if spec else rest
    if head == "texts":
        code, _dot, part = rest.partition(".")
        return f"{LANGUAGE_NAMES.get(code, code)}: {_TEXT_PART_LABELS.get(part, part)}"
    return {"number": _("Number"), "kind": _("Kind"), "source": _("Values from")}.get(head, what)


def _change_value(card: Card, what: str, value: Any, language: str) -> str | None:
    if value is None:
        return None
    head, _dot, rest = what.partition(".")
    if head == "fields":
        return format_value(card.game.definition.field(rest), value, language)
    if head == "kind":
        return kind_label(card.game, value, language)
    if what == "source" or (head == "texts" and what.endswith(".source")):
        return cite(str(value), card.game.definition, language)
    return str(value)


def card_row(card: Card, language: str) -> dict[str, Any]:
    texts = {text.language: text for text in card.texts.all()}
    return {
        "card": card,
        "name": card.display_name(language),
        "names": [(code, texts[code].name) for code, _n in LANGUAGE_CHOICES if code in texts and texts[code].name],
        "kind_label": kind_label(card.game, card.checked.kind, language),
        "translated": "zh-hant" in texts,
    }


@dataclass
class QueryErrorView:
    message: str
    before: str
    at: str
    after: str
    position: int


def query_error(query: str, message: str, position: int | None) -> QueryErrorView:
    """The message and the query split around the place it points at."""
    position = max(0, min(position or 0, len(query)))
    at = query[position : position + 1] or " "
    return QueryErrorView(message, query[:position], at, query[position + 1 :], position)


def search_row(card: Card, language: str, terms: list[str]) -> dict[str, Any]:
    from .search.highlight import highlight

    row = card_row(card, language)
    texts = {text.language: text for text in card.texts.all()}
    snippets = []
    for code, _name in LANGUAGE_CHOICES:
        text = texts.get(code)
        if text is None:
            continue
        for part in (text.name, text.text):
            pieces = highlight(part, terms)
            if any(piece.matched for piece in pieces) and part is text.text:
                snippets.append({"language": code, "pieces": pieces})
    row["name_pieces"] = highlight(row["name"], terms)
    row["snippets"] = snippets[:2]
    return row


def sort_choices() -> list[tuple[str, str]]:
    return [("number", _("number")), ("name", _("name")), ("kind", _("kind")), ("game", _("game"))]
