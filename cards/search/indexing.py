"""Keeping the search index in step with the cards (called by ``cards.services``)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db import transaction

from ..models import Card, CardFieldValue, SearchDocument
from .normalize import fold
from .tokens import column, document_tokens

_BATCH = 500


def card_columns(card: Card) -> dict[str, str]:
    """The folded text of each searchable column of a card (texts must be prefetched)."""
    columns: dict[str, str] = {}
    for text in card.texts.all():
        if text.name:
            columns[column("name", text.language)] = fold(text.name)
        body = "\n".join(part for part in (text.text, text.notes) if part)
        if body:
            columns[column("text", text.language)] = fold(body)
    return columns


def field_rows(card: Card) -> list[CardFieldValue]:
    rows = []
    for name, value in card.fields.items():
        for item in value if isinstance(value, list) else [value]:
            rows.append(CardFieldValue(card=card, field=name, **_field_value(item)))
    return rows


def _field_value(value: Any) -> dict[str, Any]:
    if isinstance(value, bool):
        return {"number": int(value), "text": "true" if value else "false"}
    if isinstance(value, int):
        return {"number": value, "text": str(value)}
    return {"number": None, "text": fold(str(value))[:200]}


@transaction.atomic
def index_cards(card_ids: Iterable[int] | None = None) -> int:
    """Rebuild the search rows of the given cards (all cards when None); returns how many."""
    cards = Card.objects.prefetch_related("texts").order_by("pk")
    if card_ids is not None:
        cards = cards.filter(pk__in=list(card_ids))
    count = 0
    batch: list[Card] = []
    for card in cards.iterator(chunk_size=_BATCH):
        batch.append(card)
        if len(batch) >= _BATCH:
            _write(batch)
            count += len(batch)
            batch = []
    if batch:
        _write(batch)
        count += len(batch)
    return count


def _write(cards: list[Card]) -> None:
    ids = [card.pk for card in cards]
    SearchDocument.objects.filter(card_id__in=ids).delete()
    CardFieldValue.objects.filter(card_id__in=ids).delete()
    SearchDocument.objects.bulk_create(
        SearchDocument(card=card, document=" ".join(document_tokens(card_columns(card)))) for card in cards
    )
    CardFieldValue.objects.bulk_create(row for card in cards for row in field_rows(card))
