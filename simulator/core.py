"""The goldfish engine core (plain Python, no Django).

A game's engine (``simulator.engines.<slug>``) plays one player's deck against an
opponent who does nothing. Everything random goes through one seeded
``random.Random``, so a game replays exactly from its seed; every choice the rules
leave to the player goes through a policy object; everything that happens is
appended to the event log the pages render.
"""

from __future__ import annotations

import random
from _random import Random as _MersenneTwister
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Generic, NamedTuple, Protocol, TypeVar

from cardsite.labels import Labels

S = TypeVar("S", bound="GameState")
F = TypeVar("F")


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


class PerDeck(Generic[F]):
    """What an engine works out of a deck's cards once and shares among all the deck's games (it never changes).

    Keyed by the deck object itself, so a deck read again from the database is worked out again; only the
    last few decks are kept.
    """

    def __init__(self, work_out: Callable[[SimDeck], F], keep: int = 32) -> None:
        self.work_out = work_out
        self.keep = keep
        self._found: dict[int, tuple[SimDeck, F]] = {}

    def __call__(self, deck: SimDeck) -> F:
        found = self._found.get(id(deck))
        if found is None or found[0] is not deck:  # a deck made since at the address of one gone
            if len(self._found) >= self.keep:
                self._found.clear()
            found = self._found[id(deck)] = (deck, self.work_out(deck))
        return found[1]


NO_PARAMS: Mapping[str, Any] = MappingProxyType({})
_new_tuple = tuple.__new__


class Event(NamedTuple):
    """One thing that happened: a declared kind (draw, play, attack …), the card concerned, an amount,
    and what more there is to say as a declared message with its parameters (never free text).

    A named tuple rather than a dataclass: the log of a sample hand makes thousands of these, and a
    tuple is made several times faster.
    """

    turn: int
    kind: str
    card: str | None = None  # the card's name, when one is involved
    amount: int | None = None
    message: str = ""  # the slug of a declared Message, or ""
    params: Mapping[str, Any] = NO_PARAMS


@dataclass(frozen=True)
class EventKind:
    """A kind of event an engine logs, with its name in each language."""

    slug: str
    labels: Labels


@dataclass(frozen=True)
class Message:
    """What an event may add, in each language; ``{name}`` places take the event's parameters."""

    slug: str
    templates: Labels


@dataclass(frozen=True)
class ZoneSpec:
    """A zone of a game in progress that the sample hand shows: the state attribute holding it (a list
    of cards or of cards in play — anything with ``card``, ``ready`` and ``attack`` — or one card or None)."""

    slug: str
    labels: Labels
    attribute: str
    hidden: bool = False  # only its size is shown (the order of a deck is secret)


@dataclass(frozen=True)
class CounterSpec:
    """A number (or yes/no) of a game in progress that the sample hand shows."""

    slug: str
    labels: Labels
    attribute: str


@dataclass(frozen=True)
class StatLabels:
    """What each per-turn statistic means in this game (Monte Carlo charts and tables)."""

    resources: Labels
    cards_played: Labels
    damage: Labels


@dataclass(frozen=True)
class Choice:
    """One value a parameter with declared choices may take, named in three languages."""

    value: int
    labels: Labels


@dataclass(frozen=True)
class Parameter:
    """A number the goldfish needs that no source gives; stated with its default beside the results.

    With ``choices`` it is one of those values only (say, going first or second), chosen from a list.
    """

    slug: str
    labels: Labels
    default: int
    minimum: int = 0
    maximum: int = 1000
    source: Labels = field(default_factory=dict)
    choices: tuple[Choice, ...] = ()

    def allows(self, value: int) -> bool:
        if self.choices:
            return any(choice.value == value for choice in self.choices)
        return self.minimum <= value <= self.maximum


@dataclass(frozen=True)
class CardNeed:
    """A card value the goldfish reads, on cards of ``kinds``; ``blocks`` says what it cannot do where no
    source gives the value (the map of what is missing shows it: "the goldfish deals nothing")."""

    field: str
    kinds: tuple[str, ...]
    blocks: Labels


class Policy(Protocol):
    """The choices a game leaves to the player; each engine defines what it asks, and names it."""

    @property
    def name(self) -> str: ...

    @property
    def labels(self) -> Labels: ...


@dataclass(slots=True)
class TurnStats:
    """What one turn produced, for the Monte Carlo tables (each game says what ``resources`` means)."""

    turn: int
    resources: int = 0
    cards_played: int = 0
    damage: int = 0
    hand_size: int = 0


@dataclass
class GameResult:
    seed: int
    turns: list[TurnStats]
    won_on_turn: int | None  # the turn the goldfish was beaten, None if not within the turn limit
    state: GameState = field(repr=False)

    @property
    def log(self) -> list[Event]:
        """The game's events (read from the state when asked: a Monte Carlo run never asks)."""
        return self.state.log


