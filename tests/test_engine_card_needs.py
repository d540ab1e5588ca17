"""Every card value a goldfish engine reads is one it declares (``Engine.card_needs``): the assumptions page asks
only for declared values, so a value read but not declared would silently fall back to a default.

Each engine plays decks of one card of every kind its game declares (every declared value filled, from the
synthetic cards of ``tests/synthetic_decks.py`` where they give one), with every card's values wrapped in a
mapping that records what is read."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from cards.gamedefs import get_game as get_definition
from cards.gamedefs.base import BooleanType, ChoiceListType, ChoiceType, IntegerType
from decks.rules import get_rules
from simulator.core import SimCard, SimDeck, play_game
from simulator.engines import get_engine

from .synthetic_decks import CARDS, ENGINE_SLUGS, SIM_DECKS, sim_card


class Recording(Mapping[str, Any]):
    """A card's values that note each one read (by the card's kind), whether the card has it or not."""

    def __init__(self, values: Mapping[str, Any], kind: str | None, reads: set[tuple[str | None, str]]) -> None:
        self.stated, self.kind, self.reads = dict(values), kind, reads

    def __getitem__(self, name: str) -> Any:
        self.reads.add((self.kind, name))
        return self.stated[name]

    def get(self, name: str, default: Any = None) -> Any:
        self.reads.add((self.kind, name))
        return self.stated.get(name, default)

    def __contains__(self, name: object) -> bool:
        if isinstance(name, str):
            self.reads.add((self.kind, name))
        return name in self.stated

    def __iter__(self) -> Iterator[str]:
        return iter(self.stated)

    def __len__(self) -> int:
        return len(self.stated)


def _sample(game: str, name: str, spec_type: Any, *, zero: bool) -> Any:
    """A value for ``name``: a synthetic card's where one gives it, else one the type accepts (with ``zero``, a
    whole number is its least: free cards, which an engine plays at once and chains)."""
    if zero and isinstance(spec_type, IntegerType):
        return spec_type.minimum or 0
    for record in CARDS[game]:
        if name in record["fields"]:
            return record["fields"][name]
    if isinstance(spec_type, BooleanType):
        return True
    if isinstance(spec_type, IntegerType):
        return max(spec_type.minimum or 0, 1)
    if isinstance(spec_type, ChoiceListType):
        return [spec_type.choices[0]]
    if isinstance(spec_type, ChoiceType):
        return spec_type.choices[0]
    return "1"


def _recorded_deck(game: str, reads: set[tuple[str | None, str]], variant: str) -> SimDeck:
    """The game's synthetic deck, and four copies of a card of every kind in the zone the rules put it in; in the
    ``lacking`` variant the added cards state no value at all (the engine then reads the values it would default),
    in the ``zero`` one their whole numbers are the least allowed."""
    definition = get_definition(game)
    rules = get_rules(game)
    zones: dict[str, list[tuple[SimCard, int]]] = {}
    for zone, entries in SIM_DECKS[game].items():
        for key, count in entries:
            found = sim_card(game, key)
            recorded = SimCard(key, found.name, found.kind, Recording(found.fields, found.kind, reads))
            zones.setdefault(zone, []).append((recorded, count))
    for kind in definition.kinds:
        home = next((z.slug for z in rules.zones if not z.fixed and (not z.kinds or kind.slug in z.kinds)), None)
        if home is None:
            continue
        specs = [] if variant == "lacking" else definition.fields_for_kind(kind.slug)
        values = {spec.name: _sample(game, spec.name, spec.type, zero=variant == "zero") for spec in specs}
        card = SimCard(f"Test {kind.slug}", f"Test {kind.slug}", kind.slug, Recording(values, kind.slug, reads))
        zones.setdefault(home, []).append((card, 4))
    return SimDeck.from_counts(game, zones)


@pytest.mark.parametrize("game", ENGINE_SLUGS)
def test_every_value_an_engine_reads_is_declared_in_its_card_needs(game):
    engine = get_engine(game)
    definition = get_definition(game)
    reads: set[tuple[str | None, str]] = set()
    for variant in ("filled", "zero", "lacking"):
        for policy in engine.policies:
            for seed in range(4):
                play_game(engine, _recorded_deck(game, reads, variant), seed, turns=12, policy=policy)
    assert reads, "the engine read no value: the deck did not exercise it"
    undeclared = sorted(
        (kind, name)
        for kind, name in reads
        if kind is not None
        and any(spec.name == name for spec in definition.fields_for_kind(kind))  # a value of the card's kind
        and not any(need.field == name and (not need.kinds or kind in need.kinds) for need in engine.card_needs)
    )
    assert undeclared == [], f"{game} reads values its card_needs does not declare: {undeclared}"


@pytest.mark.parametrize("game", ENGINE_SLUGS)
def test_what_an_unknown_value_blocks_is_said_in_english_to_an_english_reader(game):
    """The map of what is missing says in English what each gap blocks; a game's own term may follow its English
    name in brackets ("Commerce (商業)"), as printed, but a sentence is not carried by Japanese words."""
    outside_brackets = re.compile(r"\([^)]*\)|\[[^\]]*\]")
    japanese = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")
    for need in get_engine(game).card_needs:
        english = need.blocks["en"]
        assert not japanese.search(outside_brackets.sub("", english)), f"{game} {need.field}: {english}"
