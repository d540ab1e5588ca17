"""Shapes decks for the templates in the reader's language: zones, the verdict, charts, builder rows.

Nothing here decides whether a deck is legal: the verdict comes from ``decks.selectors.verdict``
(the game's rules in ``decks.rules``); this module only lays it out.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db.models import QuerySet, Sum
from django.db.models.functions import Coalesce
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from cards.filling import where_to_fill
from cards.gamedefs.base import FieldSpec, IntegerType
from cards.models import Card, Game
from cards.presentation import card_row, format_value, kind_label
from cards.selectors import card_counts_by_kind
from cardsite.labels import SIMPLIFIED, TRADITIONAL, Labels, ShownName, pick, picked_language

from . import selectors
from .models import Deck, DeckEntry
from .placeholders import selectors as placeholder_selectors
from .rules import get_rules
from .rules.base import DeckRules, Verdict, Zone, ZoneSize

# --- lists of decks ---------------------------------------------------------------------------------


def with_card_counts(decks: QuerySet[Deck]) -> QuerySet[Deck]:
    """The decks with ``card_count``: every copy in every zone, in the order they were given (newest change first
    when none was)."""
    # order_by again: Django drops Meta.ordering from aggregate queries.
    ordering = decks.query.order_by or ("-updated_at", "id")
    return decks.annotate(card_count=Coalesce(Sum("entries__count"), 0)).order_by(*ordering)


def deck_total(counts: Iterable[int]) -> int:
    """How many cards a deck has, as every page and printout says it: the copies in its editable zones
    (``counts``: one per entry). A game's fixed zones (Endbreaker's starting deck) are shown beside the deck
    but are the game's, not the player's choice, so they are not counted (``DeckEntry`` never holds them, and
    the construction rules' sizes leave them out too)."""
    return sum(counts)


# --- values -----------------------------------------------------------------------------------------


def field_summary(card: Card, language: str, limit: int = 6) -> list[tuple[str, str]]:
    """The card's known field values, as (label, value) in the order its game declares them."""
    definition = card.game.definition
    summary = []
    for spec in definition.fields_for_kind(card.checked.kind):
        value = card.checked.fields.get(spec.name)
        if value is None:
            continue
        unit = spec.unit_label(language)
        text = format_value(spec, value) + (f" {unit}" if unit and len(unit) <= 2 else "")
        summary.append((spec.label(language), text))
    return summary[:limit]


# --- zones ------------------------------------------------------------------------------------------


def zone_accepts(zone: Zone, card: Card) -> bool:
    """Whether the builder offers ``card`` for ``zone``: a card of unknown kind may go anywhere."""
    return not zone.fixed and (card.checked.kind is None or not zone.kinds or card.checked.kind in zone.kinds)


@dataclass
class EntryView:
    card: Card | None
    key: str
    name: ShownName | str  # str: the key of a card not in the database
    count: int
    kind_label: str = ""
    summary: list[tuple[str, str]] = field(default_factory=list)


@dataclass
class SizeRuleView:
    statement: str
    ok: bool


@dataclass
class ZoneView:
    slug: str
    label: str
    fixed: bool
    entries: list[EntryView]
    size_rules: list[SizeRuleView] = field(default_factory=list)

    @property
    def total(self) -> int:
        return sum(entry.count for entry in self.entries)

    @property
    def ok(self) -> bool:
        return all(rule.ok for rule in self.size_rules)


def _size_rules(rules: DeckRules, deck: Deck, verdict: Verdict, zone: Zone, language: str) -> list[SizeRuleView]:
    """The size rules of the deck's mode that count this zone alone, and whether the verdict faults them."""
    broken = {finding.rule for finding in verdict.violations}
    return [
        SizeRuleView(rule.statement(language), rule.id not in broken)
        for rule in rules.rules(deck.mode, deck.options)
        if isinstance(rule, ZoneSize) and tuple(rule.zones) == (zone.slug,)
    ]


def zone_views(
    deck: Deck, verdict: Verdict, language: str, only: str | None = None, entries: list[DeckEntry] | None = None
) -> list[ZoneView]:
    """The deck's editable zones with their entries (``only``: just that zone); ``entries`` when they
    were read already (``selectors.deck_entries``)."""
    rules = get_rules(deck.game.slug)
    by_zone: dict[str, list[EntryView]] = {}
    if entries is None:
        entries = list(selectors.deck_entries(deck))
    for entry in entries:
        if only is not None and entry.zone != only:
            continue
        card = entry.card
        by_zone.setdefault(entry.zone, []).append(
            EntryView(
                card=card,
                key=card.key,
                name=card.shown_name(language),
                count=entry.count,
                kind_label=kind_label(deck.game, card.checked.kind, language),
                summary=field_summary(card, language, limit=3),
            )
        )
    views = []
    for zone in rules.zones:
        if zone.fixed or (only is not None and zone.slug != only):
            continue
        views.append(
            ZoneView(
                slug=zone.slug,
                label=pick(zone.labels, language),
                fixed=False,
                entries=by_zone.pop(zone.slug, []),
                size_rules=_size_rules(rules, deck, verdict, zone, language),
            )
        )
    # Entries in a zone the game no longer declares (e.g. after a rules change) stay visible.
    for slug, stray in by_zone.items():
        views.append(ZoneView(slug=slug, label=slug, fixed=False, entries=stray))
    return views


def fixed_zone_views(deck: Deck, language: str) -> list[ZoneView]:
    """The game's fixed zones (e.g. Endbreaker's starting deck); a card not loaded shows its key."""
    rules = get_rules(deck.game.slug)
    views = []
    for slug, rows in selectors.fixed_cards(deck).items():
        zone = rules.zone(slug)
        entries = [
            EntryView(
                card=card,
                key=key,
                name=card.shown_name(language) if card else key,
                count=count,
                kind_label=kind_label(deck.game, card.checked.kind, language) if card else "",
            )
            for card, key, count in rows
        ]
        views.append(
            ZoneView(slug=slug, label=pick(zone.labels, language) if zone else slug, fixed=True, entries=entries)
        )
    return views


# --- the verdict ------------------------------------------------------------------------------------


@dataclass
class RuleStatusView:
    statement: str
    status: str  # "ok" | "violation" | "unchecked"


@dataclass
class DatabaseGapView:
    """A broken rule no deck can keep yet, because the game's database lacks the cards it takes."""

    text: str
    gaps_url: str  # the game's map of what is missing
    add_url: str  # the card form, for a card of the kind lacking


@dataclass
class VerdictView:
    checked: bool
    legal: bool
    violations: list[str]
    unchecked: list[str]
    rules: list[RuleStatusView]
    database_gaps: list[DatabaseGapView] = field(default_factory=list)
    placeholders: int = 0  # placeholder cards (copies counted): the deck is at best legal apart from them
    legal_apart_from_placeholders: bool = False


def _database_gaps(deck: Deck, rules: DeckRules, violated: set[str], language: str) -> list[DatabaseGapView]:
    """The broken size rules of the deck's mode that no deck can keep with the cards the database holds."""
    requirements = [
        requirement
        for requirement in rules.card_requirements()
        if requirement.mode == deck.mode and requirement.rule.id in violated
    ]
    if not requirements:
        return []
    counts = card_counts_by_kind(deck.game)
    gaps = []
    for requirement in requirements:
        kinds = requirement.kinds or tuple(kind.slug for kind in deck.game.definition.kinds)
        known = sum(counts.get(kind, 0) for kind in kinds)
        if known >= requirement.different:
            continue
        names = " / ".join(kind_label(deck.game, kind, language) for kind in kinds)
        if known == 0:
            text = _("This game's database holds no %(kinds)s card yet, so no deck can keep this rule.") % {
                "kinds": names
            }
        else:
            text = ngettext(
                "This game's database holds only %(known)s different %(kinds)s card; a legal deck takes %(needed)s.",
                "This game's database holds only %(known)s different %(kinds)s cards; a legal deck takes %(needed)s.",
                known,
            ) % {"known": known, "kinds": names, "needed": requirement.different}
        gaps.append(
            DatabaseGapView(
                text,
                reverse("cards:game_missing", args=[deck.game.slug]),
                where_to_fill(deck.game, kind=kinds[0] if len(kinds) == 1 else None),
            )
        )
    return gaps


def verdict_view(deck: Deck, verdict: Verdict, language: str) -> VerdictView:
    rules = get_rules(deck.game.slug)
    violated = {finding.rule for finding in verdict.violations}
    unchecked = {finding.rule for finding in verdict.unchecked}
    statuses = []
    for rule in rules.rules(deck.mode, deck.options):
        status = "violation" if rule.id in violated else "unchecked" if rule.id in unchecked else "ok"
        statuses.append(RuleStatusView(rule.statement(language), status))
    return VerdictView(
        checked=verdict.checked,
        legal=verdict.legal,
        violations=[finding.message(language) for finding in verdict.violations],
        unchecked=[finding.message(language) for finding in verdict.unchecked],
        rules=statuses,
        database_gaps=_database_gaps(deck, rules, violated, language) if violated else [],
        placeholders=verdict.placeholders,
        legal_apart_from_placeholders=verdict.legal_apart_from_placeholders,
    )


def with_verdicts(decks: Iterable[Deck], language: str) -> list[Deck]:
    """The decks, each with ``verdict`` (a ``VerdictView``): the server's verdict, for a list of decks."""
    decks = list(decks)
    verdicts = selectors.verdicts(decks, language)
    for deck in decks:
        deck.verdict = verdict_view(deck, verdicts[deck.pk], language)  # type: ignore[attr-defined]  # for the template
    return decks


# --- charts -----------------------------------------------------------------------------------------


def _bars(counts: Counter, order: list[Any], labels: dict[Any, str], unknown: int) -> list[dict[str, Any]]:
    bars = [{"label": labels.get(value, str(value)), "count": counts[value], "unknown": False} for value in order]
    if unknown:
        bars.append({"label": _("unknown"), "count": unknown, "unknown": True})
    return bars


def _value_order(spec: FieldSpec, values: list[Any]) -> list[Any]:
    if isinstance(spec.type, IntegerType):
        return sorted(values, key=int)
    return sorted(values, key=lambda value: (len(str(value)), str(value)))


def chart_data(deck: Deck, language: str, entries: list[DeckEntry] | None = None) -> list[dict[str, Any]]:
    """The deck's make-up (editable zones, copies counted): by kind, by cost (or skill), by attack.

    Each chart: ``id``, ``title``, ``bars`` (label, count, unknown). A card counts towards a
    field's chart only if its kind carries that field (or its kind is unknown); a missing
    value is counted as "unknown". ``entries``: the deck's entries when they were read already.
    """
    game: Game = deck.game
    definition = game.definition
    if entries is None:
        entries = list(DeckEntry.objects.filter(deck=deck).select_related("card", "card__game"))

    kinds: Counter = Counter()
    unknown_kind = 0
    for entry in entries:
        if entry.card.checked.kind is None:
            unknown_kind += entry.count
        else:
            kinds[entry.card.checked.kind] += entry.count
    kind_order = [kind.slug for kind in definition.kinds if kinds[kind.slug]]
    kind_order += sorted(kind for kind in kinds if kind not in kind_order)
    charts = [
        {
            "id": "kind",
            "title": _("Cards by kind"),
            "bars": _bars(kinds, kind_order, {k: kind_label(game, k, language) for k in kind_order}, unknown_kind),
        }
    ]

    for field_name in get_rules(game.slug).chart_fields:
        spec = definition.field(field_name)
        if spec is None:
            continue
        values: Counter = Counter()
        unknown = 0
        for entry in entries:
            card = entry.card
            if card.checked.kind is not None and spec not in definition.fields_for_kind(card.checked.kind):
                continue
            value = card.checked.fields.get(field_name)
            if value is None:
                unknown += entry.count
            else:
                values[format_value(spec, value) if not isinstance(value, int) else value] += entry.count
        order = _value_order(spec, list(values))
        charts.append(
            {
                "id": field_name,
                "title": _("Cards by %(field)s") % {"field": spec.label(language)},
                "bars": _bars(values, order, {}, unknown),
            }
        )
    # An empty chart of a deck with cards means that none of its kinds carries the value (an Epic Battles
    # character has no cost), not that the deck is empty.
    empty = _("None of this deck's cards has this value.") if entries else _("No cards yet.")
    for chart in charts:
        chart["empty"] = empty
    return charts


# --- the whole deck ---------------------------------------------------------------------------------


def _site_translated(labels: Labels, language: str, translated: frozenset[str]) -> bool:
    """Whether the text a reader of ``language`` is shown is the site's own translation. Simplified Chinese is
    converted from the Traditional text, so it is the site's translation when the Traditional one is."""
    shown = picked_language(labels, language)
    return (TRADITIONAL if shown == SIMPLIFIED else shown) in translated


@dataclass
class OptionView:
    label: str
    value: str
    help: str


@dataclass
class DeckHead:
    """What the deck page's heading says beside the deck's own fields: its game, its mode, how many cards."""

    game_name: str
    mode_label: str
    total: int


def _mode_label(deck: Deck, language: str) -> str:
    rules = get_rules(deck.game.slug)
    return pick((rules.mode(deck.mode) or rules.modes[0]).labels, language)


def deck_head(deck: Deck, language: str, counts: list[tuple[str, int, int]]) -> DeckHead:
    """The heading of the deck page; ``counts`` as ``selectors.entry_counts`` reads them."""
    return DeckHead(
        game_name=deck.game.definition.name(language),
        mode_label=_mode_label(deck, language),
        total=deck_total(count for _zone, _card, count in counts),
    )


@dataclass
class DeckView:
    deck: Deck
    game_name: str
    mode_label: str
    win_conditions: str
    options: list[OptionView]
    notes: str
    win_conditions_translated: bool  # the site's own translation, not a source's words: the page says so
    notes_translated: bool
    zones: list[ZoneView]
    fixed_zones: list[ZoneView]
    verdict: VerdictView
    charts: list[dict[str, Any]]
    placeholders: list[PlaceholderView] = field(default_factory=list)

    @property
    def total(self) -> int:
        return deck_total(entry.count for zone in self.zones for entry in zone.entries)


@dataclass
class PlaceholderView:
    """A placeholder card as the deck page lists it: always named as a placeholder."""

    pk: int
    zone: str  # the zone's name in the reader's language
    label: str
    count: int


def placeholder_views(deck: Deck, language: str) -> list[PlaceholderView]:
    rules = get_rules(deck.game.slug)
    views = []
    for placeholder in placeholder_selectors.placeholders(deck):
        zone = rules.zone(placeholder.zone)
        views.append(
            PlaceholderView(
                placeholder.pk,
                pick(zone.labels, language) if zone else placeholder.zone,
                placeholder_selectors.label(deck.game, placeholder, language),
                placeholder.count,
            )
        )
    return views


@dataclass
class PlaceholdersChangeView:
    """What the builder redraws after a placeholder is added: the placeholders, the verdict and the total."""

    placeholders: list[PlaceholderView]
    verdict: VerdictView
    total: int


def placeholders_change_view(deck: Deck, language: str) -> PlaceholdersChangeView:
    entries = list(selectors.deck_entries(deck))
    verdict = selectors.verdict(deck, language, entries)
    return PlaceholdersChangeView(
        placeholder_views(deck, language),
        verdict_view(deck, verdict, language),
        deck_total(entry.count for entry in entries),
    )


def deck_view(deck: Deck, language: str) -> DeckView:
    rules = get_rules(deck.game.slug)
    mode = rules.mode(deck.mode) or rules.modes[0]
    # One read of the entries (and their cards' texts) for the verdict, the zones and the charts.
    entries = list(selectors.deck_entries(deck))
    verdict = selectors.verdict(deck, language, entries)
    options = {**rules.default_options(), **deck.options}
    return DeckView(
        deck=deck,
        game_name=deck.game.definition.name(language),
        mode_label=_mode_label(deck, language),
        win_conditions=pick(mode.win_conditions, language) if mode.win_conditions else "",
        options=[
            OptionView(
                pick(option.labels, language),
                format_value(None, options.get(option.slug)),
                pick(option.help, language) if option.help else "",
            )
            for option in rules.options
        ],
        notes=pick(rules.notes, language) if rules.notes else "",
        win_conditions_translated=_site_translated(mode.win_conditions, language, mode.win_conditions_translated),
        notes_translated=_site_translated(rules.notes, language, rules.notes_translated),
        zones=zone_views(deck, verdict, language, entries=entries),
        fixed_zones=fixed_zone_views(deck, language),
        verdict=verdict_view(deck, verdict, language),
        charts=chart_data(deck, language, entries),
        placeholders=placeholder_views(deck, language),
    )


@dataclass
class ChangeView:
    """What the builder redraws after a change: the zone, the verdict, the charts and the total."""

    zone: ZoneView
    verdict: VerdictView
    charts: list[dict[str, Any]]
    total: int


def change_view(deck: Deck, zone: str, language: str) -> ChangeView:
    entries = list(selectors.deck_entries(deck))
    verdict = selectors.verdict(deck, language, entries)
    return ChangeView(
        zone=zone_views(deck, verdict, language, only=zone, entries=entries)[0],
        verdict=verdict_view(deck, verdict, language),
        charts=chart_data(deck, language, entries),
        total=deck_total(entry.count for entry in entries),
    )


# --- builder search ---------------------------------------------------------------------------------


def builder_row(card: Card, rules: DeckRules, language: str) -> dict[str, Any]:
    row = card_row(card, language)
    row["zones"] = [(zone.slug, adding_label(zone, language)) for zone in rules.zones if zone_accepts(zone, card)]
    row["summary"] = field_summary(card, language)
    return row


def adding_label(zone: Zone, language: str) -> str:
    """The words of the builder's button that adds a card to ``zone``: the zone's own, else "Add to" its name."""
    if zone.adding:
        return pick(zone.adding, language)
    return _("Add to %(label)s") % {"label": pick(zone.labels, language)}


def builder_kinds(deck: Deck, language: str) -> list[tuple[str, str]]:
    """The kinds the builder's search may be narrowed to: the game's kinds, then "unknown kind"."""
    kinds = [(kind.slug, kind.label(language)) for kind in deck.game.definition.kinds]
    return [*kinds, ("unknown", _("unknown kind"))]
