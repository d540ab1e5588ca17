"""The site as production serves it (gunicorn, several processes and threads, DEBUG off, static files
collected, a task worker beside it), on the suite's database engine: concurrency, static files, headers.

These start real processes; each test takes a few seconds.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import signal
import sys
import threading
import time
from collections import Counter

import pytest
import redis
import requests
from django.db import connection

from .servers import ProductionSite, production_site

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "correct horse battery staple"

SETUP = """
import json
from django.contrib.auth.models import User
from accounts.services import token_create
from cards.models import Card, Game
from cards.services import sync_games
from decks import services

PASSWORD = "correct horse battery staple"
sync_games()
game = Game.objects.get(slug="shadowera")
cards = [Card.objects.create(game=game, key=f"TEST-{i:03}", kind="ally") for i in range(12)]
user = User.objects.create_user("builder", password=PASSWORD)
deck = services.create_deck(owner=user, game=game, name="テスト", entries=[("deck", cards[0], 4)])
print(json.dumps({
    "deck": deck.pk,
    "cards": [card.pk for card in cards],
    "keys": [card.key for card in cards],
    "token": token_create(user=user)[1],
}))
"""


def logged_in(site: ProductionSite, username: str = "builder") -> requests.Session:
    session = requests.Session()
    session.get(site.url + "/accounts/login/", timeout=30)
    response = session.post(
        site.url + "/accounts/login/",
        data={"username": username, "password": PASSWORD, "csrfmiddlewaretoken": session.cookies["csrftoken"]},
        allow_redirects=False,
        timeout=30,
    )
    assert response.status_code == 302, response.text[:500]
    return session


def test_concurrent_writers_at_one_deck_lose_nothing_and_get_no_error(tmp_path):
    """Builder "+1" clicks and API count changes from 20 clients at once, while a task worker plays a
    Monte Carlo run of the same deck and saves its progress: every request succeeds and every
    acknowledged change is stored."""
    with production_site(tmp_path) as site:
        data = json.loads(site.django(SETUP))
        deck, cards, keys, token = data["deck"], data["cards"], data["keys"], data["token"]
        api = {"Authorization": f"Token {token}"}
        site.start_worker()
        run = requests.post(
            f"{site.url}/api/simulator/decks/{deck}/simulations/",
            json={"games": 200_000, "turns": 10},
            headers=api,
            timeout=30,
        )
        assert run.status_code == 201, run.text

        failures: list[str] = []
        increments = Counter()
        last_set: dict[str, int] = {}
        lock = threading.Lock()

        def clicker(card: int) -> None:
            session = logged_in(site)
            for _ in range(8):
                response = session.post(
                    f"{site.url}/decks/{deck}/edit/entry/",
                    data={"zone": "deck", "card": card, "delta": 1},
                    headers={"X-CSRFToken": session.cookies["csrftoken"], "HX-Request": "true"},
                    timeout=60,
                )
                with lock:
                    if response.status_code == 200:
                        increments[card] += 1
                    else:
                        failures.append(f"+1 {response.status_code} {response.text[:200]}")

        def setter(card: str) -> None:
            for value in range(1, 9):
                response = requests.patch(
                    f"{site.url}/api/decks/{deck}/entries/",
                    json={"entries": [{"zone": "deck", "card": card, "count": value}]},
                    headers=api,
                    timeout=60,
                )
                with lock:
                    if response.status_code == 200:
                        last_set[card] = value
                    else:
                        failures.append(f"PATCH {response.status_code} {response.text[:200]}")

        # Half the clients click +1 on two shared cards (so their increments race), half set counts.
        threads = [threading.Thread(target=clicker, args=(cards[index % 2],)) for index in range(10)]
        threads += [threading.Thread(target=setter, args=(keys[2 + index],)) for index in range(10)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(120)

        assert failures == []
        listed = requests.get(f"{site.url}/api/decks/{deck}/entries/", headers=api, timeout=30).json()
        stored = {entry["card"]: entry["count"] for entry in listed}
        assert stored[keys[0]] == 4 + increments[cards[0]] == 4 + 40
        assert stored[keys[1]] == increments[cards[1]] == 40
        for key in keys[2:12]:
            assert stored[key] == last_set[key] == 8
        # The run was being played and saving its progress meanwhile.
        deadline = time.monotonic() + 30
        progress = 0
        while time.monotonic() < deadline and not progress:
            progress = requests.get(run.json()["url"], headers=api, timeout=30).json()["progress"]
            time.sleep(0.2)
        assert progress > 0


def test_static_files_are_served_hashed_and_compressed_with_debug_off(tmp_path):
    with production_site(tmp_path, seed=True) as site:
        page = site.get("/")
        assert page.status_code == 200
        # The stylesheet is inlined in the page (cardsite.stylesheet); its scripts are linked, hashed.
        assert "<style>" in page.text and "/static/css/site." not in page.text
        script = re.search(r'src="(/static/js/site\.[0-9a-f]{12}\.js)"', page.text)
        assert script, "the page links the hashed script"
        js = site.get(script.group(1), headers={"Accept-Encoding": "gzip"})
        assert js.status_code == 200
        assert js.headers["Content-Encoding"] == "gzip"
        assert "immutable" in js.headers["Cache-Control"]
        # Pages travel gzip-compressed too.
        assert site.get("/", headers={"Accept-Encoding": "gzip"}).headers["Content-Encoding"] == "gzip"
        for script in re.findall(r'src="(/static/[^"]+\.js)"', page.text):
            assert site.get(script).status_code == 200, script
        # The builder's and charts' scripts, and the API docs' files.
        assert site.get("/api/docs/").status_code == 200
        assert site.get("/static/vendor/swagger-ui-dist/swagger-ui-bundle.js").status_code == 200


def test_pages_carry_the_security_headers_and_the_sites_own_error_pages(tmp_path):
    with production_site(tmp_path, seed=True) as site:
        page = site.get("/games/endbreaker/")
        policy = page.headers["Content-Security-Policy"]
        assert "script-src 'self'" in policy and "unsafe-inline" not in policy and "unsafe-eval" not in policy
        assert "camera=()" in page.headers["Permissions-Policy"]
        assert page.headers["X-Frame-Options"] == "DENY"
        assert page.headers["X-Content-Type-Options"] == "nosniff"
        # No inline handler or script in what the pages send.
        assert not re.search(r"\son[a-z]+=", page.text)

        missing = site.get("/decks/424242/", headers={"Accept-Language": "zh-Hant"})
        assert missing.status_code == 404
        assert "找不到" in missing.text or "不存在" in missing.text
        assert "URLconf" not in missing.text and "Traceback" not in missing.text
        api_missing = site.get("/api/decks/424242/")
        assert api_missing.status_code == 404 and api_missing.json()["detail"]

        health = site.get("/healthz/").json()
        assert health["status"] == "ok"
        assert {check["name"] for check in health["checks"]} == {"database", "tasks", "cache"}


RUN_SETUP = """
import json
from django.contrib.auth import get_user_model
from decks import services as decks
from simulator import adapters
from simulator.goldfish import services
from simulator.engines import get_engine
from simulator.montecarlo import play_many
from tests.synthetic_decks import card, game, load_synthetic_cards

