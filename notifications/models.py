"""A notification (django-notifications' shape: recipient, actor, verb, target, unread) and the e-mail preference.

``kind`` names a registered kind (``notifications.kinds``): the unit of the e-mail preference and of the wording;
``verb`` says what happened within it (a change set accepted or rejected). The target (what the notification
leads to) and the action object (a comment on it) are generic, so that this app knows no sending app's models; the
sending models hold a ``GenericRelation`` so that deleting them deletes their notifications, as a foreign key did.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.contenttypes.fields import GenericForeignKey
from django.contrib.contenttypes.models import ContentType
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class Notification(models.Model):
    recipient = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    kind = models.CharField(max_length=32)
    verb = models.CharField(max_length=32, blank=True, default="")
    target_type = models.ForeignKey(ContentType, on_delete=models.CASCADE, related_name="+")
    target_id = models.PositiveBigIntegerField()
    target = GenericForeignKey("target_type", "target_id")
    action_object_type = models.ForeignKey(
        ContentType, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    action_object_id = models.PositiveBigIntegerField(null=True, blank=True)
    action_object = GenericForeignKey("action_object_type", "action_object_id")
    created_at = models.DateTimeField(default=timezone.now)
    read_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["recipient", "read_at"], name="notifications_unread"),
            models.Index(fields=["target_type", "target_id"], name="notifications_target"),
        ]
        verbose_name = _("notification")
        verbose_name_plural = _("notifications")

    def __str__(self) -> str:
        return f"{self.kind} {self.verb} → {self.recipient_id}"

    @property
    def unread(self) -> bool:
        return self.read_at is None


class EmailPreference(models.Model):
    """A user's choice of e-mail for one kind; without a row the kind's default holds."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=32)
    email = models.BooleanField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "kind"], name="one_email_preference_per_kind")]

    def __str__(self) -> str:
        return f"{self.user_id} {self.kind} {self.email}"
