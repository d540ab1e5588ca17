"""Sample hands (plain Python): replay a game from its seed to a turn, draw outside the turns, read the zones.

A sample hand is fully described by its seed, policy, parameters, the number of turns played and
the extra draws made (the pages keep all of these in the URL). Engines are deterministic for a
seed, so ``replay`` re-creates the game and plays it again to the same point; nothing is stored.

The extra draw ("draw one card" outside the turn structure) is generic: any engine whose state
has a ``deck`` and a ``hand`` list gets it (the card on top of the deck — the end of the list, as
every engine draws with ``deck.pop()`` — goes to the hand, and a ``draw`` event is logged). It
never shuffles: drawing from an empty deck logs that nothing was drawn and has no other effect
(no damage, no lost round), since it is outside the rules. ``draws`` records after which turn
each extra draw was made (0: before turn 1, with the opening hand), so the replay makes them at
the same points.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .core import Engine, SimCard, SimDeck, default_parameters

EXTRA_DRAW = "extra draw"  # the detail of the event an extra draw logs
EMPTY_DECK = "extra draw: the deck is empty"

# State attributes that are not zones or counters to show: bookkeeping, parameters, the whole decklist.
# (Dicts, such as per-card caches, are never shown; an attribute not listed here and not known to
# simulator.presentation is shown under its own name.)
SKIPPED = frozenset(
    {
        "seed",
        "rng",
        "turn",
        "log_events",
        "log",
        "stats",
        "won_on_turn",
        "policy",
        "cards",
        "skills_by_turn",
        "first_player",
        "opponent_size",
        # Shadow Era's bookkeeping: the ready allies' total attack, the allies that entered this turn
        # (already among field_allies).
        "ready_attack",
        "arriving",
    }
)
# Zones whose order is secret: only their size is shown.
HIDDEN_ZONES = frozenset({"deck", "lands"})
# Attributes that may hold one card or None (the 水滸伝 land in front of the player).
SINGLE_CARD_ZONES = frozenset({"land"})


def can_draw(state: Any) -> bool:
    return isinstance(getattr(state, "deck", None), list) and isinstance(getattr(state, "hand", None), list)


def draw_one(state: Any) -> bool:
    """Draw one card outside the turn structure; False if the engine's state has no deck and hand lists."""
    if not can_draw(state):
        return False
    if not state.deck:
        state.record("draw", detail=EMPTY_DECK)
        return True
    card = state.deck.pop()
    state.hand.append(card)
    state.record("draw", card, detail=EXTRA_DRAW)
    return True


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
    can_draw: bool
    draws: tuple[int, ...]  # the extra draws that were made (those after the game ended are dropped)


def replay(engine: Engine, deck: SimDeck, spec: HandSpec) -> Replay:
    """Re-create the game from its seed and play it to ``spec.turn``, making the extra draws where they were made."""
    params = {**default_parameters(engine), **spec.params}
    state = engine.new_game(deck, spec.seed, params, spec.policy, True)
    pending = sorted(spec.draws)
    made: list[int] = []

    def draw_due() -> None:
        while pending and pending[0] <= state.turn:
            made.append(pending.pop(0))
            draw_one(state)

    draw_due()
    while state.turn < spec.turn and not engine.is_over(state):
        engine.play_turn(state)
        draw_due()
    return Replay(state, state.turn, engine.is_over(state), can_draw(state), tuple(made))


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


def _attributes(state: Any) -> dict[str, Any]:
    values: dict[str, Any] = {}
    for klass in reversed(type(state).__mro__):
        for name in getattr(klass, "__slots__", ()):
            if hasattr(state, name):
                values[name] = getattr(state, name)
    values.update(getattr(state, "__dict__", {}))
    return values


def _zone_card(item: Any) -> ZoneCard | None:
    if isinstance(item, SimCard):
        return ZoneCard(item)
    card = getattr(item, "card", None)
    if isinstance(card, SimCard):
        ready = getattr(item, "ready", None)
        attack = getattr(item, "attack", None)
        return ZoneCard(card, ready if isinstance(ready, bool) else None, attack if isinstance(attack, int) else None)
    return None


def read_state(state: Any) -> tuple[list[ZoneView], list[CounterView]]:
    """The engine state's zones (lists of cards, or of things in play holding a card) and its counters."""
    zones: list[ZoneView] = []
    counters: list[CounterView] = []
    for name, value in _attributes(state).items():
        if name.startswith("_") or name in SKIPPED:
            continue
        if isinstance(value, bool | int):
            counters.append(CounterView(name, value))
        elif isinstance(value, SimCard) or (value is None and name in SINGLE_CARD_ZONES):
            cards = [ZoneCard(value)] if value is not None else []
            zones.append(ZoneView(name, cards, len(cards)))
        elif isinstance(value, list | tuple):
            cards = [_zone_card(item) for item in value]
            if value and any(card is None for card in cards):
                continue  # not a zone of cards
            hidden = name in HIDDEN_ZONES
            zones.append(ZoneView(name, [] if hidden else list(cards), len(cards), hidden))
    zones.sort(key=lambda zone: (zone.slug != "hand", zone.hidden))
    return zones, counters


def events_of_turn(log: Sequence[Any], turn: int) -> list[Any]:
    return [event for event in log if event.turn == turn]
