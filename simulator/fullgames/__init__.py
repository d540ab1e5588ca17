"""Registry of whole games (a game played to its end by strategies, beside its goldfish), keyed by the game's
slug. Plain Python, no Django.

A game registers a ``FullGame``: the card values its set-up reads (``card_needs``, which the map of what is
missing counts as blocking the simulator), its shipped strategies, and how its set-up is built from the cards
the database knows (``build_setup``). The pages, the API and the map ask this registry; a game without a
whole game is simply absent from it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from cardsite.labels import N_, Labels
from cardsite.registry import Registry

from ..core import CardNeed, SimCard

FULLGAME_MODULES: tuple[str, ...] = ("endbreaker",)


@dataclass(frozen=True)
class Refused:
    """One reason a set-up cannot be built from the database: a card (``key``) that lacks ``field`` (None: the
    card itself is not in the database; then ``kind`` is the kind it should have), needed for ``role``."""

    key: str
    field: str | None
    role: str
    kind: str | None = None


# What a set-up's choices can get wrong, one message per code (the pages put them in the reader's language).
SETUP_PROBLEMS: dict[str, str] = {
    "not_choosable": N_("%(key)s is not a card that can be chosen as a pile."),
    "choose_count": N_("Choose %(count)s piles, not %(chosen)s."),
    "counts": N_("The cards do not make a set-up: %(detail)s"),
}


@dataclass(frozen=True)
class SetupProblem:
    """A choice that does not make a set-up: a code of ``SETUP_PROBLEMS`` and its parameters."""

    code: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        return SETUP_PROBLEMS[self.code] % dict(self.params)


class SetupRefused(Exception):
    """The cards in the database cannot make a set-up; ``refused`` names each missing card and value, and
    ``problems`` (``SetupProblem``) the choices that do not add up."""

    def __init__(self, refused: Sequence[Refused], problems: Sequence[SetupProblem] = ()) -> None:
        self.refused = list(refused)
        self.problems = list(problems)
        super().__init__("; ".join([*(f"{r.key}.{r.field or '*'}" for r in self.refused), *map(str, self.problems)]))


@dataclass(frozen=True)
class SearchHooks:
    """How a whole game searches for a strategy (its engine's search, e.g. ``endbreaker_game.evolve``):
    ``start(seed, setup, players, config)`` a state (``config``: parameters besides the defaults);
    ``step(state, setup, generations)`` the state after them; ``report(state, setup, games)`` an object with
    ``strategy``, ``text`` (in the strategy syntax) and ``against`` (shipped name -> win rate, low, high, games);
    ``to_dict`` / ``from_dict`` the state as JSON."""

    start: Callable[[int, Any, int, dict[str, Any]], Any]
    step: Callable[[Any, Any, int], Any]
    report: Callable[[Any, Any, int], Any]
    to_dict: Callable[[Any], dict[str, Any]]
    from_dict: Callable[[dict[str, Any]], Any]


@dataclass(frozen=True)
class FullGame:
    game: str
    names: Labels  # the whole game's name, as the map of what is missing says what a gap blocks
    card_needs: tuple[CardNeed, ...]
    strategies: Mapping[str, Any]  # name -> the engine's strategy
    strategy_labels: Mapping[str, Labels]
    roles: Mapping[str, Labels]  # the roles of Refused, named
    # (cards of the game, chosen option keys) -> the engine's set-up; raises SetupRefused
    build_setup: Callable[[Sequence[SimCard], Sequence[str]], Any]
    choosable: tuple[str, ...] = field(default=())  # the kinds a user chooses piles of (and how many)
    choose_count: int = 0
    # Strategies players write (the editor, the API): (text, name, spellings, gainable keys) -> the engine's
    # strategy, or an exception whose ``problems`` each have ``line``, ``code`` and ``params``; the codes'
    # templates are ``strategy_messages`` (N_-marked, put in the reader's language by the pages).
    # (None for the spellings and the gainable keys: any word is a key, as in a text ``write_strategy`` wrote.)
    read_strategy: Callable[[str, str, Mapping[str, str] | None, frozenset[str] | None], Any] | None = None
    write_strategy: Callable[[Any], str] | None = None  # the engine's strategy as the text read_strategy reads
    strategy_messages: Mapping[str, str] = field(default_factory=dict)
    gainable_kinds: tuple[str, ...] = ()  # the kinds a strategy may name in a gain line
    # The choices a strategy answers: question -> an object with ``phrase`` (as printed) and ``default``.
    questions: Mapping[str, Any] = field(default_factory=dict)
    syntax_template: str = ""  # the editor's help for this game's strategy syntax
    # Played one choice at a time (a person in one seat, or watched turn by turn): the set-up's type (to store and
    # read it back), ``advance(setup, strategies (None: the person), seed, answers, after_turns=)`` -> an object
    # with ``game``, ``pending`` (``seat``, ``kind``, ``options``) and ``answered``, raising ``wrong_answer`` for an
    # answer not offered; ``table_view(game, person seat or None, texts=card key -> text)`` -> plain data; the log's
    # event kinds.
    setup_type: type | None = None
    advance: Callable[..., Any] | None = None
    table_view: Callable[..., dict[str, Any]] | None = None
    wrong_answer: type[Exception] = ValueError
    # A pending choice in words: (kind, options, card names by key, language) -> (prompt, a label per option).
    describe_choice: Callable[[str, Sequence[str], Mapping[str, str], str], tuple[str, list[str]]] | None = None
    # (kind, options) -> the answer that plays the hand's next card, or None when the choice is not one of playing
    # a card or only stopping is left (the page's "play my whole hand"; None: the game offers no such thing).
    next_play: Callable[[str, Sequence[str]], str | None] | None = None
    event_kinds: tuple[Any, ...] = ()
    search: SearchHooks | None = None  # searching for a strategy on a set-up (None: the game has no search)
    # (set-up, language) -> the assumptions a set-up's results rest on that the reader should see beside them.
    result_notes: Callable[[Any, str], list[str]] | None = None


_registry: Registry[FullGame] = Registry(__name__, FULLGAME_MODULES, lambda game: game.game)
register = _registry.register


def has_fullgame(slug: str) -> bool:
    return get_fullgame(slug) is not None


def get_fullgame(slug: str) -> FullGame | None:
    """The whole game of ``slug``, or None if the game has none."""
    try:
        return _registry.get(slug)
    except KeyError:
        return None


def all_fullgames() -> list[FullGame]:
    return _registry.all()
