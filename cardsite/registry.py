"""A registry of per-game modules, keyed by the game's slug (plain Python, no Django).

Each concern (card fields, deck rules, goldfish engine) keeps one registry; a game's
module registers itself when imported, and the registry imports every listed module
the first time it is asked, so adding a game means adding a module and listing it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from importlib import import_module
from typing import Generic, TypeVar

T = TypeVar("T")


class Registry(Generic[T]):
    def __init__(self, package: str, modules: Iterable[str], slug_of: Callable[[T], str]) -> None:
        self.package = package
        self.modules = tuple(modules)
        self.slug_of = slug_of
        self._items: dict[str, T] = {}
        self._loaded = False

    def register(self, item: T) -> T:
        slug = self.slug_of(item)
        if slug in self._items and self._items[slug] is not item:
            raise ValueError(f"{self.package}: {slug!r} registered twice")
        self._items[slug] = item
        return item

    def _load(self) -> None:
        # A flag, not an empty registry: a module imported directly registers itself early.
        if not self._loaded:
            for module in self.modules:
                import_module(f"{self.package}.{module}")
            self._loaded = True

    def get(self, slug: str) -> T:
        """The item registered for ``slug``; KeyError if there is none."""
        self._load()
        return self._items[slug]

    def all(self) -> list[T]:
        self._load()
        return list(self._items.values())
