"""Reads of accounts."""

from __future__ import annotations

from django.db.models import Q, QuerySet
from django.utils import timezone
from knox.models import AuthToken


def tokens_of(user) -> QuerySet[AuthToken]:
    """The user's API tokens that still work (expired ones are left out; knox deletes them when used)."""
    return AuthToken.objects.filter(Q(expiry__isnull=True) | Q(expiry__gt=timezone.now()), user=user).order_by(
        "-created"
    )
