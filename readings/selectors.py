"""Reads of the readings: a batch is its uploader's alone (anyone else, and the anonymous, get 404)."""

from __future__ import annotations

from cards.models import Game, Term, TermText
from cardsite import jobs
from cardsite.types import SiteUser

from .models import ReadingBatch


def batch_of(user: SiteUser, batch_id: int) -> ReadingBatch:
    """The batch with its photos, their images and matched cards, if ``user`` uploaded it; Http404 otherwise."""
    return jobs.own(
        ReadingBatch,
        user,
        batch_id,
        owner_field="user",
        related=("game",),
        prefetch=("photos__image", "photos__card", "photos__duplicate_of__card", "photos__duplicate_of__image"),
    )


def keyword_terms(game: Game) -> list[str]:
    """The names of the game's keyword abilities in every language, for the proposals (``cards.reading.propose``)."""
    names = TermText.objects.filter(term__game=game, term__category=Term.Category.KEYWORD).exclude(name="")
    return sorted(set(names.values_list("name", flat=True)))
