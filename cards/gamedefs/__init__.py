"""Registry of game definitions, keyed by slug.

Adding a game means adding a module here that calls ``register`` and listing it
in ``GAME_MODULES``; nothing else branches on a game's slug.
"""

from __future__ import annotations

from importlib import import_module

from .base import LANGUAGES, FieldSpec, GameDefinition, KindSpec

GAME_MODULES: tuple[str, ...] = ("endbreaker", "shadowera", "suikoden", "epicbattles")

_registry: dict[str, GameDefinition] = {}
_loaded = False


def register(definition: GameDefinition) -> GameDefinition:
    if definition.slug in _registry and _registry[definition.slug] is not definition:
        raise ValueError(f"game {definition.slug!r} registered twice")
    _registry[definition.slug] = definition
    return definition


def _load() -> None:
    # A flag, not an empty registry: a module imported directly registers itself early.
    global _loaded
    if not _loaded:
        for module in GAME_MODULES:
            import_module(f"{__name__}.{module}")
        _loaded = True


def get_game(slug: str) -> GameDefinition:
    """The definition of game ``slug``; KeyError if no such game is registered."""
    _load()
    return _registry[slug]


def all_games() -> list[GameDefinition]:
    _load()
    return sorted(_registry.values(), key=lambda game: (game.sort_order, game.slug))


__all__ = ["LANGUAGES", "FieldSpec", "GameDefinition", "KindSpec", "all_games", "get_game", "register"]
