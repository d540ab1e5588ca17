from django import template
from django.utils.translation import get_language

from cards.extensions import game_has
from cardsite.labels import pick
from decks.models import Deck
from decks.rules import get_rules

register = template.Library()


@register.filter
def deck_mode(deck: Deck) -> str:
    """The deck's mode in the interface language."""
    rules = get_rules(deck.game.slug)
    mode = rules.mode(deck.mode) or rules.modes[0]
    return pick(mode.labels, get_language() or "ja")


@register.filter
def has_game_tool(deck: Deck, tool: str) -> bool:
    """Whether the deck's game has ``tool`` (``cards.extensions``: a higher app's tool, as the whole game)."""
    return game_has(tool, deck.game.slug)
