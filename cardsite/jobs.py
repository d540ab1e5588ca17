"""The life of every background job, written once: a job (a Monte Carlo run, a comparison, a strategy search, a
batch of photos to read) is split into items (chunks, photos), each played by one task on one worker.

A kind of job (``JobKind``) says what one item does (``play``), how an item's result is kept and what the items'
results make of the job (``merge``), and which models hold them; this module does the rest, the same for every
kind, and no kind repeats it:

- ``enqueue`` hands an item to the task backend (with the item's transaction, or after its commit);
- ``execute_chunk`` is a task's body: it claims its queued item, plays it and reports through ``beat``
  (a heartbeat, the job's progress, and whether the job was cancelled); ``close_chunk`` keeps what it played
  and merges every kept result into the job (the last item to finish concludes the job);
- ``cancel`` stops a job: queued items never start, running ones stop at their next report and keep what
  they played, which the result then covers (partial results);
- ``fail`` fails a job for a reason code, keeping what was played (a kind may instead fail only the item);
- ``recover_stalled`` plays again the items whose worker stopped beating (killed, or its machine lost), or
  fails them after ``MAX_ATTEMPTS``. Recovery is the workers' work: every task that starts recovers every
  registered kind (``recover_all``), so does each worker's heartbeat thread now and then, and the command
  ``manage.py recover_jobs`` (for a timer). Looking at a job never writes: ``JobKind.own`` only reads.

The states (``State``): queued → running → done, or cancelled, or failed; the same five for every kind, for a
job and for each of its items. A user may have at most ``settings.MAX_ACTIVE_RUNS_PER_USER`` jobs of the kinds
that count waiting or running (``hold_quota``).

A kind registers itself from its app's ``AppConfig.ready()`` (``register``): this module imports no app.
"""

from __future__ import annotations

import logging
import os
import socket
from abc import ABC, abstractmethod
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Generic, TypeVar

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import models, transaction
from django.db.models import F, Sum
from django.db.models.functions import Coalesce
from django.http import Http404
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from cardsite import taskqueue
from cardsite.errors import AppError, QuotaExceeded

from .types import SiteUser

logger = logging.getLogger("cardsite.jobs")

MAX_ATTEMPTS = 3  # an item whose worker stopped beating is played at most this many times


class State:
    """Where a job, or one of its items, is in its life: the stored values, the same for every kind (each
    kind's model gives them its own labels)."""

    QUEUED = "queued"
    RUNNING = "running"
    DONE = "done"
    CANCELLED = "cancelled"
    FAILED = "failed"


Status = State
ACTIVE = (State.QUEUED, State.RUNNING)

# Reasons every kind may fail for (a kind adds its own, ``JobKind.failure_codes``).
WORKERS_STOPPED = "workers_stopped"
UNEXPECTED = "unexpected"

# Task backends whose queue is this database, or that run the task at once.
SAME_TRANSACTION_BACKENDS = frozenset(
    {
        "django_tasks_db.DatabaseBackend",
        "django_tasks.backends.immediate.ImmediateBackend",
        "django_tasks.backends.dummy.DummyBackend",
    }
)


def worker_name() -> str:
    """This worker, as an item keeps it: the machine and the process."""
    return f"{socket.gethostname()}:{os.getpid()}"[:100]


# When a user's jobs fill their allowance, the answer's Retry-After: a run takes seconds to minutes, and
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


def hold_quota(requester: Any, counted: Iterable[type[models.Model]], owner_field: str = "requester") -> None:
    """Within the caller's transaction: lock the user's row (one start at a time per user, so that two starts
    at once both count) and refuse with ``RunQuotaExceeded`` if the user's waiting or running jobs of the
    ``counted`` models already reach ``settings.MAX_ACTIVE_RUNS_PER_USER``."""
    get_user_model().objects.select_for_update().filter(pk=requester.pk).first()
    limit = settings.MAX_ACTIVE_RUNS_PER_USER
    active = sum(
        model._default_manager.filter(**{owner_field: requester}, status__in=ACTIVE).count() for model in counted
    )
    if active >= limit:
        raise RunQuotaExceeded(limit)


class ItemFailed(Exception):
    """Raised by ``JobKind.play``: the item cannot be played, for a reason the kind declares (``code``); the
    item fails (and the job with it, unless the kind says otherwise), and the task itself ends normally."""

    def __init__(self, code: str, params: dict[str, Any] | None = None, detail: str = "") -> None:
        super().__init__(detail or code)
        self.code = code
        self.params = params or {}
        self.detail = detail


