"""Reads of whole games' comparisons."""

from __future__ import annotations

from typing import Any

from ..models import ComparisonRun
from .services import COMPARISONS


def own_comparison(user: Any, game: str, run_id: int) -> ComparisonRun:
    """The user's comparison ``run_id`` of the game ``game`` (a slug); 404 for anyone else's or another game's."""
    return COMPARISONS.own(user, run_id, related=("game",), game__slug=game)
