"""Reads of a deck's assumed values: as the engines read them (through ``overlay``), every value the whole game
still lacks with the assumptions in (grouped by card and by value, with counts), and the assumptions the card
database has since answered."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import get_language

from cards.filling import where_to_fill
from cards.models import Card, Game
from cards.presentation import field_label, format_value, kind_label
from cardsite.labels import pick
from decks.models import Deck

from ..adapters import is_placeholder, sim_card, sim_deck
from ..core import Engine, SimCard, SimDeck
from ..fullgames import FullGame, SetupRefused
from ..models import DeckAssumption
from .overlay import Assumed, assumed_card_kind, overlay

KIND_FIELD = "kind"


def deck_assumed(deck: Deck) -> list[Assumed]:
    """The deck's assumptions as the plain-Python cores read them (each field's type's ``plain``)."""
    definition = deck.game.definition
    found = []
    for row in DeckAssumption.objects.filter(deck=deck).order_by("key", "field"):
        spec = definition.field(row.field)
        found.append(Assumed(row.key, row.field, spec.type.plain(row.value) if spec is not None else row.value))
    return found


def count(deck: Deck) -> int:
    """How many values the deck assumes."""
    return DeckAssumption.objects.filter(deck=deck).count()


def from_stored(stored: list[dict[str, Any]], game: Game) -> list[Assumed]:
    """A result's stored assumptions (``stored_copy``) as the plain-Python cores read them."""
    definition = game.definition
    found = []
    for row in stored:
        spec = definition.field(row["field"])
        found.append(Assumed(row["key"], row["field"], spec.type.plain(row["value"]) if spec else row["value"]))
    return found


def stored_copy(deck: Deck | None) -> list[dict[str, Any]]:
    """The deck's assumptions as a result keeps them (``ComparisonRun.assumptions``), stored values as stored."""
    if deck is None:
        return []
    rows = DeckAssumption.objects.filter(deck=deck).order_by("key", "field").values("key", "field", "value")
    return [dict(row) for row in rows]


def overlaid_cards(cards: list[SimCard], deck: Deck | None) -> list[SimCard]:
    """The game's cards with ``deck``'s assumptions overlaid (none: the cards as they are)."""
    return overlay(cards, deck_assumed(deck)) if deck is not None else cards


@dataclass(frozen=True)
class MissingValue:
    """One value the whole game still lacks (``field`` None: too few cards of ``kind`` for the set-up)."""

    key: str
    name: str
    field: str | None
    field_label: str
    role: str
    kind: str | None
    url: str  # the contribution form that would make the value a contribution
    name_language: str | None = None  # the language of ``name`` when it is not the reader's (a Japanese name)


@dataclass
class MissingList:
    values: list[MissingValue]
    cards: list[MissingValue]  # cards the set-up lacks (field None)

    @property
    def by_card(self) -> list[tuple[str, str, list[MissingValue]]]:
        grouped: dict[str, list[MissingValue]] = {}
        for value in self.values:
            grouped.setdefault(value.key, []).append(value)
        return [(key, rows[0].name, rows) for key, rows in grouped.items()]

    @property
    def by_field(self) -> list[tuple[str, str, int]]:
        """(field, its label, how many values of it are missing), the most missing first."""
        counts = Counter(value.field for value in self.values)
        labels = {value.field: value.field_label for value in self.values}
        return [(name, labels[name], count) for name, count in counts.most_common() if name is not None]

    @property
    def total(self) -> int:
        return len(self.values)


