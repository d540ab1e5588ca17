"""Background tasks of the readings (django-tasks; the life of each photo is ``cardsite.jobs``'s)."""

from __future__ import annotations

from typing import Any

from django_tasks import task

from . import duplicates, services


@task()
def read_photo(photo_id: int) -> dict[str, Any] | None:
    """Read one photo of a batch (``models.PhotoReading``): first its perceptual hash, the card image it
    duplicates and the batch's photos of the same card (``duplicates.check_photo``), then its text
    (``services.execute_photo``); a photo whose text matched no card is then matched by its image."""
    duplicates.check_photo(photo_id)
    outcome = services.execute_photo(photo_id)
    duplicates.after_reading(photo_id)
    return outcome
