"""What the forms of the whole-game features share: the choice of piles, the strategies to choose from."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from cardsite.labels import pick

from ..core import SimCard
from ..fullgames import FullGame

# The written strategies a choice offers: the most recently changed of the user's own and the public ones.
MAX_WRITTEN_CHOICES = 200
DEFAULT_GAMES = 1000


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
    """The piles a whole game's set-up lets the user choose (the game's ``choosable`` kinds, ``choose_count``)."""

    fullgame: FullGame

    abilities = forms.MultipleChoiceField(
        label=_("Ability piles"),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("Choose 9, or none for the first 9 by card number."),
    )

    def set_piles(self, abilities: Sequence[SimCard]) -> None:
        self.fields["abilities"].choices = [(card.key, f"{card.name} ({card.key})") for card in abilities]

    def clean_abilities(self) -> list[str]:
        chosen = self.cleaned_data["abilities"]
        count = self.fullgame.choose_count
        if chosen and len(chosen) != count:
            raise forms.ValidationError(
                _("Choose exactly %(count)s ability piles (%(chosen)s chosen), or none."),
                params={"count": count, "chosen": len(chosen)},
            )
        return chosen