def missing_values(game: Game, fullgame: FullGame, deck: Deck, piles: list[str], language: str) -> MissingList:
    """Every value the whole game would read on ``deck``'s piles and neither the database nor the deck's
    assumptions give, and the cards the set-up lacks. While a card is missing the set-up is not built, so the
    values the game reads (``FullGame.card_needs``) are asked of every card there is, as the engine would."""
    cards = overlaid_cards(_game_cards(game, language), deck)
    by_key = {card.key: card for card in cards}
    try:
        fullgame.build_setup(cards, piles)
        return MissingList([], [])
    except SetupRefused as refused:
        entries = [(entry.key, entry.field, entry.role, entry.kind) for entry in refused.refused]
    lacking_cards = [entry for entry in entries if entry[1] is None]
    needed = [(key, name, role, kind) for key, name, role, kind in entries if name is not None]
    if lacking_cards:
        listed = {(key, name) for key, name, _role, _kind in needed}
        definition = game.definition
        for card in cards:
            for need in fullgame.card_needs:
                if need.kinds and card.kind not in need.kinds:
                    continue
                if card.kind is not None and not any(
                    spec.name == need.field for spec in definition.fields_for_kind(card.kind)
                ):
                    continue
                if card.value(need.field) is None and (card.key, need.field) not in listed:
                    listed.add((card.key, need.field))
                    needed.append((card.key, need.field, card.kind or "", card.kind))
    stored = Card.objects.filter(game=game, key__in={key for key, *_rest in needed}).prefetch_related("texts")
    languages = {card.key: card.shown_name(language).language for card in stored.select_related("game")}
    values = []
    for key, name, role, _kind in needed:
        assert name is not None
        known = by_key.get(key)
        role_label = pick(fullgame.roles.get(role, {}), language) or kind_label(game, role, language) or role
        values.append(
            MissingValue(
                key=key,
                name=known.name if known is not None else key,
                field=name,
                field_label=_field_label(game, name, language),
                role=role_label,
                kind=known.kind if known is not None else None,
                url=contribution_url(game, key, name),
                name_language=_foreign(languages.get(key), language),
            )
        )
    missing_cards = [
        MissingValue(key, key, None, "", pick(fullgame.roles.get(role, {}), language) or role, kind, "")
        for key, _name, role, kind in lacking_cards
    ]
    return MissingList(values, missing_cards)


def _foreign(code: str | None, language: str) -> str | None:
    """``code``, the language of a shown name, when it is not the reader's ``language``."""
    return code if code and code.lower() != language.lower() else None


def engine_missing_values(engine: Engine[Any], deck: Deck, language: str, played: SimDeck | None = None) -> MissingList:
    """For a game without a whole game: every value its goldfish engine reads (``Engine.card_needs``, declared
    once per engine) that a card of ``deck`` lacks, the deck's assumptions in. Placeholder cards state their
    values and are left out; no card is ever lacking, so ``cards`` is empty (no assumed cards for these games).
    ``played``: the deck as ``adapters.sim_deck`` gives it, when the caller has it."""
    game = deck.game
    definition = game.definition
    played = played if played is not None else sim_deck(deck, language)
    values: list[MissingValue] = []
    seen: set[tuple[str, str]] = set()
    for cards in played.zones.values():
        for card in cards:
            if is_placeholder(card) or card.kind is None:
                continue
            declared = {spec.name for spec in definition.fields_for_kind(card.kind)}
            for need in engine.card_needs:
                if (need.kinds and card.kind not in need.kinds) or need.field not in declared:
                    continue
                if card.value(need.field) is not None or (card.key, need.field) in seen:
                    continue
                seen.add((card.key, need.field))
                values.append(
                    MissingValue(
                        key=card.key,
                        name=card.name,
                        field=need.field,
                        field_label=_field_label(game, need.field, language),
                        role=kind_label(game, card.kind, language),
                        kind=card.kind,
                        url=contribution_url(game, card.key, need.field),
                    )
                )
    return MissingList(values, [])


def deck_missing_values(deck: Deck, language: str) -> MissingList:
    """Every value the deck's game still lacks on the deck: its whole game's where it has one, else its goldfish
    engine's (``engine_missing_values``)."""
    from ..engines import get_engine
    from ..fullgames import get_fullgame
    from ..setups import selectors as setup_selectors

    fullgame = get_fullgame(deck.game.slug)
    if fullgame is None:
        return engine_missing_values(get_engine(deck.game.slug), deck, language)
    piles = setup_selectors.deck_piles(deck, fullgame)
    return missing_values(deck.game, fullgame, deck, piles, language)


def goldfish_unknown(deck: Deck, language: str, played: SimDeck | None = None) -> int:
    """How many values the goldfish engine reads that the deck's cards lack (0 for a game with a whole game,
    whose own page says what it lacks): the goldfish and deck pages link to the assumptions page when any."""
    from ..engines import get_engine
    from ..fullgames import get_fullgame

    if get_fullgame(deck.game.slug) is not None:
        return 0
    return engine_missing_values(get_engine(deck.game.slug), deck, language, played).total


def _game_cards(game: Game, language: str) -> list[SimCard]:
    from ..shared.selectors import game_cards

    return game_cards(game, language)


def _field_label(game: Game, name: str, language: str) -> str:
    return field_label(game, name, language)


