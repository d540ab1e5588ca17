"""Reads of the inbox: a user's notifications (their recipient's alone), the unread count, the e-mail choice."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext as _

from cardsite import paging
from cardsite.paging import Page
from cardsite.types import SiteUser, signed_in

from . import kinds
from .models import EmailPreference, Notification

PAGE_SIZE = 50


def notifications_of(user: SiteUser) -> QuerySet[Notification]:
    user = signed_in(user)
    return (
        Notification.objects.filter(recipient=user)
        .select_related("actor", "target_type", "action_object_type")
        .prefetch_related("target", "action_object")
    )


def unread_count(user: SiteUser | None) -> int:
    """Every kind's unread notifications, for the navigation's one count."""
    if user is None or not user.is_authenticated:
        return 0
    return Notification.objects.filter(recipient=user, read_at__isnull=True).count()


def text_of(notification: Notification) -> str:
    """How the notification reads, in the reader's language (its kind's wording)."""
    kind = kinds.get(notification.kind)
    if kind is None or notification.target is None:
        return _("A notification whose subject is gone.")
    return kind.describe(notification)


def link_of(notification: Notification) -> str:
    kind = kinds.get(notification.kind)
    if kind is None or notification.target is None:
        return ""
    return kind.link(notification)


def described(items: list[Notification]) -> list[Notification]:
    """The notifications with ``text`` and ``url`` set, for a page or an API answer."""
    for item in items:
        item.text = text_of(item)  # type: ignore[attr-defined]
        item.url = link_of(item)  # type: ignore[attr-defined]
    return items


def page_of(user: SiteUser, number: Any, size: int = PAGE_SIZE) -> Page[Notification]:
    """A page of the user's notifications, described (from 1; anything that is not a page number is page 1)."""
    page = paging.page_of(notifications_of(user), number, size)
    page.items = described(page.items)
    return page


def wants_email(user: SiteUser, key: str) -> bool:
    """The user's choice for the kind, else the kind's default."""
    user = signed_in(user)
    chosen = EmailPreference.objects.filter(user=user, kind=key).values_list("email", flat=True).first()
    if chosen is not None:
        return chosen
    kind = kinds.get(key)
    return kind is not None and kind.email_by_default


def email_choices(user: SiteUser) -> list[tuple[kinds.Kind, bool]]:
    """Each kind that has an e-mail, with whether this user gets it."""
    user = signed_in(user)
    chosen = dict(EmailPreference.objects.filter(user=user).values_list("kind", "email"))
    return [(kind, chosen.get(kind.key, kind.email_by_default)) for kind in kinds.emailed_kinds()]
