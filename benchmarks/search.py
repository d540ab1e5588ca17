"""Search latency on N synthetic bilingual cards, beside a naive LIKE '%…%' scan in the same run.

    python benchmarks/search.py                # 100,000 cards, SQLite in a temporary file
    python benchmarks/search.py --cards 20000 --database-url postgres://postgres@127.0.0.1:5432/cardsite_bench

For each query class it prints p50 and p95 of the time to produce the first results
page (the total count and the first 50 cards with their texts, as the page shows
them), for the index and for the scan, and the ratio scan / index. With
``--database-url`` it measures SQLite and then that PostgreSQL database on the same
cards and queries, and prints PostgreSQL's p95 over SQLite's per class with a verdict
on the goal (at least 10x its scan, p95 at most 1.5x SQLite's). Each database is
measured in a process of its own (Django talks to one database per process) and
built fresh each run (SQLite: a temporary file; PostgreSQL: the named database is
dropped and created). ``--rounds N`` runs every database N times in turn and takes each query's best time of
them, so that a spell of a busy machine during one database's run does not decide the comparison (the scan is
timed in the first round only). Synthetic cards are clearly fake: random Han characters,
katakana and Latin words, made from a fixed seed so every run is the same.
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
    from cards.selectors import SearchPaginator, search_cards

    outcome = search_cards(query, "ja")
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


def measure(arguments: argparse.Namespace, url: str) -> dict:
    """Build (or reuse) the database at ``url`` and time every class there: this process's only database."""
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
    # A generator of its own, so that a run reusing a database measures the same queries as the run that built it.
    queries = _sample_queries(random.Random(arguments.seed + 1), arguments.queries)
    classes = {}
    for name, class_queries in queries.items():
        _indexed(class_queries[0])  # warm the caches the scan also gets
        index_times, index_counts = best_times(_indexed, class_queries, arguments.repeat)
        figures = {"index_times": index_times, **_index_percentiles(index_times)}
        sample = class_queries[: arguments.naive_queries]
        if sample:  # a later round measures the index alone (``--rounds``)
            naive_times, naive_counts = best_times(_naive, sample, 1)
            figures |= {
                "scan_p50": statistics.median(naive_times),
                "scan_p95": percentile(naive_times, 0.95),
                "mismatch": index_counts[: len(sample)] != naive_counts,
            }
        classes[name] = {**figures, "hits": int(statistics.median(index_counts)), "counts": index_counts}
    return {"vendor": connection.vendor, "queries": queries, "classes": classes}


def _index_percentiles(times: list[float]) -> dict[str, float]:
    return {"index_p50": statistics.median(times), "index_p95": percentile(times, 0.95)}


def _run_child(arguments: argparse.Namespace, url: str, directory: str, first_round: bool = True) -> dict:
    """``measure`` in a process of its own (Django talks to one database per process).

    A later round (``--rounds``) measures the database the first one built, and the index alone, not the scan.
    """
    output = Path(directory) / f"{len(list(Path(directory).iterdir()))}.json"
    command = [sys.executable, __file__, "--measure", url, "--json", str(output)]
    for option in ("cards", "queries", "naive_queries", "seed", "repeat"):
        value = getattr(arguments, option) if first_round or option != "naive_queries" else 0
        command += [f"--{option.replace('_', '-')}", str(value)]
    sqlite_file = url.removeprefix("sqlite:///") if url.startswith("sqlite") else None
    if arguments.reuse or (sqlite_file and not first_round):
        command += ["--reuse", arguments.reuse or sqlite_file]
    if arguments.existing or not first_round:
        command.append("--existing")
    subprocess.run(command, check=True)
    return json.loads(output.read_text())


def _fold_round(result: dict, later: dict) -> None:
    """Each query's best time of both rounds into ``result`` (its scan figures stay those of the first round)."""
    for name, figures in result["classes"].items():
        times = [min(pair) for pair in zip(figures["index_times"], later["classes"][name]["index_times"], strict=True)]
        figures |= {"index_times": times, **_index_percentiles(times)}


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
        "--rounds", type=int, default=1, help="rounds of every database in turn; a query's best time of them counts"
    )
    parser.add_argument("--database-url", help="PostgreSQL URL (its database is recreated), measured after SQLite")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--reuse", metavar="FILE", help="SQLite file to keep and reuse between runs (for profiling)")
    parser.add_argument(
        "--existing", action="store_true", help="measure the PostgreSQL database an earlier run built (for profiling)"
    )
    parser.add_argument("--measure", metavar="URL", help=argparse.SUPPRESS)  # one database, in a child process
    parser.add_argument("--json", metavar="FILE", help=argparse.SUPPRESS)
    arguments = parser.parse_args()

    if arguments.measure:
        Path(arguments.json).write_text(json.dumps(measure(arguments, arguments.measure)))
        return 0
    with tempfile.TemporaryDirectory() as directory:
        sqlite_url = f"sqlite:///{arguments.reuse or Path(directory) / 'bench.sqlite3'}"
        urls = [sqlite_url] + ([arguments.database_url] if arguments.database_url else [])
        results = [_run_child(arguments, url, directory) for url in urls]
        # Each later round runs every database again, one after the other: a query's time is its best of all the
        # rounds, so that a spell of a busy machine, which strikes one database's run, counts against neither.
        for _round in range(arguments.rounds - 1):
            for result, url in zip(results, urls, strict=True):
                _fold_round(result, _run_child(arguments, url, directory, first_round=False))
    if len(results) == 2 and results[0]["queries"] != results[1]["queries"]:
        print("the databases were given different queries: their builds differ")
        return 1
    report(results, arguments.cards)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
