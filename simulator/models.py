"""Monte Carlo runs: one background run of many goldfish games of a deck, with its progress and summary.

Writes go through ``simulator.goldfish.services``; the run itself is the task ``simulator.tasks.run_simulation``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from cardsite.sharing import Shared
from decks.models import Deck


class RunStatus(models.TextChoices):
    """Where a chunked run, or one of its chunks, is in its life (``cardsite.jobs``)."""

    QUEUED = "queued", pgettext_lazy("run status", "queued")
    RUNNING = "running", pgettext_lazy("run status", "running")
    DONE = "done", pgettext_lazy("run status", "done")
    CANCELLED = "cancelled", pgettext_lazy("run status", "cancelled")
    FAILED = "failed", pgettext_lazy("run status", "failed")


class ChunkedRun(models.Model):
    """What every kind of run played in chunks by the task workers keeps (``cardsite.jobs``): its status,
    progress, result, why it failed and when it started and finished. A concrete run adds what it plays and
    a ``chunks`` relation (its ``RunChunk`` model)."""

    Status = RunStatus

    seed = models.BigIntegerField(_("seed"))
    language = models.CharField(max_length=16, default="ja")  # the language of the summary's names
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.QUEUED)
    # What has been played so far, from the chunks (kept in step by cardsite.jobs).
    progress = models.PositiveIntegerField(_("games played"), default=0)
    # The kind's summary of the chunks' results; partial for a cancelled or failed run.
    result = models.JSONField(_("result"), null=True, blank=True)
    # Why the run failed, put into words when read (simulator.failures); ``error`` keeps what an unexpected
    # exception said, for the staff and the logs.
    error_code = models.CharField(max_length=40, blank=True, default="")
    error_params = models.JSONField(default=dict, blank=True)
    error = models.TextField(blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        abstract = True
        ordering = ["-created_at", "-id"]

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


class RunChunk(models.Model):
    """A part of a chunked run, played by one task on one worker (``cardsite.jobs``). A concrete chunk adds
    its ``run`` (related name ``chunks``), which part of the run it plays, and the field keeping its result.
    A chunk whose worker stops beating (``heartbeat_at``) is played again from its start by another worker
    (at most ``cardsite.jobs.MAX_ATTEMPTS`` times)."""

    Status = RunStatus

    run_id: int  # the concrete chunk's ``run`` foreign key

    index = models.PositiveIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    played = models.PositiveIntegerField(default=0)  # in the kind's unit (games, blocks)
    attempts = models.PositiveSmallIntegerField(default=0)
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    worker = models.CharField(max_length=100, blank=True, default="")
    task_id = models.CharField(max_length=64, blank=True, default="")

    class Meta:
        abstract = True
        ordering = ["run", "index"]


class SimulationRun(ChunkedRun):
    deck = models.ForeignKey(Deck, on_delete=models.CASCADE, related_name="simulation_runs")
    requester = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="simulation_runs")
    # The share token the run was started with (a deck shared by link): the run is readable while
    # the deck is visible to its requester, as the deck page would be (simulator.goldfish.selectors.access_run).
    share_token = models.CharField(max_length=32, blank=True, default="")
    games = models.PositiveIntegerField(pgettext_lazy("simulation", "games"))
    turns = models.PositiveSmallIntegerField(_("turns"))
    policy = models.CharField(_("policy"), max_length=40, default="default")
    # The stated parameters of the game's engine, every one of them (defaults filled in).
    params = models.JSONField(_("parameters"), default=dict, blank=True)
    # ``progress``: games played so far, the sum of the chunks'; ``result``: montecarlo.RunSummary as a dict
    # (see services.summary_dict); ``language``: that of the card names in the summary.
    task_id = models.CharField(max_length=64, blank=True, default="")  # of a run queued in one task (earlier)
    # The simulated odds of drawing each card (tables.stored_odds): thousands of shuffles, drawn once as the
    # chunks first merge, rather than at every look at the run's page.
    odds = models.JSONField(null=True, blank=True)

    class Meta(ChunkedRun.Meta):
        indexes = [models.Index(fields=["requester", "deck", "-created_at"])]
        verbose_name = _("simulation run")
        verbose_name_plural = _("simulation runs")

    def __str__(self) -> str:
        return f"{self.deck_id}: {self.games} × {self.turns} ({self.status})"

    @property
    def settling(self) -> bool:
        """Cancelled, but a chunk still being played will yet add the games it played to the result."""
        return (
            self.status == self.Status.CANCELLED and self.chunks.filter(status=SimulationChunk.Status.RUNNING).exists()
        )

    @property
    def percent(self) -> int:
        return int(100 * self.progress / self.games) if self.games else 0


class SimulationChunk(RunChunk):
    """A range of a run's games, played by one task on one worker (``simulator.goldfish.services.execute_chunk``).

    A run's games are split into chunks so that several workers play them at once; game i of the
    run is always played from seed ``run.seed + i``, so the chunks' tallies add up to exactly what
    one worker would have found.
    """

    run = models.ForeignKey(SimulationRun, on_delete=models.CASCADE, related_name="chunks")
    first_game = models.PositiveIntegerField()
    games = models.PositiveIntegerField()
    # montecarlo.Tally.as_dict() of the games played; null until the chunk stops.
    tally = models.JSONField(null=True, blank=True)

    class Meta(RunChunk.Meta):
        constraints = [models.UniqueConstraint(fields=["run", "index"], name="one_chunk_per_run_and_index")]
        indexes = [models.Index(fields=["status", "heartbeat_at"])]

    def __str__(self) -> str:
        return f"run {self.run_id} games {self.first_game}–{self.first_game + self.games - 1} ({self.status})"


class ComparisonRun(ChunkedRun):
    """Strategies of a whole game compared over many games (``simulator.comparisons.services``), played by the task
    workers in chunks of blocks (``ComparisonChunk``), look by look when it may stop once the leaders differ."""

    game = models.ForeignKey("cards.Game", on_delete=models.CASCADE, related_name="comparison_runs")
    requester = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="comparison_runs")
    strategies = models.JSONField(_("strategies"), default=list)  # names, in seat order of the first game
    abilities = models.JSONField(default=list, blank=True)  # the chosen piles' keys ([]: the default choice)
    # The set-up's cards and values as the run started (comparison_results.setup_to_dict): every chunk plays them.
    setup = models.JSONField(default=dict)
    games = models.PositiveIntegerField(pgettext_lazy("simulation", "games"))  # per strategy, asked
    sequential = models.BooleanField(default=False)  # stop once the leaders' difference is significant
    looks = models.JSONField(default=list)  # the look schedule, in blocks
    look = models.PositiveSmallIntegerField(default=0)  # the look being played towards
    planned = models.PositiveIntegerField(default=0)  # games per strategy in whole blocks
    # One strategy on several set-ups (``setups`` given): each seat of ``strategies`` is an entrant on its own
    # set-up (as stored when the run started), each playing in its own games against ``opponents`` (shipped or
    # written names; none: solo games); ``setup_names`` says what each set-up was called.
    setups = models.JSONField(default=list, blank=True)
    setup_names = models.JSONField(default=list, blank=True)
    opponents = models.JSONField(default=list, blank=True)
    # Written strategies among ``strategies`` ("written:<id>"), as they read when the run started, so that a
    # later edit or deletion does not change what the run plays: {"written:<id>": {"name": …, "text": …}}.
    written = models.JSONField(default=dict, blank=True)
    # ``progress``: games played per strategy; ``result``: shared.results.report of the chunks' results.

    class Meta(ChunkedRun.Meta):
        indexes = [models.Index(fields=["requester", "game", "-created_at"])]
        verbose_name = _("comparison run")
        verbose_name_plural = _("comparison runs")

    def __str__(self) -> str:
        return f"{self.game_id}: {', '.join(self.strategies)} × {self.games} ({self.status})"

    @property
    def percent(self) -> int:
        return min(100, int(100 * self.progress / self.planned)) if self.planned else 0


class ComparisonChunk(RunChunk):
    """Blocks ``first_block`` to ``last_block - 1`` of a comparison, played by one task; its ``result`` (a
    serialized ``compare.Result``) merges exactly with the others'."""

    run = models.ForeignKey(ComparisonRun, on_delete=models.CASCADE, related_name="chunks")
    first_block = models.PositiveIntegerField()
    last_block = models.PositiveIntegerField()
    result = models.JSONField(null=True, blank=True)  # shared.results.result_to_dict; null until it stops

    class Meta(RunChunk.Meta):
        constraints = [models.UniqueConstraint(fields=["run", "index"], name="one_comparison_chunk_per_index")]
        indexes = [models.Index(fields=["status", "heartbeat_at"], name="simulator_cmpchunk_beat")]

    def __str__(self) -> str:
        return f"comparison {self.run_id} blocks {self.first_block}–{self.last_block - 1} ({self.status})"