@dataclass
class Merged:
    """What a kind of job makes of its items' results (``JobKind.merge``)."""

    progress: int  # the job's progress, in the job's unit
    result: dict[str, Any] | None  # the job's result; None: nothing played yet (the stored result is left)
    done: bool = False  # with every item done: the job is finished (otherwise ``changes`` and ``then`` go on)
    changes: dict[str, Any] = field(default_factory=dict)  # other fields of the job to store
    then: Callable[[], None] | None = None  # after the job's row is stored (e.g. queue the next items)


RunT = TypeVar("RunT", bound=Any)  # a job model (with stubs or without, its fields are read by name)
ChunkT = TypeVar("ChunkT", bound=Any)  # an item model
ResultT = TypeVar("ResultT")

_kinds: list[JobKind[Any, Any, Any]] = []


def register(kind: JobKind[Any, Any, Any]) -> None:
    """Make ``kind`` known to the workers' recovery passes (called from the kind's ``AppConfig.ready()``)."""
    if all(known is not kind for known in _kinds):
        _kinds.append(kind)


def kinds() -> list[JobKind[Any, Any, Any]]:
    return list(_kinds)


def kind_for(item_label: str) -> JobKind[Any, Any, Any]:
    """The registered kind whose items are the model ``item_label`` ("app_label.modelname"): how a task module
    reaches its kind without importing the services that enqueue its tasks."""
    for kind in _kinds:
        if kind.chunk_model._meta.label_lower == item_label:
            return kind
    raise LookupError(f"no job kind plays {item_label}")


def execute_item(item_label: str, item_id: int) -> dict[str, Any] | None:
    """A task's body: play the item ``item_id`` of the kind whose items are ``item_label``."""
    return kind_for(item_label).execute_chunk(item_id)


def recover_all() -> int:
    """Every registered kind's ``recover_stalled``: what a worker runs as it starts a task and now and then."""
    return sum(kind.recover_stalled() for kind in _kinds)


taskqueue.run_periodically(recover_all)  # and every worker's heartbeat, even idle


def own(
    model: type[RunT],
    user: SiteUser,
    job_id: int,
    *,
    owner_field: str = "requester",
    related: Iterable[str] = (),
    prefetch: Iterable[str] = (),
    **filters: Any,
) -> RunT:
    """The job ``job_id`` of ``model`` as it is now, if ``user`` owns it (and it matches ``filters``); Http404
    otherwise (anyone else, and the anonymous). Every page and API view that reads a job reads it here, once per
    request, so a poll always sees the latest state. It only reads: recovering stalled work is the workers'."""
    if not getattr(user, "is_authenticated", False):
        raise Http404
    jobs = model._default_manager.select_related(*related).prefetch_related(*prefetch)
    job = jobs.filter(pk=job_id, **{owner_field: user}, **filters).first()
    if job is None:
        raise Http404
    return job


