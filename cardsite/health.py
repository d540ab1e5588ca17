"""What ``/healthz/`` reports: can the database be read and written, is the task queue moving, does
the cache answer. Each check is a function returning a ``Check``; the view only lists them.

Status: ``ok``; ``degraded`` (the site serves pages but something needs an operator: a read-only
database, a queue nobody takes tasks from, tasks a worker claimed that no live worker holds
(``cardsite.taskqueue``), an unreachable cache); ``down`` (the database cannot be
read). A load balancer should take a ``down`` server out (503) and keep a ``degraded`` one (200).
"""

from __future__ import annotations

import os
import shutil
import time
from dataclasses import asdict, dataclass, field
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import DatabaseError, connection
from django.utils import timezone

# A queued task older than this with nothing taking it means no worker is running.
QUEUE_STALL = timedelta(minutes=2)
# Below this much free disk next to a SQLite file, writes are about to fail.
LOW_DISK_BYTES = 50 * 1024 * 1024


@dataclass
class Check:
    name: str
    status: str  # ok, degraded, down
    detail: dict[str, Any] = field(default_factory=dict)


def database() -> Check:
    started = time.perf_counter()
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
            writable, detail = _writable(cursor)
    except DatabaseError as error:
        return Check("database", "down", {"vendor": connection.vendor, "error": type(error).__name__})
    detail.update(vendor=connection.vendor, ms=round((time.perf_counter() - started) * 1000, 2))
    return Check("database", "ok" if writable else "degraded", detail)


def _writable(cursor: Any) -> tuple[bool, dict[str, Any]]:
    if connection.vendor == "postgresql":
        cursor.execute("SELECT current_setting('transaction_read_only') = 'on' OR pg_is_in_recovery()")
        read_only = bool(cursor.fetchone()[0])
        return not read_only, {"read_only": read_only}
    if connection.vendor == "sqlite" and not connection.is_in_memory_db():  # type: ignore[attr-defined]  # SQLite's own
        cursor.execute("PRAGMA query_only")
        path = str(connection.settings_dict["NAME"]).removeprefix("file:").split("?")[0]
        read_only = (
            bool(cursor.fetchone()[0])
            or not os.access(path, os.W_OK)
            or "mode=ro" in str(connection.settings_dict["NAME"])
        )
        free = shutil.disk_usage(os.path.dirname(os.path.abspath(path))).free
        return not read_only and free > LOW_DISK_BYTES, {"read_only": read_only, "free_bytes": free}
    return True, {}


def task_queue() -> Check:
    backend = str(settings.TASKS["default"]["BACKEND"])
    try:
        if backend.startswith("django_tasks_db"):
            return _database_queue()
        if backend.startswith("django_tasks_rq"):
            return _redis_queue()
    except Exception as error:  # a health check reports any failure of its probe
        return Check("tasks", "degraded", {"backend": backend, "error": type(error).__name__})
    return Check("tasks", "ok", {"backend": backend})


def _database_queue() -> Check:
    from django_tasks_db.models import DBTaskResult

    from . import taskqueue

    ready = DBTaskResult.objects.ready()
    waiting = ready.count()
    oldest = ready.order_by("enqueued_at").values_list("enqueued_at", flat=True).first()
    age = (timezone.now() - oldest) if oldest else timedelta(0)
    # Work a worker claimed and no live worker holds any more (killed mid-task), not yet reclaimed.
    unheld = taskqueue.abandoned().count()
    status = "degraded" if age > QUEUE_STALL or unheld else "ok"
    detail = {"backend": "database", "waiting": waiting, "oldest_wait_s": int(age.total_seconds()), "unheld": unheld}
    return Check("tasks", status, detail)


def _redis_queue() -> Check:
    import django_rq
    from rq import Worker

    queue = django_rq.get_queue("default")
    workers = Worker.count(connection=queue.connection)
    status = "ok" if workers or not len(queue) else "degraded"
    return Check("tasks", status, {"backend": "rq", "waiting": len(queue), "workers": workers})


def shared_cache() -> Check:
    try:
        cache.set("healthz", "ok", 10)
        answered = cache.get("healthz") == "ok"
    except Exception as error:  # an unreachable cache is reported, not raised
        return Check("cache", "degraded", {"error": type(error).__name__})
    return Check("cache", "ok" if answered else "degraded", {})


CHECKS = (database, task_queue, shared_cache)


def report() -> tuple[str, list[dict[str, Any]]]:
    """The overall status and every check's result."""
    results = [check() for check in CHECKS]
    if any(result.status == "down" for result in results):
        overall = "down"
    elif any(result.status == "degraded" for result in results):
        overall = "degraded"
    else:
        overall = "ok"
    return overall, [asdict(result) for result in results]
