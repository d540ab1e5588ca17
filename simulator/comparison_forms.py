"""The form that starts a whole game's comparison (shipped strategies, games, stop when significant, piles)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from cardsite.labels import pick

from .comparisons import MAX_GAMES, MAX_STRATEGIES, MIN_STRATEGIES
from .core import SimCard
from .fullgames import FullGame

DEFAULT_GAMES = 1000


def strategy_choices(fullgame: FullGame, language: str) -> list[tuple[str, str]]:
    return [(name, pick(fullgame.strategy_labels.get(name, {}), language) or name) for name in fullgame.strategies]


class ComparisonForm(forms.Form):
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
    abilities = forms.MultipleChoiceField(
        label=_("Ability piles"),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("Choose 9, or none for the first 9 by card number."),
    )

    def __init__(
        self,
        data: Any = None,
        *,
        fullgame: FullGame,
        abilities: Sequence[SimCard],
        language: str,
        written: Sequence[tuple[str, str]] = (),
        **kwargs: Any,
    ) -> None:
        """``written``: the written strategies the user may choose, as (``written:<id>``, label)."""
        super().__init__(data, **kwargs)
        self.fullgame = fullgame
        shipped = strategy_choices(fullgame, language)
        self.choices: list[Any] = shipped
        if written:
            self.choices = [(_("Shipped strategies"), shipped), (_("Written strategies"), list(written))]
        self.fields["abilities"].choices = [(card.key, f"{card.name} ({card.key})") for card in abilities]
        for seat in range(MAX_STRATEGIES):
            required = seat < MIN_STRATEGIES
            self.fields[f"seat{seat + 1}"] = forms.ChoiceField(
                label=_("Strategy %(seat)s") % {"seat": seat + 1},
                choices=([] if required else [("", "—")]) + self.choices,
                required=required,
                initial=shipped[seat % len(shipped)][0] if required else "",
            )
        self.order_fields([f"seat{seat + 1}" for seat in range(MAX_STRATEGIES)])

    def clean_abilities(self) -> list[str]:
        chosen = self.cleaned_data["abilities"]
        count = self.fullgame.choose_count
        if chosen and len(chosen) != count:
            raise forms.ValidationError(
                _("Choose exactly %(count)s ability piles (%(chosen)s chosen), or none."),
                params={"count": count, "chosen": len(chosen)},
            )
        return chosen

    def strategies(self) -> list[str]:
        return [
            self.cleaned_data[f"seat{seat + 1}"]
            for seat in range(MAX_STRATEGIES)
            if self.cleaned_data.get(f"seat{seat + 1}")
        ]
