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
    # The share token the run was started with (a deck shared by link): the run is readable while
    # the deck is visible to its requester, as the deck page would be (simulator.selectors.access_run).
    share_token = models.CharField(max_length=32, blank=True, default="")
    games = models.PositiveIntegerField(pgettext_lazy("simulation", "games"))
    turns = models.PositiveSmallIntegerField(_("turns"))
    policy = models.CharField(_("policy"), max_length=40, default="default")
    seed = models.BigIntegerField(_("seed"))
    # The stated parameters of the game's engine, every one of them (defaults filled in).
    params = models.JSONField(_("parameters"), default=dict, blank=True)
    language = models.CharField(max_length=16, default="ja")  # card names in the summary
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.QUEUED)
    # Games played so far: the sum of the chunks' (kept in step by simulator.services).
    progress = models.PositiveIntegerField(_("games played"), default=0)
    # montecarlo.RunSummary as a dict (see services.summary_dict); partial for a cancelled run.
    result = models.JSONField(_("result"), null=True, blank=True)
    # Why the run failed, put into words when read (simulator.failures); ``error`` keeps what an unexpected
    # exception said, for the staff and the logs.
    error_code = models.CharField(max_length=40, blank=True, default="")
    error_params = models.JSONField(default=dict, blank=True)
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
    def error_message(self) -> str:
        """Why the run failed, in the active language; "" unless it failed."""
        if not self.error_code:
            return self.error  # a run that failed before reasons were kept as codes: its words as stored
        from .failures import failure_message

        return failure_message(self.error_code, self.error_params)

    @property
    def active(self) -> bool:
        return self.status in (self.Status.QUEUED, self.Status.RUNNING)

    @property
    def settling(self) -> bool:
        """Cancelled, but a chunk still being played will yet add the games it played to the result."""
        return (
            self.status == self.Status.CANCELLED and self.chunks.filter(status=SimulationChunk.Status.RUNNING).exists()
        )

    @property
    def percent(self) -> int:
        return int(100 * self.progress / self.games) if self.games else 0


class SimulationChunk(models.Model):
    """A range of a run's games, played by one task on one worker (``simulator.services.execute_chunk``).

    A run's games are split into chunks so that several workers play them at once; game i of the
    run is always played from seed ``run.seed + i``, so the chunks' tallies add up to exactly what
    one worker would have found. A chunk whose worker stops beating (``heartbeat_at``) is played
    again from its first game by another worker (at most ``MAX_ATTEMPTS`` times).
    """

    class Status(models.TextChoices):
        QUEUED = "queued", pgettext_lazy("run status", "queued")
        RUNNING = "running", pgettext_lazy("run status", "running")
        DONE = "done", pgettext_lazy("run status", "done")
        CANCELLED = "cancelled", pgettext_lazy("run status", "cancelled")
        FAILED = "failed", pgettext_lazy("run status", "failed")

    run = models.ForeignKey(SimulationRun, on_delete=models.CASCADE, related_name="chunks")
    index = models.PositiveIntegerField()
    first_game = models.PositiveIntegerField()
    games = models.PositiveIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    played = models.PositiveIntegerField(default=0)
    # montecarlo.Tally.as_dict() of the games played; null until the chunk stops.
    tally = models.JSONField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    worker = models.CharField(max_length=100, blank=True, default="")
    task_id = models.CharField(max_length=64, blank=True, default="")

    class Meta:
        ordering = ["run", "index"]
        constraints = [models.UniqueConstraint(fields=["run", "index"], name="one_chunk_per_run_and_index")]
        indexes = [models.Index(fields=["status", "heartbeat_at"])]

    def __str__(self) -> str:
        return f"run {self.run_id} games {self.first_game}–{self.first_game + self.games - 1} ({self.status})"


class ComparisonRun(models.Model):
    """Strategies of a whole game compared over many games (``simulator.comparisons``), played by the task workers
    in chunks of blocks (``ComparisonChunk``), look by look when it may stop once the leaders differ."""

    Status = SimulationRun.Status

    game = models.ForeignKey("cards.Game", on_delete=models.CASCADE, related_name="comparison_runs")
    requester = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="comparison_runs")
    strategies = models.JSONField(_("strategies"), default=list)  # names, in seat order of the first game
    abilities = models.JSONField(default=list, blank=True)  # the chosen piles' keys ([]: the default choice)
    # The set-up's cards and values as the run started (comparison_results.setup_to_dict): every chunk plays them.
    setup = models.JSONField(default=dict)
    games = models.PositiveIntegerField(pgettext_lazy("simulation", "games"))  # per strategy, asked
    sequential = models.BooleanField(default=False)  # stop once the leaders' difference is significant
    seed = models.BigIntegerField(_("seed"))
    language = models.CharField(max_length=16, default="ja")
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.QUEUED)
    looks = models.JSONField(default=list)  # the look schedule, in blocks
    look = models.PositiveSmallIntegerField(default=0)  # the look being played towards
    progress = models.PositiveIntegerField(_("games played"), default=0)  # per strategy
    planned = models.PositiveIntegerField(default=0)  # games per strategy in whole blocks
    result = models.JSONField(_("result"), null=True, blank=True)  # simulator.comparisons.result_dict
    error_code = models.CharField(max_length=40, blank=True, default="")
    error_params = models.JSONField(default=dict, blank=True)
    error = models.TextField(blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["requester", "game", "-created_at"])]
        verbose_name = _("comparison run")
        verbose_name_plural = _("comparison runs")

    def __str__(self) -> str:
        return f"{self.game_id}: {', '.join(self.strategies)} × {self.games} ({self.status})"

    @property
    def error_message(self) -> str:
        if not self.error_code:
            return self.error
        from .failures import failure_message

        return failure_message(self.error_code, self.error_params)

    @property
    def active(self) -> bool:
        return self.status in (self.Status.QUEUED, self.Status.RUNNING)

    @property
    def percent(self) -> int:
        return min(100, int(100 * self.progress / self.planned)) if self.planned else 0


class ComparisonChunk(models.Model):
    """Blocks ``first_block`` to ``last_block - 1`` of a comparison, played by one task; its ``result`` (a
    serialized ``compare.Result``) merges exactly with the others'."""

    Status = SimulationChunk.Status

    run = models.ForeignKey(ComparisonRun, on_delete=models.CASCADE, related_name="chunks")
    index = models.PositiveIntegerField()
    first_block = models.PositiveIntegerField()
    last_block = models.PositiveIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    played = models.PositiveIntegerField(default=0)  # blocks
    result = models.JSONField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    worker = models.CharField(max_length=100, blank=True, default="")
    task_id = models.CharField(max_length=64, blank=True, default="")

    class Meta:
        ordering = ["run", "index"]
        constraints = [models.UniqueConstraint(fields=["run", "index"], name="one_comparison_chunk_per_index")]
        indexes = [models.Index(fields=["status", "heartbeat_at"], name="simulator_cmpchunk_beat")]

    def __str__(self) -> str:
        return f"comparison {self.run_id} blocks {self.first_block}–{self.last_block - 1} ({self.status})"
