"""Writes of the simulator: start, play, cancel and recover Monte Carlo runs (``models.SimulationRun``).

A run's games are split into chunks (``models.SimulationChunk``, ``CHUNK_GAMES`` games each), one
task each (``simulator.tasks.play_chunk``), so that as many workers as there are play a run at once.
Game i of a run is played from seed ``run.seed + i`` whichever worker plays it, and the chunks'
tallies (``montecarlo.Tally``, whole numbers) add up exactly: the same seed gives the same result
however many workers played it, in whatever order.

- ``start_run`` stores a queued run and its chunks and enqueues their tasks; a user may have at most
  ``settings.MAX_ACTIVE_RUNS_PER_USER`` runs waiting or running (``RunQuotaExceeded``).
- ``execute_chunk`` is a task's body: it claims its chunk, plays it and reports every
  ``PROGRESS_EVERY`` games (a heartbeat, the run's progress, and whether the run was cancelled); the
  last chunk to finish merges every chunk's tally into the run's result.
- ``cancel_run`` stops a run: queued chunks never start, running ones stop at their next report and
  keep the games they played, which the result then covers.
- ``recover_stalled`` finds chunks whose worker stopped beating (killed, or its machine lost) and
  plays them again elsewhere, or fails the run after ``MAX_ATTEMPTS``, keeping the finished chunks'
  games. Every chunk that starts, every look at a run and ``/healthz/`` call it, so a vanished
  worker is noticed within ``STALE_AFTER`` of someone looking.
"""

from __future__ import annotations

import logging
import os
import socket
from collections.abc import Mapping
from dataclasses import asdict
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import F, Sum
from django.db.models.functions import Coalesce
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from cardsite.errors import AppError, QuotaExceeded
from decks.models import Deck

from . import adapters, failures
from .core import default_parameters
from .engines import get_engine
from .inputs import new_seed
from .models import SimulationChunk, SimulationRun
from .montecarlo import RunSummary, Tally, play_range, summarize

logger = logging.getLogger("simulator.runs")

PROGRESS_EVERY = 500
MAX_ATTEMPTS = 3

Status = SimulationRun.Status
ChunkStatus = SimulationChunk.Status
ACTIVE = (Status.QUEUED, Status.RUNNING)


def chunk_games() -> int:
    return settings.SIMULATION_CHUNK_GAMES


def stale_after() -> timedelta:
    return timedelta(seconds=settings.SIMULATION_STALE_SECONDS)


class RunError(AppError):
    """The run cannot be played (e.g. the deck lacks the zone its game's goldfish draws from)."""

    code = "run_refused"


class RunQuotaExceeded(QuotaExceeded):
    """The user already has as many runs waiting or running as allowed."""

    def __init__(self, limit: int) -> None:
        super().__init__(
            _(
                "You already have %(limit)s runs waiting or running. Wait for one to finish, or cancel one, "
                "before starting another."
            )
            % {"limit": limit}
        )
        self.limit = limit


def summary_dict(summary: RunSummary, *, turns: int, seed: int) -> dict[str, Any]:
    """A RunSummary as JSON: per-turn means, wins, win-turn statistics and histogram, parameters and policy."""
    return {
        "games": summary.games,
        "turns_asked": turns,
        "seed": seed,
        "won": summary.won,
        "win_rate": summary.won / summary.games if summary.games else 0.0,
        "turns": [asdict(turn) for turn in summary.turns],
        "win_turn_stats": summary.win_turn_stats,
        "win_turn_histogram": [{"turn": turn, "games": count} for turn, count in summary.win_turn_histogram().items()],
        "parameters": dict(summary.parameters),
        "policy": summary.policy,
    }


# --- starting ---------------------------------------------------------------------------------------


