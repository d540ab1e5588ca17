"""Monte Carlo runs: one background run of many goldfish games of a deck, with its progress and summary.

Writes go through ``simulator.services``; the run itself is the task ``simulator.tasks.run_simulation``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from decks.models import Deck


class SimulationRun(models.Model):
    class Status(models.TextChoices):
        QUEUED = "queued", pgettext_lazy("run status", "queued")
        RUNNING = "running", pgettext_lazy("run status", "running")
        DONE = "done", pgettext_lazy("run status", "done")
        CANCELLED = "cancelled", pgettext_lazy("run status", "cancelled")
        FAILED = "failed", pgettext_lazy("run status", "failed")

    deck = models.ForeignKey(Deck, on_delete=models.CASCADE, related_name="simulation_runs")
    requester = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="simulation_runs")
    games = models.PositiveIntegerField(pgettext_lazy("simulation", "games"))
    turns = models.PositiveSmallIntegerField(_("turns"))
    policy = models.CharField(_("policy"), max_length=40, default="default")
    seed = models.BigIntegerField(_("seed"))
    # The stated parameters of the game's engine, every one of them (defaults filled in).
    params = models.JSONField(_("parameters"), default=dict, blank=True)
    language = models.CharField(max_length=16, default="ja")  # card names in the summary
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.QUEUED)
    progress = models.PositiveIntegerField(_("games played"), default=0)
    # montecarlo.RunSummary as a dict (see services.summary_dict); partial for a cancelled run.
    result = models.JSONField(_("result"), null=True, blank=True)
    error = models.TextField(blank=True, default="")
    task_id = models.CharField(max_length=64, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["requester", "deck", "-created_at"])]
        verbose_name = _("simulation run")
        verbose_name_plural = _("simulation runs")

    def __str__(self) -> str:
        return f"{self.deck_id}: {self.games} × {self.turns} ({self.status})"

    @property
    def active(self) -> bool:
        return self.status in (self.Status.QUEUED, self.Status.RUNNING)

    @property
    def percent(self) -> int:
        return int(100 * self.progress / self.games) if self.games else 0
