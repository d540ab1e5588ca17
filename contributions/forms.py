"""The contribution form of one game's card, generated from the game's declarations (``cards.gamedefs``).

A field per declared value of the chosen kind, typed as declared: a choice is a list of its labelled values,
a list of choices is a set of boxes, a number is a number box with its bounds, true/false a choice with
"unknown"; every value may be left unknown. The form does not judge values: it hands them to
``contributions.services.submit_change_set``, which checks them as the importer does, and the view puts
each problem back beside its field (``field_for_path``).
"""

from __future__ import annotations

from collections.abc import Mapping, MutableMapping
from typing import Any

from django import forms
from django.core import signing
from django.utils.text import capfirst
from django.utils.translation import get_language, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from cards.gamedefs import LANGUAGES
from cards.gamedefs.base import BooleanType, ChoiceListType, ChoiceType, FieldSpec, GameDefinition, IntegerType
from cards.importing import CARD_TEXT_PARTS, MAX_LENGTHS
from cards.models import LANGUAGE_CHOICES, CardImage
from cards.presentation import LANGUAGE_NAMES, problem_text
from cardsite.text import plain_text
from cardsite.types import SiteUser

from .models import ChangeSet
from .uploads import file_limit_attributes


def mutable_copy(data: Mapping[str, Any]) -> MutableMapping[str, Any]:
    """A copy of a form's data that may be changed: a QueryDict's copy keeps every value of a key, which
    ``dict(data)`` would not."""
    return data.copy()  # type: ignore[attr-defined]  # a QueryDict, or a dict in tests: both have copy()


UNKNOWN = ("", pgettext_lazy("a value no source gives", "unknown"))
TEXT_PARTS = {
    "name": pgettext_lazy("part of a card text", "name"),
    "text": pgettext_lazy("part of a card text", "rules text"),
    "notes": pgettext_lazy("part of a card text", "translator's notes"),
}


def value_field(spec: FieldSpec, language: str) -> forms.Field:
    """The form field for one declared card value (shared with the form that corrects a photo's reading)."""
    label = spec.label(language)
    unit = spec.unit_label(language)
    kind = spec.type
    # A list of choices says what it takes itself; the other fields say it beside them.
    help_text = "" if isinstance(kind, ChoiceType | ChoiceListType | BooleanType) else problem_text(kind.expectation())
    help_text += f" ({unit})" if unit else ""
    choices: list[tuple[str, Any]]
    if isinstance(kind, ChoiceListType):
        choices = [(value, kind.value_label(value, language)) for value in kind.choices]
        return forms.MultipleChoiceField(
            label=label, choices=choices, required=False, widget=forms.CheckboxSelectMultiple, help_text=help_text
        )
    if isinstance(kind, ChoiceType):
        choices = [UNKNOWN, *((value, kind.value_label(value, language)) for value in kind.choices)]
        return forms.ChoiceField(label=label, choices=choices, required=False, help_text=help_text)
    if isinstance(kind, BooleanType):
        choices = [UNKNOWN, ("true", _("yes")), ("false", _("no"))]
        return forms.ChoiceField(label=label, choices=choices, required=False, help_text=help_text)
    attributes: dict[str, Any] = {}
    if isinstance(kind, IntegerType):
        attributes = {"inputmode": "numeric"}
        if kind.minimum is not None:
            attributes["min"] = kind.minimum
        if kind.maximum is not None:
            attributes["max"] = kind.maximum
    return forms.CharField(
        label=label, required=False, max_length=200, help_text=help_text, widget=forms.TextInput(attrs=attributes)
    )


IMAGE_TYPES = "image/jpeg,image/png,image/webp"


def _photo_field(label: Any, *, required: bool, help_text: Any = "") -> forms.FileField:
    """A picture to upload; checked by ``cards.images.services.image_store`` (type, size, pixels), not here."""
    return forms.FileField(
        label=label,
        required=required,
        help_text=help_text,
        widget=forms.ClearableFileInput(attrs={"accept": IMAGE_TYPES, **file_limit_attributes()}),
    )


def _add_change_set_fields(form: forms.Form, question: Any) -> None:
    """The fields every contribution form ends with: where its values come from (``question`` asks it), the
    details, a comment, and the fingerprint of the card as the form showed it (``seen``)."""
    form.fields["source_kind"] = forms.ChoiceField(
        label=question, choices=ChangeSet.SourceKind.choices, widget=forms.RadioSelect
    )
    form.fields["source_detail"] = forms.CharField(
        label=_("Source details"),
        required=False,
        max_length=300,
        help_text=_("A web address, the set or box, or anything that lets an editor check."),
    )
    form.fields["comment"] = forms.CharField(
        label=_("Comment for the editors"), required=False, max_length=2000, widget=forms.Textarea(attrs={"rows": 3})
    )
    form.fields["seen"] = forms.CharField(required=False, widget=forms.HiddenInput)


