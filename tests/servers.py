"""The site as it is served in production, for tests that need real processes: gunicorn with several
workers and threads, the database on a file (SQLite) or a server (PostgreSQL) of its own, a task worker.

The test process talks to it over HTTP and prepares data by running Django code in a subprocess
against the same database (``ProductionSite.django``), so that nothing depends on sharing the test
process's connection or transaction. The engine is the one the suite runs on (SQLite, or PostgreSQL
when DATABASE_URL names it), so the same tests run on both.
"""

from __future__ import annotations

import atexit
import os
import secrets
import signal
import socket
import sqlite3
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import psycopg
import requests
from django.db import connection

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
_STATIC_ROOT: Path | None = None


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _postgres_admin_url() -> str:
    url = os.environ.get("DATABASE_URL", "")
    return url.rsplit("/", 1)[0] + "/postgres"


_TEMPLATES: dict[bool, str] = {}  # seeded or not → a database migrated once per test session, copied per site


def _template(tmp_root: Path, *, seed: bool) -> str:
    """The URL of a database migrated (and, with ``seed``, loaded with the seed files) once per test session.
    Each production site starts on a copy of it: migrating costs half a minute on a loaded machine, copying a
    fraction of a second, and a dozen modules start a site."""
    if seed not in _TEMPLATES:
        if connection.vendor == "postgresql":
            admin = _postgres_admin_url()
            name = f"cardsite_tpl_{secrets.token_hex(4)}"
            with psycopg.connect(admin, autocommit=True) as conn:
                conn.execute(f'CREATE DATABASE "{name}"')
            atexit.register(_drop_postgres_database, admin, name)
            url = admin.rsplit("/", 1)[0] + "/" + name
        else:
            tmp_root.mkdir(parents=True, exist_ok=True)
            url = f"sqlite:///{tmp_root / ('template-seeded.sqlite3' if seed else 'template.sqlite3')}"
        environment = base_environment(url)
        manage(environment, "migrate", "--no-input", "-v0")
        if seed:
            manage(environment, "loadcards", "-v0")
        _TEMPLATES[seed] = url
    return _TEMPLATES[seed]


def _drop_postgres_database(admin: str, name: str) -> None:
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@contextmanager
def fresh_database(tmp_path: Path, *, seed: bool = False) -> Iterator[str]:
    """A DATABASE_URL for a database of the suite's engine on the latest schema (with the seed cards when
    ``seed``), copied from the session's template; dropped afterwards."""
    template = _template(tmp_path.parent, seed=seed)
    if connection.vendor == "postgresql":
        admin = _postgres_admin_url()
        name = f"cardsite_srv_{secrets.token_hex(4)}"
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template.rsplit("/", 1)[1]}"')
        try:
            yield admin.rsplit("/", 1)[0] + "/" + name
        finally:
            _drop_postgres_database(admin, name)
    else:
        target = tmp_path / "site.sqlite3"
        # SQLite's backup API copies a consistent database whatever its journal mode.
        with sqlite3.connect(template.removeprefix("sqlite:///")) as source, sqlite3.connect(target) as copy:
            source.backup(copy)
        yield f"sqlite:///{target}"


def base_environment(database_url: str, **extra: str) -> dict[str, str]:
    environment = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DJANGO_SETTINGS_MODULE", "DATABASE_URL", "CACHE_URL", "PYTEST_CURRENT_TEST"}
    }
    environment.update(
        DATABASE_URL=database_url,
        DJANGO_SETTINGS_MODULE="cardsite.settings",
        SECRET_KEY="production-server-test-" + secrets.token_hex(16),
        DEBUG="0",
        SECURE_COOKIES="0",
        LOG_FORMAT="json",
        LOG_LEVEL="WARNING",
        ACCESS_LOG="0",
        CACHE_URL="locmem://",
    )
    if _STATIC_ROOT is not None:
        environment["STATIC_ROOT"] = str(_STATIC_ROOT)
    environment.update(extra)
    return environment


