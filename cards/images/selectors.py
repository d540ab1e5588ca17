"""Reads of card images: the pictures a card shows, for one card or a page of them in two queries."""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import Prefetch, QuerySet, prefetch_related_objects

from ..models import Card, CardImage, StoredImage


def shown_images() -> QuerySet[CardImage]:
    """Pictures shown on their cards (not removed), each card's in order, with their files."""
    return CardImage.objects.filter(removed_at__isnull=True).select_related("image").order_by("position", "pk")


def card_pictures(card: Card) -> list[CardImage]:
    """The pictures a card shows, first the one that stands for it (``Card.pictures`` if already read)."""
    pictures = getattr(card, "pictures", None)
    if pictures is None:
        pictures = list(shown_images().filter(card=card))
    return pictures


def with_pictures(cards: Iterable[Card]) -> list[Card]:
    """The cards, each with its ``pictures`` read (one query for all of them): search results, the builder."""
    cards = list(cards)
    prefetch_related_objects(cards, Prefetch("images", queryset=shown_images(), to_attr="pictures"))
    return cards


def stored_image(pk: int) -> StoredImage | None:
    """An upload by its id (any user's: uploads are as public as the change sets that use them)."""
    return StoredImage.objects.filter(pk=pk).first()


def removed_pictures(card: Card) -> list[CardImage]:
    """Pictures taken off the card (kept, with their files): any of them can be proposed again."""
    return list(CardImage.objects.filter(card=card, removed_at__isnull=False).select_related("image"))
