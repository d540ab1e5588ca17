"""The site as production serves it (gunicorn, several processes and threads, DEBUG off, static files
collected, a task worker beside it), on the suite's database engine: concurrency, static files, headers.

These start real processes; each test takes a few seconds.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections import Counter

import pytest
import requests

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
            f"{site.url}/api/decks/{deck}/simulations/", json={"games": 200_000, "turns": 10}, headers=api, timeout=30
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
        stylesheet = re.search(r'href="(/static/css/site\.[0-9a-f]{12}\.css)"', page.text)
        assert stylesheet, "the page links the hashed stylesheet"
        css = site.get(stylesheet.group(1), headers={"Accept-Encoding": "gzip"})
        assert css.status_code == 200
        assert css.headers["Content-Encoding"] == "gzip"
        assert "immutable" in css.headers["Cache-Control"]
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