class SeededRandom(random.Random):
    """``random.Random(seed)`` for a whole-number seed, made faster: the same generator in the same state.

    ``random.Random.seed`` only checks the seed's type before handing a whole number to the C generator;
    calling that directly saves a third of the cost of making the generator, which every game pays.
    """

    def __init__(self, seed: int) -> None:
        _MersenneTwister.seed(self, seed)
        self.gauss_next = None


class GameState:
    """Shared state of every engine: the random generator, the turn counter and the log.

    Events are kept as plain tuples holding the card itself (``events``), the cheapest thing to
    append; ``log`` turns them into ``Event`` objects when something reads it. A hot loop may
    append to ``events`` directly, in the same shape.
    """

    def __init__(self, seed: int, log_events: bool = True) -> None:
        self.seed = seed
        self.rng: random.Random = SeededRandom(seed)
        self.turn = 0
        self.log_events = log_events
        self.events: list[tuple[int, str, SimCard | None, int | None, str, Mapping[str, Any]]] = []
        self._read: list[Event] = []
        self.stats: list[TurnStats] = []
        self.won_on_turn: int | None = None
        self.deck: list[SimCard] = []
        self.hand: list[SimCard] = []

    def record(
        self, kind: str, card: SimCard | None = None, amount: int | None = None, message: str = "", **params: Any
    ) -> None:
        if self.log_events:
            self.events.append((self.turn, kind, card, amount, message, params or NO_PARAMS))

    @property
    def log(self) -> list[Event]:
        """Every event so far, in order (made from ``events`` as they are read)."""
        read = self._read
        for turn, kind, card, amount, message, params in self.events[len(read) :]:
            if params and any(isinstance(value, tuple) for value in params.values()):
                # Cards given as parameters (the allies that attacked) are named, as the event's card is.
                params = {
                    name: tuple(item.name if isinstance(item, SimCard) else item for item in value)
                    if isinstance(value, tuple)
                    else value
                    for name, value in params.items()
                }
            read.append(_new_tuple(Event, (turn, kind, card.name if card else None, amount, message, params)))
        return read

    def shuffle(self, cards: list[SimCard]) -> None:
        """``self.rng.shuffle(cards)`` written out: the same algorithm drawing the same random numbers (so the
        same order from the same seed, tested), without the Python call ``random.shuffle`` makes a card."""
        getrandbits = self.rng.getrandbits
        for last, choices, bits in _shuffle_steps(len(cards)):
            # random's _randbelow(last + 1): whole numbers of as many bits as last + 1 has, until one is below it
            chosen = getrandbits(bits)
            while chosen >= choices:
                chosen = getrandbits(bits)
            cards[last], cards[chosen] = cards[chosen], cards[last]
        if self.log_events:
            self.events.append((self.turn, "shuffle", None, len(cards), "", NO_PARAMS))

    def draw_top(self) -> SimCard | None:
        """The card on top of the deck (the end of the list), or None when the deck is empty."""
        return self.deck.pop() if self.deck else None


_SHUFFLE_STEPS: dict[int, tuple[tuple[int, int, int], ...]] = {}


def _shuffle_steps(size: int) -> tuple[tuple[int, int, int], ...]:
    """The steps of shuffling ``size`` cards, worked out once per size: each place from the last down to the
    second, how many cards it may swap with, and the bits of a random number below that."""
    found = _SHUFFLE_STEPS.get(size)
    if found is None:
        found = tuple((last, last + 1, (last + 1).bit_length()) for last in range(size - 1, 0, -1))
        if size <= 4096:
            _SHUFFLE_STEPS[size] = found
    return found


# What every engine logs, whatever its game.
CORE_EVENT_KINDS: tuple[EventKind, ...] = (
    EventKind("draw", {"ja": "ドロー", "zh-hant": "抽牌", "en": "draw"}),
    EventKind("shuffle", {"ja": "シャッフル", "zh-hant": "洗牌", "en": "shuffle"}),
    EventKind("play", {"ja": "プレイ", "zh-hant": "打出", "en": "play"}),
    EventKind("attack", {"ja": "攻撃", "zh-hant": "攻擊", "en": "attack"}),
    EventKind("damage", {"ja": "ダメージ", "zh-hant": "傷害", "en": "damage"}),
    EventKind("discard", {"ja": "捨て札", "zh-hant": "棄牌", "en": "discard"}),
    EventKind("note", {"ja": "注記", "zh-hant": "備註", "en": "note"}),
    EventKind("win", {"ja": "勝利", "zh-hant": "勝利", "en": "win"}),
    EventKind("lose", {"ja": "敗北", "zh-hant": "敗北", "en": "loss"}),
)
CORE_MESSAGES: tuple[Message, ...] = (
    Message("opening_hand", {"ja": "最初の手札", "zh-hant": "起手手牌", "en": "opening hand"}),
    Message(
        "extra_draw",
        {
            "ja": "追加ドロー（ターンの手順外）",
            "zh-hant": "額外抽牌（回合流程之外）",
            "en": "extra draw (outside the turn structure)",
        },
    ),
    Message(
        "extra_draw_empty",
        {
            "ja": "追加ドロー：デッキが空なので引けません",
            "zh-hant": "額外抽牌：牌庫已空，沒有抽到牌",
            "en": "extra draw: the deck is empty, nothing drawn",
        },
    ),
    Message("not_simulated", {"ja": "効果は再現していません", "zh-hant": "效果未重現", "en": "effect not simulated"}),
    Message("end_of_turn", {"ja": "ターン終了", "zh-hant": "回合結束", "en": "end of turn"}),
)