class WrittenStrategy(Shared):
    """A strategy a player wrote for a whole game (the game's strategy text, ``FullGame.read_strategy``), kept and
    shared like a deck: private, by link or public (``cardsite.sharing``). Writes go through
    ``simulator.strategies.services``, which reads the text with the game's rules before anything is stored."""

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="written_strategies")
    game = models.ForeignKey("cards.Game", on_delete=models.PROTECT, related_name="written_strategies")
    name = models.CharField(_("name"), max_length=120)
    description = models.TextField(_("description"), blank=True, default="")
    text = models.TextField(_("strategy"))
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta(Shared.Meta):
        ordering = ["-updated_at", "id"]
        indexes = [models.Index(fields=["game", "visibility", "-updated_at"], name="simulator_strategy_listed")]
        verbose_name = _("written strategy")
        verbose_name_plural = _("written strategies")

    def __str__(self) -> str:
        return self.name

    @property
    def reference(self) -> str:
        """How a comparison names it among the shipped strategies' names."""
        return f"{WRITTEN_PREFIX}{self.pk}"


class MovedSetup(models.Model):
    """Where a set-up saved before set-ups became decks now is: the address
    ``/simulator/games/<game>/setups/<id>/`` of a saved set-up (and its older ``/games/<game>/setups/<id>/``)
    leads to the deck it became (``simulator.setups.selectors``). The set-up's own choice of piles is kept as it
    was saved ([]: the game's default piles), so that nothing of it is lost even when a card it named is no longer
    stored."""

    setup_id = models.BigIntegerField(primary_key=True)  # the set-up's old id, as its address and the API named it
    deck = models.ForeignKey(Deck, on_delete=models.CASCADE, related_name="moved_setups")
    choices = models.JSONField(default=list, blank=True)

    class Meta:
        verbose_name = _("moved set-up")
        verbose_name_plural = _("moved set-ups")

    def __str__(self) -> str:
        return f"{self.setup_id} -> {self.deck_id}"


