"""Why a run failed, each reason declared once with its message.

A run keeps the reason as a code and its parameters (``SimulationRun.error_code`` and ``error_params``)
and puts it into words when it is read, so that each reader sees it in their own language rather than in
that of whoever started the run (the same rule as ``cardsite.errors``). A parameter may be a ``Labels``
mapping or a list of them (a zone's name in three languages). What an unexpected exception said is kept
apart (``SimulationRun.error``) for the staff and the logs: it is not the reader's language.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext_lazy as _

from cardsite import jobs
from cardsite.errors import render

DECK_NOT_READY = "deck_not_ready"
WORKERS_STOPPED = jobs.WORKERS_STOPPED  # the lifecycle's own reasons, put into words for a run here
UNEXPECTED = jobs.UNEXPECTED

MESSAGES: Mapping[str, Any] = {
    DECK_NOT_READY: _("The deck has no cards in: %(zones)s."),
    WORKERS_STOPPED: _(
        "The workers playing games %(first)s to %(last)s stopped %(attempts)s times; the run was stopped. "
        "The games finished before are kept."
    ),
    UNEXPECTED: _("The run stopped on an unexpected error. The games finished before are kept."),
}


def failure_message(code: str, params: Mapping[str, Any] | None = None) -> str:
    """The reason a run failed, in the active language (an unknown code reads as an unexpected error)."""
    if code not in MESSAGES:
        return str(MESSAGES[UNEXPECTED])
    return render(MESSAGES[code], params)
