"""Writes of accounts: API tokens (django-rest-knox's ``AuthToken``, stored hashed)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.translation import gettext_lazy as _
from knox.models import AuthToken
from knox.settings import knox_settings

from cardsite.errors import AppError, Message

from .selectors import tokens_of


class TokenLimitReached(AppError):
    """The user already holds as many working tokens as ``REST_KNOX["TOKEN_LIMIT_PER_USER"]`` allows (403, as
    knox's own view answers): one must be revoked first."""

    code = "token_limit"
    status = 403


@transaction.atomic
def token_create(*, user) -> tuple[AuthToken, str]:
    """A new API token for ``user``: the stored token and the secret, shown once and never stored.

    Every way of making a token (the API, the tokens page) comes here, so the limit per user holds for all;
    the user's row is locked so that two requests at once cannot both take the last place."""
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


def token_revoke(*, user, token_key: str) -> bool:
    """Revoke ``user``'s token whose key (its first characters) is ``token_key``; False if there is none."""
    deleted, _ = tokens_of(user).filter(token_key=token_key).delete()
    return bool(deleted)


def tokens_revoke_all(*, user) -> int:
    """Revoke every token of ``user`` (a password change does); how many there were."""
    deleted, _ = AuthToken.objects.filter(user=user).delete()
    return deleted
