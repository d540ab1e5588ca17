"""The builder's small form for a placeholder card: its kind, the values it states, a name (optional) and a count."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from cardsite.labels import pick

from ..models import Deck
from ..rules import get_rules
from . import services

VALUE_PREFIX = "value_"  # a stated value's field: ``value_cost``, ``value_attack`` …


class PlaceholderForm(forms.Form):
    """One field per value any of the game's placeholder kinds states; a value left empty stays unknown, and a
    value the chosen kind does not state is refused by ``services.clean_values`` with its name."""

    kind = forms.ChoiceField(label=_("Kind"))
    name = forms.CharField(label=_("Name (optional)"), required=False, max_length=services.MAX_NAME_LENGTH)
    count = forms.IntegerField(label=_("Count"), min_value=1, max_value=99, initial=1)

    def __init__(self, *args: Any, deck: Deck, language: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        definition = deck.game.definition
        declared = get_rules(deck.game.slug).placeholders
        kind_field = self.fields["kind"]
        assert isinstance(kind_field, forms.ChoiceField)
        kind_field.choices = [
            (p.kind, pick(kind.labels, language) if (kind := definition.kind(p.kind)) else p.kind) for p in declared
        ]
        for name in dict.fromkeys(field for p in declared for field in p.fields):
            spec = definition.field(name)
            self.fields[VALUE_PREFIX + name] = forms.IntegerField(
                label=spec.label(language) if spec else name,
                required=False,
                min_value=0,
                max_value=services.MAX_STATED_VALUE,
            )

    def values(self) -> dict[str, int | None]:
        return {
            name.removeprefix(VALUE_PREFIX): value
            for name, value in self.cleaned_data.items()
            if name.startswith(VALUE_PREFIX) and value is not None  # left empty: unknown, never sent as a value
        }
