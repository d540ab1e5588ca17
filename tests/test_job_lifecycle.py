"""Background jobs (Monte Carlo runs, photo readings, …) share one lifecycle: looking at a job only reads (the
workers recover stalled work, not a page's GET), and a run's simulated odds are drawn once, not at every poll."""

from __future__ import annotations

import io
from datetime import timedelta

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from PIL import Image

from cardsite import jobs
from readings import services as reading_services
from readings.models import PhotoReading
from simulator import adapters, inputs, tables
from simulator.engines import get_engine
from simulator.goldfish import services
from simulator.models import SimulationChunk
from simulator.tasks import play_chunk

from .support.clients import signed_in
from .synthetic_decks import game
from .users import make_user

pytestmark = pytest.mark.django_db

DUMMY = {"default": {"BACKEND": "django_tasks.backends.dummy.DummyBackend"}}
WRITES = ("INSERT", "UPDATE", "DELETE")


def long_ago():
    return timezone.now() - timedelta(hours=1)


def writes_of(client: Client, path: str) -> list[str]:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(path).status_code == 200
    return [query["sql"] for query in queries.captured_queries if query["sql"].lstrip().upper().startswith(WRITES)]


def test_looking_at_a_run_with_a_stalled_chunk_writes_nothing_and_a_worker_recovers_it(deck, owner, settings):
    settings.TASKS = DUMMY
    run = services.start_run(
        deck=deck, requester=owner, games=600, turns=6, policy="default", params={}, language="en", seed=3
    )
    (chunk,) = run.chunks.all()
    SimulationChunk.objects.filter(pk=chunk.pk).update(
        status="running", attempts=1, played=100, heartbeat_at=long_ago()
    )
    client = signed_in(owner)
    for path in (f"/api/simulator/simulations/{run.pk}/", f"/simulator/decks/{deck.pk}/simulate/{run.pk}/"):
        assert writes_of(client, path) == [], path
    chunk.refresh_from_db()
    assert chunk.status == "running"  # nobody's look gave it back: still the vanished worker's

    call_command("recover_jobs", stdout=io.StringIO())  # a worker's recovery pass (or the timer's)
    chunk.refresh_from_db()
    assert chunk.status == "queued" and chunk.played == 0
    assert play_chunk.call(chunk.pk) is not None
    run.refresh_from_db()
    assert run.status == "done" and run.progress == 600


def test_looking_at_a_batch_of_photos_with_a_stalled_reading_writes_nothing(owner, synthetic_cards, settings, tmp_path):
    settings.TASKS = DUMMY
    settings.MEDIA_ROOT = str(tmp_path / "media")
    picture = io.BytesIO()
    Image.new("RGB", (300, 420), (200, 30, 30)).save(picture, "PNG")
    reader = make_user("jobs-reader")
    upload = SimpleUploadedFile("p.png", picture.getvalue(), content_type="image/png")
    batch = reading_services.reading_batch_create(user=reader, game=game("endbreaker"), files=[upload])
    photo = batch.photos.get()
    PhotoReading.objects.filter(pk=photo.pk).update(status="running", attempts=1, progress=10, heartbeat_at=long_ago())
    client = signed_in(reader)
    for path in (f"/api/readings/{batch.pk}/", f"/readings/photos/{batch.pk}/"):
        assert writes_of(client, path) == [], path
    photo.refresh_from_db()
    assert photo.status == "running"
    assert jobs.recover_all() == 1
    photo.refresh_from_db()
    assert photo.status == "queued"


def test_the_simulated_odds_of_a_run_are_drawn_once_not_at_every_poll(deck, owner, settings, monkeypatch):
    settings.TASKS = DUMMY
    settings.SIMULATION_CHUNK_GAMES = 300
    drawn = []
    real = tables.draw_odds

    def counting(*args, **kwargs):
        drawn.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(tables, "draw_odds", counting)
    run = services.start_run(
        deck=deck, requester=owner, games=900, turns=6, policy="default", params={}, language="en", seed=5
    )
    for chunk in run.chunks.order_by("index"):
        play_chunk.call(chunk.pk)
    run.refresh_from_db()
    assert run.status == "done"
    client = signed_in(owner)
    pages = [client.get(f"/simulator/decks/{deck.pk}/simulate/{run.pk}/", HTTP_HX_REQUEST="true") for _ in range(5)]
    assert all(page.status_code == 200 for page in pages)
    assert "odds" in pages[-1].content.decode().lower()
    assert len(drawn) == 1  # as the first chunk merged; five polls drew nothing

    # What the page shows is what drawing the odds for this look would have shown.
    def table():
        simdeck = adapters.sim_deck(deck, "en")
        return tables.exact_table(get_engine("suikoden"), simdeck, first_player=True, turns=inputs.ODDS_TURNS)

    kept, drawn_now = table(), table()
    tables.fill_simulated(kept, run.odds)
    tables.add_simulated(drawn_now, 900, run.seed)
    assert [row.simulated for row in kept.rows] == [row.simulated for row in drawn_now.rows]
    assert all(row.simulated for row in kept.rows)