class CardContributionForm(forms.Form):
    """A new card (``key`` asked) or a change to one (``key`` fixed), with the change set's source."""

    # What the page answers after a refused submission: its status, and the card as it is now (a conflict).
    status: int = 200
    current: dict[str, Any] | None = None

    def __init__(
        self,
        definition: GameDefinition,
        kind: str | None,
        *args: Any,
        key: str | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        language = get_language() or "en"
        self.definition = definition
        self.fixed_key = key
        if key is None:
            self.fields["key"] = forms.CharField(
                label=_("Key"),
                max_length=MAX_LENGTHS["key"],
                help_text=_("How the site names the card: its printed number, or its name where it has none."),
            )
        self.fields["number"] = forms.CharField(
            label=_("Number"), required=False, max_length=MAX_LENGTHS["number"], help_text=_("As printed on the card.")
        )
        kinds = [UNKNOWN, *((spec.slug, spec.label(language)) for spec in definition.kinds)]
        self.fields["kind"] = forms.ChoiceField(label=_("Kind"), choices=kinds, required=False)
        self.value_names: list[str] = []
        for spec in definition.fields_for_kind(kind):
            self.fields[f"field_{spec.name}"] = value_field(spec, language)
            self.value_names.append(f"field_{spec.name}")
        self.text_names: list[tuple[str, str, list[str]]] = []
        for code in LANGUAGES:
            names = []
            for part, part_label in TEXT_PARTS.items():
                name = f"text_{code}_{part}"
                widget = (
                    forms.Textarea(attrs={"rows": 4, "lang": code})
                    if part != "name"
                    else forms.TextInput(attrs={"lang": code})
                )
                limit = MAX_LENGTHS.get(part)
                self.fields[name] = forms.CharField(
                    label=capfirst(part_label), required=False, widget=widget, max_length=limit, strip=True
                )
                names.append(name)
            self.text_names.append((code, str(LANGUAGE_NAMES[code]), names))
        self.fields["values_source"] = forms.CharField(
            label=_("Values from"),
            required=False,
            max_length=MAX_LENGTHS["source"],
            help_text=_("The source the card cites for its values, as the card page shows it."),
        )
        _add_change_set_fields(self, _("Where do these values come from?"))
        self.fields["source_photo"] = _photo_field(
            _("Photo or scan of the card (optional)"),
            required=False,
            help_text=_("Your photo or scan of the printed card: the editors check the values against it."),
        )

    @classmethod
    def initial_from_state(cls, state: dict[str, Any]) -> dict[str, Any]:
        """The form's initial values for a card as it is (``cards.services.card_state``)."""
        initial: dict[str, Any] = {
            "number": state.get("number") or "",
            "kind": state.get("kind") or "",
            "values_source": state.get("source") or "",
        }
        for name, value in (state.get("fields") or {}).items():
            if isinstance(value, bool):
                value = "true" if value else "false"
            initial[f"field_{name}"] = value
        for code, parts in (state.get("texts") or {}).items():
            for part, value in parts.items():
                initial[f"text_{code}_{part}"] = value
        return initial

    def card_record(self) -> dict[str, Any]:
        """The card in the project's card format (docs/card-format.md), as the importer reads it."""
        data = self.cleaned_data
        fields: dict[str, Any] = {}
        for name in self.value_names:
            value = data.get(name)
            if value not in (None, "", []):
                fields[name.removeprefix("field_")] = value
        texts: dict[str, dict[str, str]] = {}
        for code, _label, names in self.text_names:
            parts = {name.rsplit("_", 1)[1]: data[name] for name in names if data.get(name)}
            if parts:
                texts[code] = parts
        return {
            "key": self.fixed_key if self.fixed_key is not None else data.get("key", ""),
            "number": data.get("number") or None,
            "kind": data.get("kind") or None,
            "fields": fields,
            "texts": texts,
            "source": data.get("values_source") or "",
        }

    def field_for_path(self, path: str) -> str | None:
        """The form field of a problem's place (``cards[0].fields.attack`` → ``field_attack``), or None."""
        place = path.split(".", 1)[1] if "." in path else ""
        head, _dot, rest = place.partition(".")
        if head == "fields" and f"field_{rest}" in self.fields:
            return f"field_{rest}"
        if head == "texts":
            code, _dot, part = rest.partition(".")
            name = f"text_{code}_{part}" if part else ""
            return name if name in self.fields else None
        if head in ("key", "number", "kind") and head in self.fields:
            return head
        if head == "source":
            return "values_source"
        return None


class TranslationContributionForm(forms.Form):
    """A card's text in a translation track: a track the game has (not a language's main track, whose texts the
    card's own form changes), or a new one with its name and credits. Checked by the service, as every change."""

    # What the page answers after a refused submission: its status, and the card as it is now (a conflict).
    status: int = 200
    current: dict[str, Any] | None = None

    NEW = "new"

    def __init__(self, definition: GameDefinition, tracks: list[Any], *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.tracks = {str(track.pk): track for track in tracks}
        self.fields["language"] = forms.ChoiceField(
            label=_("Language"),
            choices=[(code, LANGUAGE_NAMES[code]) for code in definition.translation_languages],
        )
        self.fields["track"] = forms.ChoiceField(
            label=_("Translation"),
            choices=[
                (self.NEW, _("A new translation")),
                *((pk, f"{track.name} ({LANGUAGE_NAMES[track.language]})") for pk, track in self.tracks.items()),
            ],
        )
        self.fields["track_name"] = forms.CharField(
            label=_("Name of the new translation"),
            required=False,
            max_length=MAX_LENGTHS["track"],
            help_text=_("How readers tell it from the language's other translations, e.g. the translator's name."),
        )
        self.fields["credits"] = forms.CharField(
            label=_("Credits"),
            required=False,
            max_length=MAX_LENGTHS["credits"],
            help_text=_("Who translated it, and where it was published."),
        )
        for part, part_label in {**TEXT_PARTS, "source": pgettext_lazy("part of a card text", "source")}.items():
            widget = forms.Textarea(attrs={"rows": 4}) if part in ("text", "notes") else forms.TextInput()
            self.fields[part] = forms.CharField(
                label=capfirst(part_label), required=False, widget=widget, max_length=MAX_LENGTHS.get(part)
            )
        _add_change_set_fields(self, _("Where does this translation come from?"))

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}  # Django answers the cleaned data; the stubs allow None
        track = self.tracks.get(data.get("track") or "")
        if track is not None and track.language != data.get("language"):
            self.add_error("track", _("This translation is in another language."))
        if data.get("track") == self.NEW and not data.get("track_name"):
            self.add_error("track_name", _("Name the new translation."))
        return data

    def track_name(self) -> str:
        track = self.tracks.get(self.cleaned_data["track"])
        return track.name if track is not None else self.cleaned_data["track_name"]

    def new_tracks(self) -> list[dict[str, str]]:
        """The track the change set makes, if a new one."""
        if self.cleaned_data["track"] != self.NEW:
            return []
        return [
            {
                "language": self.cleaned_data["language"],
                "name": self.cleaned_data["track_name"],
                "credits": self.cleaned_data.get("credits", ""),
            }
        ]

    def card_record(self, current: dict[str, Any]) -> dict[str, Any]:
        """The card (``current``, in the card format) with this text in its track; no text at all removes the
        card's text in that track."""
        data = self.cleaned_data
        language, name = data["language"], self.track_name()
        parts = {part: data[part] for part in CARD_TEXT_PARTS if data.get(part)}
        translations = {code: dict(by_track) for code, by_track in (current.get("translations") or {}).items()}
        by_track = translations.setdefault(language, {})
        if parts:
            by_track[name] = parts
        else:
            by_track.pop(name, None)
        return {**current, "translations": {code: tracks for code, tracks in translations.items() if tracks}}

    def field_for_path(self, path: str) -> str | None:
        """The form field of a problem's place (``cards[0].translations.zh-hant.X.text`` → ``text``)."""
        head, _dot, place = path.partition(".")
        if head.startswith("tracks["):
            return {"name": "track_name", "credits": "credits", "language": "language"}.get(place)
        part = place.rpartition(".")[2]
        return part if place.startswith("translations.") and part in CARD_TEXT_PARTS else None


class BulkContributionForm(forms.Form):
    """A table pasted from a spreadsheet, or a file (JSON or CSV in the card format), with its source.

    An uploaded file's text is put into the text box, so that the preview and the submission read the same
    text (the file is not uploaded twice).

    The source photo (optional: a photo of the set's card list, or of the cards) is chosen with the table, as
    on the single-card form, and is checked and stored when the table is previewed: a browser does not send a
    chosen file again with the next form, so a photo taken only at submit would be lost, unseen, by everyone
    who previews first, which the page asks them to do. The stored photo is carried to the submission in a
    hidden field (``kept_photo``) signed for the user who uploaded it (``keep_photo``), and shown beside the
    photo field; choosing another file replaces it, ticking ``drop_photo`` leaves it out. The signature
    says whose it is, and the change set's service checks again that the user may attach it.
    A value signed for someone else, changed, or older than ``KEPT_PHOTO_MAX_AGE`` is refused on
    ``source_photo`` (``kept_photo_id``)."""

    # The status the page answers after a refused submission.
    status: int = 200

    MAX_FILE_BYTES = 2_000_000
    KEPT_PHOTO_MAX_AGE = 24 * 60 * 60  # seconds: a preview left open overnight still submits

    text = forms.CharField(
        label=_("Cards"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 10, "spellcheck": "false"}),
        help_text=_(
            "Paste the rows of a spreadsheet with a header row of the card format's columns, "
            "or a JSON or CSV card file."
        ),
    )
    upload = forms.FileField(label=_("Or upload a file"), required=False)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _add_change_set_fields(self, _("Where do these values come from?"))
        del self.fields["seen"]  # a bulk table is compared with the cards as they are (``submit_change_set``)
        self.fields["source_photo"] = _photo_field(
            _("Photo or scan of the cards (optional)"),
            required=False,
            help_text=_("A photo of the set's card list or of the cards: the editors check the values against it."),
        )
        self.fields["kept_photo"] = forms.CharField(required=False, widget=forms.HiddenInput)
        self.fields["drop_photo"] = forms.BooleanField(label=_("Leave this photo out"), required=False)
        self.kept_image: Any = None  # the stored photo the page shows as kept, once ``keep_photo`` is called

    @staticmethod
    def _salt(user: SiteUser) -> str:
        return f"contributions.bulk.kept_photo:{user.pk}"

    def keep_photo(self, photo: Any, user: SiteUser) -> None:
        """Carry ``photo`` (a ``StoredImage``) to the next submission of this form by ``user``."""
        self.kept_image = photo
        data = mutable_copy(self.data)
        data["kept_photo"] = signing.dumps(photo.pk, salt=self._salt(user))
        data.pop("drop_photo", None)
        self.data = data

    def kept_photo_id(self, user: SiteUser) -> int | None:
        """The id of the photo an earlier preview kept for ``user``; None when there is none (or it is dropped).
        ``signing.BadSignature`` when the value was not signed for this user, was changed, or is too old."""
        token = self.cleaned_data.get("kept_photo") or ""
        if not token or self.cleaned_data.get("drop_photo"):
            return None
        pk = signing.loads(token, salt=self._salt(user), max_age=self.KEPT_PHOTO_MAX_AGE)
        if not isinstance(pk, int):
            raise signing.BadSignature("not an id")
        return pk

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}  # Django answers the cleaned data; the stubs allow None
        upload = data.get("upload")
        if upload is not None:
            if upload.size > self.MAX_FILE_BYTES:
                self.add_error(
                    "upload", _("The file is larger than %(limit)s bytes.") % {"limit": f"{self.MAX_FILE_BYTES:,}"}
                )
                return data
            try:
                data["text"] = upload.read().decode("utf-8-sig")
            except UnicodeDecodeError:
                self.add_error("upload", _("The file is not UTF-8 text."))
                return data
            posted = mutable_copy(self.data)
            posted["text"] = data["text"]
            self.data = posted
        if not (data.get("text") or "").strip():
            self.add_error("text", _("Paste a table or choose a file."))
        return data


