"""The forms that start a whole game's comparison: strategies against each other, or one strategy on several decks."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from ..fullgames import FullGame
from ..shared.forms import DEFAULT_GAMES, PileChoiceForm, filled, grouped_strategies
from ..shared.selectors import DEFAULT_DECK
from .services import MAX_GAMES, MAX_STRATEGIES, MIN_STRATEGIES


class ComparisonForm(PileChoiceForm):
    games = forms.IntegerField(
        label=pgettext_lazy("simulation", "Games"),
        min_value=1,
        max_value=MAX_GAMES,
        initial=DEFAULT_GAMES,
        help_text=_("Games each strategy plays, rounded up so that every strategy sits at every seat equally."),
    )
    sequential = forms.BooleanField(
        label=_("Stop once the difference between the leaders is significant"),
        required=False,
        help_text=_("Looked at every 100 games, with the level corrected for the looks and the pairs."),
    )

    def __init__(
        self,
        data: Any = None,
        *,
        fullgame: FullGame,
        decks: Sequence[tuple[str, str]],
        language: str,
        written: Sequence[tuple[str, str]] = (),
        **kwargs: Any,
    ) -> None:
        """``written``: the written strategies the user may choose, as (``written:<id>``, label); ``decks``: the
        decks, as (reference, label)."""
        super().__init__(data, **kwargs)
        self.fullgame = fullgame
        shipped, self.choices = grouped_strategies(fullgame, language, written)
        self.set_decks(decks)
        for seat in range(MAX_STRATEGIES):
            required = seat < MIN_STRATEGIES
            self.fields[f"seat{seat + 1}"] = forms.ChoiceField(
                label=_("Strategy %(seat)s") % {"seat": seat + 1},
                choices=([] if required else [("", "—")]) + self.choices,
                required=required,
                initial=shipped[seat % len(shipped)][0] if required else "",
            )
        self.order_fields([f"seat{seat + 1}" for seat in range(MAX_STRATEGIES)])

    def strategies(self) -> list[str]:
        return filled(self, "seat", MAX_STRATEGIES)


DEFAULT_SETUP = DEFAULT_DECK  # in a choice of decks: the game's default choice of piles


class SetupsComparisonForm(forms.Form):
    """One strategy on two to four decks (each a table's choice of piles), each in its own games against the same
    opponents."""

    games = forms.IntegerField(
        label=pgettext_lazy("simulation", "Games"), min_value=1, max_value=MAX_GAMES, initial=DEFAULT_GAMES
    )
    sequential = forms.BooleanField(
        label=_("Stop once the difference between the leaders is significant"), required=False
    )

    def __init__(
        self,
        data: Any = None,
        *,
        fullgame: FullGame,
        language: str,
        decks: Sequence[tuple[str, str]],
        written: Sequence[tuple[str, str]] = (),
        **kwargs: Any,
    ) -> None:
        super().__init__(data, **kwargs)
        shipped, strategies = grouped_strategies(fullgame, language, written)
        self.fields["strategy"] = forms.ChoiceField(label=_("Strategy"), choices=strategies, initial=shipped[0][0])
        setup_choices = [(DEFAULT_SETUP, _("The first piles by card number")), *decks]
        for index in range(MAX_STRATEGIES):
            required = index < MIN_STRATEGIES
            self.fields[f"setup{index + 1}"] = forms.ChoiceField(
                label=_("Deck %(n)s") % {"n": index + 1},
                choices=([] if required else [("", "—")]) + setup_choices,
                required=required,
            )
        for index in range(MAX_STRATEGIES - 1):
            self.fields[f"opponent{index + 1}"] = forms.ChoiceField(
                label=_("Opponent %(n)s") % {"n": index + 1}, choices=[("", "—"), *strategies], required=False
            )
        self.order_fields(
            ["strategy", *(f"setup{n + 1}" for n in range(MAX_STRATEGIES))]
            + [f"opponent{n + 1}" for n in range(MAX_STRATEGIES - 1)]
            + ["games", "sequential"]
        )

    def setups(self) -> list[str]:
        return filled(self, "setup", MAX_STRATEGIES)

    def opponents(self) -> list[str]:
        return filled(self, "opponent", MAX_STRATEGIES - 1)
