"""Reads of a deck's placeholder cards: how the rules, the pages, the exports and the goldfish see them."""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.utils.translation import gettext as _

from cards.models import Game
from cardsite.labels import pick

from ..models import Deck, DeckPlaceholder
from ..rules import get_rules
from ..rules.base import CardInfo

KEY_PREFIX = "placeholder:"  # a placeholder's key as the rules and the goldfish see it: never a card's key


def placeholders(deck: Deck) -> list[DeckPlaceholder]:
    return list(deck.placeholders.all())


def placeholder_of(deck: Deck, pk: Any) -> DeckPlaceholder:
    """One of the deck's placeholders; 404 for one it does not hold (or another deck's)."""
    try:
        return DeckPlaceholder.objects.get(deck=deck, pk=int(pk))
    except (TypeError, ValueError, DeckPlaceholder.DoesNotExist) as error:
        raise Http404("no such placeholder") from error


def stated_pairs(game: Game, placeholder: DeckPlaceholder, language: str) -> list[tuple[str, str]]:
    """The stated values as (the game's field label, value), in the order the kind declares them, whatever order
    the database keeps a JSON object's keys in (PostgreSQL's jsonb sorts them)."""
    definition = game.definition
    declared = get_rules(game.slug).placeholder_kind(placeholder.kind)
    order = list(declared.fields) if declared is not None else []
    ordered = sorted(placeholder.values.items(), key=lambda item: order.index(item[0]) if item[0] in order else 99)
    pairs = []
    for name, value in ordered:
        spec = definition.field(name)
        pairs.append((pick(spec.labels, language) if spec is not None else name, str(value)))
    return pairs


def stated_values(game: Game, placeholder: DeckPlaceholder, language: str) -> str:
    """ "cost 3, attack 2": the stated values with the game's field labels, in the declared order."""
    return ", ".join(f"{label} {value}" for label, value in stated_pairs(game, placeholder, language))


def plain_key(placeholder: DeckPlaceholder) -> str:
    """A placeholder in ASCII alone ("ally cost 3 attack 2"), where a printout cannot draw other scripts."""
    return " ".join([placeholder.kind, *(f"{name} {value}" for name, value in placeholder.values.items())])


def label(game: Game, placeholder: DeckPlaceholder, language: str) -> str:
    """What a placeholder is called wherever it is shown: always marked as a placeholder, never as a card."""
    kind = next((k for k in game.definition.kinds if k.slug == placeholder.kind), None)
    kind_name = pick(kind.labels, language) if kind is not None else placeholder.kind
    values = stated_values(game, placeholder, language)
    described = f"{kind_name} ({values})" if values else kind_name
    if placeholder.name:
        return _("%(name)s [placeholder: %(described)s]") % {"name": placeholder.name, "described": described}
    return _("[placeholder: %(described)s]") % {"described": described}


def placeholder_info(game: Game, placeholder: DeckPlaceholder, language: str) -> CardInfo:
    """The placeholder as the rules see it: its kind and stated values, marked as a placeholder."""
    return CardInfo(
        key=f"{KEY_PREFIX}{placeholder.pk}",
        name=label(game, placeholder, language),
        kind=placeholder.kind,
        fields=dict(placeholder.values),
        placeholder=True,
    )


def state(deck: Deck) -> list[tuple[int, str, str, str, str, int]]:
    """What the deck page's layout shows of the placeholders, for its cache key (``decks.views``)."""
    return [
        (p.pk, p.zone, p.kind, repr(sorted(p.values.items())), p.name, p.count)
        for p in deck.placeholders.order_by("pk")
    ]