def contribution_url(game: Game, key: str, name: str) -> str:
    """The contribution form that would make an assumed value a contribution: the card's form at the field, or
    for an assumed card the form of a new card of its kind."""
    kind = assumed_card_kind(key)
    if kind is not None:
        return where_to_fill(game, kind=kind)
    return where_to_fill(game, key, field=None if name == KIND_FIELD else name)


@dataclass(frozen=True)
class Answered:
    """An assumption the card database has since answered: assumed ``assumed``, the database now says ``known``."""

    key: str
    name: str
    field: str
    field_label: str
    assumed: Any
    known: Any


def answered(deck: Deck, language: str) -> list[Answered]:
    """The deck's assumptions whose value the card database now gives (the database's value is the one played)."""
    rows = list(DeckAssumption.objects.filter(deck=deck).order_by("key", "field"))
    cards = {
        card.key: card
        for card in Card.objects.filter(game=deck.game, key__in={row.key for row in rows})
        .select_related("game")
        .prefetch_related("texts")
    }
    found = []
    for row in rows:
        card = cards.get(row.key)
        if card is None:
            continue
        checked = sim_card(card, language)
        known = checked.kind if row.field == KIND_FIELD else checked.fields.get(row.field)
        if known is not None:
            found.append(
                Answered(
                    row.key,
                    checked.name,
                    row.field,
                    _field_label(deck.game, row.field, language),
                    row.value,
                    known,
                )
            )
    return found


@dataclass(frozen=True)
class NamedAssumption:
    """One assumption of a result, as its page lists it: the value and where it would be contributed."""

    key: str
    field: str
    field_label: str
    value: Any
    url: str
    shown: str = ""  # the value as the pages print a card's: a list joined, a boolean as yes or no, a choice's label


def named(game: Game, stored: list[dict[str, Any]], language: str) -> list[NamedAssumption]:
    """A result's stored assumptions (``stored_copy``) as its page lists them."""
    return [
        NamedAssumption(
            row["key"],
            row["field"],
            _field_label(game, row["field"], language),
            row["value"],
            contribution_url(game, row["key"], row["field"]),
            format_value(game.definition.field(row["field"]), row["value"], language),
        )
        for row in stored
    ]


def named_of_deck(deck: Deck, language: str | None = None) -> list[NamedAssumption]:
    """The deck's assumptions now, as a page or the API lists them (``language``: the request's)."""
    return named(deck.game, stored_copy(deck), language or get_language() or "ja")


def assumes(deck: Deck, key: str, name: str) -> bool:
    """Whether the deck assumes this value of this card already."""
    return DeckAssumption.objects.filter(deck=deck, key=key, field=name).exists()


def named_one(deck: Deck, key: str, name: str, language: str | None = None) -> NamedAssumption:
    """One assumption of the deck, as ``named_of_deck`` lists it (it must exist)."""
    row = DeckAssumption.objects.values("key", "field", "value").get(deck=deck, key=key, field=name)
    return named(deck.game, [dict(row)], language or get_language() or "ja")[0]


def exported(items: Sequence[NamedAssumption], absolute: Callable[[str], str]) -> list[dict[str, Any]]:
    """``items`` as the API and a result's export give them: the contribution form's address made whole by
    ``absolute`` (``request.build_absolute_uri``)."""
    return [
        {
            "key": item.key,
            "field": item.field,
            "field_label": item.field_label,
            "value": item.value,
            "contribute_url": absolute(item.url),
        }
        for item in items
    ]


def stored_used(deck: Deck, applied: Sequence[Assumed]) -> list[dict[str, Any]]:
    """Of the deck's assumptions (``stored_copy``), those a computation filled a value with (``overlay.applied``),
    as a result keeps them."""
    used = {(entry.key, entry.field) for entry in applied}
    return [row for row in stored_copy(deck) if (row["key"], row["field"]) in used]


def used_by(deck: Deck, applied: Sequence[Assumed], language: str) -> list[NamedAssumption]:
    """The assumptions a computation on ``deck`` filled a value with, as its page and its export list them."""
    return named(deck.game, stored_used(deck, applied), language) if applied else []


def sheet(missing: MissingList, deck: Deck) -> str:
    """The sheet to fill offline: every missing value (value empty), then the deck's assumptions (filled)."""
    from cardsite.csvfiles import dumps

    from .services import SHEET_HEADER

    rows: list[list[Any]] = [[value.key, value.name, value.field, ""] for value in missing.values]
    rows += [[row["key"], row["key"], row["field"], row["value"]] for row in stored_copy(deck)]
    return dumps(SHEET_HEADER, rows)
