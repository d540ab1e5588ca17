"""Background tasks (django-tasks: the database backend by default, RQ over Redis for many machines).

Each task plays one item of a job through ``cardsite.jobs``, which finds the item's kind among those the app
registered (``simulator.apps``); the services that enqueue these tasks are not imported here.
"""

from __future__ import annotations

from typing import Any

from django_tasks import task

from cardsite import jobs


@task()
def play_chunk(chunk_id: int) -> dict[str, Any] | None:
    """Play one chunk of a Monte Carlo run's games (``models.SimulationChunk``)."""
    return jobs.execute_item("simulator.simulationchunk", chunk_id)


@task()
def run_simulation(run_id: int) -> None:
    """A run queued by a version that played a run in one task: split it into chunks and enqueue those."""
    jobs.kind_for("simulator.simulationchunk").prepare(run_id)


@task()
def play_comparison_chunk(chunk_id: int) -> dict[str, Any] | None:
    """Play one chunk of a whole game's comparison (``models.ComparisonChunk``)."""
    return jobs.execute_item("simulator.comparisonchunk", chunk_id)


@task()
def play_search_chunk(chunk_id: int) -> dict[str, Any] | None:
    """Play one island's generations of a strategy search (``models.StrategySearchChunk``)."""
    return jobs.execute_item("simulator.strategysearchchunk", chunk_id)
