"""Keeping the search index in step with the cards (called by ``cards.services`` and migrations).

Each card has one search document (its text and facet tokens, ``cards.search.tokens``)
and one row per known field value. A document's ``position`` is the card's place in
number order (``sort_key``, then id), spaced ``POSITION_GAP`` apart, so that cards
added later take a position between their neighbours without moving anyone; when
a gap is used up (or the order was disturbed) every position is assigned afresh.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import groupby, pairwise
from typing import Any

from django.db import transaction

from ..gamedefs import get_game
from .backends import indexes_any_column_pairs, indexes_needles, optimize_text_index
from .normalize import fold
from .tokens import column, document_tokens, facet_tokens, phrase_text

_BATCH = 500
POSITION_GAP = 1 << 32


@dataclass(frozen=True)
class IndexModels:
    """The models the index is written with: the app's own, or a migration's historical ones."""

    card: Any
    document: Any
    field_value: Any

    @classmethod
    def current(cls) -> IndexModels:
        from ..models import Card, CardFieldValue, SearchDocument

        return cls(Card, SearchDocument, CardFieldValue)


def card_columns(card: Any) -> dict[str, str]:
    """The folded text of each searchable column of a card (texts must be prefetched).

    Every translation track's text is indexed: a language's column holds each of its texts, a line apart, as
    a text's notes follow its rules text."""
    collected: dict[str, list[str]] = {}
    for text in sorted(card.texts.all(), key=lambda text: (text.language, getattr(text, "track_id", None) or 0)):
        if text.name:
            collected.setdefault(column("name", text.language), []).append(text.name)
        body = "\n".join(part for part in (text.text, text.notes) if part)
        if body:
            collected.setdefault(column("text", text.language), []).append(body)
    return {name: fold("\n".join(parts)) for name, parts in collected.items()}


def _checked(card: Any) -> Any:
    """The card's values as its game accepts them (cards of migrations' historical models too)."""
    return get_game(card.game.slug).check_values(card.kind, card.fields)


def field_values(card: Any) -> list[dict[str, Any]]:
    """One row (field, number, text) per known valid value of the card's fields; a list gives a row per item."""
    rows = []
    for name, value in _checked(card).fields.items():
        for item in value if isinstance(value, list) else [value]:
            rows.append({"field": name, **_field_value(item)})
    return rows


def _field_value(value: Any) -> dict[str, Any]:
    if isinstance(value, bool):
        return {"number": int(value), "text": "true" if value else "false"}
    if isinstance(value, int):
        # A number beyond the database's 64-bit integers is kept as text only (not comparable).
        return {"number": value if abs(value) < 2**63 else None, "text": str(value)[:200]}
    return {"number": None, "text": fold(str(value))[:200]}


def card_document(card: Any, values: list[dict[str, Any]], columns: dict[str, str] | None = None) -> str:
    """The search document of a card (texts and game must be loaded; ``columns``: its ``card_columns``)."""
    checked = _checked(card)
    languages = list(dict.fromkeys(text.language for text in card.texts.all()))  # a language of several tracks once
    completeness = get_game(card.game.slug).completeness(checked, languages)
    facets = facet_tokens(
        card.game.slug,
        checked.kind,
        fold(card.number) if card.number else None,
        languages,
        ((row["field"], row["text"], row["number"]) for row in values),
        incomplete=not completeness.complete,
    )
    columns = card_columns(card) if columns is None else columns
    return " ".join(document_tokens(columns, indexes_any_column_pairs()) + facets)


@transaction.atomic
def index_cards(
    card_ids: Iterable[int] | None = None, models: IndexModels | None = None, merge_index: bool = True
) -> int:
    """Rebuild the search rows of the given cards (all cards when None); returns how many.

    ``merge_index=False`` skips merging the text index after a full rebuild (for a
    migration that builds the index itself afterwards).
    """
    models = models or IndexModels.current()
    if card_ids is None:
        return _rebuild_all(models, merge_index)
    ids = set(card_ids)
    cards = list(models.card.objects.filter(pk__in=ids).order_by("sort_key", "pk").values_list("sort_key", "pk"))
    positions = _positions_between_neighbours(models, cards)
    if positions is None:
        return _rebuild_all(models, merge_index)
    models.document.objects.filter(card_id__in=ids).delete()
    models.field_value.objects.filter(card_id__in=ids).delete()
    return _write(models, models.card.objects.filter(pk__in=ids), positions)


def _rebuild_all(models: IndexModels, merge_index: bool) -> int:
    models.document.objects.all().delete()
    models.field_value.objects.all().delete()
    order = models.card.objects.order_by("sort_key", "pk").values_list("pk", flat=True)
    positions = {card_id: (index + 1) * POSITION_GAP for index, card_id in enumerate(order)}
    count = _write(models, models.card.objects.all(), positions)
    if merge_index:
        optimize_text_index()
    return count


def _positions_between_neighbours(models: IndexModels, cards: list[tuple[str, int]]) -> dict[int, int] | None:
    """Positions for ``cards`` ((sort_key, id) in order) between the documents of the other cards.

    None when a gap is too small or the stored positions are out of order, so that
    every position must be assigned afresh.
    """
    moving = {card_id for _key, card_id in cards}
    others = [
        ((sort_key, card_id), position)
        for sort_key, card_id, position in models.document.objects.order_by("position").values_list(
            "card__sort_key", "card_id", "position"
        )
        if card_id not in moving
    ]
    keys = [key for key, _position in others]
    if any(earlier >= later for earlier, later in pairwise(keys)):
        return None
    positions: dict[int, int] = {}
    for slot, group in groupby(cards, key=lambda card: bisect.bisect_left(keys, card)):
        placed = [card_id for _key, card_id in group]
        low = others[slot - 1][1] if slot > 0 else 0
        high = others[slot][1] if slot < len(others) else low + (len(placed) + 1) * POSITION_GAP
        step = (high - low) // (len(placed) + 1)
        if step < 1:
            return None
        positions.update({card_id: low + step * (index + 1) for index, card_id in enumerate(placed)})
    return positions


def _write(models: IndexModels, cards: Any, positions: dict[int, int]) -> int:
    count = 0
    batch: list[Any] = []
    for card in cards.select_related("game").prefetch_related("texts").order_by("pk").iterator(chunk_size=_BATCH):
        batch.append(card)
        if len(batch) >= _BATCH:
            count += _write_batch(models, batch, positions)
            batch = []
    if batch:
        count += _write_batch(models, batch, positions)
    return count


def _keeps_phrase_text(document_model: Any) -> bool:
    """Whether this database keeps documents' ``phrase_text`` and the model has it (not one before migration 0017)."""
    return indexes_needles() and any(field.name == "phrase_text" for field in document_model._meta.concrete_fields)


def _write_batch(models: IndexModels, cards: list[Any], positions: dict[int, int]) -> int:
    documents: list[Any] = []
    value_rows: list[Any] = []
    keeps_phrase_text = _keeps_phrase_text(models.document)
    for card in cards:
        values = field_values(card)
        columns = card_columns(card)
        document = models.document(
            card=card, position=positions[card.pk], document=card_document(card, values, columns)
        )
        if keeps_phrase_text:
            document.phrase_text = phrase_text(columns)
        documents.append(document)
        value_rows.extend(models.field_value(card=card, **row) for row in values)
    models.document.objects.bulk_create(documents)
    models.field_value.objects.bulk_create(value_rows)
    return len(cards)
