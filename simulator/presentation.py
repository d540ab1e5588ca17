"""Shapes the simulator's output for the pages and the API in the reader's language: events, zones,
counters, parameters, policies, odds tables, run charts and the sample hand's addresses.

Everything an engine shows is what it declares (``simulator.core.Engine``: zones, counters, event
kinds, messages, statistics, parameters, policies, each with labels in three languages); nothing
here knows a game by its slug.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any
from urllib.parse import urlencode

from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from cards.models import Game
from cards.presentation import format_value
from cardsite.labels import Labels, pick

from . import sample, tables
from .adapters import zone_label
from .core import CORE_EVENT_KINDS, CORE_MESSAGES, Engine, Parameter, SimCard, SimDeck

# --- events -------------------------------------------------------------------------------------


@dataclass
class EventView:
    turn: int
    kind: str
    kind_label: str
    card: str | None
    amount: int | None
    message: str  # the declared message's slug ("" for none)
    text: str  # the message in the reader's language, parameters filled in
    params: Mapping[str, Any]


def _vocabulary(engine: Engine[Any]) -> tuple[dict[str, Labels], dict[str, Labels]]:
    kinds = {kind.slug: kind.labels for kind in (*CORE_EVENT_KINDS, *engine.event_kinds)}
    messages = {message.slug: message.templates for message in (*CORE_MESSAGES, *engine.messages)}
    return kinds, messages


def event_views(engine: Engine[Any], events: Sequence[Any], language: str) -> list[EventView]:
    kinds, messages = _vocabulary(engine)
    separator = ", " if language == "en" else "、"
    views = []
    for event in events:
        template = pick(messages[event.message], language) if event.message else ""
        params = {
            name: separator.join(map(str, value)) if isinstance(value, tuple | list) else value
            for name, value in event.params.items()
        }
        views.append(
            EventView(
                event.turn,
                event.kind,
                pick(kinds[event.kind], language),
                event.card,
                event.amount,
                event.message,
                template.format(**params) if template else "",
                dict(event.params),
            )
        )
    return views


# --- zones and counters -------------------------------------------------------------------------


@dataclass
class CardView:
    key: str
    name: str
    kind_label: str
    summary: list[tuple[str, str]]
    ready: bool | None = None
    attack: int | None = None


def card_view(
    game: Game, card: SimCard, language: str, ready: bool | None = None, attack: int | None = None
) -> CardView:
    definition = game.definition
    kind = definition.kind(card.kind) if card.kind else None
    summary = []
    for spec in definition.fields_for_kind(card.kind):
        value = card.fields.get(spec.name)
        if value is not None:
            summary.append((spec.label(language), format_value(spec, value)))
    return CardView(
        key=card.key,
        name=card.name,
        kind_label=kind.label(language) if kind else _("unknown kind"),
        summary=summary[:3],
        ready=ready,
        attack=attack,
    )


@dataclass
class ZonePanel:
    slug: str
    label: str
    count: int
    hidden: bool
    cards: list[CardView]


@dataclass
class CounterPanel:
    slug: str
    label: str
    value: Any


def state_panels(
    engine: Engine[Any], game: Game, state: Any, language: str
) -> tuple[list[ZonePanel], list[CounterPanel]]:
    labels = {zone.slug: zone.labels for zone in engine.zones}
    counter_labels = {counter.slug: counter.labels for counter in engine.counters}
    zones, counters = sample.read_state(engine, state)
    zone_panels = [
        ZonePanel(
            zone.slug,
            pick(labels[zone.slug], language),
            zone.count,
            zone.hidden,
            [card_view(game, item.card, language, item.ready, item.attack) for item in zone.cards],
        )
        for zone in zones
    ]
    counter_panels = [
        CounterPanel(
            counter.slug,
            pick(counter_labels[counter.slug], language),
            format_value(None, counter.value) if isinstance(counter.value, bool) else counter.value,
        )
        for counter in counters
    ]
    return zone_panels, counter_panels


@dataclass
class CardValue:
    slug: str
    label: str
    value: str | None  # None: no source gives it (shown as unknown, never as 0)


@dataclass
class InPlayCard:
    key: str
    name: str
    kind_label: str
    values: list[CardValue]


@dataclass
class InPlayPanel:
    """The cards in play from the start (``Engine.in_play_zone``: Shadow Era's hero, Epic Battles' character)."""

    zone: str
    label: str
    cards: list[InPlayCard]


def in_play_panel(engine: Engine[Any], game: Game, deck: SimDeck, language: str) -> InPlayPanel | None:
    """What the deck puts in play from the start, with every value its kind declares (those no source gives as
    None); None when the game has no such card or the deck has none (its verdict already says so)."""
    zone = engine.in_play_zone
    cards = deck.zone(zone) if zone else ()
    if zone is None or not cards:
        return None
    definition = game.definition
    views = []
    for card in cards:
        kind = definition.kind(card.kind) if card.kind else None
        values = [
            CardValue(
                spec.name,
                spec.label(language),
                None if card.fields.get(spec.name) is None else format_value(spec, card.fields[spec.name], language),
            )
            for spec in definition.fields_for_kind(card.kind)
        ]
        views.append(InPlayCard(card.key, card.name, kind.label(language) if kind else _("unknown kind"), values))
    return InPlayPanel(zone, zone_label(game.slug, zone, language), views)


# --- parameters and policies --------------------------------------------------------------------


@dataclass
class ParameterView:
    slug: str
    label: str
    value: int
    default: int
    minimum: int
    maximum: int
    source: str
    error: str | None = None
    choices: list[tuple[int, str]] = field(default_factory=list)  # (value, name): chosen from a list

    @property
    def value_label(self) -> str:
        return dict(self.choices).get(self.value, str(self.value))

    @property
    def default_label(self) -> str:
        return dict(self.choices).get(self.default, str(self.default))


def parameter_views(
    engine: Engine[Any], values: Mapping[str, int], errors: Mapping[str, str] | None, language: str
) -> list[ParameterView]:
    errors = errors or {}
    return [
        ParameterView(
            parameter.slug,
            pick(parameter.labels, language),
            values.get(parameter.slug, parameter.default),
            parameter.default,
            parameter.minimum,
            parameter.maximum,
            pick(parameter.source, language) if parameter.source else "",
            errors.get(parameter.slug),
            [(choice.value, pick(choice.labels, language)) for choice in parameter.choices],
        )
        for parameter in engine.parameters
    ]


def parameter_by_slug(engine: Engine[Any]) -> dict[str, Parameter]:
    return {parameter.slug: parameter for parameter in engine.parameters}


def policy_label(engine: Engine[Any], slug: str, language: str) -> str:
    policy = engine.policies.get(slug)
    return pick(policy.labels, language) if policy is not None else slug


def policy_choices(engine: Engine[Any], language: str) -> list[tuple[str, str]]:
    return [(slug, pick(policy.labels, language)) for slug, policy in engine.policies.items()]


# --- numbers ------------------------------------------------------------------------------------


def percent(probability: Fraction | float) -> float:
    """A probability as a percentage with one decimal, as the odds tables print it."""
    return round(float(probability) * 100, 1)


def fraction(probability: Fraction) -> str:
    return f"{probability.numerator}/{probability.denominator}"


def odds_rows(table: tables.OddsTable) -> list[dict[str, Any]]:
    """The exact odds table: a row per card, a cell per turn (percent, and the exact fraction)."""
    return [
        {
            "card": row.card,
            "cells": [
                {"turn": turn, "percent": percent(p), "exact": fraction(p)}
                for turn, p in zip(table.turns, row.exact, strict=True)
            ],
        }
        for row in table.rows
    ]


def simulated_odds_rows(table: tables.OddsTable) -> list[dict[str, Any]]:
    """Exact beside simulated odds, a cell per turn."""
    return [
        {
            "card": row.card,
            "cells": [
                {"exact": percent(exact), "simulated": percent(simulated)}
                for exact, simulated in zip(row.exact, row.simulated or [], strict=False)
            ],
        }
        for row in table.rows
    ]


def _means(turns: Sequence[Mapping[str, Any]], key: str) -> list[float | None]:
    """A per-turn mean, None (a gap in the chart) for turns no game reached."""
    return [row[key] if row["games"] else None for row in turns]


def chart_data(engine: Engine[Any], result: Mapping[str, Any], language: str) -> dict[str, Any]:
    """What static/js/sim-charts.js draws: per-turn means and the win-turn histogram, titled as the game means them."""
    turns = result.get("turns", [])
    histogram = result.get("win_turn_histogram", [])
    stats = engine.turn_stats
    return {
        "turns": [row["turn"] for row in turns],
        "series": [
            {
                "id": key,
                "title": _("%(statistic)s per turn (mean)") % {"statistic": pick(labels, language)},
                "values": _means(turns, key),
            }
            for key, labels in (
                ("damage", stats.damage),
                ("resources", stats.resources),
                ("cards_played", stats.cards_played),
            )
        ],
        "histogram": {
            "title": _("Turn of victory"),
            "label": pgettext("simulation", "Games"),
            "turns": [row["turn"] for row in histogram],
            "games": [row["games"] for row in histogram],
        },
    }


def stat_labels(engine: Engine[Any], language: str) -> dict[str, str]:
    """The per-turn statistics' names in this game (the run page's table headings)."""
    stats = engine.turn_stats
    return {
        "resources": pick(stats.resources, language),
        "cards_played": pick(stats.cards_played, language),
        "damage": pick(stats.damage, language),
    }


# --- addresses ----------------------------------------------------------------------------------


class DeckLinks:
    """The addresses of one deck's goldfish pages, through its pk or (shared by link) its token."""

    def __init__(self, deck: Any, token: str | None) -> None:
        self.deck = deck
        self.token = token

    def url(self, name: str, *args: Any) -> str:
        if self.token:
            return reverse(f"goldfish:shared_{name}", args=[self.token, *args])
        return reverse(f"goldfish:{name}", args=[self.deck.pk, *args])

    @property
    def detail(self) -> str:
        if self.token:
            return reverse("decks:shared", args=[self.token])
        return reverse("decks:detail", args=[self.deck.pk])

    @property
    def hand(self) -> str:
        return self.url("hand")

    @property
    def odds(self) -> str:
        return self.url("odds")

    @property
    def calculate(self) -> str:
        return self.url("calculate")

    @property
    def odds_cards(self) -> str:
        return self.url("odds_cards")

    @property
    def odds_chip(self) -> str:
        return self.url("odds_chip")

    @property
    def simulate(self) -> str:
        return self.url("simulate")

    def run(self, run_id: int) -> str:
        return self.url("run", run_id)

    def cancel(self, run_id: int) -> str:
        return self.url("cancel", run_id)


def hand_url(links: DeckLinks, spec: sample.HandSpec) -> str:
    """The sample hand's address: everything that replays it is in the query."""
    query: dict[str, Any] = {"seed": spec.seed, "policy": spec.policy, "turn": spec.turn}
    query.update(spec.params)
    if spec.draws:
        query["draws"] = ",".join(map(str, spec.draws))
    return f"{links.hand}?{urlencode(query)}"


def interval_chart(rows: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """A server-drawn chart of win rates with their intervals (``_interval_chart.html``): each row's ``label``,
    ``name``, ``percent``, ``low`` and ``high`` (in percent), placed on a 100-wide SVG."""
    placed = [
        {**row, "y": 2 + 10 * index, "mid": 5 + 10 * index, "bottom": 8 + 10 * index} for index, row in enumerate(rows)
    ]
    return {"rows": placed, "height": 10 * len(rows) + 2, "pixels": 28 * len(rows) + 6, "ticks": (25, 50, 75)}
