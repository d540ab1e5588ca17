"""After a deploy no kept page of the old code is given out (cardsite.release, cardsite.pagecache): every kept
answer is keyed by the release that rendered it, named by the environment or fingerprinted from the served files."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from cardsite import release

from .synthetic_decks import load_synthetic_cards

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def page_cache(settings):
    settings.PAGE_CACHE = True
    load_synthetic_cards()


def queries_for(path: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert Client().get(path).status_code == 200
    return len(queries)


def test_a_page_kept_by_one_release_is_rendered_afresh_by_the_next(monkeypatch):
    path = "/games/suikoden/cards/901/"
    assert queries_for(path) > 0
    assert queries_for(path) == 0  # kept
    monkeypatch.setattr(release, "identity", lambda: "the-next-release")
    assert queries_for(path) > 0  # the new code renders it
    assert queries_for(path) == 0  # and keeps its own


@pytest.fixture
def site_files(tmp_path, settings):
    (tmp_path / "templates").mkdir()
    (tmp_path / "templates" / "page.html").write_text("<p>one</p>")
    (tmp_path / "cards").mkdir()
    (tmp_path / "cards" / "views.py").write_text("ANSWER = 1\n")
    settings.BASE_DIR = tmp_path
    release.identity.cache_clear()
    yield tmp_path
    release.identity.cache_clear()


def test_the_release_is_a_fingerprint_of_the_served_files(site_files, monkeypatch):
    monkeypatch.delenv("RELEASE", raising=False)
    first = release.identity()
    release.identity.cache_clear()
    assert release.identity() == first  # the same files, the same release (every process and machine agrees)
    (site_files / "tests").mkdir()
    (site_files / "tests" / "test_x.py").write_text("pass\n")  # a test serves nothing
    release.identity.cache_clear()
    assert release.identity() == first
    (site_files / "templates" / "page.html").write_text("<p>two</p>")
    release.identity.cache_clear()
    assert release.identity() != first


def test_a_deployment_can_name_its_release(site_files, monkeypatch):
    monkeypatch.setenv("RELEASE", "4f2a9c1")
    assert release.identity() == "4f2a9c1"
