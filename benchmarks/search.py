"""Search latency on N synthetic bilingual cards, beside a naive LIKE '%…%' scan in the same run.

    python benchmarks/search.py                # 100,000 cards, SQLite in a temporary file
    python benchmarks/search.py --cards 20000 --database-url postgres://postgres@127.0.0.1:5432/cardsite_bench

For each query class it prints p50 and p95 of the time to produce the first results
page (the total count and the first 50 cards with their texts, as the page shows
them), for the index and for the scan, and the ratio scan / index. With
``--database-url`` it measures SQLite and that PostgreSQL database on the same
cards and queries, and prints PostgreSQL's p95 over SQLite's per class with a verdict
on the goal (at least 10x its scan, p95 at most 1.5x SQLite's). Each database is
measured in a process of its own (Django talks to one database per process), built
fresh each run (SQLite: a temporary file; PostgreSQL: the named database is dropped and
created) unless ``--reuse FILE`` / ``--existing``. Both processes stay up, and each
class is timed on one database and then at once on the other, so that a machine whose
speed drifts (a shared one does, by up to 2x over seconds) strikes both alike.
``--rounds N`` times every class N times, the databases' order alternating, and takes
each query's best time of them (the scan is timed in the first round only).
Both databases are measured on one CPU (``--cpu``, default the first this process may
use): each measuring process is pinned to it, and so is PostgreSQL's server process for
that process's connection (the server is local). SQLite's search runs in one process,
on one CPU; PostgreSQL's is a round trip between two, and on a machine of two virtual
CPUs, unpinned, each round trip woke the other CPU, whose speed drifted apart from the
first's: PostgreSQL's tail moved with both CPUs, SQLite's with one. ``--cpu -1`` pins
nothing. Synthetic
cards are clearly fake: random Han characters, katakana and Latin words, made from a
fixed seed so every run is the same.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.timing import best_times, percentile  # noqa: E402

PAGE = 50
HAN = [chr(code) for code in range(0x4E00, 0x4E00 + 20992)]
KATAKANA = [chr(code) for code in range(0x30A1, 0x30F7)]
SYLLABLES = ["ka", "ri", "to", "ne", "sa", "mo", "lu", "vi", "dra", "ben", "gor", "xel", "tha", "pro", "zen", "ul"]


def _configure(database_url: str) -> None:
    os.environ["DATABASE_URL"] = database_url
    os.environ.setdefault("SECRET_KEY", "benchmark-only")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardsite.settings")
    import django

    django.setup()


def _recreate_postgres(database_url: str) -> None:
    import psycopg

    base, name = database_url.rsplit("/", 1)
    with psycopg.connect(base + "/postgres", autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}"')
        connection.execute(f'CREATE DATABASE "{name}"')


class Vocabulary:
    """Synthetic words: Han characters and Latin words follow a Zipf-like frequency, as in real text."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        from cards.search.normalize import fold

        # Characters that fold to themselves, so the scan (which does not fold) finds the same cards.
        self.han = [char for char in HAN if fold(char) == char][:6000]
        self.weights = [1 / (rank + 10) for rank in range(len(self.han))]
        self.words = [self._han_word() for _ in range(20000)]
        self.latin = sorted({self._latin_word() for _ in range(3000)})
        self.latin_weights = [1 / (rank + 5) for rank in range(len(self.latin))]

    def _latin_word(self) -> str:
        return "".join(self.rng.choices(SYLLABLES, k=self.rng.randint(2, 4)))

    def _han_word(self) -> str:
        return "".join(self.rng.choices(self.han, self.weights, k=self.rng.randint(1, 4)))

    def sentence(self, length: int) -> str:
        parts = []
        while sum(map(len, parts)) < length:
            roll = self.rng.random()
            if roll < 0.7:
                parts.append(self.rng.choice(self.words))
            elif roll < 0.9:
                parts.append("".join(self.rng.choices(KATAKANA, k=self.rng.randint(2, 5))))
            else:
                parts.append(" " + self.rng.choices(self.latin, self.latin_weights)[0] + " ")
        return "".join(parts)


