"""Shapes the simulator's output for the templates in the reader's language: events, zones, parameters, odds.

The engines log events with an English ``kind`` (draw, play, attack …) and detail; the kinds,
the zone and counter names read from an engine's state and a few fixed details are translated
here. Anything not listed is shown as the engine wrote it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from cards.models import Game

from . import sample
from .core import Engine, Parameter, SimCard
from .inputs import parameter_label

EVENT_KINDS = {
    "draw": pgettext_lazy("goldfish event", "draw"),
    "shuffle": pgettext_lazy("goldfish event", "shuffle"),
    "sacrifice": pgettext_lazy("goldfish event", "sacrifice"),
    "play": pgettext_lazy("goldfish event", "play"),
    "attack": pgettext_lazy("goldfish event", "attack"),
    "damage": pgettext_lazy("goldfish event", "damage"),
    "discard": pgettext_lazy("goldfish event", "discard"),
    "note": pgettext_lazy("goldfish event", "note"),
    "win": pgettext_lazy("goldfish event", "win"),
    "lose": pgettext_lazy("goldfish event", "loss"),
    "round": pgettext_lazy("goldfish event", "round"),
    "round won": pgettext_lazy("goldfish event", "round won"),
    "round lost": pgettext_lazy("goldfish event", "round lost"),
    "skills": pgettext_lazy("goldfish event", "skills"),
    "land": pgettext_lazy("goldfish event", "land"),
    "return": pgettext_lazy("goldfish event", "return"),
    "wander": pgettext_lazy("goldfish event", "wander"),
    "commerce": pgettext_lazy("goldfish event", "commerce"),
    "hunting": pgettext_lazy("goldfish event", "hunting"),
}

DETAILS = {
    "opening hand": _("opening hand"),
    sample.EXTRA_DRAW: _("extra draw (outside the turn structure)"),
    sample.EMPTY_DECK: _("extra draw: the deck is empty, nothing drawn"),
    "hand full: no draw": _("hand full: no draw"),
    "effect not simulated": _("effect not simulated"),
    "first land turned over": _("first land turned over"),
    "hired": _("hired"),
    "combo": _("combo"),
    "end of turn": _("end of turn"),
}

ZONES = {
    "hand": _("Hand"),
    "deck": pgettext_lazy("goldfish zone", "Deck"),
    "field_allies": _("Allies in play"),
    "items": _("Items and locations in play"),
    "field_characters": _("Characters in play"),
    "energy": _("Energy pile"),
    "discard": _("Discard pile"),
    "wandering": _("Wandering"),
    "land": _("Land in front of you"),
    "lands": _("Lands still face down"),
}

COUNTERS = {
    "resources": _("Resources"),
    "shadow_energy": _("Shadow energy"),
    "weapon_attack": _("Weapon attack"),
    "weapon_durability": _("Weapon durability"),
    "opponent_health": _("Opponent hero's health"),
    "own_damage": _("Damage to your hero"),
    "opponent_deck": _("Goldfish's deck"),
    "round": _("Round"),
    "rounds_won": _("Rounds won"),
    "rounds_lost": _("Rounds lost"),
    "opponent_lands": _("Opponent's lands"),
    "out_of_cards": _("Out of cards"),
    "unknown_skill_plays": _("Cards played with unknown skill"),
}

POLICY_NAMES = {
    "default": _("default"),
    "ramp": _("ramp (sacrifice every turn)"),
    "curve": _("curve (cheapest first)"),
    "cheapest": _("cheapest attack first"),
    "cheap-first": _("cheapest character first"),
    "no-land-effects": _("no land effects"),
}


def policy_label(slug: str) -> str:
    return str(POLICY_NAMES.get(slug, slug))


def policy_choices(engine: Engine) -> list[tuple[str, str]]:
    return [(slug, policy_label(slug)) for slug in engine.policies]


def _pretty(slug: str) -> str:
    return slug.replace("_", " ")


@dataclass
class EventView:
    turn: int
    kind: str
    kind_label: str
    card: str | None
    amount: int | None
    detail: str


def event_views(events: Sequence[Any]) -> list[EventView]:
    return [
        EventView(
            event.turn,
            event.kind,
            str(EVENT_KINDS.get(event.kind, event.kind)),
            event.card,
            event.amount,
            str(DETAILS.get(event.detail, event.detail)),
        )
        for event in events
    ]


@dataclass
class CardView:
    key: str
    name: str
    kind_label: str
    summary: list[tuple[str, str]]
    ready: bool | None = None
    attack: int | None = None


def _format(value: Any) -> str:
    if isinstance(value, list):
        return " / ".join(map(str, value))
    if value is True:
        return str(_("yes"))
    if value is False:
        return str(_("no"))
    return str(value)


def card_view(
    game: Game, card: SimCard, language: str, ready: bool | None = None, attack: int | None = None
) -> CardView:
    definition = game.definition
    kind = definition.kind(card.kind) if card.kind else None
    summary = []
    for spec in definition.fields_for_kind(card.kind):
        value = card.fields.get(spec.name)
        if value is not None:
            summary.append((spec.label(language), _format(value)))
    return CardView(
        key=card.key,
        name=card.name,
        kind_label=kind.label(language) if kind else str(_("unknown kind")),
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


def state_panels(game: Game, state: Any, language: str) -> tuple[list[ZonePanel], list[CounterPanel]]:
    zones, counters = sample.read_state(state)
    zone_panels = [
        ZonePanel(
            zone.slug,
            str(ZONES.get(zone.slug, _pretty(zone.slug))),
            zone.count,
            zone.hidden,
            [card_view(game, item.card, language, item.ready, item.attack) for item in zone.cards],
        )
        for zone in zones
    ]
    counter_panels = [
        CounterPanel(
            counter.slug,
            str(COUNTERS.get(counter.slug, _pretty(counter.slug))),
            _format(counter.value) if isinstance(counter.value, bool) else counter.value,
        )
        for counter in counters
    ]
    return zone_panels, counter_panels


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


def parameter_views(
    engine: Engine, values: Mapping[str, int], errors: Mapping[str, str] | None = None, language: str | None = None
) -> list[ParameterView]:
    errors = errors or {}
    return [
        ParameterView(
            parameter.slug,
            parameter_label(parameter, language),
            values.get(parameter.slug, parameter.default),
            parameter.default,
            parameter.minimum,
            parameter.maximum,
            parameter.source,
            errors.get(parameter.slug),
        )
        for parameter in engine.parameters
    ]


def parameter_by_slug(engine: Engine) -> dict[str, Parameter]:
    return {parameter.slug: parameter for parameter in engine.parameters}


def percent(probability: Fraction | float) -> float:
    """A probability as a percentage with one decimal, as the odds tables print it."""
    return round(float(probability) * 100, 1)
