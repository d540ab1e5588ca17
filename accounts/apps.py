from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    """Sign-up, log-in, passwords and API tokens; who may act on the site."""

    name = "accounts"
    # First URL segments this app answers, for pages and after api/ (cardsite.urlmap).
    url_prefixes = ("accounts",)
    verbose_name = _("Accounts")

    def ready(self) -> None:
        from . import signals  # noqa: F401 - connects the receivers
