"""Background tasks (django-tasks; the site uses its database backend, run by ``manage.py db_worker``)."""

from __future__ import annotations

from typing import Any

from django_tasks import task

from . import services


@task()
def run_simulation(run_id: int) -> dict[str, Any] | None:
    """Play a stored Monte Carlo run (``models.SimulationRun``); see ``services.execute_run``."""
    return services.execute_run(run_id)
