"""Background tasks of the readings (django-tasks, as ``simulator.tasks``)."""

from __future__ import annotations

from typing import Any

from django_tasks import task

from . import services


@task()
def read_photo(photo_id: int) -> dict[str, Any] | None:
    """Read one photo of a batch (``models.PhotoReading``); see ``services.execute_photo``."""
    return services.execute_photo(photo_id)
