"""Where everyone sees decks, as the deck pages need to know it.

A deck is private or shared by link (``models.DeckVisibility``); what everyone browses is a published snapshot
of it, which belongs to a higher app. That app registers here, in its ``AppConfig.ready()``, where the public list
is and where the public page of a deck that once was public now is, so that the deck pages keep their old
addresses working (``/decks/public/`` and a former public deck's page) without knowing what publishing is.
"""

from __future__ import annotations

from collections.abc import Callable

_list_url: Callable[[str | None], str] | None = None
_deck_url: Callable[[int], str | None] | None = None


def register(*, list_url: Callable[[str | None], str], deck_url: Callable[[int], str | None]) -> None:
    """``list_url(game_slug)``: the public list (of one game, or of all for None); ``deck_url(pk)``: the page
    everyone sees for a deck that was public, or None if there is none (never public, withdrawn, hidden)."""
    global _list_url, _deck_url
    _list_url, _deck_url = list_url, deck_url


def list_url(game_slug: str | None) -> str | None:
    return _list_url(game_slug) if _list_url is not None else None


def deck_url(pk: int) -> str | None:
    return _deck_url(pk) if _deck_url is not None else None
