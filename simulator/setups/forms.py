"""The set-up builder's form."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from cardsite.sharing import Visibility
from cardsite.text import plain_name

from ..core import SimCard
from ..fullgames import FullGame
from ..shared.forms import PileChoiceForm


class SetupForm(PileChoiceForm):
    """The set-up builder: a name, who sees it, and the piles (checked by ``setups.services``)."""

    name = forms.CharField(label=_("Name"), max_length=120, validators=[plain_name()])
    visibility = forms.ChoiceField(label=_("Visibility"), choices=Visibility.choices, initial=Visibility.PRIVATE)

    def __init__(self, data: Any = None, *, fullgame: FullGame, abilities: Sequence[SimCard], **kwargs: Any) -> None:
        super().__init__(data, **kwargs)
        self.fullgame = fullgame
        self.set_piles(abilities)
        self.order_fields(["name", "abilities", "visibility"])
