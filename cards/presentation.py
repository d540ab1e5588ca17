"""Shapes cards, rules and glossaries for the templates, in the reader's language."""

from __future__ import annotations

import html
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

from django.urls import reverse
from django.utils.formats import date_format
from django.utils.html import escape, format_html, strip_tags
from django.utils.safestring import mark_safe
from django.utils.timezone import localtime
from django.utils.translation import get_language, pgettext_lazy
from django.utils.translation import gettext as _

from cardsite.labels import SIMPLIFIED, TRADITIONAL, ShownName, simplified, stored_language

from .citations import cite
from .gamedefs.base import ChoiceListType, FieldSpec, GameDefinition
from .gamedefs.messages import MESSAGES, FieldProblem, Problem
from .glossing import Segment, gloss
from .models import LANGUAGE_CHOICES, Card, CardText, Game, RevisionSource, Term, TranslationTrack
from .revisions import TEXT_PARTS, CardRevision, is_stale

# The language a text is written in, named in the reader's language (英語 on a Japanese page); the
# language switcher and the glossary's column heads name each language in itself instead.
LANGUAGE_NAMES = {
    "ja": pgettext_lazy("language of a text", "Japanese"),
    "zh-hant": pgettext_lazy("language of a text", "Traditional Chinese"),
    "en": pgettext_lazy("language of a text", "English"),
    # No text is stored in it: the Traditional ones converted when shown say so.
    "zh-hans": pgettext_lazy("language of a text", "Simplified Chinese"),
}


def problem_text(problem: Problem | FieldProblem) -> str:
    """What is wrong with a value (``cards.gamedefs.messages``), in the reader's language."""
    from cardsite.errors import render

    if isinstance(problem, FieldProblem):
        text = problem_text(problem.problem)
        if problem.expected is None:
            return text
        return render(_(MESSAGES["with_expected"]), {"problem": text, "expected": problem_text(problem.expected)})
    params = {
        name: problem_text(value) if isinstance(value, Problem) else value for name, value in problem.params.items()
    }
    return render(_(MESSAGES[problem.code]), params)


class ProblemText:
    """A problem put into words when it is read (``str``), in the reader's language rather than the raiser's:
    what an ``AppError``'s field errors hold."""

    __slots__ = ("problem",)

    def __init__(self, problem: Problem | FieldProblem) -> None:
        self.problem = problem

    def __str__(self) -> str:
        return problem_text(self.problem)


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


def tracks_of(game: Game, language: str):
    from .selectors import tracks_of as select_tracks

    return select_tracks(game, language)


def rule_sections(game: Game, language: str) -> list[RuleView]:
    from .selectors import rule_sections as select_sections

    views = []
    stored = stored_language(language)
    for section in select_sections(game):
        texts = sorted(section.texts.all(), key=lambda text: text.language != stored)
        # A section written in the reader's language is shown in it alone (the site's notes on a game are
        # kept in every interface language); one that is not shows every language it has.
        if texts and texts[0].language == stored:
            texts = texts[:1]
        views.append(RuleView(key=section.key, texts=[_rule_text(text, game, language) for text in texts]))
    return views


def _rule_text(text, game: Game, language: str) -> dict[str, Any]:
    shown = {
        "language": text.language,
        "language_name": LANGUAGE_NAMES.get(text.language, text.language),
        "title": text.title,
        "lines": text.body.split("\n"),
        "source": cite(text.source, game.definition, language),
        "converted_from": "",
    }
    if language == SIMPLIFIED and text.language == TRADITIONAL:
        shown.update(
            language=SIMPLIFIED,
            title=simplified(text.title),
            lines=[simplified(line) for line in shown["lines"]],
            converted_from=TRADITIONAL,
        )
    return shown


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
    # Its translation track (none for the original, or a translation no track claims): name, credits, status.
    track: TrackView | None = None
    stale: bool = False  # the original changed since this translation was made
    pinned_revision: int | None = None  # the revision of the original it translates
    preferred: bool = False  # the reader's choice for its language (else the main text)
    prefer_url: str = ""  # where the reader makes it their choice
    others: list[TextView] = field(default_factory=list)  # the language's other tracks, shown beside it
    # The stored language this text was converted from for the reader (Traditional shown in Simplified).
    converted_from: str = ""


@dataclass
class TrackView:
    id: int
    name: str  # as the reader reads a citation ("seed 000" by its document's title: ``cards.citations``)
    credits: str
    status: str
    status_label: str
    main: bool


@dataclass
class CardView:
    kind_label: str
    invalid_kind: str | None = None
    fields: list[FieldView] = field(default_factory=list)
    texts: list[TextView] = field(default_factory=list)
    missing_languages: list[tuple[str, str]] = field(default_factory=list)  # (code, name in the reader's language)
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


