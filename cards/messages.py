"""Messages about cards and games that several layers give (the API's 404s and field errors, deck bodies),
written once and rendered in the reader's language when read."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from cardsite.errors import Message

from .models import Game


def game_slugs() -> list[str]:
    return list(Game.objects.values_list("slug", flat=True))


def no_such_game(slug: str) -> Message:
    return Message(_("No game '%(game)s'. Games: %(games)s."), {"game": slug, "games": game_slugs()})


def no_such_card(game: Game, key: str) -> Message:
    return Message(_("No card '%(card)s' in %(game)s."), {"card": key, "game": game.definition.names})
