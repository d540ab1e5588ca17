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