WRITTEN_PREFIX = "written:"
PERSON_SEAT = "person"  # in ``SeatedGame.seats``: the seat its owner plays


class SeatedGame(models.Model):
    """A whole game played one choice at a time, by its owner in one seat (``PERSON_SEAT``) and strategies in the
    others, or watched turn by turn with strategies in every seat (a comparison's sample game). Only the seed, the
    seats and the owner's answers are kept: ``FullGame.advance`` replays them (``simulator.seated.services``)."""

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="seated_games")
    game = models.ForeignKey("cards.Game", on_delete=models.CASCADE, related_name="seated_games")
    seats = models.JSONField(default=list)  # strategy names, ``written:<id>`` or PERSON_SEAT, in seat order
    written = models.JSONField(default=dict, blank=True)  # as ComparisonRun.written
    abilities = models.JSONField(default=list, blank=True)
    setup = models.JSONField(default=dict)  # comparison_results.setup_to_dict, as the game started
    seed = models.BigIntegerField(_("seed"))
    answers = models.JSONField(default=list, blank=True)  # the owner's answers, in order
    source = models.JSONField(default=dict, blank=True)  # {"comparison": id, "percentile": q} for a sample game
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated_at", "id"]
        indexes = [models.Index(fields=["owner", "game", "-updated_at"], name="simulator_seated_recent")]
        verbose_name = _("played game")
        verbose_name_plural = _("played games")

    def __str__(self) -> str:
        return f"{self.game_id}: {', '.join(self.seats)} (seed {self.seed})"

    @property
    def person(self) -> int | None:
        return self.seats.index(PERSON_SEAT) if PERSON_SEAT in self.seats else None


