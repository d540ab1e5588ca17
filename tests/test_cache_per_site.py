"""Two sites on one Redis: each reads only its own cached pages and counts only its own requests.

The two sites' cache settings come from the settings module itself, loaded as each site would load it
(its own database, the same CACHE_URL), so this checks what an operator gets without configuring a prefix."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import redis
from django.test import Client, override_settings

from cards.models import Card
from cardsite import pagecache

# Database 3 for a run on SQLite, 4 on PostgreSQL: the README's test command runs both at once.
REDIS_URL = f"redis://127.0.0.1:6379/{4 if os.environ.get('DATABASE_URL', '').startswith('postgres') else 3}"
ROOT = Path(__file__).resolve().parent.parent


def site_caches(**environment: str) -> dict[str, Any]:
    """``settings.CACHES`` of a site started with ``environment`` (a process of its own, as a server is)."""
    env = {key: value for key, value in os.environ.items() if not key.startswith(("DJANGO_", "CACHE_", "DATABASE_"))}
    env.update(SECRET_KEY="synthetic-test-key", CACHE_URL=REDIS_URL, **environment)
    script = "import json; from cardsite import settings; print(json.dumps(settings.CACHES))"
    out = subprocess.run([sys.executable, "-c", script], env=env, cwd=ROOT, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


@pytest.fixture(scope="module")
def two_sites(tmp_path_factory) -> tuple[dict[str, Any], dict[str, Any]]:
    try:
        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2).flushdb()
    except redis.ConnectionError:
        pytest.skip("no Redis at 127.0.0.1:6379")
    folder = tmp_path_factory.mktemp("sites")
    first = site_caches(DATABASE_URL=f"sqlite:///{folder / 'first.sqlite3'}")
    second = site_caches(DATABASE_URL=f"sqlite:///{folder / 'second.sqlite3'}")
    yield first, second
    redis.Redis.from_url(REDIS_URL).flushdb()


@contextmanager
def serving_as(caches: dict[str, Any], **more: Any) -> Iterator[None]:
    """Serve as a fresh server process of the site whose cache settings are ``caches``: a process keeps the
    pages and versions it saw in memory, and another site's process would not have them."""
    pagecache._local_pages.pages.clear()
    pagecache._memo.clear()
    with override_settings(CACHES=caches, PAGE_CACHE=True, **more):
        yield


def test_the_sites_do_not_share_a_rate_limit_count(two_sites, settings, synthetic_cards):
    first, second = two_sites
    limits = {**settings.RATE_LIMITS, "search": "2/min"}
    with serving_as(first, RATE_LIMITS=limits):
        # Each a different search: a cached page would be answered before the limit is asked.
        answers = [Client().get("/search/", {"q": f"synthetic-{n}"}).status_code for n in range(3)]
    assert answers == [200, 200, 429]
    with serving_as(second, RATE_LIMITS=limits):
        assert Client().get("/search/", {"q": "synthetic-9"}).status_code == 200


def test_the_sites_do_not_serve_each_others_cached_pages(two_sites, synthetic_cards):
    first, second = two_sites
    address = "/api/cards/suikoden/901/"
    with serving_as(first):
        before = Client().get(address).json()
    # The card changes without telling any cache (as it would in the second site's own database).
    Card.objects.filter(game__slug="suikoden", key="901").update(number="synthetic-2nd")
    with serving_as(second):
        seen = Client().get(address).json()
    assert seen["number"] == "synthetic-2nd"
    with serving_as(first):
        assert Client().get(address).json() == before  # the first site's own copy, still its own


def test_the_processes_of_one_site_share_their_cache(tmp_path):
    same = f"sqlite:///{tmp_path / 'one.sqlite3'}"
    assert (
        site_caches(DATABASE_URL=same)["default"]["KEY_PREFIX"]
        == site_caches(DATABASE_URL=same)["default"]["KEY_PREFIX"]
    )
    assert site_caches(DATABASE_URL=same, CACHE_KEY_PREFIX="chosen")["default"]["KEY_PREFIX"] == "chosen"