def build(count: int, rng: random.Random) -> None:
    from django.core.management import call_command
    from django.db import connection, transaction

    from cards.models import Card, CardText, Game
    from cards.search.indexing import index_cards
    from cards.services import card_sort_key, sync_games

    call_command("migrate", verbosity=0)
    sync_games()
    games = list(Game.objects.all())
    vocabulary = Vocabulary(rng)
    started = time.perf_counter()
    batch = 2000
    with transaction.atomic():
        for offset in range(0, count, batch):
            cards = []
            for index in range(offset, min(offset + batch, count)):
                number = f"SYN-{index:06d}"
                fields = {"at": rng.randint(0, 9)} if rng.random() < 0.7 else {}
                cards.append(
                    Card(
                        game=games[index % len(games)],
                        key=number,
                        number=number,
                        kind="ability" if index % 3 else "job",
                        fields=fields,
                        sort_key=card_sort_key(number, number),
                    )
                )
            Card.objects.bulk_create(cards)
            texts = []
            for card in cards:
                texts.append(
                    CardText(card=card, language="ja", name=vocabulary.sentence(4), text=vocabulary.sentence(60))
                )
                if rng.random() < 0.9:
                    texts.append(
                        CardText(
                            card=card, language="zh-hant", name=vocabulary.sentence(3), text=vocabulary.sentence(50)
                        )
                    )
            CardText.objects.bulk_create(texts)
    inserted = time.perf_counter()
    index_cards()
    indexed = time.perf_counter()
    print(f"built {count:,} cards in {inserted - started:.1f} s, indexed in {indexed - inserted:.1f} s")
    if connection.vendor == "postgresql":
        # What autovacuum does soon after a bulk load: row visibility and planner statistics.
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE")


def _sample_queries(rng: random.Random, per_class: int) -> dict[str, list[str]]:
    from cards.models import CardText

    # Sampled with the seeded generator (not ORDER BY RANDOM()), so every run measures the same queries.
    every_text = list(CardText.objects.order_by("id").values_list("text", flat=True))
    texts = rng.sample(every_text, per_class * 4)

    def substring(length: int) -> str:
        while True:
            text = rng.choice(texts)
            start = rng.randrange(0, max(1, len(text) - length))
            candidate = text[start : start + length]
            if len(candidate) == length and all("\u4e00" <= char <= "\u9fff" for char in candidate):
                return candidate

    def latin_word() -> str:
        # A word as players type it: sampled from the cards' own text, so common words come up often.
        while True:
            words = [word for word in rng.choice(texts).split() if word.isascii() and word.isalpha()]
            if words:
                return rng.choice(words)

    return {
        "CJK 1 char": [substring(1) for _ in range(per_class)],
        "CJK 2 chars": [substring(2) for _ in range(per_class)],
        "CJK 3+ chars": [substring(rng.randint(3, 6)) for _ in range(per_class)],
        "Latin word": [latin_word() for _ in range(per_class)],
        "field filter": [f"at>={rng.randint(5, 9)}" for _ in range(per_class)],
        "boolean": [f"({substring(2)} or {latin_word()}) -kind:job at>=2" for _ in range(per_class)],
    }


def _first_page(cards, paginator_class=None) -> int:
    from django.core.paginator import Paginator

    page = (paginator_class or Paginator)(cards, PAGE).get_page(1)
    list(page.object_list)
    return page.paginator.count


def _indexed(query: str) -> int:
    from cards.search.selectors import prepare_search
    from cards.selectors import SearchPaginator

    outcome = prepare_search(query, "ja")
    assert outcome.error is None, (query, outcome.error)
    return _first_page(outcome, SearchPaginator)


def _naive(query: str) -> int:
    """The same question answered by scanning: LIKE '%…%' on texts, JSON extraction for fields."""
    from django.db.models import Exists, OuterRef, Q

    from cards.models import Card, CardText

    def contains(word: str) -> Q:
        # A Latin word finds the words it begins; in these texts every Latin word follows a space.
        word = f" {word}" if word.isascii() else word
        texts = CardText.objects.filter(Q(name__icontains=word) | Q(text__icontains=word), card=OuterRef("pk"))
        return Q(Exists(texts))

    cards = Card.objects.all()
    # Only Endbreaker declares AT: the other games' cards keep it in their JSON, unknown to the search.
    has_at = Q(game__slug="endbreaker")
    if query.startswith("at>="):
        cards = cards.filter(has_at, fields__at__gte=int(query[4:]))
    elif query.startswith("("):
        inner, rest = query[1:].split(") ", 1)
        left, right = inner.split(" or ")
        cards = cards.filter(contains(left) | contains(right)).exclude(game__slug="endbreaker", kind="job")
        cards = cards.filter(has_at, fields__at__gte=int(rest.rsplit(">=", 1)[1]))
    else:
        cards = cards.filter(contains(query))
    return _first_page(cards.select_related("game").prefetch_related("texts").order_by("sort_key"))