class StrategySearch(ChunkedRun):
    """A search for the best strategy of a whole game on one set-up (``simulator.searches.services``): ``islands``
    searches from seeds drawn from the run's, played side by side by the task workers, each in chunks of
    ``generations_per_chunk`` generations (one ``StrategySearchChunk`` per island and round); the island whose champion
    does best against the shipped strategies is the result."""

    game = models.ForeignKey("cards.Game", on_delete=models.CASCADE, related_name="strategy_searches")
    requester = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="strategy_searches")
    players = models.PositiveSmallIntegerField(default=2)
    islands = models.PositiveSmallIntegerField(default=2)
    generations = models.PositiveIntegerField(default=40)  # per island
    generations_per_chunk = models.PositiveIntegerField(default=10)
    report_games = models.PositiveIntegerField(default=400)  # per shipped strategy, for the final report
    config = models.JSONField(default=dict, blank=True)  # the search's parameters besides the defaults
    round = models.PositiveSmallIntegerField(default=0)  # the round of chunks being played
    abilities = models.JSONField(default=list, blank=True)
    setup = models.JSONField(default=dict)  # comparison_results.setup_to_dict, as the search started

    class Meta(ChunkedRun.Meta):
        indexes = [models.Index(fields=["requester", "game", "-created_at"], name="simulator_search_recent")]
        verbose_name = _("strategy search")
        verbose_name_plural = _("strategy searches")

    def __str__(self) -> str:
        return f"{self.game_id}: search of {self.islands} × {self.generations} generations ({self.status})"

    @property
    def rounds(self) -> int:
        return -(-self.generations // self.generations_per_chunk)

    @property
    def planned(self) -> int:
        return self.islands * self.generations

    @property
    def percent(self) -> int:
        return min(100, int(100 * self.progress / self.planned)) if self.planned else 0


class StrategySearchChunk(RunChunk):
    """One island's generations of one round; ``state`` is the island's search state after them (and, in the last
    round, its champion's report against the shipped strategies)."""

    run = models.ForeignKey(StrategySearch, on_delete=models.CASCADE, related_name="chunks")
    island = models.PositiveSmallIntegerField()
    round = models.PositiveSmallIntegerField()
    state = models.JSONField(null=True, blank=True)

    class Meta(RunChunk.Meta):
        constraints = [models.UniqueConstraint(fields=["run", "index"], name="one_search_chunk_per_index")]
        indexes = [models.Index(fields=["status", "heartbeat_at"], name="simulator_searchchunk_beat")]

    def __str__(self) -> str:
        return f"search {self.run_id} island {self.island} round {self.round} ({self.status})"


# A user's queued and running work of every kind counts against one quota (MAX_ACTIVE_RUNS_PER_USER):
# starting a Monte Carlo run or a comparison counts both.
RUNS_UNDER_ONE_QUOTA: tuple[type[ChunkedRun], ...] = (SimulationRun, ComparisonRun, StrategySearch)
