"""The database task queue after a worker is killed: the row it claimed does not stay RUNNING for ever, and
/healthz/ says that work is held by no worker until it is reclaimed. A live worker's long task is never taken for
an abandoned one (its lease is renewed). Synthetic tasks only (tests/synthetic_tasks.py)."""

from __future__ import annotations

import json
import signal
import time
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone
from django_tasks import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from cardsite import taskqueue
from cardsite.models import TaskLease

from .servers import ProductionSite, production_site


def _tasks_check(answer: dict[str, Any]) -> dict[str, Any]:
    return next(check for check in answer["checks"] if check["name"] == "tasks")


# --- in one process -------------------------------------------------------------------------------------------


def _running_row(started_ago: timedelta, worker: str = "synthetic-worker") -> DBTaskResult:
    now = timezone.now()
    return DBTaskResult.objects.create(
        status=TaskResultStatus.RUNNING,
        started_at=now - started_ago,
        run_after=now - started_ago,
        args_kwargs={"args": [60], "kwargs": {}},
        task_path="tests.synthetic_tasks.synthetic_pause",
        backend_name="default",
        worker_ids=[worker],
    )


@pytest.mark.django_db
def test_a_running_row_no_worker_holds_is_reported_then_reclaimed_as_failed(settings):
    settings.TASK_STALE_SECONDS = 60
    lost = _running_row(timedelta(minutes=10), "killed-worker")
    held = _running_row(timedelta(minutes=10), "live-worker")
    TaskLease.objects.create(task_id=held.pk, worker="host:1", beat_at=timezone.now())
    just_claimed = _running_row(timedelta(seconds=1))  # its worker has not taken its lease yet

    tasks = _tasks_check(Client().get("/healthz/").json())
    assert tasks["status"] == "degraded" and tasks["detail"]["unheld"] == 1

    assert taskqueue.reclaim_abandoned() == 1
    lost.refresh_from_db()
    assert lost.status == TaskResultStatus.FAILED and lost.finished_at is not None
    assert lost.exception_class_path == "cardsite.taskqueue.WorkerLost" and "killed-worker" in lost.traceback
    for row in (held, just_claimed):
        row.refresh_from_db()
        assert row.status == TaskResultStatus.RUNNING
    tasks = _tasks_check(Client().get("/healthz/").json())
    assert tasks["status"] == "ok" and tasks["detail"]["unheld"] == 0


@pytest.mark.django_db
def test_a_worker_takes_renews_and_gives_back_the_lease_of_each_task_it_runs(settings, monkeypatch):
    settings.TASK_STALE_SECONDS = 60
    # The beat is called here directly. A heartbeat thread started in the test process would outlive the test and
    # log a failure each beat (the database is closed to it), formatting tracebacks while later tests run.
    monkeypatch.setattr(taskqueue, "_ensure_heartbeat", lambda: None)
    row = _running_row(timedelta(minutes=10))
    task_result = row.task_result
    taskqueue.on_task_started(sender=None, task_result=task_result)
    try:
        lease = TaskLease.objects.get(task_id=row.pk)
        TaskLease.objects.filter(pk=lease.pk).update(beat_at=timezone.now() - timedelta(minutes=5))
        assert taskqueue.beat() == 1
        assert TaskLease.objects.get(task_id=row.pk).beat_at > timezone.now() - timedelta(minutes=1)
        assert taskqueue.reclaim_abandoned() == 0  # held: started long ago, but its worker is alive
    finally:
        taskqueue.on_task_finished(sender=None, task_result=task_result)
    assert not TaskLease.objects.filter(task_id=row.pk).exists()


# --- the production server and real workers -------------------------------------------------------------------

QUEUE_STATE = """
import json
from django_tasks_db.models import DBTaskResult
rows = DBTaskResult.objects.order_by("enqueued_at")
print(json.dumps([{"id": str(row.id), "status": row.status, "error": row.exception_class_path,
                   "started_at": row.started_at.isoformat() if row.started_at else None} for row in rows]))
"""


def _queue(site: ProductionSite) -> list[dict[str, Any]]:
    return json.loads(site.django(QUEUE_STATE))


def _wait(what: str, until: Callable[[], Any], timeout: float = 90) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = until()
        if found:
            return found
        time.sleep(0.3)
    raise AssertionError(f"not within {timeout} s: {what}")


def _health(site: ProductionSite) -> dict[str, Any]:
    return _tasks_check(site.get("/healthz/").json())


def test_a_killed_worker_s_task_is_reported_while_no_worker_holds_it_then_reclaimed(tmp_path):
    with production_site(tmp_path, workers=1, threads=2, TASK_STALE_SECONDS="2") as site:
        site.django("from tests.synthetic_tasks import synthetic_pause; synthetic_pause.enqueue(120)")
        first = site.start_worker()
        (claimed,) = _wait("the worker claims the task", lambda: [r for r in _queue(site) if r["status"] == "RUNNING"])

        # Held for several stale periods by a live worker: never counted as abandoned.
        def long_held() -> bool:
            started = timezone.datetime.fromisoformat(claimed["started_at"])
            return timezone.now() - started > timedelta(seconds=6)

        _wait("the task runs for three stale periods", long_held)
        tasks = _health(site)
        assert tasks["detail"]["unheld"] == 0 and tasks["status"] == "ok", tasks

        first.send_signal(signal.SIGKILL)
        first.wait(10)
        tasks = _wait("/healthz/ reports the task no worker holds", lambda: _health(site)["detail"]["unheld"] == 1)
        tasks = _health(site)
        assert tasks["status"] == "degraded"

        # The next worker to start a task reclaims it; the new task runs to its end.
        site.django("from tests.synthetic_tasks import synthetic_pause; synthetic_pause.enqueue(0)")
        site.start_worker()
        rows = _wait(
            "the killed worker's row is reclaimed and the new task done",
            lambda: (rows := _queue(site)) and all(row["status"] in ("FAILED", "SUCCESSFUL") for row in rows) and rows,
        )
        by_id = {row["id"]: row for row in rows}
        assert by_id[claimed["id"]]["status"] == "FAILED"
        assert by_id[claimed["id"]]["error"] == "cardsite.taskqueue.WorkerLost"
        assert [row["status"] for row in rows if row["id"] != claimed["id"]] == ["SUCCESSFUL"]
        tasks = _health(site)
        assert tasks["status"] == "ok" and tasks["detail"]["unheld"] == 0
