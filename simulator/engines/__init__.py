"""Registry of goldfish engines, keyed by the game's slug."""

from __future__ import annotations

from importlib import import_module
from typing import Any

ENGINE_MODULES: tuple[str, ...] = ("shadowera", "epicbattles", "suikoden", "endbreaker")

_registry: dict[str, Any] = {}
_loaded = False


def register(engine: Any) -> Any:
    _registry[engine.game] = engine
    return engine


def get_engine(game: str) -> Any:
    """The engine of ``game``; KeyError if it has none."""
    global _loaded
    if not _loaded:  # a flag, not an empty registry: a module imported directly registers itself early
        for module in ENGINE_MODULES:
            import_module(f"{__name__}.{module}")
        _loaded = True
    return _registry[game]
