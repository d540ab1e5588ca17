from django import template
from django.utils.translation import get_language

from cards.gamedefs.base import GameDefinition
from cards.models import Game

register = template.Library()


@register.filter
def game_name(game: Game | GameDefinition) -> str:
    definition = game.definition if isinstance(game, Game) else game
    return definition.name(get_language() or "ja")


@register.filter
def card_name(card) -> str:
    return card.display_name(get_language() or "ja")