def card_view(
    card: Card,
    language: str,
    terms,
    origins: Mapping[str, CardRevision] | None = None,
    preferred: Mapping[str, int] | None = None,
) -> CardView:
    """What the card page shows; ``origins`` (``cards.revisions.value_origins``) says where each value came from,
    ``preferred`` which translation track the reader chose for each language (``selectors.preferred_tracks``):
    that one is shown first, the language's other tracks beside it."""
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
                problem=problem_text(invalid[spec.name]) if spec.name in invalid else "",
                origin=_origin(origins.get(f"fields.{spec.name}")),
            )
        )
        shown.add(spec.name)
    for name, problem in invalid.items():
        if name not in shown and name != "kind":
            declared = definition.field(name)
            view.fields.append(
                FieldView(
                    name=name,
                    label=declared.label(language) if declared else name,
                    value=None,
                    unit="",
                    invalid=_stored(stored.get(name, card.fields)),
                    problem=problem_text(problem),
                )
            )
    glosses = _glosses_by_language(list(terms))
    original = definition.original_language
    rows = list(card.texts.all())
    original_text = next((text for text in rows if text.language == original and text.is_main), None)
    original_name = original_text.name if original_text is not None else ""
    for code in [original] + [code for code, _name in LANGUAGE_CHOICES if code != original]:
        in_language = sorted(
            (text for text in rows if text.language == code), key=lambda text: (not text.is_main, text.track_id or 0)
        )
        if not in_language:
            view.missing_languages.append((code, str(LANGUAGE_NAMES[code])))
            continue
        text_views = [
            _text_view(card, text, language, glosses.get(code, {}), origins, original_text, original_name)
            for text in in_language
        ]
        wanted = (preferred or {}).get(code)
        first = next((text for text in text_views if text.track and text.track.id == wanted), text_views[0])
        first.preferred = True
        first.others = [text for text in text_views if text is not first]
        view.texts.append(first)
    return view


def _text_view(
    card: Card,
    text: CardText,
    language: str,
    glosses: dict[str, str],
    origins: Mapping[str, CardRevision],
    original: CardText | None,
    original_name: str,
) -> TextView:
    """One text of a card (the original, or a translation in one track) as the card page shows it."""
    definition = card.game.definition
    code = text.language
    is_original = code == definition.original_language
    track = text.track
    prefix = f"texts.{code}." if text.is_main or track is None else f"translations.{code}.{track.name}."
    untranslated = original_name if not text.name and not is_original else ""
    shown = TextView(
        language=code,
        language_name=str(LANGUAGE_NAMES[code]),
        name=text.name,
        lines=[gloss(line, glosses) for line in text.text.split("\n")] if text.text else [],
        notes=text.notes,
        source=cite(text.source, definition, language),
        is_original=is_original,
        origin=_origin(
            max(
                (origins[what] for part in TEXT_PARTS if (what := prefix + part) in origins),
                key=lambda revision: revision.date,
                default=None,
            )
        ),
        untranslated_name=untranslated,
        untranslated_language=definition.original_language if untranslated else "",
        track=track_view(track, definition, language) if track is not None else None,
        stale=not is_original and is_stale(text, original),
        pinned_revision=text.pinned_revision_id if not is_original else None,
        prefer_url=prefer_url(card, code, track),
    )
    return _converted_for(shown, language) if code == TRADITIONAL and language == SIMPLIFIED else shown


def _converted_for(view: TextView, language: str) -> TextView:
    """A Traditional text shown to a Simplified Chinese reader: converted when shown, marked as converted
    (the stored text stays Traditional)."""
    view.name = simplified(view.name)
    view.notes = simplified(view.notes)
    view.lines = [
        [Segment(simplified(segment.text), segment.gloss and simplified(segment.gloss)) for segment in line]
        for line in view.lines
    ]
    view.converted_from = view.language
    return view


def track_view(track: TranslationTrack, definition: GameDefinition, language: str) -> TrackView:
    return TrackView(
        id=track.pk,
        name=cite(track.name, definition, language),
        credits=track.credits,
        status=track.status,
        status_label=str(TranslationTrack.Status(track.status).label),
        main=track.main,
    )


