"""The simulator's part of the start-up checks (``cardsite.checks``): each goldfish engine plays zones the
game's decks have, deals a game holding what it declares, reads fields the cards have, and says every label
and message in each interface language; each whole game is of a known game and reads fields its cards have."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from django.core import checks

from cards.checks import CARD_DECLARATIONS
from cardsite.checks import GamePart, check_labels, error, placeholders, register_game_part, register_registry_check
from cardsite.labels import LANGUAGES, Labels
from decks.checks import DECK_RULES

from . import engines, fullgames

GOLDFISH_ENGINE = "goldfish engine"


def _labels_of_engine(engine: Any) -> Iterator[tuple[str, Labels]]:
    for zone in engine.zones:
        yield f"zone {zone.slug}", zone.labels
    for counter in engine.counters:
        yield f"counter {counter.slug}", counter.labels
    for kind in engine.event_kinds:
        yield f"event kind {kind.slug}", kind.labels
    for message in engine.messages:
        yield f"message {message.slug}", message.templates
    for slug, policy in engine.policies.items():
        yield f"policy {slug}", policy.labels
    for need in engine.card_needs:
        yield f"what {need.field} of {', '.join(need.kinds)} blocks", need.blocks
    for parameter in engine.parameters:
        yield f"parameter {parameter.slug}", parameter.labels
        if parameter.source:
            yield f"source of parameter {parameter.slug}", parameter.source
        for choice in parameter.choices:
            yield f"choice {choice.value} of parameter {parameter.slug}", choice.labels
    for statistic in ("resources", "cards_played", "damage"):
        yield f"statistic {statistic}", getattr(engine.turn_stats, statistic)


def _check_messages(owner: str, engine: Any) -> list[checks.CheckMessage]:
    found: list[checks.CheckMessage] = []
    from .core import CORE_MESSAGES

    for message in (*CORE_MESSAGES, *engine.messages):
        names = {language: placeholders(message.templates.get(language, "")) for language in LANGUAGES}
        if len({frozenset(value) for value in names.values()}) > 1:
            found.append(
                error(
                    6,
                    f"{owner}: the message {message.slug} takes different parameters in different languages: {names}.",
                )
            )
    return found


def _check_engine(slug: str, game: dict[str, Any]) -> list[checks.CheckMessage]:
    definition, rules, engine = game[CARD_DECLARATIONS], game[DECK_RULES], game[GOLDFISH_ENGINE]
    zones = {zone.slug for zone in rules.zones}
    found: list[checks.CheckMessage] = []
    for zone in (engine.main_zone, *engine.optional_zones):
        if zone not in zones:
            found.append(error(3, f"{slug}: the goldfish plays zone {zone!r}, which decks do not have."))
    for need in engine.card_needs:
        for kind in need.kinds or ("",):
            spec = definition.kind(kind)
            if spec is None or need.field not in spec.fields:
                found.append(
                    error(7, f"{slug}: the goldfish reads {need.field!r} of kind {kind!r}, which its cards lack.")
                )
    found += _check_state(slug, engine)
    found += check_labels(f"{slug} goldfish", _labels_of_engine(engine))
    found += _check_messages(f"{slug} goldfish", engine)
    return found


def _check_state(slug: str, engine: Any) -> list[checks.CheckMessage]:
    from .core import SimDeck, default_parameters

    try:
        state = engine.new_game(SimDeck(slug, {}), 0, default_parameters(engine), "default", False)
    except Exception as failure:  # the check reports a broken engine instead of failing
        return [error(4, f"{slug}: the goldfish cannot deal an empty deck: {failure!r}.")]
    return [
        error(
            4,
            f"{slug}: the goldfish declares {what} {spec.slug} in attribute {spec.attribute!r}, which its game lacks.",
        )
        for what, specs in (("zone", engine.zones), ("counter", engine.counters))
        for spec in specs
        if not hasattr(state, spec.attribute)
    ]


def _check_fullgames(registries: dict[str, dict[str, Any]]) -> list[checks.CheckMessage]:
    """A whole game (``simulator.fullgames``) is of a known game, reads fields its cards have, and names every
    strategy and role in each language."""
    definitions = registries[CARD_DECLARATIONS]
    found: list[checks.CheckMessage] = []
    for fullgame in fullgames.all_fullgames():
        slug = fullgame.game
        definition = definitions.get(slug)
        if definition is None:
            found.append(error(1, f"{slug}: a whole game is registered for a game with no card declarations."))
            continue
        for need in fullgame.card_needs:
            for kind in need.kinds:
                spec = definition.kind(kind)
                if spec is None or need.field not in spec.fields:
                    found.append(
                        error(7, f"{slug}: the whole game reads {need.field!r} of kind {kind!r}, which its cards lack.")
                    )
        labelled = [("name", fullgame.names)]
        labelled += [(f"what {need.field} blocks", need.blocks) for need in fullgame.card_needs]
        labelled += [(f"strategy {name}", fullgame.strategy_labels.get(name, {})) for name in fullgame.strategies]
        labelled += [(f"role {role}", labels) for role, labels in fullgame.roles.items()]
        found += check_labels(f"{slug} whole game", labelled)
    return found


def register() -> None:
    register_game_part(
        GamePart(GOLDFISH_ENGINE, "simulator/engines", lambda: engines.all_engines(), lambda e: e.game, _check_engine)
    )
    register_registry_check(_check_fullgames)
