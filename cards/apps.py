from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CardsConfig(AppConfig):
    name = "cards"
    # First URL segments this app answers, for pages and after api/ (cardsite.urlmap).
    url_prefixes = ("", "search", "games", "cards")  # "": the home page; games and cards: pages and API
    verbose_name = _("Cards")

    def ready(self) -> None:
        from . import checks, revisions, signals  # noqa: F401 - registers the card models with reversion, connects the receivers

        checks.register()  # the card declarations' part of the start-up checks (cardsite.checks)

        from cardsite.restore import register_index_rebuild

        from .services import reindex_all_cards

        register_index_rebuild(reindex_all_cards)  # a restored backup's cards are indexed again (cardsite.restore)
