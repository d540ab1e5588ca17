"""The goldfish engine core (plain Python, no Django).

A game's engine (``simulator.engines.<slug>``) plays one player's deck against an
opponent who does nothing. Everything random goes through one seeded
``random.Random``, so a game replays exactly from its seed; every choice the rules
leave to the player goes through a policy object; everything that happens is
appended to the event log the pages render.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol


@dataclass(frozen=True, eq=False)
class SimCard:
    """A card as an engine sees it: identity, kind and the field values the sources give.

    Compared and hashed by identity: the copies of a card in a deck are one object, so an
    engine can key per-card facts on it and remove a card from a list cheaply.
    """

    key: str
    name: str
    kind: str | None = None
    fields: Mapping[str, Any] = field(default_factory=dict)

    def value(self, name: str, default: Any = None) -> Any:
        value = self.fields.get(name)
        return default if value is None else value


@dataclass(frozen=True)
class SimDeck:
    """A deck for the simulator: the cards of each zone, copies expanded (``zones["deck"]`` …)."""

    game: str
    zones: Mapping[str, tuple[SimCard, ...]]

    def zone(self, name: str) -> tuple[SimCard, ...]:
        return self.zones.get(name, ())

    @classmethod
    def from_counts(cls, game: str, zones: Mapping[str, Iterable[tuple[SimCard, int]]]) -> SimDeck:
        return cls(
            game,
            {zone: tuple(card for card, count in entries for _ in range(count)) for zone, entries in zones.items()},
        )


@dataclass(frozen=True)
class Event:
    """One thing that happened: ``kind`` is draw, sacrifice, play, attack, damage, discard, shuffle …"""

    turn: int
    kind: str
    card: str | None = None  # the card's name, when one is involved
    amount: int | None = None
    detail: str = ""


@dataclass(frozen=True)
class Parameter:
    """A number the goldfish needs that no source gives; stated with its default beside the results."""

    slug: str
    labels: Mapping[str, str]
    default: int
    minimum: int = 0
    maximum: int = 1000
    source: str = ""


@dataclass(slots=True)
class TurnStats:
    """What one turn produced, for the Monte Carlo tables."""

    turn: int
    resources: int = 0  # resources, energy or skills available
    cards_played: int = 0
    damage: int = 0
    hand_size: int = 0


@dataclass
class GameResult:
    seed: int
    turns: list[TurnStats]
    won_on_turn: int | None  # the turn the goldfish was beaten, None if not within the turn limit
    log: list[Event]


class Policy(Protocol):
    """The choices a game leaves to the player; each engine defines what it asks."""

    name: str


class GameState:
    """Shared state of every engine: the random generator, the turn counter and the log."""

    def __init__(self, seed: int, log_events: bool = True) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        self.turn = 0
        self.log_events = log_events
        self.log: list[Event] = []
        self.stats: list[TurnStats] = []
        self.won_on_turn: int | None = None

    def record(self, kind: str, card: SimCard | None = None, amount: int | None = None, detail: str = "") -> None:
        if self.log_events:
            self.log.append(Event(self.turn, kind, card.name if card else None, amount, detail))

    def shuffle(self, cards: list[SimCard]) -> None:
        self.rng.shuffle(cards)
        self.record("shuffle", amount=len(cards))


class Engine(Protocol):
    """What every game's goldfish engine offers; registered under the game's slug."""

    game: str
    main_zone: str  # the zone the engine shuffles and draws from
    optional_zones: tuple[str, ...]  # zones it plays without
    opening_hand: int
    parameters: Sequence[Parameter]
    policies: Mapping[str, Any]

    def new_game(self, deck: SimDeck, seed: int, params: Mapping[str, int], policy: str, log: bool = True) -> Any: ...

    def play_turn(self, state: Any) -> None: ...

    def is_over(self, state: Any) -> bool: ...

    def draw_schedule(self, turns: int, first_player: bool) -> list[int]: ...


def play_game(
    engine: Engine,
    deck: SimDeck,
    seed: int,
    turns: int = 10,
    params: Mapping[str, int] | None = None,
    policy: str = "default",
    log: bool = True,
) -> GameResult:
    """Play one game for up to ``turns`` turns (or until it is over) and return what happened."""
    state = engine.new_game(deck, seed, {**default_parameters(engine), **(params or {})}, policy, log)
    while state.turn < turns and not engine.is_over(state):
        engine.play_turn(state)
    return GameResult(seed=seed, turns=state.stats, won_on_turn=state.won_on_turn, log=state.log)


def default_parameters(engine: Engine) -> dict[str, int]:
    return {parameter.slug: parameter.default for parameter in engine.parameters}


def cards_seen_by_turn(engine: Engine, turns: int, first_player: bool) -> list[int]:
    """How many cards a player has drawn in all by the end of each turn's draw (opening hand included)."""
    seen = []
    total = engine.opening_hand
    for drawn in engine.draw_schedule(turns, first_player):
        total += drawn
        seen.append(total)
    return seen
