"""Writes of the whole games' comparisons (``models.ComparisonRun``): start, play, cancel and recover. Their life
in chunks is ``cardsite.jobs``'s, shared with the Monte Carlo runs; ``ComparisonRuns`` declares the rest.

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

from collections.abc import Callable, Sequence
from typing import Any

from django.conf import settings
from django.db import transaction
from django.http import Http404

from cards.models import Game
from cardsite.jobs import JobKind, Merged, hold_quota
from cardsite.jobs import RunQuotaExceeded as RunQuotaExceeded  # the views refuse with it

from .. import failures
from ..engines.endbreaker_game.compare import Comparison, Entrant, Result, play_blocks
from ..fullgames import FullGame, get_fullgame
from ..inputs import new_seed
from ..models import RUNS_UNDER_ONE_QUOTA, ComparisonChunk, ComparisonRun
from ..shared.results import (
    empty_result,
    report,
    result_from_dict,
    result_to_dict,
    setup_from_dict,
    setup_to_dict,
)
from ..strategies import selectors as strategy_selectors

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


def strategy_of(run: ComparisonRun, fullgame: FullGame, name: str) -> Any:
    """A seat's strategy: shipped, or written (as its text read when the run started, cards by key)."""
    shipped = fullgame.strategies.get(name)
    if shipped is not None:
        return shipped
    assert fullgame.read_strategy is not None
    written = run.written[name]
    return fullgame.read_strategy(written["resolved"], written["name"], None, None)


def written_strategies(
    user: Any, game: Game, fullgame: FullGame, names: Sequence[str]
) -> tuple[list[str], dict[str, Any], list[str]]:
    """Reads the seats' ``names``: shipped strategies by name, written ones as ``written:<id>`` (the user's own or a
    public one) or ``written:<id>:<token>`` (shared by link). Returns the seats as the run stores them (a link's
    token left out), the written strategies' texts for ``ComparisonRun.written``, and the names that are neither
    shipped nor a written strategy of this game the user may use."""
    seats: list[str] = []
    written: dict[str, Any] = {}
    unknown: list[str] = []
    for name in names:
        if name in fullgame.strategies:
            seats.append(name)
            continue
        reference, _, token = name.rpartition(":") if name.count(":") == 2 else (name, "", "")
        pk = strategy_selectors.written_pk(reference)
        try:
            found = None if pk is None else strategy_selectors.access_strategy(user, pk, token=token or None)
        except Http404:
            found = None
        if found is None or found.game_id != game.pk or fullgame.write_strategy is None:
            unknown.append(name)
            continue
        if reference not in written:
            try:
                read = strategy_selectors.read(fullgame, game, found.text, found.name)
            except Exception:
                unknown.append(name)
                continue
            written[reference] = {"name": found.name, "text": found.text, "resolved": fullgame.write_strategy(read)}
        seats.append(reference)
    return seats, written, unknown


def comparison_of(run: ComparisonRun, fullgame: FullGame | None = None) -> Comparison:
    """The run's comparison, from its stored set-up and strategies."""
    fullgame = fullgame or get_fullgame(run.game.slug)
    assert fullgame is not None and fullgame.setup_type is not None
    setup = setup_from_dict(fullgame.setup_type, run.setup)
    own = [setup_from_dict(fullgame.setup_type, data) for data in run.setups] or [None] * len(run.strategies)
    entrants = tuple(
        Entrant(label, strategy_of(run, fullgame, name), entrant_setup)
        for label, name, entrant_setup in zip(entrant_labels(run.strategies), run.strategies, own, strict=True)
    )
    opponents = tuple(strategy_of(run, fullgame, name) for name in run.opponents) if run.setups else None
    return Comparison(entrants, setup, run.seed, run.games, opponents=opponents, sequential=run.sequential, alpha=ALPHA)


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
    written: dict[str, Any] | None = None,
    entrant_setups: Sequence[tuple[str, Any]] = (),
    opponents: Sequence[str] = (),
) -> ComparisonRun:
    """Store a queued comparison and its first chunks and enqueue them (with the immediate backend it has run on
    return). ``setup``: built by ``shared.selectors.build_setup``. Counts against the user's active runs.
    ``entrant_setups`` (name, set-up), one per entrant of ``strategies``: each entrant plays on its own set-up,
    in its own games against ``opponents`` (one strategy on two set-ups is the same strategy twice)."""
    with transaction.atomic():
        hold_quota(requester, RUNS_UNDER_ONE_QUOTA)
        run = ComparisonRun(
            game=game,
            requester=requester,
            strategies=list(strategies),
            written=dict(written or {}),
            abilities=list(abilities),
            games=games,
            sequential=sequential,
            seed=new_seed() if seed is None else seed,
            language=language,
            setup=setup_to_dict(setup),
            setups=[setup_to_dict(entrant_setup) for _name, entrant_setup in entrant_setups],
            setup_names=[name for name, _setup in entrant_setups],
            opponents=list(opponents),
        )
        comparison = comparison_of(run)
        run.looks = comparison.looks() if sequential else [comparison.max_blocks]
        run.planned = comparison.max_blocks * comparison.seats
        run.save()
        _queue_segment(run, 0, run.looks[0], first_index=0)
    run.refresh_from_db()
    return run