def start_run(
    *,
    deck: Deck,
    requester,
    games: int,
    turns: int,
    policy: str,
    params: Mapping[str, int],
    language: str,
    seed: int | None = None,
    share_token: str = "",
) -> SimulationRun:
    """Store a queued run and its chunks and enqueue them; with the immediate backend (tests) it has run on return."""
    with transaction.atomic():
        # One start at a time per user, so that two starts at once both count against the quota.
        get_user_model().objects.select_for_update().filter(pk=requester.pk).first()
        limit = settings.MAX_ACTIVE_RUNS_PER_USER
        if SimulationRun.objects.filter(requester=requester, status__in=ACTIVE).count() >= limit:
            raise RunQuotaExceeded(limit)
        run = SimulationRun.objects.create(
            deck=deck,
            requester=requester,
            games=games,
            turns=turns,
            policy=policy,
            params={**default_parameters(get_engine(deck.game.slug)), **params},
            language=language,
            seed=new_seed() if seed is None else seed,
            share_token=share_token,
        )
        size = chunk_games()
        chunks = SimulationChunk.objects.bulk_create(
            SimulationChunk(run=run, index=index, first_game=first, games=min(size, games - first))
            for index, first in enumerate(range(0, games, size))
        )
        for chunk in chunks:
            _enqueue(chunk.pk)
    run.refresh_from_db()
    return run


def _enqueue(chunk_id: int) -> None:
    """Hand the chunk to the task backend: at once if its queue is this database (the task row commits
    with the chunk), after the commit otherwise (a Redis worker must not look before the chunk exists)."""
    from .tasks import play_chunk

    def send() -> None:
        result = play_chunk.enqueue(chunk_id)
        SimulationChunk.objects.filter(pk=chunk_id).update(task_id=str(result.id)[:64])

    if settings.TASKS["default"]["BACKEND"] in SAME_TRANSACTION_BACKENDS:
        send()
    else:
        transaction.on_commit(send)


# Task backends whose queue is this database, or that run the task at once.
SAME_TRANSACTION_BACKENDS = frozenset(
    {
        "django_tasks_db.DatabaseBackend",
        "django_tasks.backends.immediate.ImmediateBackend",
        "django_tasks.backends.dummy.DummyBackend",
    }
)


# --- playing ----------------------------------------------------------------------------------------


def worker_name() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"[:100]


def execute_chunk(chunk_id: int) -> dict[str, Any] | None:
    """Play one chunk (the task's body). None if it was not queued any more (cancelled, or taken)."""
    language = SimulationRun.objects.filter(chunks=chunk_id).values_list("language", flat=True).first()
    with translation.override(language or settings.LANGUAGE_CODE):
        return _execute_chunk(chunk_id)


def _execute_chunk(chunk_id: int) -> dict[str, Any] | None:
    recover_stalled()
    now = timezone.now()
    claimed = SimulationChunk.objects.filter(pk=chunk_id, status=ChunkStatus.QUEUED).update(
        status=ChunkStatus.RUNNING,
        heartbeat_at=now,
        attempts=F("attempts") + 1,
        played=0,
        tally=None,
        worker=worker_name(),
    )
    if not claimed:
        return None
    chunk = SimulationChunk.objects.select_related("run", "run__deck", "run__deck__game").get(pk=chunk_id)
    run = chunk.run
    if run.status not in ACTIVE:
        _close_chunk(chunk, Tally(run.turns), ChunkStatus.CANCELLED)
        return None
    SimulationRun.objects.filter(pk=run.pk, status=Status.QUEUED).update(status=Status.RUNNING, started_at=now)
    stopped = False

    def report(done: int) -> bool:
        nonlocal stopped
        stopped = not _beat(chunk, done)
        return not stopped

    try:
        engine = get_engine(run.deck.game.slug)
        deck = adapters.sim_deck(run.deck, run.language)
        readiness = adapters.readiness(deck, run.language)
        if not readiness.ready:
            zones = [adapters.zone_labels(deck.game, zone) for zone in readiness.missing_zones]
            reason = failures.DECK_NOT_READY
            raise RunError(failures.MESSAGES[reason], code=reason, params={"zones": zones})
        tally = play_range(
            engine,
            deck,
            chunk.first_game,
            chunk.games,
            run.turns,
            run.seed,
            run.params,
            run.policy,
            progress=report,
            progress_every=PROGRESS_EVERY,
        )
    except Exception as error:
        if isinstance(error, AppError) and error.code in failures.MESSAGES:
            _fail(run.pk, error.code, error.params, chunk=chunk)
        else:
            _fail(run.pk, failures.UNEXPECTED, detail=str(error) or type(error).__name__, chunk=chunk)
        raise
    except BaseException:
        # The worker is being stopped (a second SIGTERM, Ctrl-C): the chunk goes back to the queue for
        # the next worker, from its first game, rather than failing the run.
        _requeue(chunk)
        raise
    _close_chunk(chunk, tally, ChunkStatus.CANCELLED if stopped else ChunkStatus.DONE)
    return {"chunk": chunk.index, "games": tally.games}


