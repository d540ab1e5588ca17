"""Background tasks of the readings (django-tasks; the life of each photo is ``cardsite.jobs``'s, and the kind
that reads it is ``services.PhotoReadings``, found through the jobs' registry)."""

from __future__ import annotations

from typing import Any

from django_tasks import task

from cardsite import jobs


@task()
def read_photo(photo_id: int) -> dict[str, Any] | None:
    """Read one photo of a batch (``models.PhotoReading``): its duplicates, its text, then its image
    (``services.PhotoReadings.execute_chunk``)."""
    return jobs.execute_item("readings.photoreading", photo_id)