def _queue_segment(run: ComparisonRun, start: int, stop: int, *, first_index: int) -> None:
    """Store and enqueue the chunks of blocks ``start`` to ``stop - 1``, numbered from ``first_index``."""
    size = chunk_blocks()
    chunks = ComparisonChunk.objects.bulk_create(
        ComparisonChunk(run=run, index=first_index + n, first_block=first, last_block=min(first + size, stop))
        for n, first in enumerate(range(start, stop, size))
    )
    for chunk in chunks:
        COMPARISONS.enqueue(chunk.pk)


class ComparisonRuns(JobKind[ComparisonRun, ComparisonChunk, Result]):
    """Comparisons as chunked runs: a chunk plays blocks ``first_block`` to ``last_block - 1`` and keeps their
    ``compare.Result``; a run is played look by look, and when every chunk up to a look is done the run is done
    if it was the last look or (sequential) the leaders differ significantly, otherwise the chunks up to the
    next look are queued."""

    run_model = ComparisonRun
    chunk_model = ComparisonChunk
    result_field = "result"
    failure_codes = failures.MESSAGES
    unit = "blocks"
    run_relations = ("game",)
    chunk_relations = ("run", "run__game")

    def send(self, chunk_id: int) -> Any:
        from ..tasks import play_comparison_chunk

        return play_comparison_chunk.enqueue(chunk_id)

    def play(self, run: ComparisonRun, chunk: ComparisonChunk, report: Callable[[int], bool]) -> Result:
        comparison = comparison_of(run)
        result = empty_result(comparison)
        for start in range(chunk.first_block, chunk.last_block, PROGRESS_BLOCKS):
            stop = min(start + PROGRESS_BLOCKS, chunk.last_block)
            result = result.merge(play_blocks(comparison, start, stop))
            if not report(stop - chunk.first_block):
                break
        return result

    def empty_result(self, run: ComparisonRun) -> Result:
        return empty_result(comparison_of(run))

    def count(self, result: Result) -> int:
        return result.block_count

    def dump(self, result: Result) -> dict[str, Any]:
        return result_to_dict(result)

    def merge(self, run: ComparisonRun, chunks: list[ComparisonChunk], *, all_done: bool) -> Merged:
        comparison = comparison_of(run)
        total = empty_result(comparison)
        for chunk in chunks:
            if chunk.result is not None:
                total = total.merge(result_from_dict(chunk.result))
        looks = len(run.looks)
        summary = report(total, run.strategies, looks=looks, alpha=ALPHA)
        merged = Merged(progress=total.block_count * comparison.seats, result=summary if total.block_count else None)
        if all_done:
            last = run.look >= looks - 1
            leaders = summary["leaders"]
            if last or (run.sequential and leaders and leaders["significant"]):
                summary["stopped_early"] = not last
                merged.done = True
            else:
                start, stop = run.looks[run.look], run.looks[run.look + 1]
                merged.changes["look"] = run.look + 1
                # After the run's row says which look it is at: with the immediate backend the chunks play at once.
                merged.then = lambda: _queue_segment(run, start, stop, first_index=len(chunks))
        return merged

    def progress_per_unit(self, run: ComparisonRun) -> int:
        return _seats(run)  # a block is a game at every seat for each strategy

    def span(self, run: ComparisonRun, chunk: ComparisonChunk) -> tuple[int, int]:
        return chunk.first_block * _seats(run) + 1, chunk.last_block * _seats(run)


def _seats(run: ComparisonRun) -> int:
    return len(run.opponents) + 1 if run.setups else len(run.strategies)


COMPARISONS = ComparisonRuns()
execute_chunk = COMPARISONS.execute_chunk
cancel_comparison = COMPARISONS.cancel
recover_stalled = COMPARISONS.recover_stalled
