"""Who may see and change an object a player owns and shares (a deck, a strategy), stated once for every page and
API view that reads one: the owner sees and changes it; everyone sees a public one; an object shared by link is
seen with its current token. Turning a link off (to private or public) makes a new token, so the old link stays
dead when the object is shared by link again.
"""

from __future__ import annotations

import secrets
from typing import TypeVar

from django.core.exceptions import PermissionDenied
from django.db import models
from django.db.models import Q, QuerySet
from django.http import Http404
from django.utils.translation import gettext_lazy as _

from .types import SiteUser


def new_share_token() -> str:
    return secrets.token_urlsafe(16)


class Visibility(models.TextChoices):
    PRIVATE = "private", _("private")
    LINK = "link", _("anyone with the link")
    PUBLIC = "public", _("public")


class Shared(models.Model):
    """The sharing fields; the concrete model declares ``owner`` (a foreign key to the user)."""

    Visibility = Visibility

    visibility = models.CharField(_("visibility"), max_length=8, choices=Visibility.choices, default=Visibility.PRIVATE)
    share_token = models.CharField(max_length=32, unique=True, default=new_share_token, editable=False)

    class Meta:
        abstract = True


SharedT = TypeVar("SharedT", bound=Shared)


def can_edit(user: SiteUser, shared: Shared) -> bool:
    return bool(user.is_authenticated) and shared.owner_id == user.pk  # type: ignore[attr-defined]


def can_view(user: SiteUser, shared: Shared, token: str | None = None) -> bool:
    if can_edit(user, shared) or shared.visibility == Visibility.PUBLIC:
        return True
    return shared.visibility == Visibility.LINK and token is not None and token == shared.share_token


def access_shared(
    objects: QuerySet[SharedT], user: SiteUser, pk: int | None = None, *, token: str | None = None, write: bool = False
) -> SharedT:
    """The one answer to "may this user see (``write``: change) this object".

    By ``pk``: its owner sees it, everyone sees a public one, and one shared by link is seen with its current
    ``token``. By ``token`` alone (a shared link): the object shared by link (or public) with that token. Http404
    for an object the user may not see, so that a private one's existence is not revealed; PermissionDenied
    (403) for a change by someone who may see the object but does not own it.
    """
    if pk is None:
        found = objects.filter(share_token=token).first() if token else None
        if found is None or found.visibility == Visibility.PRIVATE:
            raise Http404
    else:
        found = objects.filter(pk=pk).first()
        if found is None or not can_view(user, found, token):
            raise Http404
    if write and not can_edit(user, found):
        raise PermissionDenied
    return found


def visible_to(objects: QuerySet[SharedT], user: SiteUser) -> QuerySet[SharedT]:
    """The objects listed to ``user``: the public ones and the user's own (a link-shared one is not listed)."""
    condition = Q(visibility=Visibility.PUBLIC)
    if user.is_authenticated:
        condition |= Q(owner=user)
    return objects.filter(condition)


def set_visibility(shared: Shared, visibility: str) -> None:
    """Changes ``shared`` in memory (the caller saves): leaving "by link" retires the link's token."""
    if shared.visibility == Visibility.LINK and visibility != Visibility.LINK:
        shared.share_token = new_share_token()
    shared.visibility = visibility
