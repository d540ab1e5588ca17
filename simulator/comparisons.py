"""Writes of the whole games' comparisons (``models.ComparisonRun``): start, play, cancel and recover, in the
pattern of the Monte Carlo runs (``simulator.services``).

A comparison's games come in blocks (``compare``: one seed per block, the seats rotated), and its blocks in
chunks (``ComparisonChunk``, ``chunk_blocks()`` blocks each), one task each (``tasks.play_comparison_chunk``),
so that every worker plays a part at once; a chunk's ``compare.Result`` is whole numbers and merges exactly.
A run that may stop by itself is played look by look (``Comparison.looks``): the chunks up to the next look
are queued together, and the last of them to finish makes the look — the run stops if the two leaders differ
at the corrected level, otherwise the chunks up to the following look are queued. A run that may not stop is
one look, at its end. A chunk reports every ``PROGRESS_BLOCKS`` blocks (a heartbeat, the progress, whether the
run was cancelled); a chunk whose worker stopped reporting is played again, at most ``MAX_ATTEMPTS`` times.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import F, Sum
from django.utils import timezone, translation

from cards.models import Game

from . import failures
from .comparison_results import (
    empty_result,
    report,
    result_from_dict,
    result_to_dict,
    setup_from_dict,
    setup_to_dict,
)
from .engines.endbreaker_game import Setup
from .engines.endbreaker_game.compare import Comparison, Entrant, play_blocks
from .fullgames import FullGame, get_fullgame
from .inputs import new_seed
from .models import ComparisonChunk, ComparisonRun, SimulationRun
from .services import ACTIVE, MAX_ATTEMPTS, SAME_TRANSACTION_BACKENDS, RunQuotaExceeded, stale_after, worker_name

Status = ComparisonRun.Status
ChunkStatus = ComparisonChunk.Status
PROGRESS_BLOCKS = 10
ALPHA = 0.05
MIN_STRATEGIES, MAX_STRATEGIES = 2, 4
MAX_GAMES = 5_000  # per strategy, on the page and through the API


def chunk_blocks() -> int:
    return getattr(settings, "COMPARISON_CHUNK_BLOCKS", 100)


def entrant_labels(strategies: Sequence[str]) -> list[str]:
    """The strategies' labels: a strategy chosen twice is told apart by its number ("big_darc #2")."""
    labels: list[str] = []
    for name in strategies:
        count = sum(1 for earlier in strategies[: len(labels)] if earlier == name)
        labels.append(name if count == 0 else f"{name} #{count + 1}")
    return labels


def comparison_of(run: ComparisonRun, fullgame: FullGame | None = None) -> Comparison:
    """The run's comparison, from its stored set-up and strategies."""
    fullgame = fullgame or get_fullgame(run.game.slug)
    assert fullgame is not None
    setup = setup_from_dict(Setup, run.setup)
    entrants = tuple(
        Entrant(label, fullgame.strategies[name])
        for label, name in zip(entrant_labels(run.strategies), run.strategies, strict=True)
    )
    return Comparison(entrants, setup, run.seed, run.games, sequential=run.sequential, alpha=ALPHA)


# --- starting ---------------------------------------------------------------------------------------


def start_comparison(
    *,
    game: Game,
    requester: Any,
    setup: Any,
    strategies: Sequence[str],
    games: int,
    sequential: bool,
    abilities: Sequence[str],
    language: str,
    seed: int | None = None,
) -> ComparisonRun:
    """Store a queued comparison and its first chunks and enqueue them (with the immediate backend it has run on
    return). ``setup``: built by ``fullgame_selectors.build_setup``. Counts against the user's active runs."""
    with transaction.atomic():
        get_user_model().objects.select_for_update().filter(pk=requester.pk).first()
        limit = settings.MAX_ACTIVE_RUNS_PER_USER
        active = SimulationRun.objects.filter(requester=requester, status__in=ACTIVE).count()
        active += ComparisonRun.objects.filter(requester=requester, status__in=ACTIVE).count()
        if active >= limit:
            raise RunQuotaExceeded(limit)
        run = ComparisonRun(
            game=game,
            requester=requester,
            strategies=list(strategies),
            abilities=list(abilities),
            games=games,
            sequential=sequential,
            seed=new_seed() if seed is None else seed,
            language=language,
            setup=setup_to_dict(setup),
        )
        comparison = comparison_of(run)
        run.looks = comparison.looks() if sequential else [comparison.max_blocks]
        run.planned = comparison.max_blocks * comparison.seats
        run.save()
        _queue_segment(run, 0, run.looks[0], first_index=0)
    run.refresh_from_db()
    return run


