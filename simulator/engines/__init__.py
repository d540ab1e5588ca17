"""Registry of goldfish engines, keyed by the game's slug (see ``simulator.core.Engine``)."""

from __future__ import annotations

from typing import Any

from cardsite.registry import Registry

from ..core import Engine

ENGINE_MODULES: tuple[str, ...] = ("shadowera", "epicbattles", "suikoden", "endbreaker")

_registry: Registry[Engine[Any]] = Registry(__name__, ENGINE_MODULES, lambda engine: engine.game)
register = _registry.register
get_engine = _registry.get


def all_engines() -> list[Engine[Any]]:
    return _registry.all()
