"""Registry of game definitions, keyed by slug.

Adding a game means adding a module here that calls ``register`` and listing it
in ``GAME_MODULES``; nothing else branches on a game's slug.
"""

from __future__ import annotations

from cardsite.labels import LANGUAGES
from cardsite.registry import Registry

from .base import FieldSpec, GameDefinition, KindSpec

GAME_MODULES: tuple[str, ...] = ("endbreaker", "shadowera", "suikoden", "epicbattles")

_registry: Registry[GameDefinition] = Registry(__name__, GAME_MODULES, lambda game: game.slug)
register = _registry.register
get_game = _registry.get


def all_games() -> list[GameDefinition]:
    return sorted(_registry.all(), key=lambda game: (game.sort_order, game.slug))


__all__ = ["LANGUAGES", "FieldSpec", "GameDefinition", "KindSpec", "all_games", "get_game", "register"]
