"""The forms of a deck's assumptions page: one value, a value for every card that lacks it, assumed cards, a sheet."""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from django import forms
from django.utils.translation import gettext_lazy as _

from .services import MAX_ASSUMED_CARDS

MAX_SHEET_BYTES = 1_000_000
ANY_KIND = ""


class OneValueForm(forms.Form):
    key = forms.CharField(max_length=100, widget=forms.HiddenInput)
    field = forms.CharField(max_length=40, widget=forms.HiddenInput)
    value = forms.CharField(label=_("Assumed value"), max_length=200)


class BulkFillForm(forms.Form):
    """ "AT of every ability = 2": one value for every card (of a kind) that lacks it."""

    field = forms.ChoiceField(label=_("Value"))
    kind = forms.ChoiceField(label=_("Of the cards of kind"), required=False)
    value = forms.CharField(label=_("Assumed value"), max_length=200)

    def __init__(
        self, *args: object, fields: Sequence[tuple[str, str]], kinds: Sequence[tuple[str, str]], **kwargs: object
    ) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        cast(forms.ChoiceField, self.fields["field"]).choices = list(fields)
        cast(forms.ChoiceField, self.fields["kind"]).choices = [(ANY_KIND, _("every kind")), *kinds]


class AssumedCardsForm(forms.Form):
    kind = forms.ChoiceField(label=_("Kind"))
    count = forms.IntegerField(label=_("Number of assumed cards"), min_value=1, max_value=MAX_ASSUMED_CARDS)

    def __init__(self, *args: object, kinds: Sequence[tuple[str, str]], **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        cast(forms.ChoiceField, self.fields["kind"]).choices = list(kinds)


class SheetForm(forms.Form):
    sheet = forms.FileField(label=_("Sheet (CSV)"))

    def clean_sheet(self) -> str:
        upload = self.cleaned_data["sheet"]
        if upload.size > MAX_SHEET_BYTES:
            raise forms.ValidationError(_("The sheet is larger than 1 MB."))
        try:
            return str(upload.read().decode("utf-8-sig"))
        except UnicodeDecodeError as error:
            raise forms.ValidationError(_("The sheet is not UTF-8 text.")) from error


class DropForm(forms.Form):
    key = forms.CharField(max_length=100)
    field = forms.CharField(max_length=40)