class _Measurer:
    """One database's side of a run: its cards (built or reused), its queries, and each class timed on request.

    This process's only database (Django talks to one database per process).
    """

    def __init__(self, arguments: argparse.Namespace, url: str) -> None:
        if url.startswith("postgres"):
            reuse = arguments.existing
            if not reuse:
                _recreate_postgres(url)
        else:
            reuse = bool(arguments.reuse and Path(arguments.reuse).exists())
        _configure(url)
        from django.db import connection

        if not reuse:
            build(arguments.cards, random.Random(arguments.seed))
        self.arguments = arguments
        self.vendor = connection.vendor
        self.pinned_server: int | None = None
        self.placement = self._pin()
        # A generator of its own, so that a run reusing a database measures the same queries as the run that built
        # it.
        self.queries = _sample_queries(random.Random(arguments.seed + 1), arguments.queries)

    def _pin(self) -> str:
        """Pin this process, and PostgreSQL's server process of this connection, to ``--cpu``; what was pinned.

        Called before each class, since a connection made again has a server process of its own."""
        cpu = self.arguments.cpu
        if cpu < 0:
            return "not pinned"
        if not hasattr(os, "sched_setaffinity"):
            return "not pinned (this system cannot pin a process)"
        from django.db import connection

        os.sched_setaffinity(0, {cpu})
        if self.vendor != "postgresql":
            return f"pinned to CPU {cpu}"
        connection.ensure_connection()
        server = connection.connection.info.backend_pid
        if server != self.pinned_server:
            try:
                os.sched_setaffinity(server, {cpu})
            except OSError as error:  # a server on another machine, or run by a user this one may not change
                return f"pinned to CPU {cpu}, its server process not ({error.strerror})"
            self.pinned_server = server
        return f"pinned to CPU {cpu} with its server process"

    def index(self, name: str) -> dict:
        """Each query of class ``name`` through the index: its best time of ``--repeat`` runs, and its count."""
        self.placement = self._pin()
        queries = self.queries[name]
        _indexed(queries[0])  # warm the caches the scan also gets
        times, counts = best_times(_indexed, queries, self.arguments.repeat)
        return {"times": times, "counts": counts, "placement": self.placement}

    def scan(self, name: str) -> dict:
        """The first ``--naive-queries`` queries of class ``name`` answered by scanning, once each."""
        self.placement = self._pin()
        times, counts = best_times(_naive, self.queries[name][: self.arguments.naive_queries], 1)
        return {"times": times, "counts": counts, "placement": self.placement}


def measure(arguments: argparse.Namespace, url: str) -> dict:
    """Build (or reuse) the database at ``url`` and time every class there, index then scan."""
    measurer = _Measurer(arguments, url)
    result = {"vendor": measurer.vendor, "queries": measurer.queries, "classes": {}}
    for name in measurer.queries:
        _fold(result, name, measurer.index(name))
        if arguments.naive_queries:
            _add_scan(result, name, measurer.scan(name))
    return result


def _serve(arguments: argparse.Namespace) -> None:
    """``_Measurer`` for a parent process (``_Child``): one JSON line of commands in, one of answers out.

    The first answer is the database's vendor and queries, once it is built. Everything else this process
    prints, the build's figures included, goes to standard error, so that standard output carries answers only.
    """
    answers = os.fdopen(os.dup(sys.stdout.fileno()), "w", buffering=1)
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    measurer = _Measurer(arguments, arguments.measure)
    answers.write(
        json.dumps({"vendor": measurer.vendor, "queries": measurer.queries, "placement": measurer.placement}) + "\n"
    )
    for line in sys.stdin:
        command = json.loads(line)
        timed = measurer.index if command["op"] == "index" else measurer.scan
        answers.write(json.dumps(timed(command["class"])) + "\n")


