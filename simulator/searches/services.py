"""Writes of the strategy searches (``models.StrategySearch``: searches for the best strategy on one set-up): start,
play, cancel and recover. Their life in chunks is ``cardsite.jobs``'s, shared with the Monte Carlo runs and the
comparisons.

Parallel and reproducible
    A search is ``islands`` independent searches (the game's ``SearchHooks``; for エンドブレイカー！SCG the
    evolution of ``endbreaker_game.evolve``), island ``i`` seeded with ``island_seed(seed, i)``. They are played
    in rounds: round ``r`` is one chunk per island playing ``generations_per_chunk`` generations from the state
    that island's chunk of round ``r - 1`` kept, so the islands of a round run side by side on as many workers,
    and a chunk played again (its worker died) starts from the same kept state and plays the same generations.
    The same seed and parameters give the same result however the workers share the chunks (tested).

The result
    In the last round each island's chunk also measures its champion against every shipped strategy over
    ``report_games`` games on seeds the search never used (``SearchHooks.report``: win rate and 95% Wilson
    interval). The island whose champion has the highest lowest interval bound is the result: its strategy in the
    game's strategy syntax, ready to be saved as a written strategy, edited and compared. Islands do not mix:
    one island stuck on a poor champion does not hold back the others, at the price of not sharing what they find.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from django.conf import settings
from django.db import transaction

from cards.models import Game
from cardsite.jobs import JobKind, Merged, hold_quota
from cardsite.jobs import RunQuotaExceeded as RunQuotaExceeded  # the views refuse with it

from .. import failures
from ..fullgames import FullGame, SearchHooks, get_fullgame
from ..inputs import new_seed
from ..models import RUNS_UNDER_ONE_QUOTA, StrategySearch, StrategySearchChunk
from ..shared.results import setup_from_dict, setup_to_dict

MAX_GENERATIONS = 200  # per island, on the page and through the API
MAX_ISLANDS = 4
GENERATIONS_PER_CHUNK = 10
REPORT_GAMES = 400


def island_seed(seed: int, island: int) -> int:
    return seed * 1_000_033 + island


def _hooks(run: StrategySearch) -> tuple[FullGame, SearchHooks, Any]:
    fullgame = get_fullgame(run.game.slug)
    assert fullgame is not None and fullgame.search is not None and fullgame.setup_type is not None
    return fullgame, fullgame.search, setup_from_dict(fullgame.setup_type, run.setup)


def start_search(
    *,
    game: Game,
    requester: Any,
    setup: Any,
    players: int,
    generations: int,
    islands: int,
    abilities: Sequence[str],
    language: str,
    seed: int | None = None,
    generations_per_chunk: int | None = None,
    report_games: int | None = None,
    config: dict[str, Any] | None = None,
) -> StrategySearch:
    """Store a queued search and its first round's chunks and enqueue them (with the immediate backend it has run
    on return). Counts against the user's active runs. What is not given comes from the settings
    ``STRATEGY_SEARCH`` (``generations_per_chunk``, ``report_games``, ``config``), else the defaults here."""
    defaults = getattr(settings, "STRATEGY_SEARCH", {})
    with transaction.atomic():
        hold_quota(requester, RUNS_UNDER_ONE_QUOTA)
        run = StrategySearch.objects.create(
            game=game,
            requester=requester,
            players=players,
            islands=islands,
            generations=generations,
            generations_per_chunk=generations_per_chunk or defaults.get("generations_per_chunk", GENERATIONS_PER_CHUNK),
            report_games=report_games or defaults.get("report_games", REPORT_GAMES),
            config=dict(config if config is not None else defaults.get("config", {})),
            abilities=list(abilities),
            seed=new_seed() if seed is None else seed,
            language=language,
            setup=setup_to_dict(setup),
        )
        _queue_round(run, 0)
    run.refresh_from_db()
    return run


def _queue_round(run: StrategySearch, round_: int) -> None:
    chunks = StrategySearchChunk.objects.bulk_create(
        StrategySearchChunk(run=run, index=round_ * run.islands + island, island=island, round=round_)
        for island in range(run.islands)
    )
    for chunk in chunks:
        SEARCHES.enqueue(chunk.pk)


def best_island(reports: dict[int, dict[str, Any]]) -> int | None:
    """The island whose champion's worst interval against the shipped strategies is highest (ties: the first)."""
    scored = [
        (min(low for _rate, low, _high, _games in report["against"].values()), -island, island)
        for island, report in reports.items()
    ]
    return max(scored)[2] if scored else None