class Engine(Protocol[S]):
    """What every game's goldfish engine offers and declares; registered under the game's slug.

    The pages, the API and the statistics read only these declarations: the zones and counters a
    game in progress shows, the kinds of event and the messages it logs, what its per-turn
    statistics mean, its stated parameters and its policies (each with labels in three languages).
    """

    # Read-only (properties in the protocol), so an engine may declare them as class attributes of any
    # sequence type.
    @property
    def game(self) -> str: ...

    @property
    def main_zone(self) -> str:
        """The deck zone it shuffles and draws from."""
        ...

    @property
    def optional_zones(self) -> tuple[str, ...]:
        """Deck zones it plays without."""
        ...

    @property
    def in_play_zone(self) -> str | None:
        """The deck zone whose card is in play from the start, outside the hand and the deck (Shadow Era's hero,
        Epic Battles' character); the sample hand shows it beside the hand. None: the game has none."""
        ...

    @property
    def opening_hand(self) -> int: ...

    @property
    def parameters(self) -> Sequence[Parameter]: ...

    @property
    def card_needs(self) -> Sequence[CardNeed]:
        """The card values it reads, and what it cannot do without them (empty: it reads none)."""
        ...

    @property
    def policies(self) -> Mapping[str, Policy]: ...

    @property
    def zones(self) -> Sequence[ZoneSpec]: ...

    @property
    def counters(self) -> Sequence[CounterSpec]: ...

    @property
    def event_kinds(self) -> Sequence[EventKind]:
        """Besides CORE_EVENT_KINDS."""
        ...

    @property
    def messages(self) -> Sequence[Message]:
        """Besides CORE_MESSAGES."""
        ...

    @property
    def turn_stats(self) -> StatLabels: ...

    def new_game(self, deck: SimDeck, seed: int, params: Mapping[str, int], policy: str, log: bool = True) -> S: ...

    def play_turn(self, state: S) -> None: ...

    def is_over(self, state: S) -> bool: ...

    def draw_schedule(self, turns: int, first_player: bool) -> list[int]: ...

    def extra_draw(self, state: S) -> SimCard | None:
        """Draw one card outside the turn structure, as this game draws (None: the deck is empty)."""
        ...


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
    defaults = _defaults(engine)
    state = engine.new_game(deck, seed, {**defaults, **params} if params else defaults, policy, log)
    play_turn, is_over = engine.play_turn, engine.is_over  # looked up once, not each turn
    while state.turn < turns and not is_over(state):
        play_turn(state)
    return GameResult(seed, state.stats, state.won_on_turn, state)


def default_parameters(engine: Engine) -> dict[str, int]:
    return {parameter.slug: parameter.default for parameter in engine.parameters}


# Each engine's defaults, worked out once (``play_game`` is called for every game of a Monte Carlo run), with the
# parameters they were worked out from: an engine's declared parameters never change, but are checked by identity.
_DEFAULTS: dict[int, tuple[Sequence[Parameter], Mapping[str, int]]] = {}


def _defaults(engine: Engine) -> Mapping[str, int]:
    """``default_parameters``, read-only and shared by the games of an engine."""
    found = _DEFAULTS.get(id(engine))
    if found is None or found[0] is not engine.parameters:
        found = _DEFAULTS[id(engine)] = (engine.parameters, MappingProxyType(default_parameters(engine)))
    return found[1]


def opening_hand(engine: Engine, params: Mapping[str, int]) -> int:
    """How many cards a game opens with: the engine's number, or its stated parameter ``opening_hand`` when no
    source gives the number (エンドブレイカー！SCG)."""
    return params.get("opening_hand", engine.opening_hand)


def cards_seen_by_turn(engine: Engine, turns: int, first_player: bool) -> list[int]:
    """How many cards a player has drawn in all by the end of each turn's draw (opening hand included)."""
    seen = []
    total = engine.opening_hand
    for drawn in engine.draw_schedule(turns, first_player):
        total += drawn
        seen.append(total)
    return seen
