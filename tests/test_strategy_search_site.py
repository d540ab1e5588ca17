"""Searching for the best strategy of エンドブレイカー！SCG on a set-up, on the site and through the API:
several searches side by side in chunks on the task workers, reproducible from the seed however the
chunks fall, the result in the strategy syntax with its win rate and interval against every shipped strategy,
saved as a written strategy to edit and compare. Synthetic cards only (the pool of
tests/test_endbreaker_compare_site.py); the search's parameters are made small so that it runs in seconds."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from simulator.engines.endbreaker_game import STRATEGIES, parse_strategy
from simulator.models import StrategySearch, StrategySearchChunk, WrittenStrategy

from .support.clients import signed_in

PAGES = "/simulator/games/endbreaker/search/"
API = "/api/simulator/games/endbreaker/searches/"
SMALL = {"offspring": 3, "games": 12, "finalists": 1, "confirm_games": 40}


@pytest.fixture
def small_searches_now(settings, immediate_tasks):
    settings.STRATEGY_SEARCH = {"generations_per_chunk": 2, "report_games": 24, "config": SMALL}


def test_a_search_started_on_the_page_plays_its_islands_in_rounds_and_reports_against_every_shipped_one(
    whole_game_pool, owner, small_searches_now
):
    client = signed_in(owner, "en")
    started = client.post(PAGES, {"players": 2, "generations": 5, "islands": 2})
    run = StrategySearch.objects.get()
    assert started.status_code == 302 and started["Location"] == f"{PAGES}{run.pk}/"
    assert run.status == "done" and run.progress == 10 == run.planned
    chunks = StrategySearchChunk.objects.filter(run=run)
    assert chunks.count() == 6  # 2 islands × 3 rounds (2 + 2 + 1 generations)
    assert sorted(chunk.played for chunk in chunks) == [1, 1, 2, 2, 2, 2]
    best = run.result["best"]
    assert set(best["against"]) == set(STRATEGIES)
    for rate, low, high, games, stopped in best["against"].values():
        assert low <= rate <= high and games == 24 and 0 <= stopped <= games
    parse_strategy(best["text"], name="found")  # the syntax players write
    page = client.get(started["Location"]).content.decode()
    assert "The strategy found" in page and "95% interval (Wilson)" in page and "gain" in page


def test_the_same_seed_finds_the_same_strategy_however_the_chunks_fall(
    whole_game_pool, owner, small_searches_now, settings
):
    api = APIClient()
    api.force_authenticate(owner)
    body = {"generations": 4, "islands": 2, "seed": 5}
    first = api.post(API, body, format="json").json()
    settings.STRATEGY_SEARCH = {**settings.STRATEGY_SEARCH, "generations_per_chunk": 4}
    second = api.post(API, body, format="json").json()
    assert first["status"] == second["status"] == "done"
    assert first["result"]["best"] == second["result"]["best"]
    assert StrategySearchChunk.objects.filter(run_id=first["id"]).count() == 4
    assert StrategySearchChunk.objects.filter(run_id=second["id"]).count() == 2


def test_the_strategy_found_is_saved_as_my_own_to_edit_and_compare(whole_game_pool, owner, other, small_searches_now):
    client = signed_in(owner, "en")
    client.post(PAGES, {"players": 2, "generations": 2, "islands": 1})
    run = StrategySearch.objects.get()
    theirs = signed_in(other, None)
    assert theirs.get(f"{PAGES}{run.pk}/").status_code == 404
    assert theirs.post(f"{PAGES}{run.pk}/save/").status_code == 404
    saved = client.post(f"{PAGES}{run.pk}/save/", {"name": "Searched"})
    assert saved.status_code == 302
    strategy = WrittenStrategy.objects.get()
    assert saved["Location"] == f"/simulator/games/endbreaker/strategies/{strategy.pk}/"
    assert strategy.name == "Searched" and strategy.text == run.result["best"]["text"]
    assert strategy.owner == owner and strategy.visibility == "private"


def test_bad_input_is_refused_by_field_and_nothing_is_queued(whole_game_pool, owner, small_searches_now):
    api = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    api.force_authenticate(owner)
    for body, field in (({"generations": 0}, "generations"), ({"islands": 9}, "islands"), ({"players": 1}, "players")):
        answer = api.post(API, body, format="json")
        assert answer.status_code == 400 and field in answer.json()["errors"]
    assert not StrategySearch.objects.exists()
