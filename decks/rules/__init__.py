"""Registry of each game's deck rules, keyed by the game's slug (see ``base.DeckRules``)."""

from __future__ import annotations

from cardsite.registry import Registry

from .base import DeckRules

RULE_MODULES: tuple[str, ...] = ("endbreaker", "shadowera", "suikoden", "epicbattles")

_registry: Registry[DeckRules] = Registry(__name__, RULE_MODULES, lambda rules: rules.game)
register = _registry.register
get_rules = _registry.get


def all_rules() -> list[DeckRules]:
    return _registry.all()


def declares_placeholders(slug: str) -> bool:
    """Whether a deck of the game ``slug`` may hold placeholder cards (its rules declare placeholder kinds)."""
    try:
        return bool(get_rules(slug).placeholders)
    except KeyError:
        return False  # a game without deck rules has no decks at all