class _Child:
    """A process that measures one database (``_serve``), and the figures it has given."""

    def __init__(self, arguments: argparse.Namespace, url: str) -> None:
        command = [sys.executable, __file__, "--measure", url, "--serve"]
        for option in ("cards", "queries", "naive_queries", "seed", "repeat", "cpu"):
            command += [f"--{option.replace('_', '-')}", str(getattr(arguments, option))]
        if arguments.reuse and url.startswith("sqlite"):
            command += ["--reuse", arguments.reuse]
        if arguments.existing:
            command.append("--existing")
        self.url = url
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        ready = self._answer()
        self.result: dict = {
            "vendor": ready["vendor"],
            "queries": ready["queries"],
            "placement": ready["placement"],
            "classes": {},
        }

    def _answer(self) -> dict:
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError(f"the process measuring {self.url} ended (exit status {self.process.wait()})")
        return json.loads(line)

    def time(self, op: str, name: str) -> None:
        """Time class ``name`` through the index (``op`` "index", the best of it and any earlier times of the
        same queries counts) or by scanning ("scan")."""
        self.process.stdin.write(json.dumps({"op": op, "class": name}) + "\n")
        self.process.stdin.flush()
        answer = self._answer()
        self.result["placement"] = answer["placement"]  # where the latest class ran (a new connection is pinned again)
        (_fold if op == "index" else _add_scan)(self.result, name, answer)

    def close(self) -> None:
        if self.process.stdin and not self.process.stdin.closed:
            self.process.stdin.close()
        self.process.wait()


def _fold(result: dict, name: str, timed: dict) -> None:
    """Index times of class ``name`` into ``result``: each query's best of these and any it holds already."""
    figures = result["classes"].setdefault(name, {})
    times = timed["times"]
    if "index_times" in figures:
        times = [min(pair) for pair in zip(figures["index_times"], times, strict=True)]
    figures |= {
        "index_times": times,
        "index_p50": statistics.median(times),
        "index_p95": percentile(times, 0.95),
        "hits": int(statistics.median(timed["counts"])),
        "counts": timed["counts"],
    }


def _add_scan(result: dict, name: str, timed: dict) -> None:
    figures = result["classes"][name]
    times = timed["times"]
    figures |= {
        "scan_p50": statistics.median(times),
        "scan_p95": percentile(times, 0.95),
        "mismatch": figures["counts"][: len(times)] != timed["counts"],
    }


def _spin() -> float:
    """Milliseconds a fixed piece of pure Python work takes: this CPU's speed at this moment."""
    started = time.perf_counter()
    total = 0
    for number in range(100_000):
        total += number * number
    return (time.perf_counter() - started) * 1000


class MachineSpeed:
    """Each CPU's speed, sampled through a run, for reading its figures.

    On a shared machine the speed of each CPU drifts, and not alike (on this project's 2-core machines a CPU was
    at times 2-3x slower than the other, for seconds). A search on a database server spans two processes, the
    site's and the server's, and so usually both CPUs; SQLite's runs in one process, on one of them.
    """

    def __init__(self) -> None:
        self.pinnable = hasattr(os, "sched_setaffinity")
        cpus = sorted(os.sched_getaffinity(0)) if self.pinnable else [-1]
        self.samples: dict[int, list[float]] = {cpu: [] for cpu in cpus}

    def sample(self) -> None:
        if not self.pinnable:
            self.samples[-1].append(_spin())
            return
        allowed = os.sched_getaffinity(0)
        try:
            for cpu, times in self.samples.items():
                os.sched_setaffinity(0, {cpu})
                times.append(_spin())
        finally:
            os.sched_setaffinity(0, allowed)

    def summary(self) -> str:
        fastest = min(time_taken for times in self.samples.values() for time_taken in times)
        spans = ", ".join(
            f"{'CPU ' + str(cpu) if cpu >= 0 else 'any CPU'} {min(times) / fastest:.1f}-{max(times) / fastest:.1f}x"
            for cpu, times in self.samples.items()
        )
        return f"machine: a fixed loop's time over its fastest, sampled after each class: {spans}"


def measure_interleaved(arguments: argparse.Namespace, urls: list[str], machine: MachineSpeed) -> list[dict]:
    """Every database's figures, each class timed on every database in turn.

    A process per database stays up for the whole run. For each class, each database runs its queries while the
    other waits, so both are timed at nearly the same moment (a class takes a fraction of a second): on a shared
    machine whose speed drifts over seconds and minutes, whole runs one after the other compared the machine's
    moments as much as the databases. Each round times every class again, the databases in the other order, and a
    query's best time of the rounds counts. The scans are timed in the first round. ``machine`` is sampled after
    each class.
    """
    children: list[_Child] = []
    try:
        # Started one after the other: building a database takes the machine.
        for url in urls:
            children.append(_Child(arguments, url))
        names = list(children[0].result["queries"])
        for round_number in range(arguments.rounds):
            order = children if round_number % 2 == 0 else children[::-1]
            for name in names:
                for child in order:
                    child.time("index", name)
                machine.sample()
                if round_number == 0 and arguments.naive_queries:
                    for child in order:
                        child.time("scan", name)
    finally:
        for child in children:
            child.close()
    return [child.result for child in children]


