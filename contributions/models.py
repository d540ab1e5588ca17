"""Players' changes to the card database: change sets, the cards they propose, roles and notices.

A change set is one contribution: new cards, corrected values or texts, with the source they came
from. A trusted contributor's change set applies at once; anyone else's waits for an editor of the
game (``GameRole``), who accepts or rejects it with a reason. Applying writes the cards through
``cards.services`` as one revision (``cards.revisions``), so the card's history says who, when, from
which source and from which change set.

Each proposed card is kept whole (``CardChange.proposed``, in the shape of ``cards.services.card_state``)
with the state it was made against (``base``): a card changed by someone else in between is never
silently overwritten, the change is refused and the other change shown.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.contenttypes.fields import GenericRelation
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from cards.models import LANGUAGE_CHOICES, CardImage, Game, StoredImage
from notifications.models import Notification


class ChangeSet(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", pgettext_lazy("state of a change set", "waiting for review")
        ACCEPTED = "accepted", pgettext_lazy("state of a change set", "accepted")
        REJECTED = "rejected", pgettext_lazy("state of a change set", "rejected")

    class SourceKind(models.TextChoices):
        OWN_COPY = "own_copy", pgettext_lazy("source of a contribution", "my own copy of the card")
        PHOTO = "photo", pgettext_lazy("source of a contribution", "a photo or scan of the card")
        OFFICIAL = "official", pgettext_lazy("source of a contribution", "an official page or document")
        SEED = "seed", pgettext_lazy("source of a contribution", "the site's seed documents")
        OTHER = "other", pgettext_lazy("source of a contribution", "another source")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="change_sets")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="change_sets")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    source_kind = models.CharField(_("source"), max_length=16, choices=SourceKind.choices)
    source_detail = models.CharField(_("source details"), max_length=300, blank=True, default="")
    comment = models.TextField(_("comment"), blank=True, default="", max_length=2000)
    created_at = models.DateTimeField(auto_now_add=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="decisions"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    reason = models.TextField(_("reason"), blank=True, default="", max_length=2000)
    # A photo or scan of the physical card the values come from: the card page's sources link to it.
    source_photo = models.ForeignKey(
        StoredImage, on_delete=models.PROTECT, null=True, blank=True, related_name="source_of"
    )
    # The translation tracks it makes (``cards.importing.TrackRecord`` as objects): made when it is applied.
    tracks = models.JSONField(default=list, blank=True)
    # The revision of the cards that applied it (accepted change sets only).
    revision = models.OneToOneField(
        "reversion.Revision", on_delete=models.SET_NULL, null=True, blank=True, related_name="change_set"
    )
    # Not a column: deleting a change set deletes the notifications about it (``notifications``).
    notifications = GenericRelation(Notification, "target_id", "target_type", related_query_name="+")

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["game", "status", "created_at"])]
        verbose_name = _("change set")
        verbose_name_plural = _("change sets")

    def __str__(self) -> str:
        return f"#{self.pk} {self.game.slug} ({self.status})"


class CardChange(models.Model):
    """One card a change set adds or changes: the card whole as proposed, and as it was when proposed."""

    change_set = models.ForeignKey(ChangeSet, on_delete=models.CASCADE, related_name="changes")
    position = models.PositiveIntegerField(default=0)
    key = models.CharField(max_length=100)
    base = models.JSONField(null=True, blank=True)  # the card as the contributor saw it; null: a new card
    proposed = models.JSONField()

    class Meta:
        ordering = ["change_set", "position"]
        constraints = [models.UniqueConstraint(fields=["change_set", "key"], name="one_change_per_card_per_set")]

    def __str__(self) -> str:
        return f"{self.change_set_id}: {self.key}"


class ImageChange(models.Model):
    """A picture a change set adds to a card (or puts back), or removes from it (the file is kept)."""

    class Action(models.TextChoices):
        ADD = "add", pgettext_lazy("change of a card image", "add")
        REMOVE = "remove", pgettext_lazy("change of a card image", "remove")

    change_set = models.ForeignKey(ChangeSet, on_delete=models.CASCADE, related_name="image_changes")
    position = models.PositiveIntegerField(default=0)
    key = models.CharField(max_length=100)  # the card's key in the change set's game
    action = models.CharField(max_length=8, choices=Action.choices)
    image = models.ForeignKey(StoredImage, on_delete=models.PROTECT, related_name="changes")
    side = models.CharField(max_length=8, choices=CardImage.Side.choices, default=CardImage.Side.FACE)
    language = models.CharField(max_length=8, choices=LANGUAGE_CHOICES, blank=True, default="")

    class Meta:
        ordering = ["change_set", "position"]

    def __str__(self) -> str:
        return f"{self.change_set_id}: {self.action} {self.key}"


class GameRole(models.Model):
    """What a user may do with one game's cards beyond contributing: granted in the admin."""

    class Role(models.TextChoices):
        EDITOR = "editor", pgettext_lazy("role", "editor (reviews change sets; changes apply at once)")
        TRUSTED = "trusted", pgettext_lazy("role", "trusted contributor (changes apply at once)")
        BLOCKED = "blocked", pgettext_lazy("role", "blocked (may not contribute)")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="game_roles")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="roles")
    role = models.CharField(max_length=16, choices=Role.choices)
    granted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    note = models.CharField(max_length=300, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "game"], name="one_role_per_user_and_game")]
        verbose_name = _("game role")
        verbose_name_plural = _("game roles")

    def __str__(self) -> str:
        return f"{self.user} {self.role} {self.game.slug}"
