"""Why a photo's reading failed, each reason declared once with its message.

A photo keeps the reason as a code (``PhotoReading.error_code``) and puts it into words when it is read, in
the reader's language; the model reads it from here, below the services that write it.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

# The reasons any job may fail for are the lifecycle's own (cardsite.jobs); the others are a reading's.
from cardsite.jobs import UNEXPECTED, WORKERS_STOPPED

UNAVAILABLE = "reading_unavailable"
UNREADABLE = "photo_unreadable"
FAILURES: dict[str, Any] = {
    UNAVAILABLE: _(
        "Reading photos is not available on this site now: Tesseract or its language data is not installed."
    ),
    UNREADABLE: _("The stored photo could not be opened to be read."),
    WORKERS_STOPPED: _("The workers reading this photo stopped several times; it was not read."),
    UNEXPECTED: _("The reading failed unexpectedly; the site's staff can see why in its logs."),
}


def failure_message(code: str) -> str:
    """The reason a reading failed, in the active language (an unknown code reads as an unexpected error)."""
    return str(FAILURES.get(code, FAILURES[UNEXPECTED]))
