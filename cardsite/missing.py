"""The map of what is missing of one game (plain Python, no Django).

What a game lacks is measured against its own declarations: the card totals, runs of numbers, kinds,
fields and text languages of its card declarations (``cards.gamedefs``); the cards its deck rules cannot
do without and the fields they read (``decks.rules``: ``DeckRules.card_requirements``, ``field_needs``);
the card values its goldfish reads (``simulator.core.Engine.card_needs``), and those its whole game reads where it has
one (``simulator.fullgames.FullGame.card_needs``: they block the simulator). The counts come from
``cards.missing.selectors.game_gaps``; nothing here knows a game by name, so a fifth game's map is its modules'.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from .labels import Labels


@dataclass(frozen=True)
class TotalRow:
    """Cards known against cards expected, of one kind or of all (``kind`` None); ``expected`` None: unknown."""

    kind: str | None
    known: int
    expected: int | None = None
    source: Labels = dataclasses.field(default_factory=dict)


@dataclass(frozen=True)
class NumberGap:
    """The numbers of a declared run that no card has."""

    first: str
    last: str
    source: Labels
    missing: tuple[str, ...]


@dataclass(frozen=True)
class FieldGap:
    kind: str
    field: str
    unknown: int
    cards: int


@dataclass(frozen=True)
class TextGap:
    language: str
    missing: int
    original: bool


@dataclass(frozen=True)
class StaleGap:
    """Translations in one language whose original text changed since they were made."""

    language: str
    count: int
    listed: tuple[Any, ...]  # the first of them (``cards.missing.selectors.StaleTranslation``)


@dataclass(frozen=True)
class Shortfall:
    """Fewer different cards of the kinds a deck zone needs than a legal deck holds: no deck can be legal."""

    mode: Labels  # the deck rules' mode, named
    zone: Any  # decks.rules.base.Zone
    kinds: tuple[str, ...]
    needed: int
    known: int
    rule: Any  # decks.rules.base.Rule


@dataclass(frozen=True)
class ValueGap:
    """A field the deck rules or the goldfish read, unknown on some of the cards they read it on."""

    field: str
    kinds: tuple[str, ...]
    known: int
    cards: int
    blocks: Labels = dataclasses.field(default_factory=dict)  # the goldfish's words for what it cannot do
    rule: Any = None  # the deck rule that cannot be checked
    mode: Labels = dataclasses.field(default_factory=dict)  # its mode, named


@dataclass
class MissingMap:
    cards: int
    incomplete: int
    unknown_kind: int
    totals: list[TotalRow]
    numbers: list[NumberGap]
    fields: list[FieldGap]
    texts: list[TextGap]
    shortfalls: list[Shortfall]
    rule_gaps: list[ValueGap]
    goldfish_gaps: list[ValueGap]
    several_modes: bool = False  # the deck rules have more than one mode: each deck gap names its own
    stale: list[StaleGap] = dataclasses.field(default_factory=list)
    simulator_gaps: list[ValueGap] = dataclasses.field(default_factory=list)  # the whole game's

    @property
    def blocked(self) -> bool:
        return bool(self.shortfalls or self.rule_gaps or self.goldfish_gaps or self.simulator_gaps)


def _kinds_with(definition: Any, kinds: tuple[str, ...], field_name: str) -> tuple[str, ...]:
    """Of ``kinds`` (empty: all), those whose cards carry ``field_name``."""
    declared = [kind for kind in definition.kinds if not kinds or kind.slug in kinds]
    return tuple(kind.slug for kind in declared if field_name in kind.fields)


def _value_gaps(definition: Any, needs: Any, gaps: Any) -> list[ValueGap]:
    found = []
    for card_need in needs:
        kinds = _kinds_with(definition, card_need.kinds, card_need.field)
        known, cards = gaps.known(kinds, card_need.field)
        if known < cards or cards == 0:
            found.append(ValueGap(card_need.field, kinds, known, cards, blocks=card_need.blocks))
    return found


def build_map(definition: Any, rules: Any, engine: Any, gaps: Any, fullgame: Any = None) -> MissingMap:
    """The map of ``definition``'s game from its deck ``rules``, its goldfish ``engine``, its whole game
    (``fullgame``) and the counted ``gaps``; a part that is None (the game has none) adds no rows."""
    by_kind = gaps.by_kind
    totals = [
        TotalRow(
            kind=total.kind,
            known=gaps.cards if total.kind is None else by_kind.get(total.kind, 0),
            expected=total.count,
            source=total.source,
        )
        for total in definition.card_totals
    ]
    if not any(total.kind is None for total in totals):
        totals.insert(0, TotalRow(kind=None, known=gaps.cards))
    numbers = []
    for declared in definition.number_ranges:
        missing = tuple(number for number in declared.numbers() if number not in gaps.numbers_seen)
        numbers.append(
            NumberGap(declared.number(declared.first), declared.number(declared.last), declared.source, missing)
        )
    fields = [
        FieldGap(kind.slug, name, gaps.unknown(kind.slug, name), by_kind.get(kind.slug, 0))
        for kind in definition.kinds
        for name in kind.fields
    ]
    texts = [
        TextGap(language, gaps.cards - gaps.texts.get(language, 0), language == definition.original_language)
        for language in definition.text_languages
    ]
    # A part is None where no installed app declares it (cards.extensions.missing_part): it then adds no rows.
    modes = {mode.slug: mode.labels for mode in rules.modes} if rules is not None else {}
    shortfalls = []
    for requirement in rules.card_requirements() if rules is not None else ():
        kinds = requirement.kinds or tuple(kind.slug for kind in definition.kinds)
        known = sum(by_kind.get(kind, 0) for kind in kinds)
        if known < requirement.different:
            shortfalls.append(
                Shortfall(
                    modes[requirement.mode], requirement.zone, kinds, requirement.different, known, requirement.rule
                )
            )
    rule_gaps = []
    for need in rules.field_needs() if rules is not None else ():
        kinds = _kinds_with(definition, need.kinds, need.field)
        known, cards = gaps.known(kinds, need.field)
        if known < cards:
            rule_gaps.append(ValueGap(need.field, kinds, known, cards, rule=need.rule, mode=modes[need.mode]))
    goldfish_gaps = _value_gaps(definition, engine.card_needs, gaps) if engine is not None else []
    simulator_gaps = _value_gaps(definition, fullgame.card_needs, gaps) if fullgame is not None else []
    return MissingMap(
        cards=gaps.cards,
        incomplete=gaps.incomplete,
        unknown_kind=by_kind.get(None, 0),
        totals=totals,
        numbers=numbers,
        fields=fields,
        texts=texts,
        shortfalls=shortfalls,
        rule_gaps=rule_gaps,
        goldfish_gaps=goldfish_gaps,
        simulator_gaps=simulator_gaps,
        several_modes=len(modes) > 1,
        stale=[
            StaleGap(
                language,
                gaps.stale.counts.get(language, 0),
                tuple(item for item in gaps.stale.listed if item.language == language),
            )
            for language in definition.translation_languages
        ],
    )
