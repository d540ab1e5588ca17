from django.apps import AppConfig


class SimulatorConfig(AppConfig):
    name = "simulator"
    # First URL segments this app answers, for pages and after api/ (cardsite.urlmap).
    url_prefixes = ("simulator",)

    def ready(self) -> None:
        from cardsite import jobs

        from .comparisons.services import COMPARISONS
        from .goldfish.services import MONTE_CARLO
        from .searches.services import SEARCHES

        # The simulator's kinds of job, for the workers' recovery passes.
        for kind in (MONTE_CARLO, COMPARISONS, SEARCHES):
            jobs.register(kind)

        from cards.extensions import register_game_tool, register_missing_part

        from . import checks
        from .engines import get_engine
        from .fullgames import get_fullgame, has_fullgame

        checks.register()  # the goldfish's and whole games' part of the start-up checks (cardsite.checks)
        # A game's page offers the whole-game tools where it has them; the map of what is missing counts the card
        # values the goldfish and the whole game read (cards.extensions).
        register_game_tool("fullgame", has_fullgame)
        register_missing_part("engine", get_engine)
        register_missing_part("fullgame", get_fullgame)

        from decks.extensions import register_deck_copied, register_deck_panel

        from .assumptions.services import copy_assumptions
        from .assumptions.views import assumptions_panel
        from .setups.views import whole_game_panel

        # A deck of a game with a whole game is the table's choice of piles: its page gives the game's verdict.
        register_deck_panel("whole_game", whole_game_panel)
        # A deck's assumed values go with it: listed on its page (read-only but for the owner), and copied with it.
        register_deck_panel("assumed_values", assumptions_panel)
        register_deck_copied(copy_assumptions)
