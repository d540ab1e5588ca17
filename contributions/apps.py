from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ContributionsConfig(AppConfig):
    name = "contributions"
    # First URL segments this app answers, for pages and after api/ (cardsite.urlmap).
    url_prefixes = ("contributions",)
    verbose_name = _("Contributions")

    def ready(self) -> None:
        from .notices import register_kinds

        register_kinds()

        from cards.extensions import register_game_right

        from .selectors import may_review

        # Who may revert a card's revision (its history page) is said once, with who reviews contributions.
        register_game_right("revert", may_review)
