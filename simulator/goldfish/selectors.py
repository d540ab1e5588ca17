"""Reads of the simulator: who may see a Monte Carlo run."""

from __future__ import annotations

from django.http import Http404

from cardsite import jobs
from decks.models import Deck
from decks.selectors import access_deck

from ..models import SimulationRun


def access_run(user, run_id: int, *, deck: Deck | None = None) -> SimulationRun:
    """The run if ``user`` may see it: they started it, and can still see its deck as they could then
    (a deck made private, or a share link replaced, hides its runs too). Http404 otherwise.

    ``deck``: the deck of the page asking, already checked with ``access_deck``; the run must be of it.
    """
    run = jobs.own(SimulationRun, user, run_id, related=("deck", "deck__game", "deck__owner", "requester"))
    if deck is not None and run.deck_id != deck.pk:
        raise Http404
    access_deck(user, run.deck_id, token=run.share_token or None)
    return run
