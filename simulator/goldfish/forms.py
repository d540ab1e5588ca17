"""Forms of the goldfish pages: the odds calculator and the Monte Carlo run."""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from django import forms
from django.utils.formats import number_format
from django.utils.translation import get_language, gettext_lazy, pgettext_lazy
from django.utils.translation import gettext as _

from cardsite.labels import join_sentences, pick

from ..adapters import DeckCard
from ..core import Engine, Parameter
from ..inputs import DEFAULT_GAMES, DEFAULT_TURNS, MAX_TURNS, ODDS_TURNS, PAGE_MAX_GAMES, join_names, parameter_label
from ..presentation import policy_choices


class CalculatorForm(forms.Form):
    """P(at least ``a`` cards of group A and ``b`` of group B by a turn): the multivariate hypergeometric tail."""

    group_a = forms.MultipleChoiceField(label=gettext_lazy("Group A"), required=False)
    a = forms.IntegerField(label=gettext_lazy("At least (A)"), min_value=0, initial=1)
    group_b = forms.MultipleChoiceField(label=gettext_lazy("Group B"), required=False)
    b = forms.IntegerField(label=gettext_lazy("At least (B)"), min_value=0, initial=0)
    turn = forms.IntegerField(label=gettext_lazy("By turn"), min_value=1, max_value=ODDS_TURNS, initial=3)

    def __init__(self, *args, cards: Sequence[DeckCard], seen: Sequence[int], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.cards = {card.key: card for card in cards}
        self.seen = list(seen)
        choices = [(card.key, f"{card.name} ×{card.copies}") for card in cards]
        for name in ("group_a", "group_b"):  # chosen on the page as chips (search as you type)
            cast(forms.MultipleChoiceField, self.fields[name]).choices = choices

    def copies(self, keys: Sequence[str]) -> int:
        return sum(self.cards[key].copies for key in keys)

    def clean(self):
        super().clean()
        data = self.cleaned_data
        group_a, group_b = data.get("group_a") or [], data.get("group_b") or []
        a, b, turn = data.get("a"), data.get("b"), data.get("turn")
        if not group_a and not group_b:
            raise forms.ValidationError(_("Choose the cards of at least one group."))
        both = [self.cards[key].name for key in group_a if key in group_b]
        if both:
            raise forms.ValidationError(_("A card cannot be in both groups: %(cards)s.") % {"cards": join_names(both)})
        if a is None or b is None or turn is None:
            return data
        for label, keys, needed, field in (("A", group_a, a, "a"), ("B", group_b, b, "b")):
            copies = self.copies(keys)
            if needed > copies:
                self.add_error(
                    field,
                    _("Group %(group)s holds %(copies)s cards in all; at least %(needed)s of them is impossible.")
                    % {"group": label, "copies": copies, "needed": needed},
                )
        seen = self.seen[turn - 1]
        if a + b > seen:
            self.add_error(
                None,
                _("By turn %(turn)s only %(seen)s cards have been seen, fewer than the %(needed)s asked for.")
                % {"turn": turn, "seen": seen, "needed": a + b},
            )
        return data


def parameter_field(parameter: Parameter) -> forms.Field:
    """A stated parameter as a form field: a list of its declared choices, else a whole number in its range."""
    language = get_language() or "ja"
    source = join_sentences([_("Source:"), pick(parameter.source, language)], language) if parameter.source else ""
    if parameter.choices:
        return forms.TypedChoiceField(
            label=parameter_label(parameter),
            choices=[(choice.value, pick(choice.labels, language)) for choice in parameter.choices],
            coerce=int,
            empty_value=None,
            initial=parameter.default,
            required=False,
            help_text=source,
        )
    limits = _("Default %(default)s; from %(minimum)s to %(maximum)s.") % {
        "default": parameter.default,
        "minimum": parameter.minimum,
        "maximum": parameter.maximum,
    }
    return forms.IntegerField(
        label=parameter_label(parameter),
        min_value=parameter.minimum,
        max_value=parameter.maximum,
        initial=parameter.default,
        required=False,
        help_text=join_sentences([limits, source], language),
    )


class SimulationForm(forms.Form):
    """A Monte Carlo run: games (at most ``PAGE_MAX_GAMES`` here), turns, policy and the engine's parameters."""

    games = forms.IntegerField(label=pgettext_lazy("simulation", "Games"), min_value=1, initial=DEFAULT_GAMES)
    turns = forms.IntegerField(label=gettext_lazy("Turns"), min_value=1, max_value=MAX_TURNS, initial=DEFAULT_TURNS)
    policy = forms.ChoiceField(label=gettext_lazy("Policy"), initial="default")

    def __init__(self, *args, engine: Engine, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.engine = engine
        self.fields["games"].help_text = _("At most %(cap)s games on this page (the API allows more).") % {
            "cap": number_format(PAGE_MAX_GAMES, force_grouping=True)
        }
        cast(forms.ChoiceField, self.fields["policy"]).choices = policy_choices(engine, get_language() or "ja")
        for parameter in engine.parameters:
            self.fields[parameter.slug] = parameter_field(parameter)

    def clean_games(self) -> int:
        games = self.cleaned_data["games"]
        if games > PAGE_MAX_GAMES:
            raise forms.ValidationError(
                _("At most %(cap)s games can be run from this page; you asked for %(games)s.")
                % {
                    "cap": number_format(PAGE_MAX_GAMES, force_grouping=True),
                    "games": number_format(games, force_grouping=True),
                }
            )
        return games

    def params(self) -> dict[str, int]:
        params: dict[str, int] = {}
        for parameter in self.engine.parameters:
            value = self.cleaned_data.get(parameter.slug)
            params[parameter.slug] = value if value is not None else parameter.default
        return params
