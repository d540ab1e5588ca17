"""Files that hold password hashes and token digests are readable by their owner only (0600), whatever the umask:
a backup, and the SQLite database file the site creates (with its write-ahead log).
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.db.utils import ConnectionHandler

from cardsite import backup

from .users import make_user


@pytest.fixture
def open_umask() -> Iterator[None]:
    """The usual umask of a server account: new files world-readable (0644)."""
    previous = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(previous)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.mark.django_db
def test_a_backup_is_readable_by_its_owner_only(tmp_path, open_umask):
    make_user("test-hashed")  # a password hash in the backup
    path = tmp_path / "site.jsonl.gz"
    backup.write_backup(path)
    assert mode(path) == 0o600
    # A backup written over an old world-readable one is private too.
    path.chmod(0o644)
    backup.write_backup(path)
    assert mode(path) == 0o600


@pytest.mark.django_db  # lets pytest-django open connections at all; the file is a new one, not the test database
def test_a_sqlite_database_file_the_site_creates_is_readable_by_its_owner_only(tmp_path, open_umask):
    path = tmp_path / "site.sqlite3"
    handler = ConnectionHandler({"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": str(path)}})
    database = handler["default"]
    try:
        with database.cursor() as cursor:
            cursor.execute("CREATE TABLE secret (digest TEXT)")
        with database.cursor() as cursor:
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("INSERT INTO secret VALUES ('synthetic')")
        assert mode(path) == 0o600
        for sibling in (Path(f"{path}-wal"), Path(f"{path}-shm")):
            if sibling.exists():
                assert mode(sibling) == 0o600
    finally:
        database.close()


@pytest.mark.django_db
def test_an_existing_world_readable_database_file_is_made_private_when_opened(tmp_path, open_umask):
    path = tmp_path / "old.sqlite3"
    path.touch(mode=0o644)
    path.chmod(0o644)
    handler = ConnectionHandler({"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": str(path)}})
    database = handler["default"]
    try:
        database.ensure_connection()
        assert mode(path) == 0o600
    finally:
        database.close()
