"""Start-up checks (Django's system-check framework) that every game's declarations fit together.

A game is three modules found by its slug: its cards (``cards.gamedefs``), its deck rules
(``decks.rules``) and its goldfish engine (``simulator.engines``). Nothing else knows a game, so these
checks are what proves, before any request, that a game's modules agree with each other:

- ``cardsite.E001`` a game lacks one of the three modules;
- ``cardsite.E002`` a deck zone, a rule or a chart names a kind or field the game's cards do not have;
- ``cardsite.E003`` an engine draws from, or does without, a zone the game's decks do not have;
- ``cardsite.E004`` an engine's declared zone or counter is not in a game it deals;
- ``cardsite.E005`` a label lacks one of the interface languages (ja, zh-hant, en);
- ``cardsite.E006`` a message's languages do not take the same parameters;
- ``cardsite.E007`` the map of what is missing cannot read a game's declarations: an engine reads a
  field, or a card total counts a kind, the game's cards do not have, a language is not one of the
  site's, or a run of numbers does not fit the game's number pattern.

Run with ``manage.py check``; the test suite runs them too (tests/test_checks.py).
"""

from __future__ import annotations

import string
from collections.abc import Iterable, Iterator
from typing import Any

from django.core import checks

from .labels import LANGUAGES, Labels, missing


def _error(code: int, message: str, hint: str = "", obj: Any = None) -> checks.Error:
    return checks.Error(message, hint=hint or None, obj=obj, id=f"cardsite.E{code:03d}")


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


def _labels_of_rules(rules: Any) -> Iterator[tuple[str, Labels]]:
    for zone in rules.zones:
        yield f"zone {zone.slug}", zone.labels
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


def _placeholders(template: str) -> set[str]:
    return {name for _text, name, _spec, _conversion in string.Formatter().parse(template) if name}


def _check_labels(owner: str, labelled: Iterable[tuple[str, Labels]]) -> list[checks.CheckMessage]:
    found: list[checks.CheckMessage] = []
    for what, labels in labelled:
        lacking = missing(labels)
        if lacking:
            found.append(
                _error(
                    5,
                    f"{owner}: the {what} has no text in {', '.join(lacking)}.",
                    "Give every label ja, zh-hant and en.",
                )
            )
    return found


def _check_messages(owner: str, engine: Any) -> list[checks.CheckMessage]:
    found: list[checks.CheckMessage] = []
    from simulator.core import CORE_MESSAGES

    for message in (*CORE_MESSAGES, *engine.messages):
        names = {language: _placeholders(message.templates.get(language, "")) for language in LANGUAGES}
        if len({frozenset(value) for value in names.values()}) > 1:
            found.append(
                _error(
                    6,
                    f"{owner}: the message {message.slug} takes different parameters in different languages: {names}.",
                )
            )
    return found


def _check_game(slug: str, definition: Any, rules: Any, engine: Any) -> list[checks.CheckMessage]:
    found: list[checks.CheckMessage] = []
    kinds = {kind.slug for kind in definition.kinds}
    fields = {spec.name for spec in definition.fields}
    zones = {zone.slug for zone in rules.zones}
    for zone in rules.zones:
        for kind in zone.kinds:
            if kind not in kinds:
                found.append(
                    _error(2, f"{slug}: deck zone {zone.slug} takes kind {kind!r}, which its cards do not have.")
                )
    for mode in rules.modes:
        if not mode.checked:
            continue
        for rule in rules.rules(mode.slug, rules.default_options()):
            for zone in getattr(rule, "zones", ()):
                if zone not in zones:
                    found.append(_error(2, f"{slug}: rule {rule.id} counts zone {zone!r}, which decks do not have."))
            for kind in getattr(rule, "kinds", ()):
                if kind not in kinds:
                    found.append(_error(2, f"{slug}: rule {rule.id} names kind {kind!r}, which its cards do not have."))
            field_name = getattr(rule, "field_name", "")
            if field_name and field_name not in fields:
                found.append(
                    _error(2, f"{slug}: rule {rule.id} adds up field {field_name!r}, which cards do not have.")
                )
    for field_name in rules.chart_fields:
        if field_name not in fields:
            found.append(_error(2, f"{slug}: the builder charts field {field_name!r}, which cards do not have."))
    for zone in (engine.main_zone, *engine.optional_zones):
        if zone not in zones:
            found.append(_error(3, f"{slug}: the goldfish plays zone {zone!r}, which decks do not have."))
    found += _check_missing_map(slug, definition, engine)
    found += _check_state(slug, engine)
    found += _check_labels(f"{slug} cards", _labels_of_game(definition))
    found += _check_labels(f"{slug} deck rules", _labels_of_rules(rules))
    found += _check_labels(f"{slug} goldfish", _labels_of_engine(engine))
    found += _check_messages(f"{slug} goldfish", engine)
    return found


