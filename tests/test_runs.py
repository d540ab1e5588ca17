"""Monte Carlo runs played in chunks: the same result however the games are split and whoever plays them,
chunks of a vanished worker played again (or the run failed, keeping its games), cancelled runs settling.

The tests with real worker processes (two workers at once, a worker killed) are in
tests/test_production_server.py.
"""

from __future__ import annotations

import io
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.test import Client
from django.utils import timezone, translation

from simulator import adapters
from simulator.engines import get_engine
from simulator.goldfish import services
from simulator.models import SimulationChunk, SimulationRun
from simulator.montecarlo import play_many
from simulator.tasks import play_chunk

IMMEDIATE = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"}}
DUMMY = {"default": {"BACKEND": "django_tasks.backends.dummy.DummyBackend"}}
Chunk = SimulationChunk.Status


def expected_result(deck, games: int, turns: int, seed: int) -> dict:
    """What one process playing every game in a row finds."""
    summary = play_many(get_engine("suikoden"), adapters.sim_deck(deck, "ja"), games, turns, seed)
    return services.summary_dict(summary, turns=turns, seed=seed)


def start(deck, owner, games: int = 1000, seed: int = 7, language: str = "ja") -> SimulationRun:
    return services.start_run(
        deck=deck, requester=owner, games=games, turns=8, policy="default", params={}, language=language, seed=seed
    )


def stall(chunk: SimulationChunk, attempts: int = 1) -> None:
    """As a worker that claimed the chunk and then vanished would leave it."""
    SimulationChunk.objects.filter(pk=chunk.pk).update(
        status=Chunk.RUNNING, attempts=attempts, played=250, heartbeat_at=timezone.now() - timedelta(minutes=5)
    )


