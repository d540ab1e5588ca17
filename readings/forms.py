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
    printing = forms.ChoiceField(
        label=_("Printed in"),
        required=False,
        help_text=_("Each language is read with its own model alone; not said: the card's lines tell."),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        languages = dict.fromkeys(code for game in Game.objects.all() for code in game.definition.text_languages)
        printing_field = self.fields["printing"]
        assert isinstance(printing_field, forms.ChoiceField)
        printing_field.choices = [
            ("", _("Not said: find out from the card")),
            *((code, LANGUAGE_NAMES.get(code, code)) for code in languages),
        ]
        game_field = self.fields["game"]
        assert isinstance(game_field, forms.ModelChoiceField)
        game_field.label_from_instance = game_name  # type: ignore[method-assign, assignment]  # a ShownName renders as text


KEEP, TAKE_READING, EDIT = "keep", "read", "edit"


def _plain(value: Any) -> Any:
    """A value as a form's box holds it, for comparing what was posted with what was shown."""
    if isinstance(value, list | tuple):
        return sorted(str(item) for item in value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return ""
    return str(value).replace("\r\n", "\n").strip()


class PhotoReviewForm(forms.Form):
    """The card read from one photo: the key (a new card), number, kind, name and text in the game's original
    language, and each declared field.

    A new card: each box is filled with what was read, and a value left empty is not submitted. A matched card
    (``stored``, its values by form field): each box holds the stored value, never the reading; where something
    was read (``readings``, by form field), the contributor chooses (``choice_<field>``) to keep the stored value
    (the default), to take the reading, or to edit the box (a box changed counts as edited). Submitted untouched,
    nothing is submitted. The button ``take_sure`` takes every reading in ``sure`` that is still on keep."""

    def __init__(
        self,
        definition: GameDefinition,
        *args: Any,
        new_card: bool,
        stored: dict[str, Any] | None = None,
        readings: dict[str, Any] | None = None,
        sure: set[str] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.stored = stored or {}
        self.readings = readings or {}
        self.sure = sure or set()
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
            label=_("Propose this photo as the card's picture"), required=False, initial=new_card
        )
        self.fields["seen"] = forms.CharField(required=False, widget=forms.HiddenInput)
        # A matched card: where a reading differs from the stored value, the contributor's choice between them.
        self.choice_names: list[str] = []
        if not new_card:
            for name in self.box_names():
                if name in self.readings and _plain(self.readings[name]) != _plain(self.stored.get(name)):
                    self.fields[f"choice_{name}"] = forms.ChoiceField(
                        label=_("Which value"),
                        choices=[
                            (KEEP, _("Keep the stored value")),
                            (TAKE_READING, _("Take the reading")),
                            (EDIT, _("Use the box as edited")),
                        ],
                        initial=KEEP,
                        required=False,
                        widget=forms.RadioSelect,
                    )
                    self.choice_names.append(name)

    def box_names(self) -> list[str]:
        """The form fields that hold a value of the card (not the key, the card chosen, the picture)."""
        return [
            "number",
            "kind",
            "name",
            "text",
            *(name for name, _code, _part in self.translation_names),
            *self.value_names,
        ]

    def clean(self) -> dict[str, Any]:
        """A matched card: each value chosen, in the box (``cleaned_data[name]``), and ``self.chosen`` the names of
        the values to submit; a reading taken is checked as the box would be."""
        data = super().clean() or {}
        self.chosen: list[str] = []
        if self.new_card:
            return data
        take_sure = bool(self.data.get("take_sure"))
        for name in self.box_names():
            choice = data.get(f"choice_{name}") or KEEP
            edited = self._edited(name)
            if choice == KEEP and edited:
                choice = EDIT
            if choice == KEEP and take_sure and name in self.sure and name in self.choice_names:
                choice = TAKE_READING
            if choice == TAKE_READING and name in self.readings:
                try:
                    data[name] = self.fields[name].clean(as_posted(self.readings[name]))
                except forms.ValidationError as error:
                    self.add_error(name, error)
                    continue
            elif choice == KEEP or (choice == EDIT and not edited):
                continue
            self.chosen.append(name)
        return data

    def _edited(self, name: str) -> bool:
        """Whether the posted box differs from the stored value it was filled with (boxes of a list of choices
        are not posted when none is ticked; another box not posted is not edited)."""
        if isinstance(self.fields[name], forms.MultipleChoiceField):
            getlist = getattr(self.data, "getlist", None)
            posted: Any = getlist(name) if getlist is not None else self.data.get(name, [])
        elif name in self.data:
            posted = self.data.get(name)
        else:
            return False
        return _plain(posted) != _plain(self.stored.get(name))

    def changes_nothing(self) -> bool:
        """Whether the values chosen change nothing of the matched card, and its picture is not proposed."""
        return not self.new_card and not self.chosen and not self.cleaned_data.get("image")

    def values(self) -> dict[str, Any]:
        """The values to submit (``readings.submissions.submit_photo``): those filled in, and the photo's choice."""
        data = self.cleaned_data
        # A new card: every box filled in. A matched card: the values chosen (an emptied box makes it unknown).
        given = set(self.box_names()) if self.new_card else set(self.chosen)

        def submitted(name: str) -> bool:
            return name in given and (not self.new_card or data.get(name) not in (None, "", []))

        values: dict[str, Any] = {name: data[name] for name in ("card", "key") if data.get(name)}
        values.update({name: data.get(name) or "" for name in ("number", "kind", "name", "text") if submitted(name)})
        fields: dict[str, Any] = {}
        for name in self.value_names:
            if not submitted(name):
                continue
            value = data.get(name)
            if value in ("true", "false"):
                value = value == "true"
            fields[name.removeprefix("field_")] = None if value in ("", []) else value
        if fields:
            values["fields"] = fields
        translations: dict[str, dict[str, str]] = {}
        for name, code, part in self.translation_names:
            if submitted(name):
                translations.setdefault(code, {})[part] = data.get(name) or ""
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


def as_posted(value: Any) -> Any:
    """A reading as a browser would post it in its box (a true/false choice as "true"/"false")."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | tuple):
        return [str(item) for item in value]
    return "" if value is None else str(value)