def _check_missing_map(slug: str, definition: Any, engine: Any) -> list[checks.CheckMessage]:
    found: list[checks.CheckMessage] = []
    for need in engine.card_needs:
        for kind in need.kinds or ("",):
            spec = definition.kind(kind)
            if spec is None or need.field not in spec.fields:
                found.append(
                    _error(7, f"{slug}: the goldfish reads {need.field!r} of kind {kind!r}, which its cards lack.")
                )
    for total in definition.card_totals:
        if total.kind is not None and definition.kind(total.kind) is None:
            found.append(_error(7, f"{slug}: a card total counts kind {total.kind!r}, which its cards lack."))
    for language in definition.text_languages:
        if language not in LANGUAGES:
            found.append(_error(7, f"{slug}: card texts are declared in {language!r}, not a language of the site."))
    for numbers in definition.number_ranges:
        for number in (numbers.number(numbers.first), numbers.number(numbers.last)):
            if definition.check_number(number, 32) is not None:
                found.append(_error(7, f"{slug}: the declared number {number} does not fit its number pattern."))
    return found


def _check_state(slug: str, engine: Any) -> list[checks.CheckMessage]:
    from simulator.core import SimDeck, default_parameters

    try:
        state = engine.new_game(SimDeck(slug, {}), 0, default_parameters(engine), "default", False)
    except Exception as error:  # the check reports a broken engine instead of failing
        return [_error(4, f"{slug}: the goldfish cannot deal an empty deck: {error!r}.")]
    return [
        _error(
            4,
            f"{slug}: the goldfish declares {what} {spec.slug} in attribute {spec.attribute!r}, which its game lacks.",
        )
        for what, specs in (("zone", engine.zones), ("counter", engine.counters))
        for spec in specs
        if not hasattr(state, spec.attribute)
    ]


@checks.register()
def games_fit_together(app_configs: Any = None, **kwargs: Any) -> list[checks.CheckMessage]:
    from cards.gamedefs import all_games
    from decks.rules import all_rules
    from simulator.engines import all_engines

    definitions = {definition.slug: definition for definition in all_games()}
    rules = {item.game: item for item in all_rules()}
    engines = {engine.game: engine for engine in all_engines()}
    found: list[checks.CheckMessage] = []
    for slug in sorted(set(definitions) | set(rules) | set(engines)):
        parts = {"card declarations": definitions, "deck rules": rules, "goldfish engine": engines}
        lacking = [name for name, registry in parts.items() if slug not in registry]
        if lacking:
            found.append(
                _error(
                    1,
                    f"{slug}: no {', no '.join(lacking)}.",
                    "Each game has a module in cards/gamedefs, decks/rules and simulator/engines.",
                )
            )
            continue
        found += _check_game(slug, definitions[slug], rules[slug], engines[slug])
    found += _check_fullgames(definitions)
    return found


def _check_fullgames(definitions: dict[str, Any]) -> list[checks.CheckMessage]:
    """A whole game (``simulator.fullgames``) is of a known game, reads fields its cards have, and names every
    strategy and role in each language."""
    from simulator.fullgames import all_fullgames

    found: list[checks.CheckMessage] = []
    for fullgame in all_fullgames():
        slug = fullgame.game
        definition = definitions.get(slug)
        if definition is None:
            found.append(_error(1, f"{slug}: a whole game is registered for a game with no card declarations."))
            continue
        for need in fullgame.card_needs:
            for kind in need.kinds:
                spec = definition.kind(kind)
                if spec is None or need.field not in spec.fields:
                    found.append(
                        _error(
                            7, f"{slug}: the whole game reads {need.field!r} of kind {kind!r}, which its cards lack."
                        )
                    )
        labelled = [("name", fullgame.names)]
        labelled += [(f"what {need.field} blocks", need.blocks) for need in fullgame.card_needs]
        labelled += [(f"strategy {name}", fullgame.strategy_labels.get(name, {})) for name in fullgame.strategies]
        labelled += [(f"role {role}", labels) for role, labels in fullgame.roles.items()]
        found += _check_labels(f"{slug} whole game", labelled)
    return found
