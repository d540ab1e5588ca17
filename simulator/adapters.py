"""From a stored deck (``decks.models.Deck``) to what the plain-Python simulator plays (``core.SimDeck``).

Every zone's entries are expanded into copies; each card becomes a ``SimCard`` with its key, its
name in the reader's language, its kind and its known field values (unknown values stay absent,
so an engine sees ``None`` and says so in its log). A game's fixed zones (``decks.rules``
``fixed_cards``: Endbreaker's starting deck) are added as the rules declare them; a fixed card the
database has not loaded is still dealt, under its key, with no values.

Each engine declares the zone it draws from (``main_zone``; the odds are computed over it) and the
zones it can play without (``optional_zones``), so that the pages can say what is missing instead of
dealing from an empty deck.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from cards.gamedefs.base import GameDefinition
from cards.models import Card
from cardsite.labels import pick
from decks import selectors
from decks.models import Deck, DeckPlaceholder
from decks.placeholders import selectors as placeholder_selectors
from decks.rules import get_rules

from .assumptions.overlay import Assumed, applied, overlay_values
from .core import SimCard, SimDeck
from .engines import get_engine


def sim_card(card: Card, language: str, definition: GameDefinition | None = None) -> SimCard:
    """The card as the engines see it: its checked values, each as its type gives it to a plain-Python core
    (a skill declared "none" is the empty string). ``definition``: its game's, when the caller has it."""
    definition = definition or card.game.definition
    fields = {}
    for name, value in card.checked.fields.items():
        spec = definition.field(name)
        fields[name] = spec.type.plain(value) if spec is not None else value
    return SimCard(key=card.key, name=card.display_name(language), kind=card.checked.kind, fields=fields)


def placeholder_card(deck: Deck, placeholder: DeckPlaceholder, language: str) -> SimCard:
    """A placeholder as the engines see it: a card of its kind with the values stated, the rest unknown; its key
    and name say it is a placeholder (``decks.placeholders``)."""
    return SimCard(
        key=f"{placeholder_selectors.KEY_PREFIX}{placeholder.pk}",
        name=placeholder_selectors.label(deck.game, placeholder, language),
        kind=placeholder.kind,
        fields=dict(placeholder.values),
    )


def is_placeholder(card: SimCard) -> bool:
    return card.key.startswith(placeholder_selectors.KEY_PREFIX)


def placeholders_dealt(deck: SimDeck) -> int:
    """How many placeholder cards (copies counted) the deck's zones hold: every result that used them says so."""
    return sum(1 for cards in deck.zones.values() for card in cards if is_placeholder(card))


def sim_deck(deck: Deck, language: str = "ja", assumed: Sequence[Assumed] | None = None) -> SimDeck:
    """The deck as the simulator sees it: every zone (fixed zones included) with copies expanded, its
    placeholder cards dealt like cards with their stated values, and the deck's assumed values overlaid
    (``assumptions.overlay``; ``assumed``: those a run stored, None: the deck's now)."""
    return sim_deck_assumed(deck, language, assumed)[0]


def sim_deck_assumed(
    deck: Deck, language: str = "ja", assumed: Sequence[Assumed] | None = None
) -> tuple[SimDeck, list[Assumed]]:
    """``sim_deck``, and the assumed values it filled in (``overlay.applied``: a value its card lacks), which
    every result made with it names."""
    zones: dict[str, list[tuple[SimCard, int]]] = {}
    definition = deck.game.definition
    for entry in selectors.deck_entries(deck):
        zones.setdefault(entry.zone, []).append((sim_card(entry.card, language, definition), entry.count))
    for placeholder in placeholder_selectors.placeholders(deck):
        zones.setdefault(placeholder.zone, []).append(
            (placeholder_card(deck, placeholder, language), placeholder.count)
        )
    for zone, fixed in selectors.fixed_cards(deck).items():
        cards = []
        for card, key, count in fixed:
            if card is not None:
                cards.append((sim_card(card, language, definition), count))
            else:
                cards.append((SimCard(key=key, name=key), count))
        zones[zone] = cards
    if assumed is None:
        from .assumptions.selectors import deck_assumed  # it reads cards through this module

        assumed = deck_assumed(deck)
    used: list[Assumed] = []
    if assumed:
        every = [card for entries in zones.values() for card, _count in entries]
        used = applied(every, assumed)
        filled = overlay_values(every, assumed)
        zones = {
            zone: [(filled.get(card.key, card), count) for card, count in entries] for zone, entries in zones.items()
        }
    return SimDeck.from_counts(deck.game.slug, zones), used


def zone_labels(game: str, zone: str) -> dict[str, str]:
    """The zone's name in each language (its slug where the game declares no such zone)."""
    for declared in get_rules(game).zones:
        if declared.slug == zone:
            return dict(declared.labels)
    return {"ja": zone, "zh-hant": zone, "en": zone}


def zone_label(game: str, zone: str, language: str) -> str:
    return pick(zone_labels(game, zone), language)


def main_zone(game: str) -> str:
    return get_engine(game).main_zone


@dataclass
class Readiness:
    """What a goldfish of the deck needs and lacks."""

    missing: list[str] = field(default_factory=list)  # labels of required zones that are empty
    missing_zones: list[str] = field(default_factory=list)  # and their slugs
    empty_optional: list[str] = field(default_factory=list)  # labels of optional zones that are empty
    separator: str = "、"

    @property
    def ready(self) -> bool:
        return not self.missing

    @property
    def missing_text(self) -> str:
        return self.separator.join(self.missing)

    @property
    def optional_text(self) -> str:
        return self.separator.join(self.empty_optional)


def readiness(deck: SimDeck, language: str) -> Readiness:
    main = main_zone(deck.game)
    result = Readiness(separator=", " if language.startswith("en") else "、")
    if not deck.zone(main):
        result.missing.append(zone_label(deck.game, main, language))
        result.missing_zones.append(main)
    for zone in get_engine(deck.game).optional_zones:
        if not deck.zone(zone):
            result.empty_optional.append(zone_label(deck.game, zone, language))
    return result


@dataclass(frozen=True)
class DeckCard:
    """One distinct card of the main zone, with its number of copies."""

    key: str
    name: str
    kind: str | None
    copies: int


def main_zone_cards(deck: SimDeck) -> list[DeckCard]:
    """The distinct cards of the main zone in deck order, with their copies."""
    cards = deck.zone(main_zone(deck.game))
    counts = Counter(card.key for card in cards)
    seen: dict[str, DeckCard] = {}
    for card in cards:
        if card.key not in seen:
            seen[card.key] = DeckCard(card.key, card.name, card.kind, counts[card.key])
    return list(seen.values())