load_synthetic_cards()
owner = get_user_model().objects.create_user("runner", password="correct horse battery staple")
deck = decks.create_deck(
    owner=owner,
    game=game("suikoden"),
    name="テスト",
    entries=[("characters", card("suikoden", "901"), 20), ("characters", card("suikoden", "902"), 20),
             ("lands", card("suikoden", "903"), 6)],
)
games, turns, seed = {games}, 8, 99
run = services.start_run(deck=deck, requester=owner, games=games, turns=turns, policy="default", params={{}},
                         language="ja", seed=seed)
expected = services.summary_dict(play_many(get_engine("suikoden"), adapters.sim_deck(deck, "ja"), games, turns, seed),
                                 turns=turns, seed=seed)
print(json.dumps({{"run": run.pk, "expected": expected}}))
"""

RUN_STATE = """
import json
from simulator.models import SimulationRun
run = SimulationRun.objects.get(pk={run})
chunks = list(run.chunks.order_by("index").values("status", "worker", "attempts", "played"))
print(json.dumps({{"status": run.status, "result": run.result, "progress": run.progress, "chunks": chunks}}))
"""


def wait_for_run(site: ProductionSite, run: int, *, until, timeout: float = 120, poll=None) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if poll is not None:
            poll()
        state = json.loads(site.django(RUN_STATE.format(run=run)))
        if until(state):
            return state
        time.sleep(0.5)
    raise AssertionError(f"the run did not get there in {timeout} s: {state}\n{site.logs()}")


def test_two_workers_share_one_run_and_find_what_one_process_finds(tmp_path):
    """The first worker is stopped the way an operator stops one (SIGTERM: it finishes the chunk in hand and
    exits) while chunks still wait, and a second worker plays those. Pausing a worker instead (SIGSTOP) can catch
    it while it holds the database's write lock, which no second worker can get past."""
    with production_site(tmp_path, SIMULATION_CHUNK_GAMES="3000", SIMULATION_STALE_SECONDS="600") as site:
        started = json.loads(site.django(RUN_SETUP.format(games=60000)))
        first = site.start_worker()
        state = wait_for_run(
            site,
            started["run"],
            until=lambda state: (
                any(chunk["status"] == "done" for chunk in state["chunks"])
                and sum(chunk["status"] == "queued" for chunk in state["chunks"]) >= 5
            ),
        )
        first.send_signal(signal.SIGTERM)
        first_name = next(chunk["worker"] for chunk in state["chunks"] if chunk["status"] == "done")
        site.start_worker()
        assert first.wait(120) == 0, "the first worker finished its chunk and stopped"
        # 60,000 games, most of them on the second worker: on a loaded 2-core machine this takes minutes.
        state = wait_for_run(site, started["run"], until=lambda state: state["status"] == "done", timeout=360)
        assert state["result"] == started["expected"]
        assert state["progress"] == 60000
        workers = {chunk["worker"] for chunk in state["chunks"]}
        assert len(workers) == 2 and first_name in workers, "both workers played chunks of the run"
        assert all(chunk["attempts"] == 1 for chunk in state["chunks"]), "no chunk was played twice"