class JobKind(ABC, Generic[RunT, ChunkT, ResultT]):
    """One kind of job played in items: its declaration (the class attributes and abstract methods) and its
    life (the other methods, the same for every kind). ``ResultT``: what playing an item gives."""

    run_model: type[RunT]
    chunk_model: type[ChunkT]
    result_field: str = ""  # the item's field keeping ``dump(result)`` ("": ``item_fields`` says)
    unit: str  # what an item's ``played`` counts ("games", "blocks"): the key of a task's report
    run_relations: tuple[str, ...] = ()  # fetched with the job when its row is locked
    chunk_relations: tuple[str, ...] = ("run",)  # fetched with the item about to be played
    run_fk = "run"  # the item's foreign key to its job
    chunks_related = "chunks"  # the job's related name for its items
    owner_field = "requester"  # the job's foreign key to the user it belongs to
    played_field = "played"  # the item's field counting what it played (``beat``)
    stale_setting = "SIMULATION_STALE_SECONDS"  # the setting: seconds without a heartbeat before an item stalls
    failure_codes: Collection[str] = (WORKERS_STOPPED, UNEXPECTED)  # the reasons ``AppError.code`` may give
    fails_job_with_item = True  # False: a failed item fails alone and the job goes on with the others
    done_when_settled = False  # True: the job is done once no item waits or runs, even if some failed
    tracks_progress = True  # the job keeps its progress (``Merged.progress``)
    stops_mid_item = True  # False: an item being played when its job is cancelled is finished (and kept done)

    # --- the declaration ------------------------------------------------------------------------------

    @abstractmethod
    def send(self, chunk_id: int) -> Any:
        """Enqueue the kind's task for the item; the backend's task result."""

    def prepare(self, job_id: int) -> None:
        """Make the items of a job stored without any (queued by an earlier version of the site); most kinds
        always store their items with the job, and have nothing to do."""

    @abstractmethod
    def play(self, run: RunT, chunk: ChunkT, report: Callable[[int], bool]) -> ResultT:
        """Play the item, calling ``report`` with how many units it has played now and then; stop early
        (returning what was played) when ``report`` says False. ``ItemFailed``: the item cannot be played."""

    @abstractmethod
    def empty_result(self, run: RunT) -> ResultT:
        """A result of nothing played."""

    @abstractmethod
    def count(self, result: ResultT) -> int:
        """How many units the result covers (an item's ``played``)."""

    def dump(self, result: ResultT) -> dict[str, Any]:
        """The result as kept in the item's ``result_field``."""
        raise NotImplementedError

    @abstractmethod
    def merge(self, run: RunT, chunks: list[ChunkT], *, all_done: bool) -> Merged:
        """What the items' kept results make of the job (its row is locked); ``all_done``: the job is active
        and every one of its items is done, so ``Merged.done`` says whether it is finished."""

    def progress_per_unit(self, run: RunT) -> int:
        """The job's progress for one unit played (an item reports units)."""
        return 1

    def span(self, run: RunT, chunk: ChunkT) -> tuple[int, int]:
        """The first and last games (from 1) the item plays, as a failure names them."""
        return 0, 0

    # --- what a kind may say of its items' fields (the defaults: a chunk of a run) ----------------------

    def stale_after(self) -> timedelta:
        """How long a running item may go without a heartbeat before it counts as stalled."""
        return timedelta(seconds=getattr(settings, self.stale_setting))

    def item_fields(self, result: ResultT, status: str) -> dict[str, Any]:
        """The item's fields to store as it closes with ``result``."""
        return {self.result_field: self.dump(result)}

    def reset_fields(self) -> dict[str, Any]:
        """The item's fields cleared as it is claimed or played again."""
        return {self.result_field: None} if self.result_field else {}

    def claim_fields(self) -> dict[str, Any]:
        """The item's other fields to store as a worker claims it."""
        return {}

    def failed_item_fields(self, code: str, detail: str) -> dict[str, Any]:
        """The item's fields to store as it fails (with ``code``)."""
        return {self.played_field: 0, **self.reset_fields()}

    # --- reading ------------------------------------------------------------------------------------

    def own(self, user: SiteUser, job_id: int, *, related: Iterable[str] = (), **filters: Any) -> RunT:
        """``own`` for this kind's jobs."""
        return own(self.run_model, user, job_id, owner_field=self.owner_field, related=related, **filters)

    # --- queueing -------------------------------------------------------------------------------------

    def enqueue(self, chunk_id: int) -> None:
        """Hand the item to the task backend: at once if its queue is this database (the task row commits
        with the item), after the commit otherwise (a Redis worker must not look before the item exists)."""

        def send() -> None:
            result = self.send(chunk_id)
            self.chunk_model._default_manager.filter(pk=chunk_id).update(task_id=str(result.id)[:64])

        if settings.TASKS["default"]["BACKEND"] in SAME_TRANSACTION_BACKENDS:
            send()
        else:
            transaction.on_commit(send)

    # --- playing --------------------------------------------------------------------------------------

    def _run_id(self, chunk: ChunkT) -> int:
        return getattr(chunk, f"{self.run_fk}_id")

    def _items_of(self, run: Any) -> Any:
        return self.chunk_model._default_manager.filter(**{self.run_fk: run})

    def execute_chunk(self, chunk_id: int) -> dict[str, Any] | None:
        """Play one item (the task's body), in its job's language. None if it was not queued any more
        (cancelled, or taken), or if it failed for a reason the kind declares (``ItemFailed``)."""
        jobs = self.run_model._default_manager.filter(**{self.chunks_related: chunk_id})
        language = jobs.values_list("language", flat=True).first()
        with translation.override(language or settings.LANGUAGE_CODE):
            return self._execute_chunk(chunk_id)

    def _execute_chunk(self, chunk_id: int) -> dict[str, Any] | None:
        recover_all()  # a worker starting a task is the moment to notice the work of workers that vanished
        now = timezone.now()
        claimed = self.chunk_model._default_manager.filter(pk=chunk_id, status=State.QUEUED).update(
            status=State.RUNNING,
            heartbeat_at=now,
            attempts=F("attempts") + 1,
            worker=worker_name(),
            **{self.played_field: 0, **self.reset_fields(), **self.claim_fields()},
        )
        if not claimed:
            return None
        chunk = self.chunk_model._default_manager.select_related(*self.chunk_relations).get(pk=chunk_id)
        run: RunT = getattr(chunk, self.run_fk)
        if run.status not in ACTIVE:
            self.close_chunk(chunk, self.empty_result(run), State.CANCELLED)
            return None
        self.run_model._default_manager.filter(pk=run.pk, status=State.QUEUED).update(
            status=State.RUNNING, started_at=now
        )
        stopped = False

        def report(done: int) -> bool:
            nonlocal stopped
            stopped = not self.beat(chunk, done)
            return not stopped

        try:
            result = self.play(run, chunk, report)
        except ItemFailed as failure:
            self._fail_item(run.pk, chunk, failure.code, failure.params, failure.detail)
            return None
        except Exception as error:
            if isinstance(error, AppError) and error.code in self.failure_codes:
                self._fail_item(run.pk, chunk, error.code, error.params, "")
            else:
                self._fail_item(run.pk, chunk, UNEXPECTED, {}, str(error) or type(error).__name__)
            raise
        except BaseException:
            # The worker is being stopped (a second SIGTERM, Ctrl-C): the item goes back to the queue for
            # the next worker, from its start, rather than failing the job.
            self._requeue(chunk)
            raise
        self.close_chunk(chunk, result, State.CANCELLED if stopped and self.stops_mid_item else State.DONE)
        return self.task_report(chunk, result)

    def task_report(self, chunk: ChunkT, result: ResultT) -> dict[str, Any]:
        """What the task returns for the item it played (kept by the task backend)."""
        return {"chunk": chunk.index, self.unit: self.count(result)}

    def _mine(self, chunk: ChunkT) -> Any:
        """The item, as long as this attempt is still the one playing it."""
        return self.chunk_model._default_manager.filter(
            pk=chunk.pk,
            status=State.RUNNING,
            attempts=chunk.attempts,
        )

    def _locked_run(self, run_id: int) -> Any:
        # Only the job's row is locked (PostgreSQL would lock the related rows read with it too: a game's
        # row, so that every run on one game would wait for the others).
        runs = self.run_model._default_manager.select_for_update(of=("self",))
        if self.run_relations:
            runs = runs.select_related(*self.run_relations)
        return runs.get(pk=run_id)

    def beat(self, chunk: ChunkT, done: int) -> bool:
        """Report ``done`` units of the item: a heartbeat and the job's progress. False: stop playing
        (the job was cancelled or failed, or the item was given to another worker)."""
        if not self._mine(chunk).update(**{self.played_field: done}, heartbeat_at=timezone.now()):
            return False
        run_id = self._run_id(chunk)
        if self.tracks_progress:
            # The job's progress as the sum of its items' units, in one statement (never a lost update).
            played = (
                self.chunk_model._default_manager.filter(**{f"{self.run_fk}_id": run_id})
                .values(f"{self.run_fk}_id")
                .annotate(total=Sum(self.played_field))
            )
            per_unit = self.progress_per_unit(getattr(chunk, self.run_fk))
            with transaction.atomic():
                # A heartbeat never waits for the job's row: while another worker merges its item (or is
                # paused in the middle of it), the progress is left to that merge, which recounts it.
                free = self.run_model._default_manager.select_for_update(skip_locked=True, of=("self",))
                if free.filter(pk=run_id).values_list("pk", flat=True).first() is not None:
                    self.run_model._default_manager.filter(pk=run_id).update(
                        progress=Coalesce(played.values("total")[:1], 0) * per_unit
                    )
        return self.run_model._default_manager.filter(pk=run_id, status__in=ACTIVE).exists()

    def close_chunk(self, chunk: ChunkT, result: ResultT, status: str) -> None:
        """Keep the item's result and merge every kept result into the job (the last item concludes it)."""
        with transaction.atomic():
            run = self._locked_run(self._run_id(chunk))
            kept = self._mine(chunk).update(
                status=status,
                heartbeat_at=timezone.now(),
                **{self.played_field: self.count(result), **self.item_fields(result, status)},
            )
            if kept:
                self._merge(run)

    def _merge(self, run: Any) -> None:
        """The job's result and progress from its items' results (the job's row is locked by the caller)."""
        chunks = list(self._items_of(run).order_by("index"))
        settled = not any(chunk.status in ACTIVE for chunk in chunks)
        all_done = (
            run.status in ACTIVE
            and settled
            and (self.done_when_settled or all(chunk.status == State.DONE for chunk in chunks))
        )
        merged = self.merge(run, chunks, all_done=all_done)
        update: dict[str, Any] = dict(merged.changes)
        if self.tracks_progress:
            update["progress"] = merged.progress
        if merged.result is not None:
            update["result"] = merged.result
        if all_done and merged.done:
            update.update(status=State.DONE, finished_at=timezone.now())
        elif run.status not in ACTIVE and settled and run.finished_at is None:
            update["finished_at"] = timezone.now()
        if update:
            self.run_model._default_manager.filter(pk=run.pk).update(**update)
        if merged.then is not None:
            merged.then()

    def _requeue(self, chunk: ChunkT) -> None:
        with transaction.atomic():
            run = self._locked_run(self._run_id(chunk))
            again = {self.played_field: 0, **self.reset_fields()}
            if self._mine(chunk).update(status=State.QUEUED, heartbeat_at=None, **again):
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
        """Fail the job for the reason ``code`` (its other items stop at their next report), keeping what was
        played; ``chunk``: the one that failed, which keeps nothing."""
        with transaction.atomic():
            run = self._locked_run(run_id)
            if chunk is not None:
                self._mine(chunk).update(status=State.FAILED, **self.failed_item_fields(code, detail))
            self._stop(run, State.FAILED, error_code=code, error_params=params or {}, error=detail[:2000])
            self._merge(run)

    def _fail_item(self, run_id: int, chunk: ChunkT, code: str, params: dict[str, Any], detail: str) -> None:
        """The item failed: the job with it (``fail``), or the item alone (``fails_job_with_item`` False)."""
        if self.fails_job_with_item:
            self.fail(run_id, code, params, detail=detail, chunk=chunk)
            return
        with transaction.atomic():
            run = self._locked_run(run_id)
            if self._mine(chunk).update(status=State.FAILED, **self.failed_item_fields(code, detail)):
                self._merge(run)

    def _stop(self, run: Any, status: Any, **fields: Any) -> None:
        """Cancel the job's queued items and, if it is still active, give it ``status`` (its row is locked)."""
        self._items_of(run).filter(status=State.QUEUED).update(status=State.CANCELLED, **self.cancelled_item_fields())
        if run.status in ACTIVE:
            self.run_model._default_manager.filter(pk=run.pk).update(status=status, **fields)
            run.status = status

    def cancelled_item_fields(self) -> dict[str, Any]:
        """The item's other fields to store as it is cancelled before it started."""
        return {}

    # --- cancelling and recovering --------------------------------------------------------------------

    def cancel(self, run: RunT) -> bool:
        """Ask a queued or running job to stop (it keeps what was played); False if it had already finished."""
        with transaction.atomic():
            locked = self._locked_run(run.pk)
            cancelled = locked.status in ACTIVE
            if cancelled:
                self._stop(locked, State.CANCELLED)
                self._merge(locked)
        run.refresh_from_db()
        return cancelled

    def recover_stalled(self, run: RunT | None = None) -> int:
        """Play again (or, after ``MAX_ATTEMPTS``, fail) items whose worker stopped beating; how many. The task
        queue's rows that the same vanished workers left RUNNING are reclaimed on the way."""
        taskqueue.reclaim_now_and_then()
        cutoff = timezone.now() - self.stale_after()
        stalled = self.chunk_model._default_manager.filter(status=State.RUNNING, heartbeat_at__lt=cutoff)
        if run is not None:
            stalled = stalled.filter(**{self.run_fk: run})
        recovered = 0
        for chunk in stalled.select_related(self.run_fk)[:100]:
            recovered += self._recover(chunk, cutoff)
        return recovered

    def _recover(self, chunk: ChunkT, cutoff: datetime) -> int:
        with transaction.atomic():
            run = self._locked_run(self._run_id(chunk))
            mine = self.chunk_model._default_manager.filter(pk=chunk.pk, status=State.RUNNING, heartbeat_at__lt=cutoff)
            attempts = chunk.attempts
            index = chunk.index
            if run.status in ACTIVE and attempts < MAX_ATTEMPTS:
                if not mine.update(
                    status=State.QUEUED, heartbeat_at=None, **{self.played_field: 0}, **self.reset_fields()
                ):
                    return 0
                logger.warning(
                    "an item of a job stalled; playing it again",
                    extra={"job": run.pk, "chunk": index, "worker": getattr(chunk, "worker", ""), "attempts": attempts},
                )
                self.enqueue(chunk.pk)
                self._merge(run)
                return 1
            if not mine.update(status=State.FAILED, **self.failed_item_fields(WORKERS_STOPPED, "")):
                return 0
            logger.error("an item of a job stalled too often; it failed", extra={"job": run.pk, "chunk": index})
            if self.fails_job_with_item:
                first, last = self.span(run, chunk)
                self._stop(
                    run,
                    State.FAILED,
                    error_code=WORKERS_STOPPED,
                    error_params={"first": first, "last": last, "attempts": attempts},
                )
            self._merge(run)
            return 1
