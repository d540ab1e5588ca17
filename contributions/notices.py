"""The notification kind of contributions (a change set applied, accepted or rejected), registered with the one
inbox (``notifications.kinds``) from ``ContributionsConfig.ready()``; e-mailed unless the author chose not."""

from __future__ import annotations

from typing import Any

from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from cardsite.errors import Message
from notifications.kinds import Kind, register
from notifications.models import Notification

CHANGE_SET = "change_set"


class Event(models.TextChoices):
    """What happened to the change set: the notification's verb."""

    APPLIED = "applied", pgettext_lazy("notice", "applied at once")
    ACCEPTED = "accepted", pgettext_lazy("notice", "accepted")
    REJECTED = "rejected", pgettext_lazy("notice", "rejected")


_TEXTS: dict[str, Any] = {
    Event.APPLIED: _("Your change set #%(number)s of %(game)s is applied"),
    Event.ACCEPTED: _("Your change set #%(number)s of %(game)s was accepted"),
    Event.REJECTED: _("Your change set #%(number)s of %(game)s was rejected"),
}


def _describe(notification: Notification) -> str:
    change_set: Any = notification.target
    text = _TEXTS.get(notification.verb, _TEXTS[Event.ACCEPTED])
    return str(Message(text, {"number": change_set.pk, "game": change_set.game.definition.names}))


def _link(notification: Notification) -> str:
    return reverse("contributions:change_set", args=[notification.target_id])


def _mail(notification: Notification) -> tuple[str, str]:
    """The subject says what was decided; the body adds the reviewer's reason and the change set's page."""
    subject = _describe(notification)
    body = subject
    reason = getattr(notification.target, "reason", "")
    if reason:
        body += "\n\n" + reason
    return subject, body + "\n\n" + _link(notification)


def _api_fields(notification: Notification) -> dict[str, Any]:
    return {"change_set": notification.target_id}


def register_kinds() -> None:
    register(
        Kind(
            key=CHANGE_SET,
            label=_("a decision on your change set"),
            describe=_describe,
            link=_link,
            email_by_default=True,
            mail=_mail,
            api_fields=_api_fields,
        )
    )
