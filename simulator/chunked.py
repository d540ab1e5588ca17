"""The life of a run played in chunks by the task workers, written once for every kind of such run.

A kind of run (``ChunkedRuns``: the Monte Carlo runs of ``simulator.services``, the whole games' comparisons of
``simulator.comparisons``) declares its run and chunk models (``models.ChunkedRun``, ``models.RunChunk``), how
to play a chunk, how a chunk's result is kept, and what the chunks' results make of the run (its progress, its
result, and whether it is done once every chunk is); this module does the rest, the same for every kind:

- ``enqueue`` hands a chunk to the task backend (with the chunk's transaction, or after its commit);
- ``execute_chunk`` is a task's body: it claims its queued chunk, plays it and reports through ``beat``
  (a heartbeat, the run's progress, and whether the run was cancelled); ``close_chunk`` keeps what it played
  and merges every kept result into the run (the last chunk to finish concludes the run);
- ``cancel`` stops a run: queued chunks never start, running ones stop at their next report and keep what
  they played, which the result then covers;
- ``fail`` fails a run for a reason of ``simulator.failures``, keeping what was played;
- ``recover_stalled`` plays again the chunks whose worker stopped beating (killed, or its machine lost), or
  fails the run after ``MAX_ATTEMPTS``, keeping the finished chunks' results. Every chunk that starts and every
  look at a run call it, so a vanished worker is noticed within ``stale_after()`` of someone looking.

A user may have at most ``settings.MAX_ACTIVE_RUNS_PER_USER`` runs waiting or running (``hold_quota``).
"""

from __future__ import annotations

import logging
import os
import socket
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Generic, TypeVar

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import F, Sum
from django.db.models.functions import Coalesce
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from cardsite import taskqueue
from cardsite.errors import AppError, QuotaExceeded

from . import failures
from .models import ChunkedRun, RunChunk, RunStatus

logger = logging.getLogger("simulator.runs")

MAX_ATTEMPTS = 3  # a chunk whose worker stopped beating is played at most this many times

Status = RunStatus
ACTIVE = (Status.QUEUED, Status.RUNNING)

# Task backends whose queue is this database, or that run the task at once.
SAME_TRANSACTION_BACKENDS = frozenset(
    {
        "django_tasks_db.DatabaseBackend",
        "django_tasks.backends.immediate.ImmediateBackend",
        "django_tasks.backends.dummy.DummyBackend",
    }
)


def stale_after() -> timedelta:
    """How long a running chunk may go without a heartbeat before it counts as stalled."""
    return timedelta(seconds=settings.SIMULATION_STALE_SECONDS)


def worker_name() -> str:
    """This worker, as a chunk keeps it: the machine and the process."""
    return f"{socket.gethostname()}:{os.getpid()}"[:100]


# When a user's runs fill their allowance, the answer's Retry-After: a run takes seconds to minutes, and
# when one ends cannot be known in advance, so a client is told to look again in a minute.
RUN_QUOTA_RETRY_SECONDS = 60


class RunQuotaExceeded(QuotaExceeded):
    """The user already has as many runs waiting or running as allowed."""

    def __init__(self, limit: int) -> None:
        super().__init__(
            _(
                "You already have %(limit)s runs waiting or running. Wait for one to finish, or cancel one, "
                "before starting another."
            )
            % {"limit": limit},
            retry_after=RUN_QUOTA_RETRY_SECONDS,
        )
        self.limit = limit


def hold_quota(requester: Any, counted: Iterable[type[ChunkedRun]]) -> None:
    """Within the caller's transaction: lock the user's row (one start at a time per user, so that two starts
    at once both count) and refuse with ``RunQuotaExceeded`` if the user's waiting or running runs of the
    ``counted`` models already reach ``settings.MAX_ACTIVE_RUNS_PER_USER``."""
    get_user_model().objects.select_for_update().filter(pk=requester.pk).first()
    limit = settings.MAX_ACTIVE_RUNS_PER_USER
    active = sum(model.objects.filter(requester=requester, status__in=ACTIVE).count() for model in counted)
    if active >= limit:
        raise RunQuotaExceeded(limit)


