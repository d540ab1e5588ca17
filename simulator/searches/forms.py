"""The form that starts a search for the best strategy."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from ..fullgames import FullGame
from ..shared.forms import PileChoiceForm
from .services import MAX_GENERATIONS, MAX_ISLANDS


class SearchForm(PileChoiceForm):
    """A search for the best strategy on one deck's piles (``searches``)."""

    players = forms.TypedChoiceField(label=_("Players"), choices=[(n, n) for n in range(2, 5)], coerce=int, initial=2)
    generations = forms.IntegerField(
        label=_("Generations"),
        min_value=1,
        max_value=MAX_GENERATIONS,
        initial=40,
        help_text=_("Each generation proposes 8 candidates and plays each against the current best."),
    )
    islands = forms.IntegerField(
        label=_("Parallel searches"),
        min_value=1,
        max_value=MAX_ISLANDS,
        initial=2,
        help_text=_("Independent searches from different seeds, played side by side; the best one is kept."),
    )

    def __init__(
        self, data: Any = None, *, fullgame: FullGame, decks: Sequence[tuple[str, str]], **kwargs: Any
    ) -> None:
        super().__init__(data, **kwargs)
        self.fullgame = fullgame
        self.set_decks(decks)
        self.order_fields(["deck", "players", "generations", "islands"])
