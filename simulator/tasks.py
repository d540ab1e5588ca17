"""Background tasks (django-tasks: the database backend by default, RQ over Redis for many machines)."""

from __future__ import annotations

from typing import Any

from django_tasks import task

from .goldfish import services


@task()
def play_chunk(chunk_id: int) -> dict[str, Any] | None:
    """Play one chunk of a Monte Carlo run's games (``models.SimulationChunk``); see ``services.execute_chunk``."""
    return services.execute_chunk(chunk_id)


@task()
def run_simulation(run_id: int) -> None:
    """A run queued by a version that played a run in one task: split it into chunks and enqueue those."""
    services.ensure_chunks(run_id)


@task()
def play_comparison_chunk(chunk_id: int) -> dict[str, Any] | None:
    """Play one chunk of a whole game's comparison (``models.ComparisonChunk``); see ``comparisons.execute_chunk``."""
    from .comparisons import services as comparisons

    return comparisons.execute_chunk(chunk_id)


@task()
def play_search_chunk(chunk_id: int) -> dict[str, Any] | None:
    """Play one island's generations of a strategy search (``models.StrategySearchChunk``); see
    ``searches.execute_chunk``."""
    from .searches import services as searches

    return searches.execute_chunk(chunk_id)
