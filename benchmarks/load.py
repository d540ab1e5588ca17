"""Requests per second and latency of the production server, against the ceiling of the stack.

    python benchmarks/load.py [--seconds 2] [--runs 5] [--workers 2] [--database-url postgres://…/cardsite_load]
        [--port N]

Starts the site as production serves it (gunicorn with the project's config, DEBUG off, static files
collected, the seed cards loaded, on loopback only) on a database of its own (a SQLite file in a
temporary folder, or a fresh PostgreSQL database created and dropped), and drives it with wrk (Debian's
package; installed with apt when missing and run as root). For each page it reports requests/s, p50,
p95 and the slowest request at concurrency 10 and 50, with the error count (non-2xx answers and socket
errors). Beside them, in the same run and under the same server, a bare Django view that returns a
constant response through the same middleware: that is the ceiling of this stack on this machine.

Each row is the best of ``--runs`` short runs (by requests/s; its p50 and p95 are that run's), each
with fresh connections, taken in rounds (every row once, then again) so that other work on the machine
does not fall on one row's runs only; the slowest request and the errors are those of all the runs. gunicorn's
processes share one listening socket and the kernel wakes them all for each new connection, so wrk's
keep-alive connections split between them at random: a run whose connections mostly landed in one
process measures one core (seen: rows of any page, the bare view's included, at either ~2,200 or ~950
requests/s). Several short runs give every row the even split a server with many clients sees.

Rate limits are turned off for the run (RATE_LIMITS=…=off): they would answer most of these requests
429, which measures the limit, not the site. Everything else is the production configuration.

Rows marked * are signed-in readers, whose pages are not shared with anyone (each request sends a session
cookie made in the set-up; their pages are kept for each reader's session, cardsite.pagecache.kept_for_reader): the
owner's builder search, deck page and goldfish hand, and another reader's view of the deck published with 20
comments.

Goal: every page at least half the bare view's requests/s, with p95 at most 3× the bare
view's, and zero errors; at concurrency 50, no request slower than 1 s. A signed-in row: at least a third of
the bare view's requests/s, zero errors, and at concurrency 50 no request slower than 1 s.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable

# wrk prints one JSON line from its done() callback.
WRK_SCRIPT = """
local method, body, content_type = os.getenv("WRK_METHOD"), os.getenv("WRK_BODY"), os.getenv("WRK_TYPE")
local cookie = os.getenv("WRK_COOKIE")
if cookie and cookie ~= "" then wrk.headers["Cookie"] = cookie end
if method and method ~= "" then wrk.method = method end
if body and body ~= "" then wrk.body = body end
if content_type and content_type ~= "" then wrk.headers["Content-Type"] = content_type end
wrk.headers["Accept-Language"] = "ja"
done = function(summary, latency, requests)
  local errors = summary.errors.connect + summary.errors.read + summary.errors.write
                 + summary.errors.timeout + summary.errors.status
  io.write(string.format('{"requests": %d, "seconds": %f, "errors": %d, "p50": %f, "p95": %f, "max": %f}\\n',
    summary.requests, summary.duration / 1e6, errors,
    latency:percentile(50) / 1000, latency:percentile(95) / 1000, latency.max / 1000))
end
"""

SETUP = """
import json
from django.contrib.auth import get_user_model
from cards.models import Card
from decks import services
from cards.models import Game

owner = get_user_model().objects.create_user("load", password="load-benchmark-password-1")
game = Game.objects.get(slug="suikoden")
characters = list(Card.objects.filter(game=game, kind="character"))
lands = list(Card.objects.filter(game=game, kind="land"))
entries = [("characters", card, 1) for card in characters] + [("lands", card, 2) for card in lands]
deck = services.create_deck(owner=owner, game=game, name="負荷テスト", visibility="link", entries=entries)
body = {"game": "suikoden", "entries": [{"zone": z, "card": c.key, "count": n} for z, c, n in entries]}

# Signed-in readers, whose pages are kept for each of them only: the deck's owner, and a reader of its publication,
# which carries comment threads from both (replies included), as a discussed deck does.
from django.test import Client
from community import services as community

reader = get_user_model().objects.create_user("load-reader", password="load-benchmark-password-2")
publication = community.publish(deck, user=owner, title="負荷テスト公開", description="**説明**と[リンク](https://example.org/)")
for index in range(20):  # a third of them with a reply
    author = (owner, reader)[index % 2]
    comment = community.add_comment(publication, author=author, body=f"コメント{index}：*強調*と本文。")
    if index % 3 == 0:
        community.add_comment(publication, author=(reader, owner)[index % 2], body=f"返信{index}。", parent=comment)


