"""The database task queue's rows that no worker holds any more: told apart, reclaimed, and reported.

``django_tasks_db``'s worker marks a row RUNNING when it claims it and records the end when the task returns or
raises; a worker killed in between (SIGKILL, the machine lost) leaves the row RUNNING for ever, and the queue has no
heartbeat of its own. So every worker process keeps a lease (``models.TaskLease``) for each task it runs, renewed
every ``TASK_STALE_SECONDS / 4`` by a thread of its own, and removed when the task ends.

A RUNNING row that started more than ``TASK_STALE_SECONDS`` ago and has no lease renewed within that time is
abandoned. ``reclaim_abandoned`` marks such rows FAILED (``WorkerLost``) rather than queuing them again: the work
they stood for is recovered by its own life cycle (a run's chunk or a photo's reading is played again as a new task
by ``cardsite.jobs``), and running an arbitrary task twice is not safe. Every worker reclaims when it starts a task,
and so do the jobs' recovery passes (``reclaim_now_and_then``), which the heartbeat thread of a worker also runs
every ``TASK_STALE_SECONDS / 4``; ``/healthz/`` counts what is still unreclaimed.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import DatabaseError, connections
from django.utils import timezone

logger = logging.getLogger("cardsite.tasks")

_running: set[str] = set()
_lock = threading.Lock()
_beating: threading.Thread | None = None
_periodic: list[Callable[[], Any]] = []


def run_periodically(work: Callable[[], Any]) -> None:
    """Have every worker's heartbeat thread run ``work`` at each beat, even while the worker is idle (the jobs'
    recovery pass registers itself here, so that this queue needs to know nothing of the jobs)."""
    if work not in _periodic:
        _periodic.append(work)


_last_pass: float | None = None


class WorkerLost(Exception):
    """What a reclaimed row records as its failure (its ``exception_class_path``)."""


def stale_after() -> timedelta:
    return timedelta(seconds=settings.TASK_STALE_SECONDS)


def _worker_name() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"[:100]


def _is_database_queue(task_result: Any) -> bool:
    backend = settings.TASKS.get(getattr(task_result, "backend", ""), {}).get("BACKEND", "")
    return str(backend).startswith("django_tasks_db")


# --- in the worker process (django_tasks' signals, connected in cardsite.apps) --------------------------------


def on_task_started(sender: Any, task_result: Any, **kwargs: Any) -> None:
    if not _is_database_queue(task_result):
        return
    from .models import TaskLease

    try:
        TaskLease.objects.update_or_create(
            task_id=task_result.id, defaults={"worker": _worker_name(), "beat_at": timezone.now()}
        )
        reclaim_now_and_then()
    except DatabaseError:  # the task runs all the same; without a lease it may be reclaimed, as a killed one is
        logger.exception("could not take the lease of a task", extra={"task": task_result.id})
    with _lock:
        _running.add(str(task_result.id))
    _ensure_heartbeat()


def on_task_finished(sender: Any, task_result: Any, **kwargs: Any) -> None:
    if not _is_database_queue(task_result):
        return
    from .models import TaskLease

    with _lock:
        _running.discard(str(task_result.id))
    try:
        TaskLease.objects.filter(task_id=task_result.id).delete()
    except DatabaseError:  # the lease ages out and is removed by the next reclaim
        logger.exception("could not remove the lease of a task", extra={"task": task_result.id})


def beat() -> int:
    """Renew the leases of the tasks this process is running; how many."""
    from .models import TaskLease

    with _lock:
        ids = list(_running)
    if not ids:
        return 0
    return TaskLease.objects.filter(task_id__in=ids).update(beat_at=timezone.now())


def _heartbeat() -> None:
    interval = max(0.5, settings.TASK_STALE_SECONDS / 4)
    stopped = threading.Event()
    while not stopped.wait(interval):
        try:
            beat()
        except Exception:  # the next beat tries again; a lease that ages out meanwhile only ends the task's row
            logger.exception("could not renew the leases of this worker's tasks")
        try:
            for work in list(_periodic):
                try:
                    # E.g. the jobs' recovery pass: a worker, even idle, notices the items whose worker vanished.
                    work()
                except Exception:  # the next beat tries again
                    logger.exception("periodic work of the task workers failed", extra={"work": repr(work)})
        finally:
            connections.close_all()  # this thread's own connections


def _ensure_heartbeat() -> None:
    global _beating
    with _lock:
        if _beating is not None and _beating.is_alive():
            return
        _beating = threading.Thread(target=_heartbeat, name="task-lease-heartbeat", daemon=True)
        _beating.start()


# --- anywhere -------------------------------------------------------------------------------------------------


def abandoned() -> Any:
    """The queue's RUNNING rows that no live worker holds (a queryset of ``DBTaskResult``)."""
    from django_tasks import TaskResultStatus
    from django_tasks_db.models import DBTaskResult

    from .models import TaskLease

    cutoff = timezone.now() - stale_after()
    held = TaskLease.objects.filter(beat_at__gte=cutoff).values("task_id")
    return DBTaskResult.objects.filter(status=TaskResultStatus.RUNNING, started_at__lt=cutoff).exclude(id__in=held)


def reclaim_now_and_then() -> int:
    """``reclaim_abandoned``, at most once per quarter of ``TASK_STALE_SECONDS`` in this process: the recovery
    passes that call it run at every look at a run, and a row is not abandoned sooner than that anyway."""
    global _last_pass
    now = time.monotonic()
    if _last_pass is not None and now - _last_pass < settings.TASK_STALE_SECONDS / 4:
        return 0
    _last_pass = now
    return reclaim_abandoned()


def reclaim_abandoned(limit: int = 100) -> int:
    """Mark FAILED (``WorkerLost``) the RUNNING rows that no worker holds; how many. Does nothing unless the task
    backend is the database queue."""
    if not str(settings.TASKS["default"]["BACKEND"]).startswith("django_tasks_db"):
        return 0
    from django_tasks import TaskResultStatus
    from django_tasks_db.models import DBTaskResult

    from .models import TaskLease

    now = timezone.now()
    reclaimed = 0
    for row in abandoned().order_by("started_at").only("id", "worker_ids", "started_at")[:limit]:
        workers = ", ".join(row.worker_ids) or "?"
        note = (
            f"{WorkerLost.__module__}.{WorkerLost.__qualname__}: the worker running this task ({workers}) stopped "
            f"without finishing it (killed, or its machine lost); no worker had held it for {stale_after()}.\n"
        )
        # Only a row still RUNNING: a worker that records its end meanwhile wins.
        reclaimed += DBTaskResult.objects.filter(pk=row.pk, status=TaskResultStatus.RUNNING).update(
            status=TaskResultStatus.FAILED,
            finished_at=now,
            return_value=None,
            exception_class_path=f"{WorkerLost.__module__}.{WorkerLost.__qualname__}",
            traceback=note,
        )
        logger.warning("a task's worker stopped; its queue row is marked failed", extra={"task": str(row.pk)})
    TaskLease.objects.filter(beat_at__lt=now - stale_after()).delete()
    return reclaimed
