"""The card declarations' part of the start-up checks (``cardsite.checks``): labels in every language, and
what the map of what is missing reads of them (card totals, text languages, runs of numbers)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from django.core import checks

from cardsite.checks import GamePart, check_labels, error, register_game_part
from cardsite.labels import LANGUAGES, Labels

from . import gamedefs

CARD_DECLARATIONS = "card declarations"


def _labels_of_game(definition: Any) -> Iterator[tuple[str, Labels]]:
    yield "name", definition.names
    for spec in definition.fields:
        yield f"field {spec.name}", spec.labels
        if spec.unit:
            yield f"unit of field {spec.name}", spec.unit
        for value, labels in spec.type.labelled_values():
            yield f"value {value!r} of field {spec.name}", labels
    for kind in definition.kinds:
        yield f"kind {kind.slug}", kind.labels
    for total in definition.card_totals:
        yield f"source of the total of {total.kind or 'all'} cards", total.source
    for numbers in definition.number_ranges:
        yield f"source of the numbers {numbers.prefix}", numbers.source


def _check_cards(slug: str, game: dict[str, Any]) -> list[checks.CheckMessage]:
    definition = game[CARD_DECLARATIONS]
    found: list[checks.CheckMessage] = []
    for total in definition.card_totals:
        if total.kind is not None and definition.kind(total.kind) is None:
            found.append(error(7, f"{slug}: a card total counts kind {total.kind!r}, which its cards lack."))
    for language in definition.text_languages:
        if language not in LANGUAGES:
            found.append(error(7, f"{slug}: card texts are declared in {language!r}, not a language of the site."))
    for numbers in definition.number_ranges:
        for number in (numbers.number(numbers.first), numbers.number(numbers.last)):
            if definition.check_number(number, 32) is not None:
                found.append(error(7, f"{slug}: the declared number {number} does not fit its number pattern."))
    found += check_labels(f"{slug} cards", _labels_of_game(definition))
    return found


def register() -> None:
    # A lambda, so that the registry is read when the checks run (tests replace ``gamedefs.all_games``).
    register_game_part(
        GamePart(CARD_DECLARATIONS, "cards/gamedefs", lambda: gamedefs.all_games(), lambda d: d.slug, _check_cards)
    )