@dataclass
class Merged:
    """What a kind of run makes of its chunks' results (``ChunkedRuns.merge``)."""

    progress: int  # the run's progress, in the run's unit
    result: dict[str, Any] | None  # the run's result; None: nothing played yet (the stored result is left)
    done: bool = False  # with every chunk done: the run is finished (otherwise ``changes`` and ``then`` go on)
    changes: dict[str, Any] = field(default_factory=dict)  # other fields of the run to store
    then: Callable[[], None] | None = None  # after the run's row is stored (e.g. queue the next chunks)


RunT = TypeVar("RunT", bound=ChunkedRun)
ChunkT = TypeVar("ChunkT", bound=RunChunk)
ResultT = TypeVar("ResultT")


class ChunkedRuns(ABC, Generic[RunT, ChunkT, ResultT]):
    """One kind of run played in chunks: its declaration (the class attributes and abstract methods) and its
    life (the other methods, the same for every kind). ``ResultT``: what playing a chunk gives."""

    run_model: type[RunT]
    chunk_model: type[ChunkT]
    result_field: str  # the chunk's field keeping ``dump(result)``
    unit: str  # what a chunk's ``played`` counts ("games", "blocks"): the key of a task's report
    run_relations: tuple[str, ...] = ()  # fetched with the run when its row is locked
    chunk_relations: tuple[str, ...] = ("run",)  # fetched with the chunk about to be played

    # --- the declaration ------------------------------------------------------------------------------

    @abstractmethod
    def send(self, chunk_id: int) -> Any:
        """Enqueue the kind's task for the chunk; the backend's task result."""

    @abstractmethod
    def play(self, run: RunT, chunk: ChunkT, report: Callable[[int], bool]) -> ResultT:
        """Play the chunk, calling ``report`` with how many units it has played now and then; stop early
        (returning what was played) when ``report`` says False."""

    @abstractmethod
    def empty_result(self, run: RunT) -> ResultT:
        """A result of nothing played."""

    @abstractmethod
    def count(self, result: ResultT) -> int:
        """How many units the result covers (a chunk's ``played``)."""

    @abstractmethod
    def dump(self, result: ResultT) -> dict[str, Any]:
        """The result as kept in the chunk's ``result_field``."""

    @abstractmethod
    def merge(self, run: RunT, chunks: list[ChunkT], *, all_done: bool) -> Merged:
        """What the chunks' kept results make of the run (its row is locked); ``all_done``: the run is active
        and every one of its chunks is done, so ``Merged.done`` says whether it is finished."""

    @abstractmethod
    def progress_per_unit(self, run: RunT) -> int:
        """The run's progress for one unit played (a chunk reports units)."""

    @abstractmethod
    def span(self, run: RunT, chunk: ChunkT) -> tuple[int, int]:
        """The first and last games (from 1) the chunk plays, as a failure names them."""

    # --- queueing -------------------------------------------------------------------------------------

    def enqueue(self, chunk_id: int) -> None:
        """Hand the chunk to the task backend: at once if its queue is this database (the task row commits
        with the chunk), after the commit otherwise (a Redis worker must not look before the chunk exists)."""

        def send() -> None:
            result = self.send(chunk_id)
            self.chunk_model.objects.filter(pk=chunk_id).update(task_id=str(result.id)[:64])

        if settings.TASKS["default"]["BACKEND"] in SAME_TRANSACTION_BACKENDS:
            send()
        else:
            transaction.on_commit(send)

    # --- playing --------------------------------------------------------------------------------------

    def execute_chunk(self, chunk_id: int) -> dict[str, Any] | None:
        """Play one chunk (the task's body), in its run's language. None if it was not queued any more
        (cancelled, or taken)."""
        language = self.run_model.objects.filter(chunks=chunk_id).values_list("language", flat=True).first()
        with translation.override(language or settings.LANGUAGE_CODE):
            return self._execute_chunk(chunk_id)

    def _execute_chunk(self, chunk_id: int) -> dict[str, Any] | None:
        self.recover_stalled()
        now = timezone.now()
        claimed = self.chunk_model.objects.filter(pk=chunk_id, status=Status.QUEUED).update(
            status=Status.RUNNING,
            heartbeat_at=now,
            attempts=F("attempts") + 1,
            played=0,
            worker=worker_name(),
            **{self.result_field: None},
        )
        if not claimed:
            return None
        chunk = self.chunk_model.objects.select_related(*self.chunk_relations).get(pk=chunk_id)
        run: RunT = chunk.run  # the concrete chunk's foreign key
        if run.status not in ACTIVE:
            self.close_chunk(chunk, self.empty_result(run), str(Status.CANCELLED))
            return None
        self.run_model.objects.filter(pk=run.pk, status=Status.QUEUED).update(status=Status.RUNNING, started_at=now)
        stopped = False

        def report(done: int) -> bool:
            nonlocal stopped
            stopped = not self.beat(chunk, done)
            return not stopped

        try:
            result = self.play(run, chunk, report)
        except Exception as error:
            if isinstance(error, AppError) and error.code in failures.MESSAGES:
                self.fail(run.pk, error.code, error.params, chunk=chunk)
            else:
                self.fail(run.pk, failures.UNEXPECTED, detail=str(error) or type(error).__name__, chunk=chunk)
            raise
        except BaseException:
            # The worker is being stopped (a second SIGTERM, Ctrl-C): the chunk goes back to the queue for
            # the next worker, from its start, rather than failing the run.
            self._requeue(chunk)
            raise
        self.close_chunk(chunk, result, str(Status.CANCELLED if stopped else Status.DONE))
        return {"chunk": chunk.index, self.unit: self.count(result)}

    def _mine(self, chunk: ChunkT) -> Any:
        """The chunk, as long as this attempt is still the one playing it."""
        return self.chunk_model.objects.filter(pk=chunk.pk, status=Status.RUNNING, attempts=chunk.attempts)

    def _locked_run(self, run_id: int) -> RunT:
        # Only the run's row is locked (PostgreSQL would lock the related rows read with it too: a game's
        # row, so that every run on one game would wait for the others).
        runs = self.run_model.objects.select_for_update(of=("self",))
        if self.run_relations:
            runs = runs.select_related(*self.run_relations)
        return runs.get(pk=run_id)

    def beat(self, chunk: ChunkT, done: int) -> bool:
        """Report ``done`` units of the chunk: a heartbeat and the run's progress. False: stop playing
        (the run was cancelled or failed, or the chunk was given to another worker)."""
        if not self._mine(chunk).update(played=done, heartbeat_at=timezone.now()):
            return False
        # The run's progress as the sum of its chunks' units, in one statement (never a lost update).
        played = self.chunk_model.objects.filter(run_id=chunk.run_id).values("run_id").annotate(total=Sum("played"))
        per_unit = self.progress_per_unit(chunk.run)
        self.run_model.objects.filter(pk=chunk.run_id).update(
            progress=Coalesce(played.values("total")[:1], 0) * per_unit
        )
        return self.run_model.objects.filter(pk=chunk.run_id, status__in=ACTIVE).exists()

    def close_chunk(self, chunk: ChunkT, result: ResultT, status: str) -> None:
        """Keep the chunk's result and merge every kept result into the run (the last chunk concludes it)."""
        with transaction.atomic():
            run = self._locked_run(chunk.run_id)
            kept = self._mine(chunk).update(
                status=status,
                played=self.count(result),
                heartbeat_at=timezone.now(),
                **{self.result_field: self.dump(result)},
            )
            if kept:
                self._merge(run)

    def _merge(self, run: RunT) -> None:
        """The run's result and progress from its chunks' results (the run's row is locked by the caller)."""
        chunks = list(self.chunk_model.objects.filter(run=run).order_by("index"))
        settled = not any(chunk.status in ACTIVE for chunk in chunks)
        all_done = run.status in ACTIVE and settled and all(chunk.status == Status.DONE for chunk in chunks)
        merged = self.merge(run, chunks, all_done=all_done)
        update: dict[str, Any] = {"progress": merged.progress, **merged.changes}
        if merged.result is not None:
            update["result"] = merged.result
        if all_done and merged.done:
            update.update(status=Status.DONE, finished_at=timezone.now())
        elif run.status not in ACTIVE and settled and run.finished_at is None:
            update["finished_at"] = timezone.now()
        self.run_model.objects.filter(pk=run.pk).update(**update)
        if merged.then is not None:
            merged.then()

    def _requeue(self, chunk: ChunkT) -> None:
        with transaction.atomic():
            run = self._locked_run(chunk.run_id)
            if self._mine(chunk).update(status=Status.QUEUED, played=0, heartbeat_at=None, **{self.result_field: None}):
                self.enqueue(chunk.pk)
                self._merge(run)

    def fail(
        self,
        run_id: int,
        code: str,
        params: dict[str, Any] | None = None,
        *,
        detail: str = "",
        chunk: ChunkT | None = None,
    ) -> None:
        """Fail the run for the reason ``code`` of ``simulator.failures`` (its other chunks stop at their next
        report), keeping what was played; ``chunk``: the one that failed, which keeps nothing."""
        with transaction.atomic():
            run = self._locked_run(run_id)
            if chunk is not None:
                self._mine(chunk).update(status=Status.FAILED, played=0)
            self._stop(run, Status.FAILED, error_code=code, error_params=params or {}, error=detail[:2000])
            self._merge(run)

    def _stop(self, run: RunT, status: Any, **fields: Any) -> None:
        """Cancel the run's queued chunks and, if it is still active, give it ``status`` (its row is locked)."""
        self.chunk_model.objects.filter(run=run, status=Status.QUEUED).update(status=Status.CANCELLED)
        if run.status in ACTIVE:
            self.run_model.objects.filter(pk=run.pk).update(status=status, **fields)
            run.status = status

    # --- cancelling and recovering --------------------------------------------------------------------

    def cancel(self, run: RunT) -> bool:
        """Ask a queued or running run to stop (it keeps what was played); False if it had already finished."""
        with transaction.atomic():
            locked = self._locked_run(run.pk)
            cancelled = locked.status in ACTIVE
            if cancelled:
                self._stop(locked, Status.CANCELLED)
                self._merge(locked)
        run.refresh_from_db()
        return cancelled

    def recover_stalled(self, run: RunT | None = None) -> int:
        """Play again (or, after ``MAX_ATTEMPTS``, fail) chunks whose worker stopped beating; how many. The task
        queue's rows that the same vanished workers left RUNNING are reclaimed on the way."""
        taskqueue.reclaim_now_and_then()
        cutoff = timezone.now() - stale_after()
        stalled = self.chunk_model.objects.filter(status=Status.RUNNING, heartbeat_at__lt=cutoff)
        if run is not None:
            stalled = stalled.filter(run=run)
        recovered = 0
        for chunk in stalled.select_related("run")[:100]:
            recovered += self._recover(chunk, cutoff)
        return recovered

    def _recover(self, chunk: ChunkT, cutoff: datetime) -> int:
        with transaction.atomic():
            run = self._locked_run(chunk.run_id)
            mine = self.chunk_model.objects.filter(pk=chunk.pk, status=Status.RUNNING, heartbeat_at__lt=cutoff)
            if run.status in ACTIVE and chunk.attempts < MAX_ATTEMPTS:
                if not mine.update(status=Status.QUEUED, played=0, heartbeat_at=None, **{self.result_field: None}):
                    return 0
                logger.warning(
                    "chunk of a run stalled; playing it again",
                    extra={"run": run.pk, "chunk": chunk.index, "worker": chunk.worker, "attempts": chunk.attempts},
                )
                self.enqueue(chunk.pk)
                self._merge(run)
                return 1
            if not mine.update(status=Status.FAILED, played=0, **{self.result_field: None}):
                return 0
            logger.error(
                "chunk of a run stalled too often; the run failed", extra={"run": run.pk, "chunk": chunk.index}
            )
            first, last = self.span(run, chunk)
            self._stop(
                run,
                Status.FAILED,
                error_code=failures.WORKERS_STOPPED,
                error_params={"first": first, "last": last, "attempts": chunk.attempts},
            )
            self._merge(run)
            return 1
