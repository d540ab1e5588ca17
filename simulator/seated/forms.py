"""The form that starts a game played one choice at a time."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from ..comparisons.services import MAX_STRATEGIES
from ..fullgames import FullGame
from ..models import PERSON_SEAT
from ..shared.forms import PileChoiceForm, filled, grouped_strategies


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