def test_a_killed_worker_s_chunk_is_played_again_by_another(tmp_path):
    """SIGKILL leaves no chance to clean up: the chunk stops beating, and the next look at the run (or the next
    chunk a worker starts) gives it to another worker, which plays it from its first game."""
    # Chunks long enough (seconds each) that the worker is surely in the middle of one when it is killed.
    with production_site(tmp_path, SIMULATION_CHUNK_GAMES="25000", SIMULATION_STALE_SECONDS="2") as site:
        started = json.loads(site.django(RUN_SETUP.format(games=50000)))
        first = site.start_worker()
        wait_for_run(
            site,
            started["run"],
            until=lambda state: any(chunk["status"] == "running" and chunk["played"] > 0 for chunk in state["chunks"]),
        )
        first.send_signal(signal.SIGKILL)
        first.wait(10)
        site.start_worker()
        recover = "from cardsite.jobs import recover_all; recover_all()"
        state = wait_for_run(
            site, started["run"], until=lambda state: state["status"] == "done", poll=lambda: site.django(recover)
        )
        assert state["result"] == started["expected"]
        assert max(chunk["attempts"] for chunk in state["chunks"]) == 2


def test_runs_queue_in_redis_for_rq_workers(tmp_path):
    """TASKS_BACKEND=rq: the runs' chunks wait in Redis and `manage.py rqworker` processes play them."""
    # Databases 8-11 for a run on SQLite, 12-15 on PostgreSQL: the README's test command runs both at once.
    database = (12 if connection.vendor == "postgresql" else 8) + secrets.randbelow(4)
    redis_url = f"redis://127.0.0.1:6379/{database}"
    try:
        redis.Redis.from_url(redis_url, socket_connect_timeout=2).flushdb()
    except redis.ConnectionError:
        if os.environ.get("CI"):
            pytest.fail("Redis is required under CI")
        pytest.skip("no Redis at 127.0.0.1:6379")
    try:
        with production_site(
            tmp_path, SIMULATION_CHUNK_GAMES="500", TASKS_BACKEND="rq", TASKS_REDIS_URL=redis_url
        ) as site:
            started = json.loads(site.django(RUN_SETUP.format(games=2000)))
            for _ in range(2):
                site.spawn([sys.executable, "manage.py", "rqworker", "--job-class", "django_tasks_rq.Job", "default"])
            state = wait_for_run(site, started["run"], until=lambda state: state["status"] == "done")
            assert state["result"] == started["expected"]
            health = site.get("/healthz/").json()
            tasks = next(check for check in health["checks"] if check["name"] == "tasks")
            assert tasks["detail"]["backend"] == "rq" and tasks["detail"]["workers"] == 2
    finally:
        redis.Redis.from_url(redis_url).flushdb()