def report(results: list[dict], cards: int) -> None:
    """Per class: each database's p50/p95 and ratio to its own scan; with two, PostgreSQL p95 / SQLite p95."""
    print(f"{cards:,} cards; first page = count + {PAGE} cards; each query's time the best of its runs")
    columns = f"{'p50':>8}{'p95':>8}{'scan p95':>10}{'ratio':>8}"
    header = f"{'class':<14}" + "".join(f"  {result['vendor'][:10]:<10}{columns}" for result in results)
    if len(results) == 2:
        header += f"{'pg/sqlite':>11}  goal"
    print(header)
    print("-" * len(header))
    worst = {result["vendor"]: (0.0, float("inf")) for result in results}
    verdicts = []
    for name in results[0]["classes"]:
        line = f"{name:<14}"
        measured = [result["classes"][name] for result in results]
        for result, figures in zip(results, measured, strict=True):
            ratio = figures["scan_p95"] / figures["index_p95"] if figures["index_p95"] else float("inf")
            figures["ratio"] = ratio
            p95, lowest = worst[result["vendor"]]
            worst[result["vendor"]] = (max(p95, figures["index_p95"]), min(lowest, ratio))
            line += (
                f"  {'':<10}{figures['index_p50']:>6.2f}ms{figures['index_p95']:>6.2f}ms"
                f"{figures['scan_p95']:>8.1f}ms{ratio:>7.1f}x"
            )
        if len(results) == 2:
            sqlite, postgres = measured
            relative = postgres["index_p95"] / sqlite["index_p95"]
            met = postgres["ratio"] >= 10 and relative <= 1.5
            verdicts.append(met)
            line += f"{relative:>10.2f}x  {'met' if met else 'NOT met'}"
            if sqlite["counts"] != postgres["counts"]:
                line += "  (hit counts differ between the databases)"
        line += f"  (median hits {measured[0]['hits']:,})"
        print(line)
        for result, figures in zip(results, measured, strict=True):
            if figures["mismatch"]:
                print(f"  MISMATCH in {name} on {result['vendor']}: the index and the scan counted differently")
    for vendor, (p95, ratio) in worst.items():
        print(f"{vendor}: worst index p95 {p95:.2f} ms, worst p95 ratio {ratio:.1f}x")
    if verdicts:
        print(
            f"PostgreSQL goal (every class >= 10x its scan, p95 <= 1.5x SQLite's): "
            f"met for {sum(verdicts)} of {len(verdicts)} classes"
        )
    else:
        print("SQLite goal: p95 <= 10 ms and >= 10x the scan for every class")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cards", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=40, help="queries per class")
    parser.add_argument("--naive-queries", type=int, default=8, help="queries per class for the slow scan")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each indexed query; its best time counts")
    parser.add_argument(
        "--rounds", type=int, default=1, help="rounds of every class on every database; a query's best time counts"
    )
    parser.add_argument("--database-url", help="PostgreSQL URL (its database is recreated), measured after SQLite")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument(
        "--cpu",
        type=int,
        default=min(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else -1,
        help="the CPU both databases are measured on (see above); -1: not pinned",
    )
    parser.add_argument("--reuse", metavar="FILE", help="SQLite file to keep and reuse between runs (for profiling)")
    parser.add_argument(
        "--existing", action="store_true", help="measure the PostgreSQL database an earlier run built (for profiling)"
    )
    parser.add_argument("--measure", metavar="URL", help=argparse.SUPPRESS)  # one database, in a child process
    parser.add_argument("--json", metavar="FILE", help=argparse.SUPPRESS)
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)  # commands on stdin (_Child)
    arguments = parser.parse_args()

    if arguments.measure:
        if arguments.serve:
            _serve(arguments)
        else:
            Path(arguments.json).write_text(json.dumps(measure(arguments, arguments.measure)))
        return 0
    with tempfile.TemporaryDirectory() as directory:
        sqlite_url = f"sqlite:///{arguments.reuse or Path(directory) / 'bench.sqlite3'}"
        urls = [sqlite_url] + ([arguments.database_url] if arguments.database_url else [])
        machine = MachineSpeed()
        results = measure_interleaved(arguments, urls, machine)
    if len(results) == 2 and results[0]["queries"] != results[1]["queries"]:
        print("the databases were given different queries: their builds differ")
        return 1
    report(results, arguments.cards)
    print("placement: " + "; ".join(f"{result['vendor']} {result['placement']}" for result in results))
    print(machine.summary())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
