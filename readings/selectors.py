"""Reads of the readings: a batch is its uploader's alone (anyone else, and the anonymous, get 404)."""

from __future__ import annotations

from typing import Any

from django.http import Http404

from cards.models import Game, Term, TermText

from .models import ReadingBatch


def batch_of(user: Any, batch_id: int) -> ReadingBatch:
    """The batch with its photos, their images and matched cards, if ``user`` uploaded it; Http404 otherwise."""
    if not getattr(user, "is_authenticated", False):
        raise Http404
    batch = (
        ReadingBatch.objects.select_related("game")
        .prefetch_related("photos__image", "photos__card", "photos__duplicate_of__card", "photos__duplicate_of__image")
        .filter(pk=batch_id, user=user)
        .first()
    )
    if batch is None:
        raise Http404
    return batch


def keyword_terms(game: Game) -> list[str]:
    """The names of the game's keyword abilities in every language, for the proposals (``cards.reading.propose``)."""
    names = TermText.objects.filter(term__game=game, term__category=Term.Category.KEYWORD).exclude(name="")
    return sorted(set(names.values_list("name", flat=True)))
