"""Writes of the simulator: start, play, cancel and recover Monte Carlo runs (``models.SimulationRun``).

A run's games are split into chunks (``models.SimulationChunk``, ``CHUNK_GAMES`` games each), one
task each (``simulator.tasks.play_chunk``), so that as many workers as there are play a run at once.
Game i of a run is played from seed ``run.seed + i`` whichever worker plays it, and the chunks'
tallies (``montecarlo.Tally``, whole numbers) add up exactly: the same seed gives the same result
however many workers played it, in whatever order.

- ``start_run`` stores a queued run and its chunks and enqueues their tasks; a user may have at most
  ``settings.MAX_ACTIVE_RUNS_PER_USER`` runs waiting or running (``RunQuotaExceeded``).
- ``execute_chunk`` is a task's body: it claims its chunk, plays it and reports every
  ``PROGRESS_EVERY`` games; the last chunk to finish merges every chunk's tally into the run's result.
- ``cancel_run`` stops a run (running chunks keep the games they played, which the result then covers);
  ``recover_stalled`` plays again the chunks whose worker stopped beating, or fails the run after
  ``MAX_ATTEMPTS``. Every look at a run and ``/healthz/`` call it.

The life of the chunks (claiming, heartbeats, merging, cancelling, recovering) is ``cardsite.jobs``'s,
shared with the whole games' comparisons; ``MonteCarloRuns`` declares what is particular to these runs.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import asdict
from typing import Any

from django.conf import settings
from django.db import transaction

from cardsite.errors import AppError
from cardsite.jobs import ACTIVE, JobKind, Merged, hold_quota
from cardsite.jobs import MAX_ATTEMPTS as MAX_ATTEMPTS  # this module's too (see the docstring)
from cardsite.jobs import RunQuotaExceeded as RunQuotaExceeded  # the views refuse with it
from decks.models import Deck

from .. import adapters, failures, inputs, tables
from ..assumptions.selectors import from_stored, stored_used
from ..core import default_parameters
from ..engines import get_engine
from ..inputs import new_seed
from ..models import RUNS_UNDER_ONE_QUOTA, SimulationChunk, SimulationRun
from ..montecarlo import RunSummary, Tally, play_range, summarize

logger = logging.getLogger("simulator.runs")

PROGRESS_EVERY = 500


def chunk_games() -> int:
    return settings.SIMULATION_CHUNK_GAMES


class RunError(AppError):
    """The run cannot be played (e.g. the deck lacks the zone its game's goldfish draws from)."""

    code = "run_refused"


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


def run_odds(run: SimulationRun) -> dict[str, Any]:
    """The simulated odds the run's page shows beside the exact ones: ``inputs.ODDS_TURNS`` turns of the run's
    deck, as many shuffles as games (at most ``inputs.PAGE_MAX_GAMES``) from the run's seed."""
    engine = get_engine(run.deck.game.slug)
    deck = adapters.sim_deck(run.deck, run.language, from_stored(run.assumptions, run.deck.game))
    first = bool(run.params.get("first_player", 1))
    table = tables.exact_table(engine, deck, first_player=first, turns=inputs.ODDS_TURNS)
    return tables.stored_odds(table, min(run.games, inputs.PAGE_MAX_GAMES), run.seed)


class MonteCarloRuns(JobKind[SimulationRun, SimulationChunk, Tally]):
    """Monte Carlo runs as chunked runs: a chunk plays games ``first_game`` to ``first_game + games - 1`` of
    the run's deck and keeps their ``Tally``; the run is done when every chunk is, its result the summary of
    every tally added up."""

    run_model = SimulationRun
    chunk_model = SimulationChunk
    result_field = "tally"
    failure_codes = failures.MESSAGES
    unit = "games"
    chunk_relations = ("run", "run__deck", "run__deck__game")

    def send(self, chunk_id: int) -> Any:
        from ..tasks import play_chunk

        return play_chunk.enqueue(chunk_id)

    def prepare(self, job_id: int) -> None:
        ensure_chunks(job_id)

    def play(self, run: SimulationRun, chunk: SimulationChunk, report: Callable[[int], bool]) -> Tally:
        engine = get_engine(run.deck.game.slug)
        deck = adapters.sim_deck(run.deck, run.language, from_stored(run.assumptions, run.deck.game))
        readiness = adapters.readiness(deck, run.language)
        if not readiness.ready:
            zones = [adapters.zone_labels(deck.game, zone) for zone in readiness.missing_zones]
            reason = failures.DECK_NOT_READY
            raise RunError(failures.MESSAGES[reason], code=reason, params={"zones": zones})
        return play_range(
            engine,
            deck,
            chunk.first_game,
            chunk.games,
            run.turns,
            run.seed,
            run.params,
            run.policy,
            progress=report,
            progress_every=PROGRESS_EVERY,
        )

    def empty_result(self, run: SimulationRun) -> Tally:
        return Tally(run.turns)

    def count(self, result: Tally) -> int:
        return result.games

    def dump(self, result: Tally) -> dict[str, Any]:
        return result.as_dict()

    def merge(self, run: SimulationRun, chunks: list[SimulationChunk], *, all_done: bool) -> Merged:
        total = Tally(run.turns)
        for chunk in chunks:
            if chunk.tally is not None:
                total.add(Tally.from_dict(chunk.tally))
        summary = summarize(total, run.params, run.policy) if total.games else None
        changes: dict[str, Any] = {}
        if summary is not None and run.odds is None:
            # Once: they depend on the deck and the seed, not on the games played.
            try:
                changes["odds"] = run_odds(run)
            except Exception:  # the odds are the page's aside: failing to draw them must not lose the games played
                logger.exception("could not draw the simulated odds of a run", extra={"run": run.pk})
        return Merged(
            progress=total.games if all_done else sum(chunk.played for chunk in chunks),
            result=None if summary is None else summary_dict(summary, turns=run.turns, seed=run.seed),
            done=True,
            changes=changes,
        )

    def progress_per_unit(self, run: SimulationRun) -> int:
        return 1

    def span(self, run: SimulationRun, chunk: SimulationChunk) -> tuple[int, int]:
        return chunk.first_game + 1, chunk.first_game + chunk.games


MONTE_CARLO = MonteCarloRuns()
execute_chunk = MONTE_CARLO.execute_chunk
cancel_run = MONTE_CARLO.cancel
recover_stalled = MONTE_CARLO.recover_stalled


# --- starting ---------------------------------------------------------------------------------------


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
    share_token: str = "",
) -> SimulationRun:
    """Store a queued run and its chunks and enqueue them; with the immediate backend (tests) it has run on return."""
    # The values the deck assumes now that fill a value its cards lack: the run plays these, whatever the deck
    # assumes later, and its result names them.
    assumed = stored_used(deck, adapters.sim_deck_assumed(deck, language)[1])
    with transaction.atomic():
        hold_quota(requester, RUNS_UNDER_ONE_QUOTA)
        run = SimulationRun.objects.create(
            deck=deck,
            requester=requester,
            games=games,
            turns=turns,
            policy=policy,
            params={**default_parameters(get_engine(deck.game.slug)), **params},
            language=language,
            seed=new_seed() if seed is None else seed,
            share_token=share_token,
            assumptions=assumed,
        )
        size = chunk_games()
        chunks = SimulationChunk.objects.bulk_create(
            SimulationChunk(run=run, index=index, first_game=first, games=min(size, games - first))
            for index, first in enumerate(range(0, games, size))
        )
        for chunk in chunks:
            MONTE_CARLO.enqueue(chunk.pk)
    run.refresh_from_db()
    return run


def ensure_chunks(run_id: int) -> None:
    """A run stored before runs had chunks (its task queued by an earlier version): split and enqueue it."""
    with transaction.atomic():
        run = SimulationRun.objects.select_for_update().get(pk=run_id)
        if run.status not in ACTIVE or run.chunks.exists():
            return
        size = chunk_games()
        for index, first in enumerate(range(0, run.games, size)):
            chunk = SimulationChunk.objects.create(
                run=run, index=index, first_game=first, games=min(size, run.games - first)
            )
            MONTE_CARLO.enqueue(chunk.pk)
