"""Synthetic tasks for tests of the task queue itself (a worker imports them by path, as it imports the site's)."""

from __future__ import annotations

import time

from django_tasks import task


@task()
def synthetic_pause(seconds: float) -> str:
    """Hold the worker for ``seconds``: long enough to be killed in the middle."""
    time.sleep(seconds)
    return "paused"