def _queue_segment(run: ComparisonRun, start: int, stop: int, *, first_index: int) -> None:
    size = chunk_blocks()
    chunks = ComparisonChunk.objects.bulk_create(
        ComparisonChunk(run=run, index=first_index + n, first_block=first, last_block=min(first + size, stop))
        for n, first in enumerate(range(start, stop, size))
    )
    for chunk in chunks:
        _enqueue(chunk.pk)


def _enqueue(chunk_id: int) -> None:
    from .tasks import play_comparison_chunk

    def send() -> None:
        result = play_comparison_chunk.enqueue(chunk_id)
        ComparisonChunk.objects.filter(pk=chunk_id).update(task_id=str(result.id)[:64])

    if settings.TASKS["default"]["BACKEND"] in SAME_TRANSACTION_BACKENDS:
        send()
    else:
        transaction.on_commit(send)


# --- playing ----------------------------------------------------------------------------------------


def execute_chunk(chunk_id: int) -> dict[str, Any] | None:
    """Play one chunk (the task's body). None if it was not queued any more (cancelled, or taken)."""
    language = ComparisonRun.objects.filter(chunks=chunk_id).values_list("language", flat=True).first()
    with translation.override(language or settings.LANGUAGE_CODE):
        return _execute_chunk(chunk_id)


def _execute_chunk(chunk_id: int) -> dict[str, Any] | None:
    recover_stalled()
    now = timezone.now()
    claimed = ComparisonChunk.objects.filter(pk=chunk_id, status=ChunkStatus.QUEUED).update(
        status=ChunkStatus.RUNNING, heartbeat_at=now, attempts=F("attempts") + 1, played=0, result=None,
        worker=worker_name(),
    )  # fmt: skip
    if not claimed:
        return None
    chunk = ComparisonChunk.objects.select_related("run", "run__game").get(pk=chunk_id)
    run = chunk.run
    if run.status not in ACTIVE:
        ComparisonChunk.objects.filter(pk=chunk.pk).update(status=ChunkStatus.CANCELLED)
        return None
    ComparisonRun.objects.filter(pk=run.pk, status=Status.QUEUED).update(status=Status.RUNNING, started_at=now)
    stopped = False
    try:
        comparison = comparison_of(run)
        result = empty_result(comparison)
        for start in range(chunk.first_block, chunk.last_block, PROGRESS_BLOCKS):
            stop = min(start + PROGRESS_BLOCKS, chunk.last_block)
            result = result.merge(play_blocks(comparison, start, stop))
            if not _beat(chunk, stop - chunk.first_block, comparison.seats):
                stopped = True
                break
    except Exception as error:
        _fail(run.pk, failures.UNEXPECTED, detail=str(error) or type(error).__name__, chunk=chunk)
        raise
    except BaseException:
        _requeue(chunk)
        raise
    _close_chunk(chunk, result, ChunkStatus.CANCELLED if stopped else ChunkStatus.DONE)
    return {"chunk": chunk.index, "blocks": result.block_count}


def _beat(chunk: ComparisonChunk, done: int, seats: int) -> bool:
    mine = ComparisonChunk.objects.filter(pk=chunk.pk, status=ChunkStatus.RUNNING, attempts=chunk.attempts)
    if not mine.update(played=done, heartbeat_at=timezone.now()):
        return False
    played = ComparisonChunk.objects.filter(run_id=chunk.run_id).aggregate(total=Sum("played"))["total"] or 0
    ComparisonRun.objects.filter(pk=chunk.run_id).update(progress=played * seats)
    return ComparisonRun.objects.filter(pk=chunk.run_id, status__in=ACTIVE).exists()


def _close_chunk(chunk: ComparisonChunk, result: Any, status: str) -> None:
    with transaction.atomic():
        run = ComparisonRun.objects.select_for_update().select_related("game").get(pk=chunk.run_id)
        kept = ComparisonChunk.objects.filter(pk=chunk.pk, status=ChunkStatus.RUNNING, attempts=chunk.attempts).update(
            status=status, played=result.block_count, result=result_to_dict(result), heartbeat_at=timezone.now()
        )
        if kept:
            _merge(run)


