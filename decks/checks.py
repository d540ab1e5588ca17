"""The deck rules' part of the start-up checks (``cardsite.checks``): each rule, zone and chart names kinds and
fields the game's cards have, and every label is in each interface language."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from django.core import checks

from cards.checks import CARD_DECLARATIONS
from cardsite.checks import GamePart, check_labels, error, register_game_part
from cardsite.labels import Labels

from . import rules as deck_rules

DECK_RULES = "deck rules"


def _labels_of_rules(rules: Any) -> Iterator[tuple[str, Labels]]:
    for zone in rules.zones:
        yield f"zone {zone.slug}", zone.labels
        if zone.adding:
            yield f"button adding to zone {zone.slug}", zone.adding
    for mode in rules.modes:
        yield f"mode {mode.slug}", mode.labels
        if mode.win_conditions:
            yield f"win conditions of mode {mode.slug}", mode.win_conditions
        for rule in rules.rules(mode.slug, rules.default_options()) if mode.checked else ():
            yield f"rule {rule.id}", rule.texts
    for option in rules.options:
        yield f"option {option.slug}", option.labels
        if option.help:
            yield f"help of option {option.slug}", option.help
    if rules.notes:
        yield "notes", rules.notes


def _check_rules(slug: str, game: dict[str, Any]) -> list[checks.CheckMessage]:
    definition, rules = game[CARD_DECLARATIONS], game[DECK_RULES]
    found: list[checks.CheckMessage] = []
    kinds = {kind.slug for kind in definition.kinds}
    fields = {spec.name for spec in definition.fields}
    zones = {zone.slug for zone in rules.zones}
    for zone in rules.zones:
        for kind in zone.kinds:
            if kind not in kinds:
                found.append(
                    error(2, f"{slug}: deck zone {zone.slug} takes kind {kind!r}, which its cards do not have.")
                )
    for mode in rules.modes:
        if not mode.checked:
            continue
        for rule in rules.rules(mode.slug, rules.default_options()):
            for zone in getattr(rule, "zones", ()):
                if zone not in zones:
                    found.append(error(2, f"{slug}: rule {rule.id} counts zone {zone!r}, which decks do not have."))
            for kind in getattr(rule, "kinds", ()):
                if kind not in kinds:
                    found.append(error(2, f"{slug}: rule {rule.id} names kind {kind!r}, which its cards do not have."))
            field_name = getattr(rule, "field_name", "")
            if field_name and field_name not in fields:
                found.append(error(2, f"{slug}: rule {rule.id} adds up field {field_name!r}, which cards do not have."))
    for field_name in rules.chart_fields:
        if field_name not in fields:
            found.append(error(2, f"{slug}: the builder charts field {field_name!r}, which cards do not have."))
    found += check_labels(f"{slug} deck rules", _labels_of_rules(rules))
    return found


def register() -> None:
    register_game_part(
        GamePart(DECK_RULES, "decks/rules", lambda: deck_rules.all_rules(), lambda rules: rules.game, _check_rules)
    )
