"""Writes to decks. Views, forms and the API call these; nothing else writes decks."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from cards.models import Card, Game
from cardsite import pagecache
from cardsite.errors import AppError

from .models import Deck, DeckEntry, new_share_token
from .rules import get_rules

MAX_COPIES_PER_ENTRY = 99
MAX_DESCRIPTION_LENGTH = 10_000  # characters


class DeckError(AppError, ValueError):
    """A change that cannot be made (unknown zone, a card of another game, …); nothing was written."""

    code = "deck_change_refused"


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


def _locked(deck: Deck) -> Deck:
    """The deck's row, locked until the transaction ends: one writer at a time per deck.

    Every change of a deck reads what it changes (counts, options) after taking this lock, so two
    requests that change the same deck at once both count (PostgreSQL: SELECT … FOR UPDATE; SQLite
    takes the database's write lock when the transaction begins, see settings).
    """
    return Deck.objects.select_for_update().select_related("game").get(pk=deck.pk)


def _check_description(description: str) -> None:
    if len(description) > MAX_DESCRIPTION_LENGTH:
        raise DeckError(f"a description may have at most {MAX_DESCRIPTION_LENGTH:,} characters")


def _touch(deck: Deck) -> None:
    """Mark the deck changed without writing back fields this request may hold stale copies of."""
    deck.updated_at = timezone.now()
    Deck.objects.filter(pk=deck.pk).update(updated_at=deck.updated_at)
    pagecache.bump("decks")


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
    _check_description(description)
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
    entries: Iterable[tuple[str, Card, int]] | None = None,
) -> Deck:
    """Change any of the deck's fields and (``entries``) replace its cards, all in one transaction.

    ``options`` are merged into the deck's options as they are when the change is made, not as
    the caller read them.
    """
    current = _locked(deck)
    if name is not None:
        if not name.strip():
            raise DeckError("a deck needs a name")
        current.name = name.strip()
    if description is not None:
        _check_description(description)
        current.description = description
    if mode is not None or options is not None:
        current.mode, current.options = clean_options(
            current.game, mode or current.mode, {**current.options, **(options or {})}
        )
    if visibility is not None:
        if visibility not in Deck.Visibility.values:
            raise DeckError(f"visibility must be one of {', '.join(Deck.Visibility.values)}")
        if current.visibility == Deck.Visibility.LINK and visibility != Deck.Visibility.LINK:
            # Sharing by link turned off: that link is dead for good, even if sharing is turned on again.
            current.share_token = new_share_token()
        current.visibility = visibility
    current.save()
    if entries is not None:
        replace_entries(current, entries)
    _copy_state(current, deck)
    return deck


@transaction.atomic
def regenerate_share_link(deck: Deck) -> str:
    """A new share token for the deck: the old link (and runs started through it) stop working."""
    current = _locked(deck)
    current.share_token = new_share_token()
    current.save(update_fields=["share_token", "updated_at"])
    _copy_state(current, deck)
    return current.share_token


def _copy_state(source: Deck, target: Deck) -> None:
    """Bring the caller's instance up to date with what was written."""
    if source is not target:
        for field in ("name", "description", "mode", "options", "visibility", "share_token", "updated_at"):
            setattr(target, field, getattr(source, field))


def _set(deck: Deck, zone: str, card: Card, count: int) -> None:
    if count == 0:
        DeckEntry.objects.filter(deck=deck, zone=zone, card=card).delete()
    else:
        DeckEntry.objects.update_or_create(deck=deck, zone=zone, card=card, defaults={"count": count})


def _check_count(count: int, minimum: int = 0) -> None:
    if count < minimum or count > MAX_COPIES_PER_ENTRY:
        raise DeckError(f"a count must be between {minimum} and {MAX_COPIES_PER_ENTRY}")


@transaction.atomic
def set_counts(deck: Deck, changes: Iterable[tuple[str, Card, int]]) -> None:
    """Set how many copies of each card its zone holds (0 removes it); other entries are kept."""
    changes = list(changes)
    for zone, card, count in changes:
        _check_zone(deck, zone)
        _check_card(deck, card)
        _check_count(count)
    locked = _locked(deck)
    for zone, card, count in changes:
        _set(locked, zone, card, count)
    _touch(deck)


def set_count(deck: Deck, zone: str, card: Card, count: int) -> int:
    """Set how many copies of ``card`` the zone holds (0 removes it); returns the new count."""
    set_counts(deck, [(zone, card, count)])
    return count


@transaction.atomic
def add_copies(deck: Deck, zone: str, card: Card, delta: int) -> int:
    """Add (or with a negative delta, remove) copies; returns the new count.

    The count is read under the deck's lock, so two additions made at the same moment give two
    more copies, never one.
    """
    _check_zone(deck, zone)
    _check_card(deck, card)
    locked = _locked(deck)
    current = DeckEntry.objects.filter(deck=locked, zone=zone, card=card).values_list("count", flat=True).first()
    count = max(0, min(MAX_COPIES_PER_ENTRY, (current or 0) + delta))
    _set(locked, zone, card, count)
    _touch(deck)
    return count


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
    locked = _locked(deck)
    DeckEntry.objects.filter(deck=locked).delete()
    DeckEntry.objects.bulk_create(
        DeckEntry(deck=locked, zone=zone, card=card, count=min(count, MAX_COPIES_PER_ENTRY))
        for (zone, _pk), (card, count) in totals.items()
    )
    _touch(deck)


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
