"""The release a process serves (cardsite.release), by which every kept page is keyed: named by the environment
or fingerprinted from the served files. tests/test_pagecache.py: a page kept by one release is not given out by
the next."""

from __future__ import annotations

import pytest

from cardsite import release


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
