"""Where a gap in the card data is filled: the one place the pages ask (the map of what is missing, a
card's completeness).

A value or a text of a card is filled in the card's contribution form (at the value, or at the language),
and a card nobody has entered yet in the form for a new card, given what is known of it (``contributions``).
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.urls import reverse

from .models import Game


def where_to_fill(
    game: Game,
    card_key: str | None = None,
    *,
    field: str | None = None,
    language: str | None = None,
    kind: str | None = None,
    number: str | None = None,
    track: int | None = None,
) -> str:
    """The address where the gap is filled: of a card's ``field`` or text in ``language`` (in a translation
    ``track`` other than the language's main one: the card's translation form), or of a new card."""
    if card_key is not None and track is not None:
        return reverse("contributions:card_translate", args=[game.slug, card_key]) + f"?track={track}"
    if card_key is not None:
        url = reverse("contributions:card_edit", args=[game.slug, card_key])
        if field:
            return f"{url}#id_field_{field}"
        if language:
            return f"{url}#text-{language}"
        return url
    known = {"kind": kind, "number": number}
    query = urlencode({name: value for name, value in known.items() if value})
    return reverse("contributions:card_new", args=[game.slug]) + (f"?{query}" if query else "")