@pytest.mark.parametrize("chunk_games", [1000, 300, 7])
def test_a_run_in_chunks_finds_what_one_process_finds(deck, owner, settings, chunk_games):
    settings.TASKS = IMMEDIATE
    settings.SIMULATION_CHUNK_GAMES = chunk_games
    run = start(deck, owner, games=1000)
    assert run.chunks.count() == -(-1000 // chunk_games)
    assert run.status == "done" and run.progress == 1000
    assert run.result == expected_result(deck, 1000, 8, 7)


def test_chunks_played_in_any_order_add_up_to_the_same_result(deck, owner, settings):
    settings.TASKS = DUMMY
    settings.SIMULATION_CHUNK_GAMES = 250
    run = start(deck, owner)
    chunks = list(run.chunks.order_by("-index"))
    for chunk in chunks[:-1]:
        play_chunk.call(chunk.pk)
        run.refresh_from_db()
        assert run.status == "running" and run.progress == 250 * (chunks.index(chunk) + 1)
    play_chunk.call(chunks[-1].pk)
    run.refresh_from_db()
    assert run.status == "done"
    assert run.result == expected_result(deck, 1000, 8, 7)


def test_a_chunk_whose_worker_vanished_is_played_again(deck, owner, settings):
    settings.TASKS = DUMMY
    settings.SIMULATION_CHUNK_GAMES = 500
    run = start(deck, owner)
    first, second = run.chunks.order_by("index")
    stall(first)
    # Still beating within the limit: left alone.
    SimulationChunk.objects.filter(pk=second.pk).update(status=Chunk.RUNNING, heartbeat_at=timezone.now(), attempts=1)
    assert services.recover_stalled() == 1
    first.refresh_from_db()
    assert first.status == Chunk.QUEUED and first.played == 0 and first.attempts == 1
    SimulationChunk.objects.filter(pk=second.pk).update(status=Chunk.QUEUED, attempts=0)
    play_chunk.call(first.pk)
    play_chunk.call(second.pk)
    run.refresh_from_db()
    first.refresh_from_db()
    assert first.attempts == 2
    assert run.status == "done" and run.result == expected_result(deck, 1000, 8, 7)


def test_the_workers_recovery_pass_notices_a_vanished_worker_and_looking_at_the_run_does_not(deck, owner, settings):
    settings.TASKS = DUMMY
    run = start(deck, owner)
    (chunk,) = run.chunks.all()
    stall(chunk)
    client = Client()
    client.force_login(owner)
    assert client.get(f"/api/simulator/simulations/{run.pk}/").status_code == 200
    chunk.refresh_from_db()
    assert chunk.status == Chunk.RUNNING  # a look only reads
    call_command("recover_jobs", stdout=io.StringIO())
    chunk.refresh_from_db()
    assert chunk.status == Chunk.QUEUED


def test_a_chunk_that_stalls_too_often_fails_the_run_keeping_the_games_played(deck, owner, settings):
    settings.TASKS = DUMMY
    settings.SIMULATION_CHUNK_GAMES = 500
    run = start(deck, owner, language="en")
    first, second = run.chunks.order_by("index")
    play_chunk.call(second.pk)
    stall(first, attempts=services.MAX_ATTEMPTS)
    services.recover_stalled()
    run.refresh_from_db()
    assert run.status == "failed" and run.error_code == "workers_stopped"
    with translation.override("en"):
        assert "1 to 500" in run.error_message and "3 times" in run.error_message
    # Put into words in the reader's language, whichever language the run was started in.
    with translation.override("ja"):
        assert "1" in run.error_message and "500" in run.error_message and "to 500" not in run.error_message
    assert run.result["games"] == 500 and run.progress == 500
    assert run.finished_at is not None


def test_a_worker_stopped_mid_chunk_gives_the_chunk_back(deck, owner, settings, monkeypatch):
    settings.TASKS = DUMMY
    run = start(deck, owner)
    (chunk,) = run.chunks.all()

    def stopped(chunk, done):
        raise SystemExit(1)

    monkeypatch.setattr(services.MONTE_CARLO, "beat", stopped)
    with pytest.raises(SystemExit):
        play_chunk.call(chunk.pk)
    chunk.refresh_from_db()
    run.refresh_from_db()
    assert chunk.status == Chunk.QUEUED and run.status == "running"
    monkeypatch.undo()
    play_chunk.call(chunk.pk)
    run.refresh_from_db()
    assert run.status == "done" and run.result == expected_result(deck, 1000, 8, 7)


def test_a_run_cancelled_while_a_chunk_plays_keeps_polling_until_it_is_saved(deck, owner, settings):
    settings.TASKS = DUMMY
    run = start(deck, owner)
    (chunk,) = run.chunks.all()
    SimulationChunk.objects.filter(pk=chunk.pk).update(status=Chunk.RUNNING, attempts=1, heartbeat_at=timezone.now())
    services.cancel_run(run)
    assert run.status == "cancelled" and run.settling
    client = Client()
    client.force_login(owner)
    page = client.get(f"/simulator/decks/{deck.pk}/simulate/{run.pk}/").content.decode()
    assert 'hx-trigger="every 1s"' in page
    # The chunk notices at its next report and keeps what it played.
    services.MONTE_CARLO.close_chunk(SimulationChunk.objects.get(pk=chunk.pk), services.Tally(8), Chunk.CANCELLED)
    run.refresh_from_db()
    assert not run.settling and run.finished_at is not None
    assert 'hx-trigger="every 1s"' not in client.get(f"/simulator/decks/{deck.pk}/simulate/{run.pk}/").content.decode()


def test_an_error_in_a_chunk_fails_the_run_with_the_message(deck, owner, settings, monkeypatch):
    settings.TASKS = DUMMY
    run = start(deck, owner)
    (chunk,) = run.chunks.all()

    def broken(*args, **kwargs):
        raise ValueError("テスト用の故障")

    monkeypatch.setattr(services, "play_range", broken)
    with pytest.raises(ValueError):
        play_chunk.call(chunk.pk)
    run.refresh_from_db()
    assert run.status == "failed" and run.error_code == "unexpected"
    assert run.error == "テスト用の故障"  # what the exception said, kept for the staff and the logs
    with translation.override("zh-hant"):
        assert "テスト用の故障" not in run.error_message and run.error_message


def test_a_run_whose_deck_lost_its_cards_fails_naming_the_zone_in_the_readers_language(deck, owner, settings):
    settings.TASKS = DUMMY
    run = start(deck, owner, language="ja")
    (chunk,) = run.chunks.all()
    deck.entries.filter(zone="characters").delete()  # emptied after the run was queued
    with pytest.raises(services.RunError):
        play_chunk.call(chunk.pk)
    run.refresh_from_db()
    assert run.status == "failed" and run.error_code == "deck_not_ready"
    zone = adapters.zone_labels("suikoden", "characters")
    for language in ("ja", "zh-hant", "en"):
        with translation.override(language):
            assert zone[language] in run.error_message
    client = Client()
    client.force_login(owner)
    body = client.get(f"/api/simulator/simulations/{run.pk}/", HTTP_ACCEPT_LANGUAGE="en").json()
    assert body["error_code"] == "deck_not_ready" and zone["en"] in body["error"]
