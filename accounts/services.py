"""Writes of accounts: sign-up, each user name's confusable key, API tokens (django-rest-knox's ``AuthToken``,
stored hashed)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils.translation import gettext_lazy as _
from knox.models import AuthToken
from knox.settings import knox_settings

from cardsite.confusables import name_key
from cardsite.errors import AppError, Message
from cardsite.types import SiteUser, signed_in

from .models import UsernameKey
from .selectors import tokens_of


class NameLooksTaken(AppError):
    """Another user holds a name that looks the same (its confusable key); nothing was written."""

    code = "username_looks_taken"
    status = 409


def record_name_key(user: SiteUser, *, created: bool) -> None:
    """Keep ``user``'s confusable key (every save of a user calls this, ``accounts.signals``).

    A new user, or one whose name changed, takes the key of the name, or the database refuses the write
    (``IntegrityError``: another user holds it), and with it the whole transaction. A user the key migration
    left without one (an older account with the same key holds it) keeps none until renamed."""
    user = signed_in(user)
    key = name_key(user.username)
    if created:
        UsernameKey.objects.create(user=user, key=key)
        return
    current = UsernameKey.objects.filter(user=user).first()
    if current is None:
        if not UsernameKey.objects.filter(key=key).exists():
            UsernameKey.objects.create(user=user, key=key)
    elif current.key != key:
        current.key = key
        current.save(update_fields=["key"])


def sign_up(form: Any) -> Any:
    """Save a valid sign-up form's user and the key of its name in one transaction: a name that looks like
    one taken meanwhile (two sign-ups at once) raises ``NameLooksTaken``, and no user is made."""
    try:
        with transaction.atomic():
            return form.save()
    except IntegrityError:
        raise NameLooksTaken(LOOKS_TAKEN) from None


class TokenLimitReached(AppError):
    """The user already holds as many working tokens as ``REST_KNOX["TOKEN_LIMIT_PER_USER"]`` allows (403, as
    knox's own view answers): one must be revoked first."""

    code = "token_limit"
    status = 403


@transaction.atomic
def token_create(*, user: SiteUser) -> tuple[AuthToken, str]:
    """A new API token for ``user``: the stored token and the secret, shown once and never stored.

    Every way of making a token (the API, the tokens page) comes here, so the limit per user holds for all;
    the user's row is locked so that two requests at once cannot both take the last place."""
    user = signed_in(user)
    get_user_model().objects.select_for_update().filter(pk=user.pk).first()
    limit = knox_settings.TOKEN_LIMIT_PER_USER
    if limit is not None and tokens_of(user).count() >= limit:
        raise TokenLimitReached(
            Message(
                _("You already have %(limit)s API tokens, the most allowed. Revoke one before making another."),
                {"limit": limit},
            )
        )
    return AuthToken.objects.create(user)


def token_revoke(*, user: SiteUser, token_key: str) -> bool:
    """Revoke ``user``'s token whose key (its first characters) is ``token_key``; False if there is none."""
    deleted, _ = tokens_of(user).filter(token_key=token_key).delete()
    return bool(deleted)


def tokens_revoke_all(*, user: SiteUser) -> int:
    """Revoke every token of ``user`` (a password change does); how many there were."""
    deleted, _ = AuthToken.objects.filter(user=user).delete()
    return deleted


# Said by the sign-up form too (accounts.forms), before the database is asked.
LOOKS_TAKEN = _("A user with a name that looks the same already exists: choose another name.")
