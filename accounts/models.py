"""What accounts keep beside Django's user: each user name's confusable key, unique."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class UsernameKey(models.Model):
    """The confusable key of a user's name (``cardsite.confusables.name_key``), one per user and unique: two
    names that look alike (``аlice`` with a Cyrillic а, ``alice``) cannot both be held, even when two sign-ups
    race, because the database refuses the second row. Kept up to date on every save of the user
    (``accounts.signals``), whatever saves it (sign-up, the admin, ``createsuperuser``)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="username_key"
    )
    key = models.CharField(_("confusable key"), max_length=1000, unique=True)

    class Meta:
        verbose_name = _("user name key")
        verbose_name_plural = _("user name keys")

    def __str__(self) -> str:
        return self.key
