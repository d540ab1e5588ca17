"""Sample hands (plain Python): replay a game from its seed to a turn, draw outside the turns, read the zones.

A sample hand is fully described by its seed, policy, parameters, the number of turns played and
the extra draws made (the pages keep all of these in the URL). Engines are deterministic for a
seed, so ``replay`` re-creates the game and plays it again to the same point; nothing is stored.

The extra draw ("draw one card" outside the turn structure) is each engine's own
(``Engine.extra_draw``): it draws as that game draws (Shadow Era a random card of those left,
the others the top of the shuffled deck), with the game's random generator, so extra draws are
random and replay from the seed. It never shuffles: drawing from an empty deck logs that nothing
was drawn and has no other effect (no damage, no lost round), since it is outside the rules.
``draws`` records after which turn each extra draw was made (0: before turn 1, with the opening
hand), so the replay makes them at the same points.

What a state shows is what its engine declares (``Engine.zones``, ``Engine.counters``); nothing
here looks at a state's other attributes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .core import Engine, SimCard, SimDeck, default_parameters


def draw_one(engine: Engine[Any], state: Any) -> None:
    """Draw one card outside the turn structure, as the engine draws (``Engine.extra_draw``), and log it."""
    card = engine.extra_draw(state)
    if card is None:
        state.record("draw", message="extra_draw_empty")
    else:
        state.record("draw", card, message="extra_draw")


@dataclass(frozen=True)
class HandSpec:
    seed: int
    turn: int = 0
    policy: str = "default"
    params: Mapping[str, int] = field(default_factory=dict)
    draws: tuple[int, ...] = ()  # after which turn each extra draw was made, in order


@dataclass
class Replay:
    state: Any
    turn: int  # turns played: fewer than asked if the game ended first
    over: bool
    draws: tuple[int, ...]  # the extra draws that were made (those after the game ended are dropped)


def replay(engine: Engine[Any], deck: SimDeck, spec: HandSpec) -> Replay:
    """Re-create the game from its seed and play it to ``spec.turn``, making the extra draws where they were made."""
    params = {**default_parameters(engine), **spec.params}
    state = engine.new_game(deck, spec.seed, params, spec.policy, True)
    pending = sorted(spec.draws)
    made: list[int] = []

    def draw_due() -> None:
        while pending and pending[0] <= state.turn:
            made.append(pending.pop(0))
            draw_one(engine, state)

    draw_due()
    while state.turn < spec.turn and not engine.is_over(state):
        engine.play_turn(state)
        draw_due()
    return Replay(state, state.turn, engine.is_over(state), tuple(made))


# --- reading the state ------------------------------------------------------------------------------


@dataclass(frozen=True)
class ZoneCard:
    card: SimCard
    ready: bool | None = None  # for cards in play that can be exhausted
    attack: int | None = None


@dataclass
class ZoneView:
    slug: str
    cards: list[ZoneCard]
    count: int
    hidden: bool = False  # only the count is shown (the deck's order is secret)


@dataclass(frozen=True)
class CounterView:
    slug: str
    value: int | bool


def _zone_card(item: Any) -> ZoneCard:
    """A zone holds cards, or cards in play: anything with ``card`` (and maybe ``ready`` and ``attack``)."""
    if isinstance(item, SimCard):
        return ZoneCard(item)
    ready, attack = getattr(item, "ready", None), getattr(item, "attack", None)
    return ZoneCard(item.card, ready if isinstance(ready, bool) else None, attack if isinstance(attack, int) else None)


def read_state(engine: Engine[Any], state: Any) -> tuple[list[ZoneView], list[CounterView]]:
    """The zones and counters the engine declares, as they stand in ``state``."""
    zones: list[ZoneView] = []
    for spec in engine.zones:
        value = getattr(state, spec.attribute)
        items = [] if value is None else [value] if isinstance(value, SimCard) else list(value)
        cards = [] if spec.hidden else [_zone_card(item) for item in items]
        zones.append(ZoneView(spec.slug, cards, len(items), spec.hidden))
    counters = [CounterView(spec.slug, getattr(state, spec.attribute)) for spec in engine.counters]
    return zones, counters


def events_of_turn(log: Sequence[Any], turn: int) -> list[Any]:
    return [event for event in log if event.turn == turn]