def manage(environment: dict[str, str], *arguments: str, timeout: float = 300) -> str:
    result = subprocess.run(
        [PYTHON, "manage.py", *arguments],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    if result.returncode != 0:
        raise AssertionError(f"manage.py {' '.join(arguments)} failed:\n{result.stdout}\n{result.stderr}")
    return result.stdout


def collected_static(tmp_root: Path) -> Path:
    """collectstatic once per test session into a folder of its own (hashed, compressed files)."""
    global _STATIC_ROOT
    if _STATIC_ROOT is None:
        target = tmp_root / "static"
        environment = base_environment("sqlite:///:memory:", STATIC_ROOT=str(target))
        manage(environment, "collectstatic", "--no-input", "-v0")
        _STATIC_ROOT = target
    return _STATIC_ROOT


@dataclass
class ProductionSite:
    url: str
    environment: dict[str, str]
    log_folder: Path
    processes: list[subprocess.Popen] = field(default_factory=list)

    def django(self, code: str, timeout: float = 120) -> str:
        """Run ``code`` (Django set up, against the site's database) in a subprocess; its standard output."""
        program = "import django\ndjango.setup()\n" + textwrap.dedent(code)
        result = subprocess.run(
            [PYTHON, "-c", program],
            cwd=ROOT,
            env=self.environment,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        if result.returncode != 0:
            raise AssertionError(f"Django code failed:\n{result.stdout}\n{result.stderr}")
        return result.stdout.strip()

    def start_worker(self, *arguments: str) -> subprocess.Popen:
        """A task worker (``manage.py db_worker``) on the site's database."""
        return self.spawn([PYTHON, "manage.py", "db_worker", "--no-reload", "--interval", "0.2", "-v0", *arguments])

    def spawn(self, command: list[str]) -> subprocess.Popen:
        """A process of the site's, in its own process group, its output in a log file; stopped with the site."""
        log = open(self.log_folder / f"process-{len(self.processes)}.log", "w")  # noqa: SIM115 - the process owns it
        process = subprocess.Popen(
            command, cwd=ROOT, env=self.environment, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
        self.processes.append(process)
        return process

    def logs(self) -> str:
        return "\n".join(path.read_text() for path in sorted(self.log_folder.glob("process-*.log")))

    def get(self, path: str, **kwargs) -> requests.Response:
        return requests.get(self.url + path, timeout=30, **kwargs)


def _wait_until_up(site: ProductionSite, process: subprocess.Popen, timeout: float = 60) -> None:
    url = site.url
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"the server exited:\n{site.logs()}")
        try:
            if requests.get(url + "/healthz/", timeout=2).status_code in (200, 503):
                return
        except requests.RequestException:
            pass
        time.sleep(0.2)
    raise AssertionError(f"the server at {url} did not answer within {timeout} s")


def stop(process: subprocess.Popen, timeout: float = 20) -> None:
    if process.poll() is not None:
        return
    os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(5)


@contextmanager
def _given_database(database_url: str) -> Iterator[str]:
    yield database_url


@contextmanager
def production_site(
    tmp_path: Path,
    *,
    seed: bool = False,
    workers: int = 2,
    threads: int = 4,
    database_url: str | None = None,
    **extra_environment: str,
) -> Iterator[ProductionSite]:
    """gunicorn serving the site (DEBUG off, static files collected) on a fresh database on the latest schema
    (with the seed cards when ``seed``), or on ``database_url`` as it is (not migrated)."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    static_root = collected_static(tmp_path.parent)
    database = _given_database(database_url) if database_url else fresh_database(tmp_path, seed=seed)
    with database as url:
        port = free_port()
        environment = base_environment(
            url,
            STATIC_ROOT=str(static_root),
            ADDRESS=f"127.0.0.1:{port}",
            WEB_WORKERS=str(workers),
            WEB_THREADS=str(threads),
            **extra_environment,
        )
        if seed and database_url is not None:
            manage(environment, "loadcards", "-v0")
        site = ProductionSite(f"http://127.0.0.1:{port}", environment, tmp_path)
        server = site.spawn([PYTHON, "-m", "gunicorn", "-c", "cardsite/gunicorn.conf.py", "cardsite.wsgi"])
        try:
            _wait_until_up(site, server)
            yield site
        finally:
            for process in reversed(site.processes):
                stop(process)
