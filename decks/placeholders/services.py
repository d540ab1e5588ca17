"""Writes of a deck's placeholder cards: added, edited, removed, and replaced by a real card, each atomic.

What a game lets a deck hold as a placeholder (kinds, their zone, the values it may state) is declared once, in
the game's deck rules (``decks.rules.<slug>`` ``placeholders``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from cards.models import Card
from cardsite.errors import Message
from cardsite.text import check_name
from cardsite.types import SiteUser

from .. import services as deck_services
from ..models import Deck, DeckPlaceholder
from ..rules import get_rules
from ..rules.base import PlaceholderKind
from ..selectors import access_deck
from .selectors import placeholder_of

MAX_STATED_VALUE = 99
MAX_NAME_LENGTH = 120


def _refuse(message: Message, code: str, field: str) -> deck_services.DeckError:
    return deck_services.DeckError(message, code=code, errors={field: [message]})


class PlaceholderConflict(deck_services.DeckError):
    """Refused for what the deck is now, not for how the request is written (409): its game holds no placeholders,
    or the placeholder already holds so many that the count would pass 99."""

    status = 409


def declared_kind(deck: Deck, kind: str) -> PlaceholderKind:
    """The game's declaration of ``kind`` as a placeholder, or a refusal naming the kinds it declares."""
    declared = get_rules(deck.game.slug).placeholder_kind(kind)
    if declared is None:
        kinds = [placeholder.kind for placeholder in get_rules(deck.game.slug).placeholders]
        if not kinds:
            message = Message(_("%(game)s decks hold no placeholder cards."), {"game": deck.game.definition.names})
            raise PlaceholderConflict(message, code="no_placeholders", errors={"kind": [message]})
        else:
            message = Message(
                _("'%(kind)s' is not a kind a %(game)s deck may hold as a placeholder (kinds: %(kinds)s)."),
                {"kind": kind, "game": deck.game.definition.names, "kinds": kinds},
            )
        raise _refuse(message, "unknown_placeholder_kind", "kind")
    return declared


def clean_values(declared: PlaceholderKind, values: Mapping[str, Any]) -> dict[str, int]:
    """The stated values, each a whole number from 0 to 99 of a field the kind declares; a value not stated
    stays unknown (it is not stored, never 0)."""
    cleaned: dict[str, int] = {}
    for name, value in values.items():
        if (value is None or value == "") and name in declared.fields:
            continue
        if name not in declared.fields:
            message = Message(
                _("'%(field)s' is not a value stated on a placeholder of kind %(kind)s (values: %(fields)s)."),
                {"field": name, "kind": declared.kind, "fields": list(declared.fields) or "-"},
            )
            raise _refuse(message, "unknown_placeholder_value", f"values.{name}")
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_STATED_VALUE:
            message = Message(
                _("%(field)s: give a whole number from 0 to %(maximum)s."),
                {"field": name, "maximum": MAX_STATED_VALUE},
            )
            raise _refuse(message, "invalid_placeholder_value", f"values.{name}")
        cleaned[name] = value
    return {name: cleaned[name] for name in declared.fields if name in cleaned}  # the declared order


def _check_count(count: int) -> None:
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= deck_services.MAX_COPIES_PER_ENTRY:
        raise _refuse(deck_services.count_out_of_range(1), "count_out_of_range", "count")


def _check_name(name: str) -> str:
    if not isinstance(name, str):
        message = Message(_("The name must be text."))
        raise _refuse(message, "invalid_placeholder_name", "name")
    name = name.strip()
    if len(name) > MAX_NAME_LENGTH:
        message = Message(_("The name has at most %(maximum)s characters."), {"maximum": MAX_NAME_LENGTH})
        raise _refuse(message, "invalid_placeholder_name", "name")
    check_name(name, "name", error=deck_services.DeckError)  # valid Unicode, no control or invisible character
    return name


def _changed(deck: Deck) -> None:
    """Mark the deck changed and keep its state as a version (placeholders are part of a version)."""
    deck_services.touch(deck)
    deck_services.record_version(deck, "edit")


def add_placeholder(deck: Deck, kind: str, values: Mapping[str, Any], count: int, name: str = "") -> DeckPlaceholder:
    return upsert_placeholder(deck, kind, values, count, name)[0]


