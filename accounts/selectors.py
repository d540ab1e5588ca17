"""Reads of accounts."""

from __future__ import annotations

from django.db.models import Q, QuerySet
from django.utils import timezone
from knox.models import AuthToken

from cardsite.types import SiteUser


def tokens_of(user: SiteUser) -> QuerySet[AuthToken]:
    """The user's API tokens that still work (expired ones are left out; knox deletes them when used)."""
    return AuthToken.objects.filter(Q(expiry__isnull=True) | Q(expiry__gt=timezone.now()), user=user).order_by(
        "-created"
    )


def name_looks_taken(username: str, *, exclude_pk: int | None = None) -> bool:
    """Whether another user's name looks like ``username`` (the same confusable key: ``аlice`` and ``alice``)."""
    from cardsite.confusables import name_key

    from .models import UsernameKey

    holders = UsernameKey.objects.filter(key=name_key(username))
    if exclude_pk is not None:
        holders = holders.exclude(user_id=exclude_pk)
    return holders.exists()
