from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CardsConfig(AppConfig):
    name = "cards"
    verbose_name = _("Cards")

    def ready(self) -> None:
        from . import revisions, signals  # noqa: F401 - registers the card models with reversion, connects the receivers