class StrategySearches(JobKind[StrategySearch, StrategySearchChunk, dict[str, Any]]):
    """Strategy searches as chunked runs: a chunk plays one island's generations of one round; the unit is a
    generation; the last round's chunks carry their champion's report, and the run's result names the best."""

    run_model = StrategySearch
    chunk_model = StrategySearchChunk
    result_field = "state"
    failure_codes = failures.MESSAGES
    unit = "generations"
    run_relations = ("game",)
    chunk_relations = ("run", "run__game")

    def send(self, chunk_id: int) -> Any:
        from ..tasks import play_search_chunk

        return play_search_chunk.enqueue(chunk_id)

    def _start(self, run: StrategySearch, chunk: StrategySearchChunk) -> tuple[Any, Any, SearchHooks]:
        """The island's state before the chunk: its previous round's kept state, or a new search."""
        _fullgame, hooks, setup = _hooks(run)
        if chunk.round == 0:
            return hooks.start(island_seed(run.seed, chunk.island), setup, run.players, run.config), setup, hooks
        previous = StrategySearchChunk.objects.get(run=run, round=chunk.round - 1, island=chunk.island)
        return hooks.from_dict(previous.state["search"]), setup, hooks

    def play(self, run: StrategySearch, chunk: StrategySearchChunk, report: Callable[[int], bool]) -> dict[str, Any]:
        state, setup, hooks = self._start(run, chunk)
        first = chunk.round * run.generations_per_chunk
        last = min(first + run.generations_per_chunk, run.generations)
        played = 0
        for _generation in range(first, last):
            state = hooks.step(state, setup, 1)
            played += 1
            if not report(played):
                return {"search": hooks.to_dict(state), "played": played}
        kept: dict[str, Any] = {"search": hooks.to_dict(state), "played": played}
        if last >= run.generations:
            found = hooks.report(state, setup, run.report_games)
            kept["report"] = {"text": found.text, "against": {k: list(v) for k, v in found.against.items()}}
        return kept

    def empty_result(self, run: StrategySearch) -> dict[str, Any]:
        return {"played": 0}

    def count(self, result: dict[str, Any]) -> int:
        return int(result.get("played", 0))

    def dump(self, result: dict[str, Any]) -> dict[str, Any]:
        return result

    def merge(self, run: StrategySearch, chunks: list[StrategySearchChunk], *, all_done: bool) -> Merged:
        progress = sum(chunk.played for chunk in chunks)
        reports = {chunk.island: chunk.state["report"] for chunk in chunks if chunk.state and "report" in chunk.state}
        islands = []
        for chunk in chunks:
            if chunk.state and "search" in chunk.state:
                search = chunk.state["search"]
                island = {"island": chunk.island, "round": chunk.round, "generation": search["generation"]}
                island["champion"] = search["champion"]["text"]
                islands.append(island)
        latest = {island["island"]: island for island in sorted(islands, key=lambda island: island["round"])}
        best = best_island(reports)
        result: dict[str, Any] = {
            "islands": [latest[island] for island in sorted(latest)],
            "best": None
            if best is None
            else {"island": best, "text": reports[best]["text"], "against": reports[best]["against"]},
        }
        merged = Merged(progress=progress, result=result if islands else None)
        if all_done:
            if run.round + 1 >= run.rounds:
                merged.done = True
            else:
                merged.changes["round"] = run.round + 1
                merged.then = lambda: _queue_round(run, run.round + 1)
        return merged

    def progress_per_unit(self, run: StrategySearch) -> int:
        return 1

    def span(self, run: StrategySearch, chunk: StrategySearchChunk) -> tuple[int, int]:
        first = chunk.round * run.generations_per_chunk
        return first + 1, min(first + run.generations_per_chunk, run.generations)


SEARCHES = StrategySearches()
execute_chunk = SEARCHES.execute_chunk
cancel_search = SEARCHES.cancel
recover_stalled = SEARCHES.recover_stalled