def _merge(run: ComparisonRun) -> None:
    """The run's result from its chunks; at a look, the test of the leaders and the next chunks (locked run)."""
    comparison = comparison_of(run)
    chunks = list(ComparisonChunk.objects.filter(run=run).order_by("index"))
    total = empty_result(comparison)
    for chunk in chunks:
        if chunk.result is not None:
            total = total.merge(result_from_dict(chunk.result))
    settled = not any(chunk.status in (ChunkStatus.QUEUED, ChunkStatus.RUNNING) for chunk in chunks)
    update: dict[str, Any] = {"progress": total.block_count * comparison.seats}
    looks = len(run.looks)
    summary = report(total, run.strategies, looks=looks, alpha=ALPHA)
    following: tuple[int, int] | None = None
    if run.status in ACTIVE and settled and all(chunk.status == ChunkStatus.DONE for chunk in chunks):
        last = run.look >= looks - 1
        leaders = summary["leaders"]
        if last or (run.sequential and leaders and leaders["significant"]):
            summary["stopped_early"] = not last
            update.update(status=Status.DONE, finished_at=timezone.now())
        else:
            update["look"] = run.look + 1
            following = (run.looks[run.look], run.looks[run.look + 1])
    elif run.status not in ACTIVE and settled and run.finished_at is None:
        update["finished_at"] = timezone.now()
    if total.block_count:
        update["result"] = summary
    ComparisonRun.objects.filter(pk=run.pk).update(**update)
    if following is not None:
        # After the run's row says which look it is at: with the immediate backend the chunks play at once.
        _queue_segment(run, *following, first_index=len(chunks))


def _requeue(chunk: ComparisonChunk) -> None:
    with transaction.atomic():
        run = ComparisonRun.objects.select_for_update().select_related("game").get(pk=chunk.run_id)
        mine = ComparisonChunk.objects.filter(pk=chunk.pk, status=ChunkStatus.RUNNING, attempts=chunk.attempts)
        if mine.update(status=ChunkStatus.QUEUED, played=0, result=None, heartbeat_at=None):
            _enqueue(chunk.pk)
            _merge(run)


def _fail(run_id: int, code: str, params: dict[str, Any] | None = None, *, detail: str = "", chunk=None) -> None:
    with transaction.atomic():
        run = ComparisonRun.objects.select_for_update().select_related("game").get(pk=run_id)
        if chunk is not None:
            ComparisonChunk.objects.filter(pk=chunk.pk, status=ChunkStatus.RUNNING, attempts=chunk.attempts).update(
                status=ChunkStatus.FAILED, played=0
            )
        ComparisonChunk.objects.filter(run=run, status=ChunkStatus.QUEUED).update(status=ChunkStatus.CANCELLED)
        if run.status in ACTIVE:
            ComparisonRun.objects.filter(pk=run.pk).update(
                status=Status.FAILED, error_code=code, error_params=params or {}, error=detail[:2000]
            )
            run.status = Status.FAILED
        _merge(run)


# --- cancelling and recovering ----------------------------------------------------------------------


def cancel_comparison(run: ComparisonRun) -> bool:
    """Ask a queued or running comparison to stop (it keeps the games played); False if it had finished."""
    with transaction.atomic():
        locked = ComparisonRun.objects.select_for_update().select_related("game").get(pk=run.pk)
        cancelled = locked.status in ACTIVE
        if cancelled:
            ComparisonRun.objects.filter(pk=run.pk).update(status=Status.CANCELLED)
            ComparisonChunk.objects.filter(run=run, status=ChunkStatus.QUEUED).update(status=ChunkStatus.CANCELLED)
            locked.status = Status.CANCELLED
            _merge(locked)
    run.refresh_from_db()
    return cancelled


def recover_stalled(run: ComparisonRun | None = None) -> int:
    """Play again (or, after ``MAX_ATTEMPTS``, fail) chunks whose worker stopped beating; how many."""
    cutoff = timezone.now() - stale_after()
    stalled = ComparisonChunk.objects.filter(status=ChunkStatus.RUNNING, heartbeat_at__lt=cutoff)
    if run is not None:
        stalled = stalled.filter(run=run)
    recovered = 0
    for chunk in stalled[:100]:
        with transaction.atomic():
            locked = ComparisonRun.objects.select_for_update().select_related("game").get(pk=chunk.run_id)
            mine = ComparisonChunk.objects.filter(pk=chunk.pk, status=ChunkStatus.RUNNING, heartbeat_at__lt=cutoff)
            if locked.status in ACTIVE and chunk.attempts < MAX_ATTEMPTS:
                if mine.update(status=ChunkStatus.QUEUED, played=0, result=None, heartbeat_at=None):
                    _enqueue(chunk.pk)
                    _merge(locked)
                    recovered += 1
                continue
            if not mine.update(status=ChunkStatus.FAILED, played=0, result=None):
                continue
            if locked.status in ACTIVE:
                ComparisonRun.objects.filter(pk=locked.pk).update(
                    status=Status.FAILED,
                    error_code=failures.WORKERS_STOPPED,
                    error_params={
                        "first": chunk.first_block * len(locked.strategies) + 1,
                        "last": chunk.last_block * len(locked.strategies),
                        "attempts": chunk.attempts,
                    },
                )
                ComparisonChunk.objects.filter(run=locked, status=ChunkStatus.QUEUED).update(
                    status=ChunkStatus.CANCELLED
                )
                locked.status = Status.FAILED
            _merge(locked)
            recovered += 1
    return recovered
