"""What a ``game:`` or ``kind:`` value may name, in every language (plain Python).

The registered games' and kinds' names are folded once per set of games.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..gamedefs import all_games
from .normalize import fold


@dataclass(frozen=True)
class Names:
    """What a game: or kind: value may name, by its folded form: game slugs, (game slug, kind slug) pairs."""

    games: dict[str, list[str]]
    kinds: dict[str, list[tuple[str, str]]]


_names_cache: dict[tuple[int, ...], Names] = {}


def names() -> Names:
    """The names of the registered games and kinds in every language, folded once per set of games."""
    games = all_games()
    key = tuple(id(game) for game in games)
    if key not in _names_cache:
        by_game: dict[str, list[str]] = {}
        by_kind: dict[str, list[tuple[str, str]]] = {}
        for game in games:
            for name in {game.slug, *(fold(name) for name in game.names.values())}:
                by_game.setdefault(name, []).append(game.slug)
            for kind in game.kinds:
                for name in {kind.slug, *(fold(label) for label in kind.labels.values())}:
                    by_kind.setdefault(name, []).append((game.slug, kind.slug))
        _names_cache.clear()
        _names_cache[key] = Names(by_game, by_kind)
    return _names_cache[key]
