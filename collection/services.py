"""Writes to collections. Pages, the API, the imports and the admin call these; nothing else writes them.

Copies are added by the database itself, in one ``INSERT … ON CONFLICT DO UPDATE SET count = count + …`` per list
(``cardsite.db.upsert_counts``), the same on SQLite and PostgreSQL: twenty "+1"s or imports at once give +20, for a
card already owned or not owned yet. Writers of one user's collection take turns on the user's row (``FOR NO KEY
UPDATE``), so that a replacing import and an adding one cannot deadlock, and rows are written in the order of their
keys. A change that would break a bound (``collection.rules``) writes nothing: the upsert leaves a
row that would pass ``MAX_OWNED`` as it was and the whole transaction is refused. Removals read the row under its
lock (PostgreSQL: ``SELECT … FOR UPDATE``; SQLite takes the write lock when the transaction begins). A transaction
that loses a race all the same (a deadlock with another kind of write) runs again, and after a few tries the
request is answered 503 "nothing was changed" (``cardsite.db.retry_on_conflict``). A row whose count reaches 0 is
deleted (a card not in the table is owned 0 times).
"""

from __future__ import annotations

from collections.abc import Mapping

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from cards.models import Card, Game
from cardsite.db import retry_on_conflict, upsert_counts
from cardsite.errors import Message
from cardsite.types import SignedInUser, SiteUser, signed_in

from .models import MAX_OWNED, OwnedCard
from .rules import CollectionError, check_count

ADD = "add"
REPLACE = "replace"
MODES = (ADD, REPLACE)


def _lock_collection(owner: SignedInUser) -> None:
    """Writers of one user's collection take their turns (the user's row, ``FOR NO KEY UPDATE`` on PostgreSQL; SQLite
    takes its write lock at BEGIN). A replacing import deletes the rows its list leaves out while an adding one
    inserts them, each in its own order, which could deadlock; in turn, they cannot. Other users' writes, and
    anything that only refers to the user (a foreign key), do not wait."""
    list(get_user_model().objects.select_for_update(no_key=True).filter(pk=owner.pk).values_list("pk"))


def _upsert(owner: SiteUser, counts: Mapping[int, int], *, add: bool) -> dict[int, int]:
    """Add (or set) copies per card id in one statement; the new counts. Refused, nothing kept, when a total
    passes the bound."""
    owner = signed_in(owner)
    rows = {(owner.pk, card_id): count for card_id, count in counts.items()}
    written = upsert_counts(
        OwnedCard, ("owner", "card"), "count", rows, add=add, maximum=MAX_OWNED, extra={"updated_at": timezone.now()}
    )
    refused = sorted(card_id for (_owner, card_id) in rows if (_owner, card_id) not in written)
    if refused:
        # Still inside the caller's transaction: the rows written before are rolled back with it.
        current = OwnedCard.objects.values_list("count", flat=True).get(owner=owner, card_id=refused[0])
        check_count(current + counts[refused[0]])
    return {card_id: count for (_owner, card_id), count in written.items()}


@retry_on_conflict
def change_count(owner: SiteUser, card: Card, delta: int) -> int:
    """Add ``delta`` copies (negative: remove) of ``card``; the new count. Refused (nothing written) when the
    result would be below 0 or above the bound."""
    owner = signed_in(owner)
    if isinstance(delta, bool) or not isinstance(delta, int):
        check_count(delta, "delta")
    _lock_collection(owner)
    if delta > 0:
        check_count(delta, "delta")
        return _upsert(owner, {card.pk: delta}, add=True)[card.pk]
    row = OwnedCard.objects.select_for_update().filter(owner=owner, card=card).first()
    current = row.count if row is not None else 0
    if current + delta < 0:
        message = Message(
            _("You own %(owned)s copies of %(card)s: %(removed)s cannot be removed."),
            {"owned": current, "card": card.key, "removed": -delta},
        )
        raise CollectionError(message, errors={"count": [message]})
    new = current + delta
    if row is not None and new == 0:
        row.delete()
    elif row is not None and delta:
        OwnedCard.objects.filter(pk=row.pk).update(count=new, updated_at=timezone.now())
    return new


@retry_on_conflict
def set_count(owner: SiteUser, card: Card, count: int) -> int:
    """Own exactly ``count`` copies of ``card`` (0 removes it)."""
    owner = signed_in(owner)
    check_count(count)
    _lock_collection(owner)
    if count == 0:
        OwnedCard.objects.filter(owner=owner, card=card).delete()
    else:
        _upsert(owner, {card.pk: count}, add=False)
    return count


def import_counts(owner: SiteUser, game: Game, counts: Mapping[Card, int], mode: str = ADD) -> dict[str, int]:
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
    _import(owner, game, {card.pk: count for card, count in counts.items()}, mode)
    return summary(owner, game)


@retry_on_conflict
def _import(owner: SiteUser, game: Game, counts: dict[int, int], mode: str) -> None:
    owner = signed_in(owner)
    _lock_collection(owner)
    if mode == ADD:
        _upsert(owner, {card_id: count for card_id, count in counts.items() if count}, add=True)
    else:
        kept = {card_id: count for card_id, count in counts.items() if count}
        _upsert(owner, kept, add=False)
        OwnedCard.objects.filter(owner=owner, card__game=game).exclude(card_id__in=list(kept)).delete()


def clear(owner: SiteUser, game: Game) -> None:
    owner = signed_in(owner)
    with transaction.atomic():
        OwnedCard.objects.filter(owner=owner, card__game=game).delete()


def summary(owner: SiteUser, game: Game) -> dict[str, int]:
    from .selectors import game_summary

    return game_summary(owner, game)
