"""The site's own tables: only what no app owns (the task queue's leases, ``cardsite.taskqueue``)."""

from __future__ import annotations

from django.db import models


class TaskLease(models.Model):
    """A task of the database queue that a worker process is running, and when that process last said it still is.

    The queue's own row (``django_tasks_db``'s ``DBTaskResult``) says RUNNING from the moment a worker claims it
    until the worker records the end, so a worker killed meanwhile leaves it RUNNING for ever; this lease is how a
    row held by a live worker is told from one nobody holds.
    """

    task_id = models.UUIDField(primary_key=True)
    worker = models.CharField(max_length=100)
    beat_at = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return f"{self.task_id} ({self.worker})"
