from django.conf import settings

from .gamedefs import all_games


def site(request):
    return {"all_game_definitions": all_games(), "ui_languages": settings.LANGUAGES}