class CardImageForm(forms.Form):
    """A picture of a card to add (its face, its back, a printing in one language), with its source."""

    picture = _photo_field(_("Picture"), required=True, help_text=_("A photo or scan of the card: JPEG, PNG or WebP."))
    side = forms.ChoiceField(label=_("Side"), choices=CardImage.Side.choices, initial=CardImage.Side.FACE)
    language = forms.ChoiceField(
        label=_("Language of the printing"),
        # Named in the reader's language (英語 on a Japanese page), as a text's language is elsewhere.
        choices=[("", _("none or not said")), *((code, LANGUAGE_NAMES[code]) for code, _name in LANGUAGE_CHOICES)],
        required=False,
    )
    source_kind = forms.ChoiceField(
        label=_("Where does this picture come from?"),
        choices=ChangeSet.SourceKind.choices,
        initial=ChangeSet.SourceKind.PHOTO,
        widget=forms.RadioSelect,
    )
    source_detail = forms.CharField(
        label=_("Source details"), required=False, max_length=300, validators=[plain_text(_("source"))]
    )
    comment = forms.CharField(
        label=_("Comment for the editors"),
        required=False,
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 3}),
        validators=[plain_text(_("comment"))],
    )


class CardImageRemovalForm(forms.Form):
    """Take a picture off its card (kept, and put back by proposing it again): a reviewed change too."""

    picture_id = forms.IntegerField(widget=forms.HiddenInput, min_value=1)
    comment = forms.CharField(
        label=_("Why should this picture go?"),
        required=True,
        max_length=2000,
        widget=forms.TextInput(),
        validators=[plain_text(_("comment"))],
    )
