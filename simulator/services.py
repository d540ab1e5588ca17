"""Writes of the simulator: start, run, advance and cancel Monte Carlo runs (``models.SimulationRun``).

``start_run`` stores a queued run and hands it to the task backend (``simulator.tasks``; the
database backend of django-tasks in the site, run by ``manage.py db_worker``). ``execute_run`` is
the task's body: it claims the run, plays the games with ``montecarlo.play_many`` and saves the
progress every ``PROGRESS_EVERY`` games, checking each time whether the run was cancelled; a
cancelled run stops there and keeps the summary of the games played so far.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict
from typing import Any

from django.utils import timezone

from decks.models import Deck

from . import adapters
from .engines import get_engine
from .inputs import new_seed
from .models import SimulationRun
from .montecarlo import RunSummary, play_many

PROGRESS_EVERY = 500

Status = SimulationRun.Status


class RunError(Exception):
    """The run cannot be played (e.g. the deck lacks the zone its game's goldfish draws from)."""


def summary_dict(summary: RunSummary, *, turns: int, seed: int) -> dict[str, Any]:
    """A RunSummary as JSON: per-turn means, wins, win-turn statistics and histogram, parameters and policy."""
    return {
        "games": summary.games,
        "turns_asked": turns,
        "seed": seed,
        "won": summary.won,
        "win_rate": summary.won / summary.games if summary.games else 0.0,
        "turns": [asdict(turn) for turn in summary.turns],
        "win_turn_stats": summary.win_turn_stats,
        "win_turn_histogram": [{"turn": turn, "games": count} for turn, count in summary.win_turn_histogram().items()],
        "parameters": dict(summary.parameters),
        "policy": summary.policy,
    }


def start_run(
    *,
    deck: Deck,
    requester,
    games: int,
    turns: int,
    policy: str,
    params: Mapping[str, int],
    language: str,
    seed: int | None = None,
) -> SimulationRun:
    """Store a queued run and enqueue its task; with the immediate backend (tests) it has run on return."""
    from .tasks import run_simulation

    run = SimulationRun.objects.create(
        deck=deck,
        requester=requester,
        games=games,
        turns=turns,
        policy=policy,
        params=dict(params),
        language=language,
        seed=new_seed() if seed is None else seed,
    )
    result = run_simulation.enqueue(run.pk)
    SimulationRun.objects.filter(pk=run.pk).update(task_id=str(result.id)[:64])
    run.refresh_from_db()
    return run


def save_progress(run_id: int, done: int) -> bool:
    """Record ``done`` games; False (stop) if the run was cancelled meanwhile."""
    SimulationRun.objects.filter(pk=run_id).update(progress=done)
    status = SimulationRun.objects.filter(pk=run_id).values_list("status", flat=True).first()
    return status == Status.RUNNING


def execute_run(run_id: int) -> dict[str, Any] | None:
    """Play the run (the task's body). None if it was not queued any more (cancelled before it started)."""
    claimed = SimulationRun.objects.filter(pk=run_id, status=Status.QUEUED).update(
        status=Status.RUNNING, started_at=timezone.now()
    )
    if not claimed:
        return None
    run = SimulationRun.objects.select_related("deck", "deck__game").get(pk=run_id)
    try:
        engine = get_engine(run.deck.game.slug)
        deck = adapters.sim_deck(run.deck, run.language)
        readiness = adapters.readiness(deck, run.language)
        if not readiness.ready:
            raise RunError(f"the deck has no cards in: {', '.join(readiness.missing)}")
        summary = play_many(
            engine,
            deck,
            run.games,
            run.turns,
            run.seed,
            run.params,
            run.policy,
            progress=lambda done: save_progress(run_id, done),
            progress_every=PROGRESS_EVERY,
        )
    except BaseException as error:  # SystemExit too: a worker stopped mid-run leaves no run "running"
        message = str(error) if isinstance(error, Exception) else "interrupted: the worker was stopped"
        SimulationRun.objects.filter(pk=run_id).update(
            status=Status.FAILED, error=message or type(error).__name__, finished_at=timezone.now()
        )
        raise
    data = summary_dict(summary, turns=run.turns, seed=run.seed)
    finished = SimulationRun.objects.filter(pk=run_id, status=Status.RUNNING).update(
        status=Status.DONE, progress=summary.games, result=data, finished_at=timezone.now()
    )
    if not finished:
        # Cancelled while it ran: the status stays, the summary covers the games played.
        SimulationRun.objects.filter(pk=run_id).update(progress=summary.games, result=data, finished_at=timezone.now())
    return {"games": summary.games, "won": summary.won}


def cancel_run(run: SimulationRun) -> bool:
    """Ask a queued or running run to stop; False if it had already finished."""
    cancelled = SimulationRun.objects.filter(pk=run.pk, status__in=[Status.QUEUED, Status.RUNNING]).update(
        status=Status.CANCELLED, finished_at=timezone.now()
    )
    run.refresh_from_db()
    return bool(cancelled)