def prefer_url(card: Card, language: str, track: TranslationTrack | None) -> str:
    """The address that makes ``track`` (None: the language's main text) the reader's choice, back on the card."""
    back = reverse("cards:card_detail", args=[card.game.slug, card.key]) + f"#text-{language}"
    query = {"language": language, "track": track.pk if track is not None and not track.main else "main", "next": back}
    return reverse("cards:prefer_track", args=[card.game.slug]) + "?" + urlencode(query)


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
    elif revision.kind == RevisionSource.Kind.REVERT and revision.named_date is not None:
        # What was undone, not only its number: the revision's date and author, as the history lists them.
        template = _("revert of revision %(number)s of %(date)s by %(author)s, by %(user)s")
        params = _named_revision(revision)
    elif revision.kind == RevisionSource.Kind.REVERT:
        template = _("revert of revision %(number)s by %(user)s")
        params = {"number": _name(revision.detail), "user": _name(revision.user)}
    elif revision.kind == RevisionSource.Kind.RESTORE and revision.named_date is not None:
        template = _("restored from revision %(number)s of %(date)s by %(author)s, by %(user)s")
        params = _named_revision(revision)
    elif revision.kind == RevisionSource.Kind.RESTORE:
        template = _("restored from revision %(number)s by %(user)s")
        params = {"number": _name(revision.detail), "user": _name(revision.user)}
    elif revision.kind == RevisionSource.Kind.SEED and revision.user:  # a seed load has no user; a conflict's does
        template, params = _("%(source)s, taken over a later change by %(user)s"), {"user": _name(revision.user)}
    elif revision.kind == RevisionSource.Kind.CONTRIBUTION:
        detail = _name(revision.detail)
        if revision.url:
            detail = format_html('<a href="{}">{}</a>', revision.url, detail)
        if revision.photo_url:
            detail = format_html(
                '{} · <a class="source-photo" href="{}">{}</a>', detail, revision.photo_url, _("photo")
            )
        template, params = _("%(source)s by %(user)s (%(detail)s)"), {"user": _name(revision.user), "detail": detail}
    elif revision.detail:
        template, params = _("%(source)s (%(detail)s)"), {"detail": _name(revision.detail)}
    else:
        return escape(label)
    return mark_safe(template % {"source": escape(label), **params})


def _named_revision(revision: CardRevision) -> dict[str, str]:
    """The parameters naming the revision a revert or restore names: its number, date and author."""
    return {
        "number": _name(revision.detail),
        "date": escape(date_format(localtime(revision.named_date), "SHORT_DATETIME_FORMAT")),
        "author": _name(revision.named_user) if revision.named_user else escape(_("no user")),
        "user": _name(revision.user),
    }


def revision_source_text(revision: CardRevision) -> str:
    """``revision_source`` as plain text (for the API)."""
    return html.unescape(strip_tags(revision_source(revision)))


def _name(name: str) -> str:
    return format_html('<span class="name" lang="zxx">{}</span>', name)


def card_row(card: Card, language: str) -> dict[str, Any]:
    texts = {text.language: text for text in card.texts.all() if text.is_main}
    shown = card.shown_name(language)
    return {
        "card": card,
        "name": shown,
        "names": _other_names(texts, shown),
        "kind_label": kind_label(card.game, card.checked.kind, language),
        "translated": any(text.language == "zh-hant" for text in card.texts.all()),  # in any track
    }


def _other_names(texts: dict[str, Any], shown: ShownName) -> list[tuple[str, str]]:
    """The card's names in its other languages, each written once: not the shown one, nor the Traditional
    name a Simplified reader sees converted (the same name in the other script), nor a name spelt like one of
    those or like one listed already (a Japanese name the Chinese text keeps)."""
    seen = {shown.text}
    if shown.converted_from in texts:
        seen.add(texts[shown.converted_from].name)
    names: list[tuple[str, str]] = []
    for code, _label in LANGUAGE_CHOICES:
        name = texts[code].name if code in texts else ""
        if name and name not in seen:
            names.append((code, name))
            seen.add(name)
    return names


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
    order = [code for code, _name in LANGUAGE_CHOICES]
    snippets = []
    # Every track's text, main texts first: a word only another track holds is shown where it was found.
    for text in sorted(card.texts.all(), key=lambda text: (order.index(text.language), not text.is_main)):
        for part in (text.name, text.text):
            pieces = highlight(part, terms)
            if any(piece.matched for piece in pieces) and part is text.text:
                snippets.append(_snippet(text.language, pieces, language))
    row["name_pieces"] = highlight(row["name"].text, terms)
    row["snippets"] = snippets[:2]
    return row


def _snippet(code: str, pieces: list[Any], language: str) -> dict[str, Any]:
    """A matched text as the reader sees it: a Traditional text shown to a Simplified Chinese reader is
    converted (character by character, so the marked pieces keep their places) and marked as converted, as on
    the card's page."""
    if code == TRADITIONAL and language == SIMPLIFIED:
        pieces = [type(piece)(simplified(piece.text), piece.matched) for piece in pieces]
        return {"language": SIMPLIFIED, "converted_from": TRADITIONAL, "pieces": pieces}
    return {"language": code, "converted_from": "", "pieces": pieces}


def sort_choices() -> list[tuple[str, str]]:
    return [("number", _("number")), ("name", _("name")), ("kind", _("kind")), ("game", _("game"))]


def field_label(game: Game, name: str, language: str) -> str:
    """The label of a card field (or of the kind) of ``game`` in ``language``; the name itself if undeclared."""
    if name == "kind":
        return _("Kind")
    spec = game.definition.field(name)
    return spec.label(language) if spec else name
