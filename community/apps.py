from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CommunityConfig(AppConfig):
    name = "community"
    verbose_name = _("Published decks")

    def ready(self) -> None:
        from .notices import register_kinds

        register_kinds()
