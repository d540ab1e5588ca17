"""Search latency on N synthetic bilingual cards, beside a naive LIKE '%…%' scan in the same run.

    python benchmarks/search.py                # 100,000 cards, SQLite in a temporary file
    python benchmarks/search.py --cards 20000 --database-url postgres://postgres@127.0.0.1:5432/cardsite_bench

For each query class it prints p50 and p95 of the time to produce the first results
page (the total count and the first 50 cards with their texts, as the page shows
them), for the index and for the scan, and the ratio scan / index. The database
is built fresh each run (SQLite: a temporary file; PostgreSQL: the named database
is dropped and created). Synthetic cards are clearly fake: random Han characters,
katakana and Latin words, made from a fixed seed so every run is the same.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

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


def build(count: int, rng: random.Random) -> Vocabulary:
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
    return vocabulary


def _sample_queries(rng: random.Random, vocabulary: Vocabulary, per_class: int) -> dict[str, list[str]]:
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
    if query.startswith("at>="):
        cards = cards.filter(fields__at__gte=int(query[4:]))
    elif query.startswith("("):
        inner, rest = query[1:].split(") ", 1)
        left, right = inner.split(" or ")
        cards = cards.filter(contains(left) | contains(right)).exclude(game__slug="endbreaker", kind="job")
        cards = cards.filter(fields__at__gte=int(rest.rsplit(">=", 1)[1]))
    else:
        cards = cards.filter(contains(query))
    return _first_page(cards.select_related("game").prefetch_related("texts").order_by("sort_key"))


def _timings(function, queries: list[str]) -> tuple[list[float], list[int]]:
    times, counts = [], []
    for query in queries:
        started = time.perf_counter()
        counts.append(function(query))
        times.append((time.perf_counter() - started) * 1000)
    return times, counts


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cards", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=40, help="queries per class")
    parser.add_argument("--naive-queries", type=int, default=8, help="queries per class for the slow scan")
    parser.add_argument("--database-url", help="PostgreSQL URL (its database is recreated); default SQLite temp file")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--reuse", metavar="FILE", help="SQLite file to keep and reuse between runs (for profiling)")
    parser.add_argument(
        "--existing", action="store_true", help="measure the PostgreSQL database an earlier run built (for profiling)"
    )
    arguments = parser.parse_args()

    with tempfile.TemporaryDirectory() as directory:
        url = arguments.database_url or f"sqlite:///{arguments.reuse or Path(directory) / 'bench.sqlite3'}"
        if url.startswith("postgres"):
            reuse = arguments.existing
            if not reuse:
                _recreate_postgres(url)
        else:
            reuse = bool(arguments.reuse and Path(arguments.reuse).exists())
        _configure(url)
        from django.db import connection

        rng = random.Random(arguments.seed)
        vocabulary = Vocabulary(rng) if reuse else build(arguments.cards, rng)
        queries = _sample_queries(rng, vocabulary, arguments.queries)
        print(f"database: {connection.vendor}; {arguments.cards:,} cards; first page = count + {PAGE} cards")
        header = f"{'class':<14}{'index p50':>11}{'index p95':>11}{'scan p50':>10}{'scan p95':>10}{'p95 ratio':>11}"
        print(header)
        print("-" * len(header))
        worst_p95 = 0.0
        worst_ratio = float("inf")
        for name, class_queries in queries.items():
            _indexed(class_queries[0])  # warm the caches the scan also gets
            index_times, index_counts = _timings(_indexed, class_queries)
            sample = class_queries[: arguments.naive_queries]
            naive_times, naive_counts = _timings(_naive, sample)
            if index_counts[: len(sample)] != naive_counts:
                print(f"  MISMATCH in {name}: index {index_counts[: len(sample)]} scan {naive_counts}")
            index_p95 = _percentile(index_times, 0.95)
            naive_p95 = _percentile(naive_times, 0.95)
            ratio = naive_p95 / index_p95 if index_p95 else float("inf")
            worst_p95 = max(worst_p95, index_p95)
            worst_ratio = min(worst_ratio, ratio)
            print(
                f"{name:<14}{statistics.median(index_times):>9.2f}ms{index_p95:>9.2f}ms"
                f"{statistics.median(naive_times):>8.1f}ms{naive_p95:>8.1f}ms{ratio:>10.1f}x"
                f"   (median hits {int(statistics.median(index_counts)):,})"
            )
        print(f"worst index p95: {worst_p95:.2f} ms (goal <= 10 ms); worst p95 ratio: {worst_ratio:.1f}x (goal >= 10x)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
