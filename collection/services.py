"""Writes to collections. Pages, the API, the imports and the admin call these; nothing else writes them.

Every change reads the rows it changes under their lock (PostgreSQL: ``SELECT … FOR UPDATE``; SQLite takes the
write lock when the transaction begins) and checks the result with ``collection.rules`` before writing, in one
transaction: twenty "+1"s at once give +20, and a change that would break a bound writes nothing. A row whose count
reaches 0 is deleted (a card not in the table is owned 0 times).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from cards.models import Card, Game
from cardsite.errors import Message

from .models import OwnedCard
from .rules import CollectionError, check_count

ADD = "add"
REPLACE = "replace"
MODES = (ADD, REPLACE)


def _locked_row(owner: Any, card: Card) -> OwnedCard:
    """The row of ``card`` (made with 0 copies when missing: ``get_or_create`` reads the row another request made
    meanwhile instead of failing), read again under its lock."""
    row, _created = OwnedCard.objects.get_or_create(owner=owner, card=card, defaults={"count": 0})
    return OwnedCard.objects.select_for_update().get(pk=row.pk)


def _write(row: OwnedCard, count: int) -> None:
    if count == 0:
        row.delete()
    else:
        OwnedCard.objects.filter(pk=row.pk).update(count=count)


def change_count(owner: Any, card: Card, delta: int) -> int:
    """Add ``delta`` copies (negative: remove) of ``card``; the new count. Refused (nothing written) when the
    result would be below 0 or above the bound."""
    if isinstance(delta, bool) or not isinstance(delta, int):
        check_count(delta, "delta")
    with transaction.atomic():
        row = _locked_row(owner, card)
        current = row.count
        if current + delta < 0:
            message = Message(
                _("You own %(owned)s copies of %(card)s: %(removed)s cannot be removed."),
                {"owned": current, "card": card.key, "removed": -delta},
            )
            raise CollectionError(message, errors={"count": [message]})
        new = check_count(current + delta)
        _write(row, new)
    return new


def set_count(owner: Any, card: Card, count: int) -> int:
    """Own exactly ``count`` copies of ``card`` (0 removes it)."""
    check_count(count)
    with transaction.atomic():
        _write(_locked_row(owner, card), count)
    return count


def import_counts(owner: Any, game: Game, counts: Mapping[Card, int], mode: str = ADD) -> dict[str, int]:
    """Write a whole list at once: ``add`` adds its copies to the collection of ``game``, ``replace`` makes the
    collection of ``game`` exactly the list (cards not in it are owned 0 times). All or nothing: a card whose total
    would pass the bound refuses the whole list. Answers how many cards and copies the collection of the game now
    holds."""
    if mode not in MODES:
        raise CollectionError(
            Message(_("“%(mode)s” is not a way to import: use add or replace."), {"mode": mode}), code="invalid"
        )
    for card, count in counts.items():
        if card.game_id != game.pk:
            raise CollectionError(Message(_("%(card)s is a card of another game."), {"card": card.key}))
        check_count(count)
    with transaction.atomic():
        rows = {
            row.card_id: row
            for row in OwnedCard.objects.select_for_update().filter(owner=owner, card__game=game).select_related("card")
        }
        new: dict[int, int] = {}
        for card, count in counts.items():
            current = rows[card.pk].count if card.pk in rows else 0
            new[card.pk] = check_count(current + count if mode == ADD else count)
        if mode == REPLACE:
            gone = [pk for pk in rows if pk not in new]
            OwnedCard.objects.filter(owner=owner, card_id__in=gone).delete()
        for card in counts:
            _write(rows[card.pk] if card.pk in rows else _locked_row(owner, card), new[card.pk])
    return summary(owner, game)


def clear(owner: Any, game: Game) -> None:
    with transaction.atomic():
        OwnedCard.objects.filter(owner=owner, card__game=game).delete()


def summary(owner: Any, game: Game) -> dict[str, int]:
    from .selectors import game_summary

    return game_summary(owner, game)