def session_cookie(user):
    # A signed-in browser also holds the CSRF cookie its first page set; without it every answer would make and
    # set a new one, which no real reader's second page pays.
    from django.middleware.csrf import CSRF_SECRET_LENGTH
    from django.utils.crypto import get_random_string

    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}; csrftoken={get_random_string(CSRF_SECRET_LENGTH)}"


print(json.dumps({
    "deck": deck.pk, "share_token": deck.share_token, "validate_body": body, "publication": publication.pk,
    "owner_cookie": session_cookie(owner), "reader_cookie": session_cookie(reader),
}))
"""


@dataclass
class Target:
    name: str
    path: str
    method: str = "GET"
    body: str = ""
    cookie: str = ""  # a session: a signed-in reader, whose pages are kept for them only
    signed_in_goal: bool = False  # judged by the signed-in readers' goal (a third of the bare view's req/s)


@dataclass
class Result:
    requests_per_second: float
    p50: float
    p95: float
    slowest: float
    errors: int


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def ensure_wrk() -> str:
    found = shutil.which("wrk")
    if found:
        return found
    if os.geteuid() == 0 and shutil.which("apt-get"):
        subprocess.run(["apt-get", "install", "-y", "-qq", "wrk"], check=False, capture_output=True)
    found = shutil.which("wrk")
    if not found:
        sys.exit("load: wrk is needed (Debian package wrk)")
    return found


def manage(environment: dict[str, str], *arguments: str) -> str:
    result = subprocess.run(
        [PYTHON, "manage.py", *arguments], cwd=ROOT, env=environment, capture_output=True, text=True, timeout=600
    )
    if result.returncode != 0:
        sys.exit(f"load: manage.py {' '.join(arguments)} failed:\n{result.stderr}")
    return result.stdout


def django(environment: dict[str, str], code: str) -> str:
    program = "import django\ndjango.setup()\n" + code
    result = subprocess.run([PYTHON, "-c", program], cwd=ROOT, env=environment, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"load: set-up failed:\n{result.stderr}")
    return result.stdout.strip()


def wait_until_up(url: str, server: subprocess.Popen, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            sys.exit("load: the server exited")
        try:
            with urllib.request.urlopen(url + "/healthz/", timeout=2):
                return
        except OSError:
            time.sleep(0.2)
    sys.exit("load: the server did not start")


def run_wrk(wrk: str, script: Path, url: str, target: Target, connections: int, seconds: float) -> Result:
    environment = {
        **os.environ,
        "WRK_METHOD": target.method,
        "WRK_BODY": target.body,
        "WRK_TYPE": "",
        "WRK_COOKIE": target.cookie,
    }
    if target.body:
        environment["WRK_TYPE"] = "application/json"
    command = [
        wrk,
        "-t",
        "1",
        "-c",
        str(connections),
        "-d",
        f"{max(1, round(seconds))}s",
        "--timeout",
        "10s",
        "-s",
        str(script),
    ]
    output = subprocess.run(
        [*command, url + target.path], env=environment, capture_output=True, text=True, check=True
    ).stdout
    data = json.loads(output.strip().splitlines()[-1])
    return Result(data["requests"] / data["seconds"], data["p50"], data["p95"], data["max"], data["errors"])


def best_of(runs: list[Result]) -> Result:
    """The run with the most requests/s; the slowest request and errors of them all."""
    best = max(runs, key=lambda run: run.requests_per_second)
    return Result(
        best.requests_per_second,
        best.p50,
        best.p95,
        max(run.slowest for run in runs),
        sum(run.errors for run in runs),
    )


def measure_in_rounds(
    wrk: str, script: Path, url: str, targets: list[Target], connections: int, arguments
) -> list[Result]:
    """Each target's best run, the runs taken in rounds (every target once, then again): a burst of other
    work on the machine then slows one run of every row, not all the runs of one row."""
    runs: list[list[Result]] = [[] for _ in targets]
    for _ in range(arguments.runs):
        for index, target in enumerate(targets):
            runs[index].append(run_wrk(wrk, script, url, target, connections, arguments.seconds))
    return [best_of(target_runs) for target_runs in runs]


@contextmanager
def production_server(
    name: str,
    setup: str,
    *,
    workers: int,
    database_url: str = "",
    port: int = 0,
    environment: dict[str, str] | None = None,
) -> Iterator[tuple[str, dict, Path]]:
    """The site as bin/run-site serves it (gunicorn, DEBUG off, the seed data, ``setup``'s objects) on a database of
    its own (SQLite in a temporary folder, or ``database_url``'s PostgreSQL server, created and dropped), with rate
    limits off; yields its address, what ``setup`` printed (JSON), and the temporary folder."""
    with tempfile.TemporaryDirectory(prefix=f"cardsite-{name}-") as folder:
        temporary = Path(folder)
        url_of_database = database_url or f"sqlite:///{temporary / (name + '.sqlite3')}"
        created = _create_postgres(url_of_database) if database_url else None
        port = port or free_port()
        settings = {
            **{key: value for key, value in os.environ.items() if key not in {"DJANGO_SETTINGS_MODULE"}},
            "DJANGO_SETTINGS_MODULE": "benchmarks.load_settings",
            "PYTHONPATH": str(ROOT),
            "DATABASE_URL": url_of_database,
            "DEBUG": "0",
            "SECRET_KEY": f"{name}-benchmark-" + os.urandom(16).hex(),
            "SECURE_COOKIES": "0",
            "STATIC_ROOT": str(temporary / "static"),
            "ADDRESS": f"127.0.0.1:{port}",
            "WEB_WORKERS": str(workers),
            "LOG_LEVEL": "WARNING",
            "RATE_LIMITS": "login=off,token=off,signup=off,search=off,deck_write=off,simulation_start=off",
            **(environment or {}),
        }
        settings.setdefault("CACHE_URL", f"file://{temporary / 'cache'}")
        try:
            manage(settings, "migrate", "--no-input", "-v0")
            manage(settings, "loadcards", "-v0")
            manage(settings, "collectstatic", "--no-input", "-v0")
            prepared = json.loads(django(settings, setup))
            server = subprocess.Popen(
                [PYTHON, "-m", "gunicorn", "-c", "cardsite/gunicorn.conf.py", "cardsite.wsgi"],
                cwd=ROOT,
                env=settings,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
            )
            url = f"http://127.0.0.1:{port}"
            try:
                wait_until_up(url, server)
                yield url, prepared, temporary
            finally:
                os.killpg(server.pid, signal.SIGTERM)
                server.wait(30)
        finally:
            if created:
                _drop_postgres(*created)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="per run (default 2)")
    parser.add_argument("--runs", type=int, default=5, help="runs per row; the best counts (default 5)")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn processes (default 2)")
    parser.add_argument("--threads", type=int, default=None, help="threads per process (default: the config's)")
    parser.add_argument("--database-url", default="", help="a PostgreSQL URL (database created and dropped)")
    parser.add_argument("--concurrency", default="10,50")
    parser.add_argument("--port", type=int, default=0, help="the server's port (default: a free one)")
    arguments = parser.parse_args()
    wrk = ensure_wrk()

    extra = {"WEB_THREADS": str(arguments.threads)} if arguments.threads else {}
    if "CACHE_URL" not in os.environ:
        extra["CACHE_URL"] = "redis://127.0.0.1:6379/3"
    with production_server(
        "load",
        SETUP,
        workers=arguments.workers,
        database_url=arguments.database_url,
        port=arguments.port,
        environment=extra,
    ) as (url, prepared, temporary):
        report(wrk, temporary, url, prepared, arguments)


def report(wrk: str, temporary: Path, url: str, prepared: dict, arguments: argparse.Namespace) -> None:
    script = temporary / "report.lua"
    script.write_text(WRK_SCRIPT)
    targets = [
        Target("bare view (ceiling)", "/__bare__/"),
        Target("home", "/"),
        Target("card list", "/games/endbreaker/cards/"),
        Target("card page", "/games/endbreaker/cards/EB1-010/"),
        Target("search page", "/search/?q=%E3%83%89%E3%83%AD%E3%83%BC"),
        Target("search API", "/api/cards/?q=%E3%83%89%E3%83%AD%E3%83%BC"),
        # A visitor's view of a deck shared by link (a deck is never public: its own address answers its owner).
        Target("deck page", f"/decks/shared/{prepared['share_token']}/"),
        Target("deck validation", "/api/decks/validate/", "POST", json.dumps(prepared["validate_body"])),
        *signed_in_targets(prepared),
    ]
    levels = [int(level) for level in arguments.concurrency.split(",")]
    answers_ok(url, targets)
    for target in targets:  # warm every process's caches once
        run_wrk(wrk, script, url, target, 4, 1)
    print(
        f"{arguments.workers} gunicorn processes, loopback, wrk with 1 thread; each row the best of"
        f" {arguments.runs} runs of {arguments.seconds:g} s, taken in rounds (max and errors: all runs)"
    )
    failures: list[str] = []
    for connections in levels:
        print(f"\nconcurrency {connections}")
        print(f"{'page':<22}{'req/s':>9}{'% bare':>8}{'p50 ms':>9}{'p95 ms':>9}{'× bare':>8}{'max ms':>9}{'errors':>8}")
        results = measure_in_rounds(wrk, script, url, targets, connections, arguments)
        bare = results[0]
        for target, result in zip(targets, results, strict=True):
            share = result.requests_per_second / bare.requests_per_second
            slower = result.p95 / bare.p95 if bare.p95 else float("inf")
            print(
                f"{target.name:<22}{result.requests_per_second:>9.0f}{share:>8.0%}{result.p50:>9.1f}"
                f"{result.p95:>9.1f}{slower:>8.1f}{result.slowest:>9.0f}{result.errors:>8}"
            )
            if target.signed_in_goal:
                if share < 1 / 3:
                    failures.append(f"c={connections} {target.name}: {share:.0%} of the bare view's requests/s")
            elif target is not targets[0]:
                if share < 0.5:
                    failures.append(f"c={connections} {target.name}: {share:.0%} of the bare view's requests/s")
                if slower > 3:
                    failures.append(f"c={connections} {target.name}: p95 {slower:.1f}× the bare view's")
            if result.errors:
                failures.append(f"c={connections} {target.name}: {result.errors} errors")
            if connections >= 50 and result.slowest > 1000:
                failures.append(f"c={connections} {target.name}: slowest request {result.slowest:.0f} ms")
    print(
        "\ngoal: every page ≥ 50% of the bare view's req/s, p95 ≤ 3× its p95, no errors; at c=50 nothing over 1 s;"
        "\n      signed in (rows marked *): ≥ 33% of the bare view's req/s, no errors; at c=50 nothing over 1 s"
    )
    print("met" if not failures else "not met:\n  " + "\n  ".join(failures))


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *arguments, **keywords):  # type: ignore[no-untyped-def]
        return None


def answers_ok(url: str, targets: list[Target]) -> None:
    """Stop unless every row's address answers 200 itself: wrk counts a redirect (a page that moved) as a
    success, and would measure the redirect instead of the page."""
    opener = urllib.request.build_opener(_NoRedirects)
    for target in targets:
        request = urllib.request.Request(
            url + target.path,
            data=target.body.encode() if target.body else None,
            method=target.method,
            headers={
                "Accept-Language": "ja",
                **({"Cookie": target.cookie} if target.cookie else {}),
                **({"Content-Type": "application/json"} if target.body else {}),
            },
        )
        try:
            with opener.open(request, timeout=30) as answer:
                status = answer.status
        except urllib.error.HTTPError as error:
            status = error.code
        if status != 200:
            sys.exit(f"load: {target.name} ({target.path}) answers {status}, not 200")


def signed_in_targets(prepared: dict) -> list[Target]:
    """Pages of signed-in readers (marked * in the report): the owner's builder search, deck page and goldfish
    hand, and another reader's view of the published deck with its comments."""
    deck, owner, reader = prepared["deck"], prepared["owner_cookie"], prepared["reader_cookie"]
    return [
        Target("* builder search", f"/decks/{deck}/edit/search/?q=%E6%9E%97", cookie=owner, signed_in_goal=True),
        Target("* owner's deck page", f"/decks/{deck}/", cookie=owner, signed_in_goal=True),
        Target("* goldfish hand", f"/simulator/decks/{deck}/goldfish/?seed=1", cookie=owner, signed_in_goal=True),
        Target(
            "* published, comments",
            f"/community/decks/published/{prepared['publication']}/",
            cookie=reader,
            signed_in_goal=True,
        ),
    ]


def _create_postgres(url: str) -> tuple[str, str]:
    import psycopg

    admin, name = url.rsplit("/", 1)
    with psycopg.connect(admin + "/postgres", autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        connection.execute(f'CREATE DATABASE "{name}"')
    return admin, name


def _drop_postgres(admin: str, name: str) -> None:
    import psycopg

    with psycopg.connect(admin + "/postgres", autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


if __name__ == "__main__":
    main()
