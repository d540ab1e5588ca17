"""Registry of each game's deck rules, keyed by the game's slug (see ``base.DeckRules``)."""

from __future__ import annotations

from importlib import import_module

from .base import DeckRules

RULE_MODULES: tuple[str, ...] = ("endbreaker", "shadowera", "suikoden", "epicbattles")

_registry: dict[str, DeckRules] = {}


def register(rules: DeckRules) -> DeckRules:
    _registry[rules.game] = rules
    return rules


def get_rules(game: str) -> DeckRules:
    """The deck rules of ``game``; KeyError if the game has none."""
    if not _registry:
        for module in RULE_MODULES:
            import_module(f"{__name__}.{module}")
    return _registry[game]
