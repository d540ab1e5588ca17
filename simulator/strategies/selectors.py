"""Reads of written strategies: who may see which (``cardsite.sharing``), the spellings a strategy may name a
card by, and a written strategy as its game's engine reads it."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from django.db.models import QuerySet

from cards.models import Card, Game
from cards.search.normalize import fold
from cardsite.sharing import access_shared, visible_to

from ..fullgames import FullGame
from ..models import WRITTEN_PREFIX, WrittenStrategy


class Spellings(Mapping[str, str]):
    """Every way a strategy may name a card of the game (its key, its name in every language) to the card's key,
    compared with the search's folding (full-width and half-width, kana, Traditional and Simplified alike)."""

    def __init__(self, by_folded: dict[str, str]) -> None:
        self._by_folded = by_folded

    def __getitem__(self, word: str) -> str:
        return self._by_folded[fold(word)]

    def __iter__(self) -> Iterator[str]:
        return iter(self._by_folded)

    def __len__(self) -> int:
        return len(self._by_folded)


def spellings(game: Game, fullgame: FullGame) -> tuple[Spellings, frozenset[str]]:
    """The game's card spellings, and the keys of the cards a gain line may name."""
    by_folded: dict[str, str] = {}
    gainable: set[str] = set()
    cards = Card.objects.filter(game=game).prefetch_related("texts").order_by("sort_key", "pk")
    for card in cards:
        by_folded.setdefault(fold(card.key), card.key)
        for text in card.texts.all():
            if text.name:
                by_folded.setdefault(fold(text.name), card.key)
        if card.kind in fullgame.gainable_kinds:
            gainable.add(card.key)
    return Spellings(by_folded), frozenset(gainable)


def read(fullgame: FullGame, game: Game, text: str, name: str) -> Any:
    """``text`` as the game's engine reads it; raises the engine's error whose ``problems`` are by line."""
    assert fullgame.read_strategy is not None
    words, gainable = spellings(game, fullgame)
    return fullgame.read_strategy(text, name, words, gainable)


def strategies_of_game(user: Any, game: Game) -> QuerySet[WrittenStrategy]:
    """The written strategies listed to ``user`` for ``game``: their own and the public ones."""
    return visible_to(WrittenStrategy.objects.filter(game=game).select_related("owner", "game"), user)


def access_strategy(
    user: Any, pk: int | None = None, *, token: str | None = None, write: bool = False
) -> WrittenStrategy:
    return access_shared(WrittenStrategy.objects.select_related("owner", "game"), user, pk, token=token, write=write)


def written_pk(reference: str) -> int | None:
    """The id in a comparison's ``written:<id>``, or None for a shipped strategy's name."""
    if reference.startswith(WRITTEN_PREFIX) and reference[len(WRITTEN_PREFIX) :].isdigit():
        return int(reference[len(WRITTEN_PREFIX) :])
    return None
