from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ContributionsConfig(AppConfig):
    name = "contributions"
    verbose_name = _("Contributions")

    def ready(self) -> None:
        from .notices import register_kinds

        register_kinds()
