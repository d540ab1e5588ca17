"""What the forms of the whole-game features share: the deck whose piles are played, the strategies to choose from."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from cardsite.labels import pick

from ..fullgames import FullGame
from .selectors import DEFAULT_DECK

# The written strategies a choice offers: the most recently changed of the user's own and the public ones.
MAX_WRITTEN_CHOICES = 200
DEFAULT_GAMES = 1000


def strategy_choices(fullgame: FullGame, language: str) -> list[tuple[str, str]]:
    return [(name, pick(fullgame.strategy_labels.get(name, {}), language) or name) for name in fullgame.strategies]


def grouped_strategies(
    fullgame: FullGame, language: str, written: Sequence[tuple[str, str]]
) -> tuple[list[tuple[str, str]], list[Any]]:
    """The shipped strategies, and the choices of a strategy field: the shipped ones, grouped apart from the
    written ones (``written:<id>``, label) when there are any."""
    shipped = strategy_choices(fullgame, language)
    if not written:
        return shipped, list(shipped)
    return shipped, [(_("Shipped strategies"), shipped), (_("Written strategies"), list(written))]


def filled(form: forms.Form, prefix: str, count: int) -> list[str]:
    """The values of the fields ``<prefix>1`` … ``<prefix><count>`` that were filled in, in order."""
    values = (form.cleaned_data.get(f"{prefix}{n + 1}") for n in range(count))
    return [value for value in values if value]


class PileChoiceForm(forms.Form):
    """The table a whole game is played on: one of the user's decks of the game (its piles, built and checked in
    the deck builder), a deck shared by link (``<id>:<token>``, offered when its page presets it), or the game's
    default piles (``setups.selectors``)."""

    fullgame: FullGame

    deck = forms.ChoiceField(
        label=_("Deck"),
        required=False,
        help_text=_("The deck whose piles are laid out (build one in the deck builder), or the first piles by number."),
    )

    def set_decks(self, decks: Sequence[tuple[str, str]]) -> None:
        self.fields["deck"].choices = [(DEFAULT_DECK, _("The first piles by card number")), *decks]

    def clean_deck(self) -> str:
        return self.cleaned_data["deck"] or DEFAULT_DECK
