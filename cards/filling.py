"""Where a gap in the card data is filled: the one place the pages ask (the map of what is missing, a
card's completeness).

Today a value or a text of a card is filled on its card page (at the value, or at the language), and a
card nobody has entered yet in the admin's form for a new card (for editors), given what is known of it.
The contribution forms will replace these targets here, and nowhere else.
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
) -> str:
    """The address where the gap is filled: of a card's ``field`` or text in ``language``, or of a new card."""
    if card_key is not None:
        url = reverse("cards:card_detail", args=[game.slug, card_key])
        if field:
            return f"{url}#value-{field}"
        if language:
            return f"{url}#text-{language}"
        return url
    known = {"game": game.pk, "kind": kind, "number": number, "key": number}
    return reverse("admin:cards_card_add") + "?" + urlencode({name: value for name, value in known.items() if value})
