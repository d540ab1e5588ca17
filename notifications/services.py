"""Writes of the inbox: a notification sent (and e-mailed per the recipient's preference), read, preferences set."""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from typing import Any

from django.conf import settings
from django.contrib.contenttypes.models import ContentType
from django.core.mail import send_mail
from django.db import models, transaction
from django.utils import timezone, translation

from cardsite.types import SiteUser, signed_in

from . import kinds, selectors
from .models import EmailPreference, Notification

logger = logging.getLogger(__name__)


def notify(
    recipients: Iterable[Any],
    *,
    kind: str,
    target: models.Model,
    verb: str = "",
    actor: Any = None,
    action_object: models.Model | None = None,
) -> list[Notification]:
    """A notification of ``kind`` in each recipient's inbox (a user or a user id), and an e-mail to those who
    want one for this kind, sent once the transaction commits (a failed mail loses nothing)."""
    target_type = ContentType.objects.get_for_model(target)
    object_type = ContentType.objects.get_for_model(action_object) if action_object is not None else None
    made = Notification.objects.bulk_create(
        Notification(
            recipient_id=getattr(recipient, "pk", recipient),
            actor=actor,
            kind=kind,
            verb=verb,
            target_type=target_type,
            target_id=target.pk,
            action_object_type=object_type,
            action_object_id=action_object.pk if action_object is not None else None,
        )
        for recipient in recipients
    )
    registered = kinds.get(kind)
    if registered is not None and registered.mail is not None:
        for notification in made:
            _mail_later(registered, notification)
    return made


def _mail_later(kind: kinds.Kind, notification: Notification) -> None:
    user = notification.recipient
    if not user.email or not selectors.wants_email(user, kind.key):
        return
    mail = kind.mail
    assert mail is not None

    def send() -> None:
        # The site's language: nothing records the recipient's own yet.
        with translation.override(settings.LANGUAGE_CODE):
            subject, body = mail(notification)
        try:
            send_mail(subject, body, None, [user.email])
        except OSError:
            logger.exception("could not e-mail notification %s", notification.pk)

    transaction.on_commit(send)


def mark_read(user: SiteUser, ids: list[int] | None = None) -> int:
    """Marks the user's unread notifications (those of ``ids``, else all) read; how many were."""
    user = signed_in(user)
    unread = Notification.objects.filter(recipient=user, read_at__isnull=True)
    if ids is not None:
        unread = unread.filter(pk__in=ids)
    return unread.update(read_at=timezone.now())


@transaction.atomic
def set_email_preferences(user: SiteUser, choices: Mapping[str, bool]) -> None:
    """Records the user's e-mail choice for each registered kind named in ``choices`` (others are ignored)."""
    user = signed_in(user)
    for key, email in choices.items():
        if kinds.get(key) is None:
            continue
        EmailPreference.objects.update_or_create(user=user, kind=key, defaults={"email": bool(email)})
