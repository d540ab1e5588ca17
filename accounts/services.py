"""Writes of accounts: API tokens (django-rest-knox's ``AuthToken``, stored hashed)."""

from __future__ import annotations

from knox.models import AuthToken

from .selectors import tokens_of


def token_create(*, user) -> tuple[AuthToken, str]:
    """A new API token for ``user``: the stored token and the secret, shown once and never stored."""
    return AuthToken.objects.create(user)


def token_revoke(*, user, token_key: str) -> bool:
    """Revoke ``user``'s token whose key (its first characters) is ``token_key``; False if there is none."""
    deleted, _ = tokens_of(user).filter(token_key=token_key).delete()
    return bool(deleted)


def tokens_revoke_all(*, user) -> int:
    """Revoke every token of ``user`` (a password change does); how many there were."""
    deleted, _ = AuthToken.objects.filter(user=user).delete()
    return deleted
