"""What happens around logging in: every failure is logged, a new password revokes every API token, and every
save of a user keeps the confusable key of its name (``services.record_name_key``)."""

from __future__ import annotations

import logging
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.signals import user_login_failed
from django.db.models.signals import post_save
from django.dispatch import receiver

from cardsite.clients import client_address

from . import services

logger = logging.getLogger("accounts.security")


@receiver(user_login_failed, dispatch_uid="accounts.log_failed_login")
def log_failed_login(sender: Any, credentials: dict[str, Any], request: Any = None, **kwargs: Any) -> None:
    logger.warning(
        "login failed",
        extra={
            "username": str(credentials.get("username", ""))[:150],
            "client": client_address(request) if request is not None else "",
            "path": getattr(request, "path", ""),
        },
    )


@receiver(post_save, sender=get_user_model(), dispatch_uid="accounts.revoke_tokens_on_new_password")
def revoke_tokens_on_new_password(sender: Any, instance: Any, created: bool, **kwargs: Any) -> None:
    # set_password() leaves the raw password in _password until save() has run its validators'
    # password_changed hooks, which happens after this signal: so this sees every password change
    # (the password page, the admin, changepassword), whatever made it.
    if not created and getattr(instance, "_password", None) is not None:
        revoked = services.tokens_revoke_all(user=instance)
        if revoked:
            logger.info("api tokens revoked after a password change", extra={"user": instance.pk, "tokens": revoked})


@receiver(post_save, sender=get_user_model(), dispatch_uid="accounts.record_name_key")
def record_name_key(sender: Any, instance: Any, created: bool, update_fields: Any = None, **kwargs: Any) -> None:
    # A save that names its fields and not the name (the last log-in's time) cannot have changed the key.
    if update_fields is not None and "username" not in update_fields:
        return
    if kwargs.get("raw"):  # loaddata and backups restore rows as they were, keys included
        return
    services.record_name_key(instance, created=created)
