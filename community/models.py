"""Published decks: snapshots of decks for everyone, with likes, favourites, threaded
comments (whose notifications are in the one inbox, ``notifications``), reports and the moderators' log.

A ``Publication`` is a snapshot: the deck's entries, title and description as they were when it was published.
Publishing the deck again makes a new snapshot and marks the earlier ones as not current; the public list shows
the current one of each deck. Likes, favourites, comments and copies belong to a snapshot (as NetrunnerDB's
decklists: each publication is its own). ``PublicationCard`` holds one row per (snapshot, card) so that "contains
card X and not Y" is an indexed join, not a scan of the JSON entries. Writes go through ``community.services``.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.contenttypes.fields import GenericRelation
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from cards.models import Card, Game
from notifications.models import Notification

MAX_TITLE_LENGTH = 120


class Publication(models.Model):
    deck = models.ForeignKey(
        "decks.Deck", on_delete=models.SET_NULL, null=True, blank=True, related_name="publications"
    )
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="publications")
    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="publications")
    title = models.CharField(_("title"), max_length=MAX_TITLE_LENGTH)
    mode = models.CharField(_("mode"), max_length=32, default="")
    published_at = models.DateTimeField(_("published"), default=timezone.now)
    is_current = models.BooleanField(_("current"), default=True)
    hidden = models.BooleanField(_("hidden"), default=False)
    # Set when the author withdrew the published deck: every snapshot of it is then seen by its author and staff only.
    withdrawn_at = models.DateTimeField(_("withdrawn"), null=True, blank=True)
    # Made when decks stopped being public, from a deck that was: that deck's old page leads everyone but its
    # owner to the deck's current snapshot (``decks.public_space``). A deck never public has no such snapshot,
    # so its page tells no one that it was published.
    from_public_deck = models.BooleanField(default=False, editable=False)
    like_count = models.PositiveIntegerField(default=0)
    favourite_count = models.PositiveIntegerField(default=0)
    copy_count = models.PositiveIntegerField(default=0)
    comment_count = models.PositiveIntegerField(default=0)
    # The large columns last: a row's small ones (its order and flags) are read without reading past these.
    description = models.TextField(_("description"), blank=True, default="")
    options = models.JSONField(_("options"), default=dict, blank=True)
    # [{"zone", "card", "count"}] with card keys, as a deck version stores them.
    entries = models.JSONField(default=list)
    # The deck's placeholder cards when published, as a deck version keeps them (``decks.models.DeckVersion``).
    placeholders = models.JSONField(default=list, blank=True)
    # Not a column: deleting a publication deletes the notifications about it (``notifications``).
    notifications = GenericRelation(Notification, "target_id", "target_type", related_query_name="+")

    class Meta:
        ordering = ["-published_at", "-id"]
        indexes = [
            # The public list of a game: one index per order (newest, most liked, most copied).
            models.Index(fields=["game", "-published_at", "-id"], name="publication_newest"),
            models.Index(fields=["game", "-like_count", "-published_at", "-id"], name="publication_liked"),
            models.Index(fields=["game", "-copy_count", "-published_at", "-id"], name="publication_copied"),
        ]
        verbose_name = _("published deck")
        verbose_name_plural = _("published decks")

    def __str__(self) -> str:
        return self.title


class PublicationCard(models.Model):
    """A card a snapshot holds (any zone): the index behind the public list's card filters."""

    publication = models.ForeignKey(Publication, on_delete=models.CASCADE, related_name="cards")
    card = models.ForeignKey(Card, on_delete=models.CASCADE, related_name="publication_rows")
    # The snapshot's (a snapshot's time never changes): "the newest decks with card X" walks one index in order.
    published_at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["card", "publication"], name="one_row_per_published_card")]
        indexes = [models.Index(fields=["card", "-published_at", "-publication"], name="publicationcard_newest")]

    def __str__(self) -> str:
        return f"{self.publication_id}: {self.card_id}"


class Like(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="publication_likes")
    publication = models.ForeignKey(Publication, on_delete=models.CASCADE, related_name="likes")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["publication", "user"], name="one_like_per_user")]

    def __str__(self) -> str:
        return f"{self.user_id} ♥ {self.publication_id}"


class Favourite(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="favourites")
    publication = models.ForeignKey(Publication, on_delete=models.CASCADE, related_name="favourites")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [models.UniqueConstraint(fields=["publication", "user"], name="one_favourite_per_user")]

    def __str__(self) -> str:
        return f"{self.user_id} ☆ {self.publication_id}"


class Comment(models.Model):
    publication = models.ForeignKey(Publication, on_delete=models.CASCADE, related_name="comments")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="deck_comments")
    parent = models.ForeignKey(
        "self", on_delete=models.CASCADE, null=True, blank=True, related_name="replies", verbose_name=_("reply to")
    )
    body = models.TextField(_("comment"))
    created_at = models.DateTimeField(default=timezone.now)
    hidden = models.BooleanField(_("hidden"), default=False)
    # Not a column: deleting a comment deletes the notifications of it (``notifications``).
    notifications = GenericRelation(Notification, "action_object_id", "action_object_type", related_query_name="+")

    class Meta:
        ordering = ["created_at", "id"]
        indexes = [models.Index(fields=["publication", "created_at"], name="comment_by_publication")]
        verbose_name = _("comment")
        verbose_name_plural = _("comments")

    def __str__(self) -> str:
        return self.body[:60]


class Report(models.Model):
    class Reason(models.TextChoices):
        SPAM = "spam", _("spam or advertising")
        ABUSE = "abuse", _("abusive or hateful")
        COPYRIGHT = "copyright", _("someone else's work")
        OTHER = "other", _("something else")

    reporter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reports")
    publication = models.ForeignKey(Publication, on_delete=models.CASCADE, related_name="reports")
    comment = models.ForeignKey(Comment, on_delete=models.CASCADE, null=True, blank=True, related_name="reports")
    reason = models.CharField(_("reason"), max_length=16, choices=Reason.choices)
    note = models.CharField(_("note"), max_length=500, blank=True, default="")
    created_at = models.DateTimeField(default=timezone.now)
    resolved_at = models.DateTimeField(null=True, blank=True)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["created_at", "id"]
        indexes = [models.Index(fields=["resolved_at", "created_at"], name="report_queue")]

    def __str__(self) -> str:
        return f"{self.reason}: {self.publication_id}"


class Block(models.Model):
    """A user who may not publish or comment (set and lifted by staff, each time logged)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="community_block")
    moderator = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")
    reason = models.CharField(_("reason"), max_length=500)
    created_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"{self.user_id}: {self.reason}"


class ModerationAction(models.Model):
    class Action(models.TextChoices):
        HIDE = "hide", _("hide")
        RESTORE = "restore", _("restore")
        BLOCK = "block", _("block")
        UNBLOCK = "unblock", _("unblock")
        DISMISS = "dismiss", _("dismiss the report")

    moderator = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="moderation_actions"
    )
    action = models.CharField(_("action"), max_length=16, choices=Action.choices)
    publication = models.ForeignKey(Publication, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    comment = models.ForeignKey(Comment, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    report = models.ForeignKey(Report, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    reason = models.CharField(_("reason"), max_length=500)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.action}: {self.reason}"
