"""The collection's forms: a pasted list, a CSV file, a change of one card's count. The rules they check are
``collection.rules``' (through the services), as on every other path."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from .importing import MAX_CSV_BYTES, MAX_LIST_LENGTH
from .services import ADD, REPLACE

MODE_CHOICES = [
    (ADD, _("Add these cards to my collection")),
    (REPLACE, _("Replace my collection of this game with this list")),
]


class ModeField(forms.ChoiceField):
    def __init__(self, **kwargs) -> None:
        super().__init__(choices=MODE_CHOICES, initial=ADD, widget=forms.RadioSelect, label=_("How"), **kwargs)


class PasteForm(forms.Form):
    text = forms.CharField(
        label=_("Card list"),
        max_length=MAX_LIST_LENGTH,
        strip=False,
        widget=forms.Textarea(attrs={"rows": 14, "cols": 60, "spellcheck": "false"}),
        help_text=_(
            "One card a line: a count, then the card's name (in any language) or number, e.g. “3 林沖” or "
            "“2x Sub-Zero”, as in a decklist. Headings such as “Deck:” are ignored; lines starting with # are comments."
        ),
    )
    mode = ModeField()


class CsvForm(forms.Form):
    file = forms.FileField(
        label=_("CSV file"),
        help_text=_(
            "UTF-8, the first line naming the columns: key (or card, number, name) and count, e.g. “key,count”. "
            "The export of a collection reads back as it is."
        ),
    )
    mode = ModeField()

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > MAX_CSV_BYTES:
            raise forms.ValidationError(
                _("A CSV file may have at most %(maximum)s kB."), params={"maximum": MAX_CSV_BYTES // 1000}
            )
        return upload


class ChangeForm(forms.Form):
    """+1 or −1 on one card (``delta``), or a count to set (``count``)."""

    delta = forms.IntegerField(required=False, min_value=-1, max_value=1)
    count = forms.IntegerField(required=False)
