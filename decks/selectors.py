"""Reads of decks: who may see what, and the deck as its game's rules see it."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.db.models import QuerySet

from cards.models import Card, Game
from cardsite.sharing import access_shared, visible_to
from cardsite.sharing import can_edit as can_edit  # re-exported: the deck views ask the deck selectors
from cardsite.sharing import can_view as can_view
from cardsite.types import SiteUser, signed_in

from .models import Deck, DeckEntry
from .rules import get_rules
from .rules.base import CardInfo, DeckSpec, Entry, Verdict, validate


def card_info(card: Card, language: str = "ja") -> CardInfo:
    return CardInfo(
        key=card.key,
        name=card.display_name(language),
        kind=card.checked.kind,
        fields=dict(card.checked.fields),
        number=card.number,
        names=tuple(text.name for text in card.texts.all() if text.name),
    )


def deck_entries(deck: Deck) -> QuerySet[DeckEntry]:
    return (
        deck.entries.select_related("card", "card__game")
        .prefetch_related("card__texts")
        .order_by("zone", "card__sort_key")
    )


def entry_counts(deck: Deck) -> list[tuple[str, int, int]]:
    """The deck's entries as (zone, card id, count): what its zones, verdict and charts are made from,
    besides the cards themselves, its mode and its options. One query, no cards read."""
    return list(deck.entries.order_by("zone", "card_id").values_list("zone", "card_id", "count"))


def _spec(
    game: str, mode: str, options: Mapping[str, Any], entries: Iterable[tuple[str, Card, int]], language: str
) -> DeckSpec:
    """The deck as the rules see it: copies of one card in one zone added up, as a stored deck holds them."""
    cards: dict[int, Card] = {}
    totals: dict[tuple[str, int], int] = {}
    for zone, card, count in entries:
        cards[card.pk] = card
        totals[(zone, card.pk)] = totals.get((zone, card.pk), 0) + count
    zones: dict[str, list[Entry]] = {}
    for (zone, pk), count in totals.items():
        zones.setdefault(zone, []).append(Entry(card_info(cards[pk], language), count))
    return DeckSpec(game=game, zones={zone: tuple(e) for zone, e in zones.items()}, mode=mode, options=dict(options))


def deck_spec(deck: Deck, language: str = "ja", entries: Iterable[DeckEntry] | None = None) -> DeckSpec:
    """The stored deck as the rules see it; ``entries`` when they were read already (``verdicts``)."""
    rows = deck_entries(deck) if entries is None else entries
    return _spec(deck.game.slug, deck.mode, deck.options, ((e.zone, e.card, e.count) for e in rows), language)


def unsaved_deck_spec(
    game: Game, mode: str, options: Mapping[str, Any], entries: list[tuple[str, Card, int]], language: str
) -> DeckSpec:
    """A deck that is not stored (the validate-anything endpoint), read as ``deck_spec`` reads a stored one."""
    cards = Card.objects.filter(pk__in=[card.pk for _zone, card, _count in entries])
    loaded = {card.pk: card for card in cards.prefetch_related("texts").select_related("game")}
    return _spec(game.slug, mode, options, ((zone, loaded[card.pk], n) for zone, card, n in entries), language)


def verdict(deck: Deck, language: str = "ja", entries: Iterable[DeckEntry] | None = None) -> Verdict:
    """The server's verdict on the deck: every rule of its game and mode, evaluated at once
    (``entries``: the deck's entries when they were read already, as ``deck_entries`` reads them)."""
    return validate(get_rules(deck.game.slug), deck_spec(deck, language, entries))


def verdicts(decks: Iterable[Deck], language: str = "ja") -> dict[int, Verdict]:
    """The server's verdict on each of many decks (a list of decks), their cards read in one query."""
    decks = list(decks)
    by_deck: dict[int, list[DeckEntry]] = {deck.pk: [] for deck in decks}
    entries = (
        DeckEntry.objects.filter(deck__in=decks)
        .select_related("card", "card__game")
        .prefetch_related("card__texts")
        .order_by("zone", "card__sort_key")
    )
    for entry in entries:
        by_deck[entry.deck_id].append(entry)
    return {deck.pk: validate(get_rules(deck.game.slug), deck_spec(deck, language, by_deck[deck.pk])) for deck in decks}


def fixed_cards(deck: Deck) -> dict[str, list[tuple[Card | None, str, int]]]:
    """The game's fixed zones (e.g. Endbreaker's starting deck): card (None if not loaded), key, count."""
    rules = get_rules(deck.game.slug)
    result: dict[str, list[tuple[Card | None, str, int]]] = {}
    for zone, fixed in rules.fixed_cards.items():
        cards = {card.key: card for card in Card.objects.filter(game=deck.game, key__in=[f.key for f in fixed])}
        result[zone] = [(cards.get(f.key), f.key, f.count) for f in fixed]
    return result


def access_deck(user: SiteUser, pk: int | None = None, *, token: str | None = None, write: bool = False) -> Deck:
    """The one answer to "may this user see (``write``: change) this deck", for every page and API view
    (``cardsite.sharing.access_shared``; ``/decks/shared/<token>/`` reads by ``token`` alone)."""
    return access_shared(Deck.objects.select_related("game", "owner"), user, pk, token=token, write=write)


def lineage(user: SiteUser, deck: Deck) -> tuple[Deck | None, bool, list[Deck]]:
    """Where ``deck`` came from and what came of it, as ``user`` may see them: the deck it was copied from (None
    if it was not copied, or the user may not see that deck), whether it was copied from a deck the user may not
    see, and the copies of it the user may see (the user's own: a deck is never public, and a copy shared by link
    is not listed), newest first."""
    source = deck.forked_from
    hidden = source is not None and not can_view(user, source)
    forks = list(visible_to(deck.forks.select_related("owner", "game"), user).order_by("-created_at")[:50])
    return (None if hidden else source), hidden, forks


def decks_of(user: SiteUser) -> QuerySet[Deck]:
    user = signed_in(user)
    return Deck.objects.filter(owner=user).select_related("game")


def visible_decks(user: SiteUser) -> QuerySet[Deck]:
    return visible_to(Deck.objects.select_related("game", "owner"), user)
