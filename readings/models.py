"""Reading card photos: a batch of photos a contributor uploaded, each read on the task workers.

Writes go through ``readings.services``; each photo is read by the task ``readings.tasks.read_photo``
(``services.PhotoReadings.execute_chunk``), with ``cards.reading`` doing the work.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from cards.models import Card, CardImage, Game, StoredImage

from .failures import failure_message


class ReadingStatus(models.TextChoices):
    """The states of ``cardsite.jobs`` (the same stored values as every job's), in the words of a reading."""

    QUEUED = "queued", pgettext_lazy("reading status", "queued")
    RUNNING = "running", pgettext_lazy("reading status", "reading")
    DONE = "done", pgettext_lazy("reading status", "done")
    FAILED = "failed", pgettext_lazy("reading status", "failed")
    CANCELLED = "cancelled", pgettext_lazy("reading status", "cancelled")


class ReadingBatch(models.Model):
    """Photos uploaded together to be read as cards of one game. Its status follows its photos': reading while
    any is queued or being read, done once every photo is settled (each done or failed), cancelled when asked."""

    Status = ReadingStatus

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reading_batches")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="reading_batches")
    status = models.CharField(_("status"), max_length=10, choices=ReadingStatus.choices, default=ReadingStatus.QUEUED)
    language = models.CharField(max_length=16, default="ja")  # of the messages written by the task
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)  # when a worker took its first photo
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["user", "-created_at"])]
        verbose_name = _("reading batch")
        verbose_name_plural = _("reading batches")

    def __str__(self) -> str:
        return f"{self.user_id}: {self.game_id} ({self.status})"

    @property
    def active(self) -> bool:
        return self.status in (ReadingStatus.QUEUED, ReadingStatus.RUNNING)


class PhotoReading(models.Model):
    """One photo of a batch and what reading it gave: the lines (``cards.reading.Reading.to_json``), the proposed
    values (``Proposal.to_json`` each), and the existing card the proposals point to, if any."""

    Status = ReadingStatus

    batch = models.ForeignKey(ReadingBatch, on_delete=models.CASCADE, related_name="photos")
    index = models.PositiveSmallIntegerField()  # 1, 2, … in the order uploaded ("photo N")
    image = models.ForeignKey(StoredImage, on_delete=models.PROTECT, related_name="readings")
    status = models.CharField(_("status"), max_length=10, choices=ReadingStatus.choices, default=ReadingStatus.QUEUED)
    progress = models.PositiveSmallIntegerField(_("progress"), default=0)  # percent
    reading = models.JSONField(null=True, blank=True)
    proposals = models.JSONField(default=list, blank=True)
    card = models.ForeignKey(Card, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    card_key = models.CharField(max_length=100, blank=True, default="")  # kept if the card is deleted
    matched_by = models.CharField(max_length=10, blank=True, default="")  # "number", "name", "image" or ""
    # Duplicates (``readings.duplicates``): the card image this photo's perceptual hash is close to ("this card
    # already has this image"), how many bits apart, and the first photo of the batch showing the same card.
    duplicate_of = models.ForeignKey(CardImage, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    duplicate_distance = models.PositiveSmallIntegerField(null=True, blank=True)
    same_card_as = models.PositiveSmallIntegerField(null=True, blank=True)  # that photo's ``index``
    # Why the reading failed: a code (``failures.FAILURES``) put into words when read; ``error`` keeps what an
    # unexpected exception said, for the staff and the logs.
    error_code = models.CharField(max_length=40, blank=True, default="")
    error = models.TextField(blank=True, default="")
    # The change set the contributor submitted from this photo (``services.submit_photo``): one per photo.
    change_set = models.ForeignKey(
        "contributions.ChangeSet", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    attempts = models.PositiveSmallIntegerField(default=0)
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    worker = models.CharField(max_length=100, blank=True, default="")  # the machine and process reading it
    task_id = models.CharField(max_length=64, blank=True, default="")
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["batch", "index"]
        constraints = [models.UniqueConstraint(fields=["batch", "index"], name="one_photo_reading_per_index")]
        indexes = [models.Index(fields=["status", "heartbeat_at"])]
        verbose_name = _("photo reading")
        verbose_name_plural = _("photo readings")

    def __str__(self) -> str:
        return f"batch {self.batch_id} photo {self.index} ({self.status})"

    @property
    def error_message(self) -> str:
        """Why the reading failed, in the active language; "" unless it failed."""
        return failure_message(self.error_code) if self.error_code else ""
