from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CardsConfig(AppConfig):
    name = "cards"
    verbose_name = _("Cards")

    def ready(self) -> None:
        from . import signals  # noqa: F401 - connects the receivers
