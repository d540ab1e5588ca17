"""Registry of each game's deck rules, keyed by the game's slug (see ``base.DeckRules``)."""

from __future__ import annotations

from importlib import import_module

from .base import DeckRules

RULE_MODULES: tuple[str, ...] = ("endbreaker", "shadowera", "suikoden", "epicbattles")

_registry: dict[str, DeckRules] = {}
_loaded = False


def register(rules: DeckRules) -> DeckRules:
    _registry[rules.game] = rules
    return rules


def get_rules(game: str) -> DeckRules:
    """The deck rules of ``game``; KeyError if the game has none."""
    global _loaded
    if not _loaded:  # a flag, not an empty registry: a module imported directly registers itself early
        for module in RULE_MODULES:
            import_module(f"{__name__}.{module}")
        _loaded = True
    return _registry[game]
