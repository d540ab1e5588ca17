from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CommunityConfig(AppConfig):
    name = "community"
    # First URL segments this app answers, for pages and after api/ (cardsite.urlmap).
    url_prefixes = ("community",)
    verbose_name = _("Published decks")

    def ready(self) -> None:
        from .notices import register_kinds

        register_kinds()

        # The deck pages' old public addresses lead into the public deck space (decks know nothing of publishing).
        from decks import public_space

        from . import selectors

        public_space.register(list_url=selectors.public_list_url, deck_url=selectors.former_public_deck_url)
