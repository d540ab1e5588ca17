"""The strategy editor's form: it presents the fields; ``strategy_services`` checks them (the same checks as the
API's) and its problems are put back on the fields."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from cardsite.sharing import Visibility
from cardsite.text import plain_name, plain_text

from .services import DESCRIPTION_LIMIT, NAME_LIMIT, TEXT_LIMIT, StrategyError


class StrategyForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=NAME_LIMIT, validators=[plain_name()])
    text = forms.CharField(
        label=_("Strategy"),
        max_length=TEXT_LIMIT,
        strip=False,
        widget=forms.Textarea(attrs={"rows": 16, "spellcheck": "false", "class": "strategy-text", "dir": "ltr"}),
        help_text=_("One statement a line; the syntax and the game's cards and choices are listed beside."),
    )
    description = forms.CharField(
        label=_("Description"),
        required=False,
        max_length=DESCRIPTION_LIMIT,
        widget=forms.Textarea(attrs={"rows": 3}),
        validators=[plain_text(_("description"))],
    )
    visibility = forms.ChoiceField(label=_("Visibility"), choices=Visibility.choices, initial=Visibility.PRIVATE)

    def add_refusal(self, refused: StrategyError) -> None:
        """The service's problems, each on its field (the text's by line)."""
        for field, messages in refused.errors.items():
            for message in messages:
                self.add_error(field if field in self.fields else None, message)
        if not refused.errors:
            self.add_error(None, refused.message)
