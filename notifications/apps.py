from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class NotificationsConfig(AppConfig):
    """The one inbox, its unread count and the per-kind e-mail preference (kinds come from the sending apps)."""

    name = "notifications"
    # First URL segments this app answers, for pages and after api/ (cardsite.urlmap).
    url_prefixes = ("notifications",)
    verbose_name = _("Notifications")
