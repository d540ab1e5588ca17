"""Forms of the deck pages: they read and check the input; writes go through ``decks.services``."""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _

from cards.models import Card, Game
from cards.presentation import format_value, kind_label
from cardsite.labels import pick
from cardsite.text import plain_name, plain_text

from .models import Deck
from .presentation import zone_accepts
from .rules import get_rules
from .services import MAX_COPIES_PER_ENTRY, MAX_DESCRIPTION_LENGTH


def _language() -> str:
    return get_language() or "ja"


def _mode_choices(game: Game) -> list[tuple[str, str]]:
    return [(mode.slug, pick(mode.labels, _language())) for mode in get_rules(game.slug).modes]


class GameChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, obj: Game) -> str:
        return obj.definition.name(_language())


class NewDeckForm(forms.Form):
    game = GameChoiceField(
        label=gettext_lazy("Game"), queryset=Game.objects.order_by("sort_order", "slug"), to_field_name="slug"
    )
    name = forms.CharField(label=gettext_lazy("Name"), max_length=120, validators=[plain_name()])
    mode = forms.ChoiceField(label=gettext_lazy("Mode"), required=False)

    def __init__(self, *args: Any, game: Game | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        game_field, mode_field = self.fields["game"], self.fields["mode"]
        assert isinstance(game_field, forms.ModelChoiceField) and isinstance(mode_field, forms.ChoiceField)
        game_field.empty_label = None
        games = game_field.queryset
        assert games is not None  # declared above
        chosen = game or self._game_from_data() or games.first()
        if chosen is not None:
            game_field.initial = chosen.slug
            mode_field.choices = _mode_choices(chosen)
        self.chosen_game = chosen

    def _game_from_data(self) -> Game | None:
        slug = self.data.get("game") if self.is_bound else None
        return Game.objects.filter(slug=slug).first() if slug else None


class DeckSettingsForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Name"), max_length=120, validators=[plain_name()])
    description = forms.CharField(
        label=gettext_lazy("Description"),
        required=False,
        max_length=MAX_DESCRIPTION_LENGTH,
        widget=forms.Textarea(attrs={"rows": 4}),
        validators=[plain_text(gettext_lazy("description"))],
    )
    mode = forms.ChoiceField(label=gettext_lazy("Mode"))
    visibility = forms.ChoiceField(
        label=gettext_lazy("Visibility"),
        choices=Deck.Visibility.choices,
        widget=forms.RadioSelect,
        help_text=gettext_lazy(
            "Private: only you. Anyone with the link: whoever has the share link. To show the deck to everyone, "
            "publish it."
        ),
    )

    def __init__(self, *args: Any, deck: Deck, **kwargs: Any) -> None:
        rules = get_rules(deck.game.slug)
        options = {**rules.default_options(), **deck.options}
        initial = {
            "name": deck.name,
            "description": deck.description,
            "mode": deck.mode,
            "visibility": deck.visibility,
            **{f"option_{option.slug}": json.dumps(options.get(option.slug)) for option in rules.options},
        }
        kwargs["initial"] = initial
        super().__init__(*args, **kwargs)
        self.deck = deck
        mode_field = self.fields["mode"]
        assert isinstance(mode_field, forms.ChoiceField)
        mode_field.choices = _mode_choices(deck.game)
        self.game_options = rules.options
        for option in rules.options:
            self.fields[f"option_{option.slug}"] = forms.ChoiceField(
                label=pick(option.labels, _language()),
                choices=[(json.dumps(choice), format_value(None, choice)) for choice in option.choices],
                help_text=pick(option.help, _language()) if option.help else "",
            )

    def chosen_options(self) -> dict[str, Any]:
        return {option.slug: json.loads(self.cleaned_data[f"option_{option.slug}"]) for option in self.game_options}


class EntryChangeForm(forms.Form):
    """One change in the builder: ``delta`` copies more (or fewer), or ``count`` copies in all."""

    zone = forms.CharField()
    card = forms.IntegerField()
    delta = forms.IntegerField(required=False)
    count = forms.IntegerField(required=False)

    def __init__(self, *args: Any, deck: Deck, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.deck = deck
        self.rules = get_rules(deck.game.slug)

    def clean_zone(self) -> str:
        slug = self.cleaned_data["zone"]
        zone = self.rules.zone(slug)
        if zone is None or zone.fixed:
            names = ", ".join(pick(z.labels, _language()) for z in self.rules.zones if not z.fixed)
            raise forms.ValidationError(
                _("“%(zone)s” is not a zone of this deck (zones: %(zones)s).") % {"zone": slug, "zones": names}
            )
        return slug

    def clean_card(self) -> Card:
        card = (
            Card.objects.select_related("game").prefetch_related("texts").filter(pk=self.cleaned_data["card"]).first()
        )
        if card is None:
            raise forms.ValidationError(_("There is no such card."))
        if card.game_id != self.deck.game_id:
            raise forms.ValidationError(
                _("%(card)s is a card of %(game)s, not of this deck's game.")
                % {"card": card.display_name(_language()), "game": card.game.definition.name(_language())}
            )
        return card

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}  # Django answers the cleaned data; the stubs allow None
        delta, count = data.get("delta"), data.get("count")
        if "delta" in self.errors or "count" in self.errors:
            return data
        if (delta is None) == (count is None):
            raise forms.ValidationError(_("Give either a number of copies to add or remove, or a new count."))
        limits = {"max": MAX_COPIES_PER_ENTRY}
        if count is not None and not 0 <= count <= MAX_COPIES_PER_ENTRY:
            raise forms.ValidationError(_("A count must be between 0 and %(max)s.") % limits)
        if delta is not None and not (0 < abs(delta) <= MAX_COPIES_PER_ENTRY):
            raise forms.ValidationError(_("Add or remove between 1 and %(max)s copies at a time.") % limits)
        zone = self.rules.zone(data.get("zone", ""))
        card = data.get("card")
        if zone is not None and card is not None and not zone_accepts(zone, card):
            # A card already there (e.g. from an import) may still be taken out, never added.
            current = self.deck.entries.filter(zone=zone.slug, card=card).values_list("count", flat=True).first() or 0
            if (delta or 0) > 0 or (count is not None and count > current):
                raise forms.ValidationError(
                    _("A card of the kind “%(kind)s” cannot go in “%(zone)s”.")
                    % {
                        "kind": kind_label(card.game, card.checked.kind, _language()),
                        "zone": pick(zone.labels, _language()),
                    }
                )
        return data

    def error_message(self) -> str:
        return " ".join(str(message) for messages in self.errors.values() for message in messages)