@transaction.atomic
def upsert_placeholder(
    deck: Deck, kind: str, values: Mapping[str, Any], count: int, name: str = ""
) -> tuple[DeckPlaceholder, bool]:
    """Add ``count`` placeholder cards of ``kind`` with the stated ``values`` to the zone the kind is declared in.

    An upsert: when the deck holds a placeholder of the same kind, values and name already, its count grows by
    ``count`` (read under the deck's lock, so two additions at once both count), up to 99 (refused above).
    Returns the placeholder and whether it is new."""
    declared = declared_kind(deck, kind)
    cleaned = clean_values(declared, values)
    _check_count(count)
    name = _check_name(name)
    locked = deck_services.lock(deck)
    same = next(
        (
            held
            for held in DeckPlaceholder.objects.filter(deck=locked, zone=declared.zone, kind=kind, name=name)
            if held.values == cleaned
        ),
        None,
    )
    created = same is None
    if same is None:
        placeholder = DeckPlaceholder.objects.create(
            deck=locked, zone=declared.zone, kind=kind, values=cleaned, name=name, count=count
        )
    else:
        if same.count + count > deck_services.MAX_COPIES_PER_ENTRY:
            message = deck_services.count_out_of_range(1)
            raise PlaceholderConflict(message, code="count_out_of_range", errors={"count": [message]})
        same.count += count
        same.save(update_fields=["count"])
        placeholder = same
    _changed(locked)
    deck.updated_at = locked.updated_at
    return placeholder, created


@transaction.atomic
def edit_placeholder(
    placeholder: DeckPlaceholder,
    *,
    values: Mapping[str, Any] | None = None,
    count: int | None = None,
    name: str | None = None,
) -> DeckPlaceholder:
    """Change what the placeholder states, its count or its name (its kind stays: remove it and add another)."""
    declared = declared_kind(placeholder.deck, placeholder.kind)
    if values is not None:
        placeholder.values = clean_values(declared, values)
    if count is not None:
        _check_count(count)
        placeholder.count = count
    if name is not None:
        placeholder.name = _check_name(name)
    locked = deck_services.lock(placeholder.deck)
    placeholder.save()
    _changed(locked)
    return placeholder


@transaction.atomic
def remove_placeholder(placeholder: DeckPlaceholder) -> None:
    locked = deck_services.lock(placeholder.deck)
    placeholder.delete()
    _changed(locked)


# --- the API's writes: the deck is found, and its owner checked, here (``selectors.access_deck``)


def placeholder_create(
    *, user: SiteUser, deck_pk: int, kind: str, values: Mapping[str, Any], count: int, name: str = ""
) -> tuple[Deck, DeckPlaceholder, bool]:
    deck = access_deck(user, deck_pk, write=True)
    return deck, *upsert_placeholder(deck, kind, values, count, name)


def placeholder_update(
    *,
    user: SiteUser,
    deck_pk: int,
    placeholder_pk: int,
    values: Mapping[str, Any] | None = None,
    count: int | None = None,
    name: str | None = None,
) -> tuple[Deck, DeckPlaceholder]:
    deck = access_deck(user, deck_pk, write=True)
    placeholder = placeholder_of(deck, placeholder_pk)
    return deck, edit_placeholder(placeholder, values=values, count=count, name=name)


@transaction.atomic
def placeholder_add_copies(
    *, user: SiteUser, deck_pk: int, placeholder_pk: int, delta: int
) -> tuple[Deck, DeckPlaceholder | None]:
    """One more or one fewer (``delta`` copies) of a placeholder, its count read under the deck's lock so that two
    steps at once both count; down to 0 it is removed (None), past 99 refused with nothing written."""
    deck = access_deck(user, deck_pk, write=True)
    if isinstance(delta, bool) or not isinstance(delta, int) or delta == 0:
        raise _refuse(deck_services.count_out_of_range(1), "count_out_of_range", "delta")
    locked = deck_services.lock(deck)
    placeholder = placeholder_of(locked, placeholder_pk)  # read after the lock: the count as it is now
    count = placeholder.count + delta
    if count > deck_services.MAX_COPIES_PER_ENTRY:
        message = deck_services.count_out_of_range(1)
        raise PlaceholderConflict(message, code="count_out_of_range", errors={"count": [message]})
    if count <= 0:
        placeholder.delete()
        _changed(locked)
        return deck, None
    placeholder.count = count
    placeholder.save(update_fields=["count"])
    _changed(locked)
    return deck, placeholder


def placeholder_delete(*, user: SiteUser, deck_pk: int, placeholder_pk: int) -> Deck:
    deck = access_deck(user, deck_pk, write=True)
    remove_placeholder(placeholder_of(deck, placeholder_pk))
    return deck


@transaction.atomic
def replace_placeholder(placeholder: DeckPlaceholder, card: Card) -> None:
    """Put ``count`` copies of ``card`` where the placeholder was, in one step: the placeholder goes and the
    card's entry in that zone grows by its count (refused, with nothing written, if the card cannot go there)."""
    deck = placeholder.deck
    placeholder.delete()  # before the card comes, so that the version made for it no longer holds the placeholder
    deck_services.add_copies(deck, placeholder.zone, card, placeholder.count)
