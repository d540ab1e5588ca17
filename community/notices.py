"""The notification kinds of the public deck space (a comment on your deck, a reply to your comment), registered
with the one inbox (``notifications.kinds``) from ``CommunityConfig.ready()``."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from notifications.kinds import Kind, register
from notifications.models import Notification

COMMENT = "comment"
REPLY = "reply"


def _describe(notification: Notification) -> str:
    actor = notification.actor.get_username() if notification.actor is not None else _("someone")
    title = getattr(notification.target, "title", "")
    if notification.kind == REPLY:
        return _("%(actor)s replied to your comment on “%(title)s”") % {"actor": actor, "title": title}
    return _("%(actor)s commented on “%(title)s”") % {"actor": actor, "title": title}


def _link(notification: Notification) -> str:
    url = reverse("community:detail", args=[notification.target_id])
    return f"{url}#comment-{notification.action_object_id}" if notification.action_object_id else url


def _mail(notification: Notification) -> tuple[str, str]:
    subject = _describe(notification)
    body = getattr(notification.action_object, "body", "")
    return subject, f"{subject}\n\n{body}\n\n{_link(notification)}"


def _api_fields(notification: Notification) -> dict[str, Any]:
    # The fields this kind had in the API before the inbox was one, kept for its readers.
    return {"publication": notification.target_id, "comment": notification.action_object_id}


def register_kinds() -> None:
    # Comments were never e-mailed: a busy deck would flood its author; a user may choose it.
    for key, label in ((COMMENT, gettext_lazy("comment on your deck")), (REPLY, gettext_lazy("reply to your comment"))):
        register(Kind(key=key, label=label, describe=_describe, link=_link, mail=_mail, api_fields=_api_fields))
