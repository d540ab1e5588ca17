"""The form that starts a whole game's comparison (shipped strategies, games, stop when significant, piles)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from cardsite.labels import pick

from .comparisons import MAX_GAMES, MAX_STRATEGIES, MIN_STRATEGIES
from .fullgames import FullGame
from .models import PERSON_SEAT
from .searches import MAX_GENERATIONS, MAX_ISLANDS
from .setup_decks import DEFAULT_DECK

DEFAULT_GAMES = 1000
DEFAULT_SETUP = DEFAULT_DECK  # in a choice of decks: the game's default choice of piles


def strategy_choices(fullgame: FullGame, language: str) -> list[tuple[str, str]]:
    return [(name, pick(fullgame.strategy_labels.get(name, {}), language) or name) for name in fullgame.strategies]


def grouped_strategies(
    fullgame: FullGame, language: str, written: Sequence[tuple[str, str]]
) -> tuple[list[tuple[str, str]], list[Any]]:
    """The shipped strategies, and the choices of a strategy field: the shipped ones, grouped apart from the
    written ones (``written:<id>``, label) when there are any."""
    shipped = strategy_choices(fullgame, language)
    if not written:
        return shipped, list(shipped)
    return shipped, [(_("Shipped strategies"), shipped), (_("Written strategies"), list(written))]


def filled(form: forms.Form, prefix: str, count: int) -> list[str]:
    """The values of the fields ``<prefix>1`` … ``<prefix><count>`` that were filled in, in order."""
    values = (form.cleaned_data.get(f"{prefix}{n + 1}") for n in range(count))
    return [value for value in values if value]


class PileChoiceForm(forms.Form):
    """The table a whole game is played on: one of the user's decks of the game (its piles, built and checked in
    the deck builder), a deck shared by link (``<id>:<token>``, offered when its page presets it), or the game's
    default piles (``simulator.setup_decks``)."""

    fullgame: FullGame

    deck = forms.ChoiceField(
        label=_("Deck"),
        required=False,
        help_text=_("The deck whose piles are laid out (build one in the deck builder), or the first piles by number."),
    )

    def set_decks(self, decks: Sequence[tuple[str, str]]) -> None:
        self.fields["deck"].choices = [(DEFAULT_SETUP, _("The first piles by card number")), *decks]

    def clean_deck(self) -> str:
        return self.cleaned_data["deck"] or DEFAULT_SETUP


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


class SeatedForm(PileChoiceForm):
    """Who sits where in a game played one choice at a time: you in at most one seat, strategies in the others."""

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
        super().__init__(data, **kwargs)
        self.fullgame = fullgame
        shipped, strategies = grouped_strategies(fullgame, language, written)
        choices = [(PERSON_SEAT, _("You")), *(strategies if written else [(_("Shipped strategies"), shipped)])]
        self.set_decks(decks)
        for seat in range(MAX_STRATEGIES):
            required = seat == 0
            self.fields[f"seat{seat + 1}"] = forms.ChoiceField(
                label=_("Seat %(seat)s") % {"seat": seat + 1},
                choices=([] if required else [("", "—")]) + choices,
                required=required,
                initial=PERSON_SEAT if seat == 0 else (shipped[0][0] if seat == 1 else ""),
            )
        self.order_fields([f"seat{seat + 1}" for seat in range(MAX_STRATEGIES)])

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        if self.seats().count(PERSON_SEAT) > 1:
            raise forms.ValidationError(_("You can take one seat only."))
        return cleaned

    def seats(self) -> list[str]:
        return filled(self, "seat", MAX_STRATEGIES)


class SearchForm(PileChoiceForm):
    """A search for the best strategy on one set-up (``searches``)."""

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
