"""The one place where assumed values meet card data (plain Python, no Django).

Every whole-game engine reads its cards through ``overlay``: a value the database gives is kept as it is (card
data wins; an assumption the database has since answered is only shown as a difference), a value it does not
give is the player's assumption, and an assumed card (``assumed:<kind>:<n>``, for a kind the database lists too
few of) is added with the assumed values and nothing else.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..core import SimCard

ASSUMED_PREFIX = "assumed:"


@dataclass(frozen=True)
class Assumed:
    """One assumed value: the card's key (or an assumed card's), the field (``kind`` included) and the value as
    the plain-Python cores read it."""

    key: str
    field: str
    value: Any


def assumed_card_key(kind: str, number: int) -> str:
    return f"{ASSUMED_PREFIX}{kind}:{number}"


def assumed_card_kind(key: str) -> str | None:
    """The kind of an assumed card's key (None: the key is a database card's)."""
    if not key.startswith(ASSUMED_PREFIX):
        return None
    kind, _, number = key.removeprefix(ASSUMED_PREFIX).rpartition(":")
    return kind if kind and number.isdigit() else None


def overlay(cards: Sequence[SimCard], assumed: Iterable[Assumed]) -> list[SimCard]:
    """``cards`` with the assumed values filled in where the card gives none, then the assumed cards (in key
    order). The returned cards are new objects; ``cards`` is left as it was."""
    values: dict[str, dict[str, Any]] = {}
    for entry in assumed:
        values.setdefault(entry.key, {})[entry.field] = entry.value
    result = []
    for card in cards:
        own = values.pop(card.key, None)
        result.append(card if not own else _filled(card, own))
    for key in sorted(values, key=_number_order):
        kind = assumed_card_kind(key)
        if kind is None:
            continue  # a value for a card the database does not hold (deleted, or renamed): nothing to fill
        fields = {name: value for name, value in values[key].items() if name != "kind"}
        result.append(SimCard(key=key, name=key, kind=kind, fields=fields))
    return result


def overlay_values(cards: Sequence[SimCard], assumed: Iterable[Assumed]) -> dict[str, SimCard]:
    """The cards of ``cards`` an assumption fills a value of, by key, with the values filled (a deck's cards: no
    assumed card is added to a deck)."""
    values: dict[str, dict[str, Any]] = {}
    for entry in assumed:
        values.setdefault(entry.key, {})[entry.field] = entry.value
    return {card.key: _filled(card, values[card.key]) for card in cards if card.key in values}


def applied(cards: Iterable[SimCard], assumed: Iterable[Assumed]) -> list[Assumed]:
    """The entries of ``assumed`` that ``overlay_values`` fills a value of ``cards`` with (the card lacks the
    value): what a result made with these cards rests on, and names."""
    by_key = {card.key: card for card in cards}
    found = []
    for entry in assumed:
        card = by_key.get(entry.key)
        if card is None:
            continue
        known = card.kind if entry.field == "kind" else card.fields.get(entry.field)
        if known is None:
            found.append(entry)
    return found


def _filled(card: SimCard, own: Mapping[str, Any]) -> SimCard:
    fields = dict(card.fields)
    for name, value in own.items():
        if name != "kind" and fields.get(name) is None:
            fields[name] = value
    kind = card.kind if card.kind is not None else own.get("kind")
    return SimCard(key=card.key, name=card.name, kind=kind, fields=fields)


def _number_order(key: str) -> tuple[str, int]:
    head, _, number = key.rpartition(":")
    return (head, int(number)) if number.isdigit() else (key, 0)
