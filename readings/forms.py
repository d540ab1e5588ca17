"""Forms of the reading pages: the upload of a batch (the game; the photos are read from ``request.FILES``) and the
review of one photo (each value of the card, editable, with what was read)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from cards.gamedefs.base import GameDefinition
from cards.importing import MAX_LENGTHS
from cards.models import Game
from cards.presentation import LANGUAGE_NAMES
from cards.templatetags.cardtags import game_name
from contributions.forms import UNKNOWN, value_field


class BatchUploadForm(forms.Form):
    game = forms.ModelChoiceField(label=_("Game"), queryset=Game.objects.all(), to_field_name="slug", empty_label=None)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        game_field = self.fields["game"]
        assert isinstance(game_field, forms.ModelChoiceField)
        game_field.label_from_instance = game_name  # type: ignore[method-assign, assignment]  # a ShownName renders as text


class PhotoReviewForm(forms.Form):
    """The card read from one photo: the key (a new card), number, kind, name and text in the game's original
    language, and each declared field. A value left empty is not submitted (a matched card keeps its own)."""

    def __init__(self, definition: GameDefinition, *args: Any, new_card: bool, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        language = get_language() or "en"
        self.definition = definition
        self.new_card = new_card
        if new_card:
            self.fields["key"] = forms.CharField(
                label=_("Key"),
                required=False,
                max_length=MAX_LENGTHS["key"],
                help_text=_("How the site names the new card; empty: its number, or else its name."),
            )
        self.fields["card"] = forms.CharField(
            label=_("The card this photo shows"),
            required=False,
            max_length=MAX_LENGTHS["key"],
            help_text=_("Its key on this site; empty: the card matched, or a new card."),
        )
        self.fields["number"] = forms.CharField(label=_("Number"), required=False, max_length=MAX_LENGTHS["number"])
        kinds = [UNKNOWN, *((spec.slug, spec.label(language)) for spec in definition.kinds)]
        self.fields["kind"] = forms.ChoiceField(label=_("Kind"), choices=kinds, required=False)
        original = definition.original_language
        self.fields["name"] = forms.CharField(
            label=_("Name"),
            required=False,
            max_length=MAX_LENGTHS["name"],
            widget=forms.TextInput(attrs={"lang": original}),
        )
        self.fields["text"] = forms.CharField(
            label=_("Text"), required=False, max_length=5000, widget=forms.Textarea(attrs={"rows": 5, "lang": original})
        )
        # The translation languages' name and text, when the card shows them too (read in a second pass).
        self.translation_names: list[tuple[str, str, str]] = []  # (form field, language, "name" or "text")
        for code in definition.translation_languages:
            language_name = LANGUAGE_NAMES.get(code, code)
            self.fields[f"name_{code}"] = forms.CharField(
                label=_("Name (%(language)s)") % {"language": language_name},
                required=False,
                max_length=MAX_LENGTHS["name"],
                widget=forms.TextInput(attrs={"lang": code}),
            )
            self.fields[f"text_{code}"] = forms.CharField(
                label=_("Text (%(language)s)") % {"language": language_name},
                required=False,
                max_length=5000,
                widget=forms.Textarea(attrs={"rows": 4, "lang": code}),
            )
            self.translation_names += [(f"name_{code}", code, "name"), (f"text_{code}", code, "text")]
        self.value_names: list[str] = []
        for spec in definition.fields:
            self.fields[f"field_{spec.name}"] = value_field(spec, language)
            self.value_names.append(f"field_{spec.name}")
        self.fields["image"] = forms.BooleanField(
            label=_("Propose this photo as the card's picture"), required=False, initial=True
        )
        self.fields["seen"] = forms.CharField(required=False, widget=forms.HiddenInput)

    def values(self) -> dict[str, Any]:
        """The values to submit (``readings.services.submit_photo``): those filled in, and the photo's choice."""
        data = self.cleaned_data
        values: dict[str, Any] = {
            name: data[name] for name in ("card", "key", "number", "kind", "name", "text") if data.get(name)
        }
        fields = {}
        for name in self.value_names:
            value = data.get(name)
            if value in (None, "", []):
                continue
            if value in ("true", "false"):
                value = value == "true"
            fields[name.removeprefix("field_")] = value
        if fields:
            values["fields"] = fields
        translations: dict[str, dict[str, str]] = {}
        for name, code, part in self.translation_names:
            if data.get(name):
                translations.setdefault(code, {})[part] = data[name]
        if translations:
            values["translations"] = translations
        values["image"] = bool(data.get("image"))
        if data.get("seen"):
            values["seen"] = data["seen"]
        return values

    def field_for(self, name: str) -> str | None:
        """The form field of a submitted value's name (``fields.at`` → ``field_at``), or None."""
        if name.startswith("fields."):
            name = "field_" + name.removeprefix("fields.")
        elif name.startswith("translations."):
            code, _dot, part = name.removeprefix("translations.").partition(".")
            name = f"{part or 'name'}_{code}"
        return name if name in self.fields else None
