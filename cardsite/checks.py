"""Start-up checks (Django's system-check framework) that every game's declarations fit together.

A game is a module in each app that declares a part of it, found by the game's slug: its cards
(``cards.gamedefs``), its deck rules (``decks.rules``) and its goldfish engine (``simulator.engines``).
Each of those apps registers its part here in its ``AppConfig.ready()`` (``register_game_part``), with the
check of how its part agrees with the parts below it; this module knows no app. The ids:

- ``cardsite.E001`` a game lacks one of its parts;
- ``cardsite.E002`` a deck zone, a rule or a chart names a kind or field the game's cards do not have (decks);
- ``cardsite.E003`` an engine draws from, or does without, a zone the game's decks do not have (simulator);
- ``cardsite.E004`` an engine's declared zone or counter is not in a game it deals (simulator);
- ``cardsite.E005`` a label lacks one of the interface languages (ja, zh-hant, en);
- ``cardsite.E006`` a message's languages do not take the same parameters (simulator);
- ``cardsite.E007`` the map of what is missing cannot read a game's declarations: an engine reads a
  field, or a card total counts a kind, the game's cards do not have, a language is not one of the
  site's, or a run of numbers does not fit the game's number pattern.

Run with ``manage.py check``; the test suite runs them too (tests/test_checks.py).
"""

from __future__ import annotations

import string
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from django.core import checks

from .labels import Labels, missing

# A check of one game: its slug and its parts by name ("card declarations", "deck rules", …).
GameCheck = Callable[[str, dict[str, Any]], list[checks.CheckMessage]]


@dataclass(frozen=True)
class GamePart:
    """One app's part of every game: what it is called, where its modules live, how to list them, and how a
    game's part is checked against the parts registered before it (None: nothing to check)."""

    name: str
    home: str
    items: Callable[[], Iterable[Any]]
    slug_of: Callable[[Any], str]
    check: GameCheck | None = None


_parts: dict[str, GamePart] = {}
_registry_checks: list[Callable[[dict[str, dict[str, Any]]], list[checks.CheckMessage]]] = []


def register_game_part(part: GamePart) -> None:
    """Add an app's part of every game; the apps register in ``INSTALLED_APPS`` order (lowest first)."""
    _parts[part.name] = part


def register_registry_check(check: Callable[[dict[str, dict[str, Any]]], list[checks.CheckMessage]]) -> None:
    """Add a check of a whole registry, given every part's items by slug (a whole game, which not every game has)."""
    if check not in _registry_checks:
        _registry_checks.append(check)


def error(code: int, message: str, hint: str = "", obj: Any = None) -> checks.Error:
    return checks.Error(message, hint=hint or None, obj=obj, id=f"cardsite.E{code:03d}")


def placeholders(template: str) -> set[str]:
    return {name for _text, name, _spec, _conversion in string.Formatter().parse(template) if name}


def check_labels(owner: str, labelled: Iterable[tuple[str, Labels]]) -> list[checks.CheckMessage]:
    found: list[checks.CheckMessage] = []
    for what, labels in labelled:
        lacking = missing(labels)
        if lacking:
            found.append(
                error(
                    5,
                    f"{owner}: the {what} has no text in {', '.join(lacking)}.",
                    "Give every label ja, zh-hant and en.",
                )
            )
    return found


@checks.register()
def games_fit_together(app_configs: Any = None, **kwargs: Any) -> list[checks.CheckMessage]:
    parts = list(_parts.values())
    registries = {part.name: {part.slug_of(item): item for item in part.items()} for part in parts}
    homes = [part.home for part in parts]
    hint = f"Each game has a module in {', '.join(homes[:-1])} and {homes[-1]}." if len(homes) > 1 else ""
    found: list[checks.CheckMessage] = []
    for slug in sorted(set().union(*registries.values())):
        lacking = [name for name, registry in registries.items() if slug not in registry]
        if lacking:
            found.append(error(1, f"{slug}: no {', no '.join(lacking)}.", hint))
            continue
        game = {name: registry[slug] for name, registry in registries.items()}
        for part in parts:
            if part.check is not None:
                found += part.check(slug, game)
    for check in _registry_checks:
        found += check(registries)
    return found