def _beat(chunk: SimulationChunk, done: int) -> bool:
    """Report ``done`` games of the chunk: a heartbeat and the run's progress. False: stop playing
    (the run was cancelled or failed, or the chunk was given to another worker)."""
    mine = SimulationChunk.objects.filter(pk=chunk.pk, status=ChunkStatus.RUNNING, attempts=chunk.attempts)
    if not mine.update(played=done, heartbeat_at=timezone.now()):
        return False
    _refresh_progress(chunk.run_id)
    return SimulationRun.objects.filter(pk=chunk.run_id, status__in=ACTIVE).exists()


def _refresh_progress(run_id: int) -> None:
    """The run's progress as the sum of its chunks' games, in one statement (never a lost update)."""
    played = SimulationChunk.objects.filter(run_id=run_id).values("run_id").annotate(total=Sum("played"))
    SimulationRun.objects.filter(pk=run_id).update(progress=Coalesce(played.values("total")[:1], 0))


def _close_chunk(chunk: SimulationChunk, tally: Tally, status: str) -> None:
    """Keep the chunk's tally and merge every kept tally into the run (the last chunk finishes the run)."""
    with transaction.atomic():
        run = SimulationRun.objects.select_for_update().get(pk=chunk.run_id)
        kept = SimulationChunk.objects.filter(pk=chunk.pk, status=ChunkStatus.RUNNING, attempts=chunk.attempts).update(
            status=status, played=tally.games, tally=tally.as_dict(), heartbeat_at=timezone.now()
        )
        if kept:
            _merge(run)


def _merge(run: SimulationRun) -> None:
    """The run's result and progress from its chunks' tallies (the run's row is locked by the caller)."""
    chunks = list(SimulationChunk.objects.filter(run=run).order_by("index"))
    total = Tally(run.turns)
    for chunk in chunks:
        if chunk.tally is not None:
            total.add(Tally.from_dict(chunk.tally))
    update: dict[str, Any] = {"progress": sum(chunk.played for chunk in chunks)}
    settled = not any(chunk.status in (ChunkStatus.QUEUED, ChunkStatus.RUNNING) for chunk in chunks)
    if total.games:
        update["result"] = summary_dict(summarize(total, run.params, run.policy), turns=run.turns, seed=run.seed)
    if run.status in ACTIVE and settled and all(chunk.status == ChunkStatus.DONE for chunk in chunks):
        update.update(status=Status.DONE, finished_at=timezone.now(), progress=total.games)
    elif run.status not in ACTIVE and settled and run.finished_at is None:
        update["finished_at"] = timezone.now()
    SimulationRun.objects.filter(pk=run.pk).update(**update)


def _requeue(chunk: SimulationChunk) -> None:
    with transaction.atomic():
        run = SimulationRun.objects.select_for_update().get(pk=chunk.run_id)
        mine = SimulationChunk.objects.filter(pk=chunk.pk, status=ChunkStatus.RUNNING, attempts=chunk.attempts)
        if mine.update(status=ChunkStatus.QUEUED, played=0, tally=None, heartbeat_at=None):
            _enqueue(chunk.pk)
            _merge(run)


