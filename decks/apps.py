from django.apps import AppConfig


class DecksConfig(AppConfig):
    name = "decks"
    # First URL segments this app answers, for pages and after api/ (cardsite.urlmap).
    url_prefixes = ("decks",)

    def ready(self) -> None:
        from cards.extensions import register_game_tool, register_missing_part

        from . import checks, signals  # noqa: F401 - connects the receivers
        from .rules import declares_placeholders, get_rules

        checks.register()  # the deck rules' part of the start-up checks (cardsite.checks)
        # The map of what is missing counts the cards a game's deck rules cannot do without (cards.extensions).
        register_missing_part("rules", get_rules)
        # A game's page says a deck can be goldfished with placeholder cards where its decks may hold them.
        register_game_tool("placeholders", declares_placeholders)
