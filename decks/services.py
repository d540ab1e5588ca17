"""Writes to decks. Views, forms and the API call these; nothing else writes decks."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from cards.models import Card, Game

from .models import Deck, DeckEntry
from .rules import get_rules

MAX_COPIES_PER_ENTRY = 99


class DeckError(ValueError):
    """A change that cannot be made (unknown zone, a card of another game, …); nothing was written."""


def _check_zone(deck: Deck, zone: str) -> None:
    rules = get_rules(deck.game.slug)
    spec = rules.zone(zone)
    if spec is None or spec.fixed:
        names = ", ".join(z.slug for z in rules.zones if not z.fixed)
        raise DeckError(f"'{zone}' is not a zone of a {deck.game.slug} deck (zones: {names})")


def _check_card(deck: Deck, card: Card) -> None:
    if card.game_id != deck.game_id:
        raise DeckError(f"{card.key} is a card of another game")


def clean_options(game: Game, mode: str | None, options: Mapping[str, Any] | None) -> tuple[str, dict[str, Any]]:
    """The deck's mode and options, checked against the game's declarations (defaults filled in)."""
    rules = get_rules(game.slug)
    chosen = mode or rules.modes[0].slug
    if rules.mode(chosen) is None:
        raise DeckError(f"'{chosen}' is not a mode of {game.slug} (modes: {', '.join(m.slug for m in rules.modes)})")
    cleaned = rules.default_options()
    for key, value in (options or {}).items():
        option = next((o for o in rules.options if o.slug == key), None)
        if option is None:
            raise DeckError(f"'{key}' is not an option of {game.slug}")
        if option.choices and value not in option.choices:
            raise DeckError(f"{key} must be one of {', '.join(map(str, option.choices))}")
        cleaned[key] = value
    return chosen, cleaned


@transaction.atomic
def create_deck(
    *,
    owner,
    game: Game,
    name: str,
    description: str = "",
    mode: str | None = None,
    options: Mapping[str, Any] | None = None,
    visibility: str = Deck.Visibility.PRIVATE,
    entries: Iterable[tuple[str, Card, int]] = (),
) -> Deck:
    mode, options = clean_options(game, mode, options)
    if not name.strip():
        raise DeckError("a deck needs a name")
    deck = Deck.objects.create(
        owner=owner,
        game=game,
        name=name.strip(),
        description=description,
        mode=mode,
        options=options,
        visibility=visibility,
    )
    replace_entries(deck, entries)
    return deck


@transaction.atomic
def update_deck(
    deck: Deck,
    *,
    name: str | None = None,
    description: str | None = None,
    mode: str | None = None,
    options: Mapping[str, Any] | None = None,
    visibility: str | None = None,
) -> Deck:
    if name is not None:
        if not name.strip():
            raise DeckError("a deck needs a name")
        deck.name = name.strip()
    if description is not None:
        deck.description = description
    if mode is not None or options is not None:
        deck.mode, deck.options = clean_options(deck.game, mode or deck.mode, {**deck.options, **(options or {})})
    if visibility is not None:
        if visibility not in Deck.Visibility.values:
            raise DeckError(f"visibility must be one of {', '.join(Deck.Visibility.values)}")
        deck.visibility = visibility
    deck.save()
    return deck


@transaction.atomic
def set_count(deck: Deck, zone: str, card: Card, count: int) -> int:
    """Set how many copies of ``card`` the zone holds (0 removes it); returns the new count."""
    _check_zone(deck, zone)
    _check_card(deck, card)
    if count < 0 or count > MAX_COPIES_PER_ENTRY:
        raise DeckError(f"a count must be between 0 and {MAX_COPIES_PER_ENTRY}")
    if count == 0:
        DeckEntry.objects.filter(deck=deck, zone=zone, card=card).delete()
    else:
        DeckEntry.objects.update_or_create(deck=deck, zone=zone, card=card, defaults={"count": count})
    deck.save(update_fields=["updated_at"])
    return count


def add_copies(deck: Deck, zone: str, card: Card, delta: int) -> int:
    """Add (or with a negative delta, remove) copies; returns the new count."""
    current = DeckEntry.objects.filter(deck=deck, zone=zone, card=card).values_list("count", flat=True).first() or 0
    return set_count(deck, zone, card, max(0, min(MAX_COPIES_PER_ENTRY, current + delta)))


@transaction.atomic
def replace_entries(deck: Deck, entries: Iterable[tuple[str, Card, int]]) -> None:
    """Replace every entry of the deck (an import); counts of the same card and zone add up."""
    totals: dict[tuple[str, int], tuple[Card, int]] = {}
    for zone, card, count in entries:
        _check_zone(deck, zone)
        _check_card(deck, card)
        if count < 1 or count > MAX_COPIES_PER_ENTRY:
            raise DeckError(f"{card.key}: a count must be between 1 and {MAX_COPIES_PER_ENTRY}")
        previous = totals.get((zone, card.pk), (card, 0))[1]
        totals[(zone, card.pk)] = (card, previous + count)
    DeckEntry.objects.filter(deck=deck).delete()
    DeckEntry.objects.bulk_create(
        DeckEntry(deck=deck, zone=zone, card=card, count=min(count, MAX_COPIES_PER_ENTRY))
        for (zone, _pk), (card, count) in totals.items()
    )
    deck.save(update_fields=["updated_at"])


@transaction.atomic
def copy_deck(deck: Deck, *, owner) -> Deck:
    """A private copy of ``deck`` for ``owner``."""
    copy = Deck.objects.create(
        owner=owner,
        game=deck.game,
        name=_("%(name)s (copy)") % {"name": deck.name},
        description=deck.description,
        mode=deck.mode,
        options=dict(deck.options),
    )
    DeckEntry.objects.bulk_create(
        DeckEntry(deck=copy, zone=entry.zone, card_id=entry.card_id, count=entry.count) for entry in deck.entries.all()
    )
    return copy


def delete_deck(deck: Deck) -> None:
    deck.delete()
