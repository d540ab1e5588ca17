"""The API's game lookups, shared by every app's API: a game's slug as a field and as a path parameter (the schema
lists the declared games), and the loaded game of a slug, as a 404 (a path) or as a field's error (a body or query).
"""

from __future__ import annotations

from django.db.models import QuerySet
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema_field
from rest_framework import serializers
from rest_framework.exceptions import NotFound

from cardsite.errors import FieldProblems

from ..gamedefs import all_games
from ..messages import no_such_game
from ..models import Game


def game_slugs() -> list[str]:
    """The slugs of the games the site declares (``cards.gamedefs``), in their order."""
    return [game.slug for game in all_games()]


@extend_schema_field({"type": "string", "enum": game_slugs()})
class GameSlugField(serializers.SlugField):
    """A game's slug: the schema lists the declared games; the view answers one that is not loaded."""


GAME = OpenApiParameter(
    "game", OpenApiTypes.STR, OpenApiParameter.PATH, enum=game_slugs(), description="Game slug (see /api/games/)."
)


def game_or_404(slug: str, games: QuerySet[Game] | None = None) -> Game:
    game = (games if games is not None else Game.objects.all()).filter(slug=slug).first()
    if game is None:
        raise NotFound(str(no_such_game(slug)))
    return game


def game_from_slug(slug: str) -> Game:
    game = Game.objects.filter(slug=slug).first()
    if game is None:
        raise FieldProblems({"game": [no_such_game(slug)]})
    return game