def _fail(
    run_id: int,
    code: str,
    params: dict[str, Any] | None = None,
    *,
    detail: str = "",
    chunk: SimulationChunk | None = None,
) -> None:
    """Fail the run for the reason ``code`` of ``simulator.failures`` (its other chunks stop at their next
    report), keeping the games played."""
    with transaction.atomic():
        run = SimulationRun.objects.select_for_update().get(pk=run_id)
        if chunk is not None:
            SimulationChunk.objects.filter(pk=chunk.pk, status=ChunkStatus.RUNNING, attempts=chunk.attempts).update(
                status=ChunkStatus.FAILED, played=0
            )
        SimulationChunk.objects.filter(run=run, status=ChunkStatus.QUEUED).update(status=ChunkStatus.CANCELLED)
        if run.status in ACTIVE:
            SimulationRun.objects.filter(pk=run.pk).update(
                status=Status.FAILED, error_code=code, error_params=params or {}, error=detail[:2000]
            )
            run.status = Status.FAILED
        _merge(run)


# --- cancelling and recovering ----------------------------------------------------------------------


def cancel_run(run: SimulationRun) -> bool:
    """Ask a queued or running run to stop; False if it had already finished."""
    with transaction.atomic():
        locked = SimulationRun.objects.select_for_update().get(pk=run.pk)
        cancelled = locked.status in ACTIVE
        if cancelled:
            SimulationRun.objects.filter(pk=run.pk).update(status=Status.CANCELLED)
            SimulationChunk.objects.filter(run=run, status=ChunkStatus.QUEUED).update(status=ChunkStatus.CANCELLED)
            locked.status = Status.CANCELLED
            _merge(locked)
    run.refresh_from_db()
    return cancelled


def recover_stalled(run: SimulationRun | None = None) -> int:
    """Play again (or, after ``MAX_ATTEMPTS``, fail) chunks whose worker stopped beating; how many."""
    cutoff = timezone.now() - stale_after()
    stalled = SimulationChunk.objects.filter(status=ChunkStatus.RUNNING, heartbeat_at__lt=cutoff)
    if run is not None:
        stalled = stalled.filter(run=run)
    recovered = 0
    for chunk in stalled.select_related("run")[:100]:
        recovered += _recover(chunk, cutoff)
    return recovered


def _recover(chunk: SimulationChunk, cutoff: Any) -> int:
    with transaction.atomic():
        run = SimulationRun.objects.select_for_update().get(pk=chunk.run_id)
        mine = SimulationChunk.objects.filter(pk=chunk.pk, status=ChunkStatus.RUNNING, heartbeat_at__lt=cutoff)
        first, last = chunk.first_game + 1, chunk.first_game + chunk.games
        if run.status in ACTIVE and chunk.attempts < MAX_ATTEMPTS:
            if not mine.update(status=ChunkStatus.QUEUED, played=0, tally=None, heartbeat_at=None):
                return 0
            logger.warning(
                "chunk of a run stalled; playing it again",
                extra={"run": run.pk, "chunk": chunk.index, "worker": chunk.worker, "attempts": chunk.attempts},
            )
            _enqueue(chunk.pk)
            _merge(run)
            return 1
        if not mine.update(status=ChunkStatus.FAILED, played=0, tally=None):
            return 0
        logger.error("chunk of a run stalled too often; the run failed", extra={"run": run.pk, "chunk": chunk.index})
        if run.status in ACTIVE:
            SimulationRun.objects.filter(pk=run.pk).update(
                status=Status.FAILED,
                error_code=failures.WORKERS_STOPPED,
                error_params={"first": first, "last": last, "attempts": chunk.attempts},
            )
            SimulationChunk.objects.filter(run=run, status=ChunkStatus.QUEUED).update(status=ChunkStatus.CANCELLED)
            run.status = Status.FAILED
        _merge(run)
        return 1


def ensure_chunks(run_id: int) -> None:
    """A run stored before runs had chunks (its task queued by an earlier version): split and enqueue it."""
    with transaction.atomic():
        run = SimulationRun.objects.select_for_update().get(pk=run_id)
        if run.status not in ACTIVE or run.chunks.exists():
            return
        size = chunk_games()
        for index, first in enumerate(range(0, run.games, size)):
            chunk = SimulationChunk.objects.create(
                run=run, index=index, first_game=first, games=min(size, run.games - first)
            )
            _enqueue(chunk.pk)
