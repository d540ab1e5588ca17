"""A card's picture in a list (search results, the deck builder): a small mark that shows the picture on
hover, on keyboard focus or on a tap (CSS only: ``.card-peek``); the picture loads only when shown."""

from __future__ import annotations

from typing import Any

from django import template

from cards.images.selectors import card_pictures
from cards.models import Card

register = template.Library()


@register.inclusion_tag("cards/_card_peek.html")
def card_peek(card: Card, name: str = "") -> dict[str, Any]:
    pictures = card_pictures(card)
    return {"picture": pictures[0] if pictures else None, "name": name or card.key}
