"""The map of what is missing on a large game, beside the same counts computed by reading every row.

    python benchmarks/gaps.py                      # 100,000 cards of one game, SQLite in a temporary file
    python benchmarks/gaps.py --cards 20000 --database-url postgres://postgres@127.0.0.1:5432/cardsite_gaps

It builds N clearly synthetic エンドブレイカー！SCG cards (numbers SYN-000000…, random kana names, AT known
on 70%), each with a Japanese text and, on 90%, a Chinese one pinned to its original's revision; a tenth of
the originals then change, so their translations are stale. It times ``cards.missing.selectors.missing_map`` (the
page's whole selector: counts by kind, known values by field, texts by language, ``is:incomplete``, numbers
seen and stale translations) against a naive pass that reads every card and text row into Python and
computes the same counts, and checks that both agree. Each figure is the best of ``--repeat`` runs.
The PostgreSQL database named in the URL is dropped and created.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
KANA = [chr(code) for code in range(0x30A1, 0x30F7)]


def _configure(database_url: str) -> None:
    os.environ["DATABASE_URL"] = database_url
    os.environ.setdefault("SECRET_KEY", "benchmark-only")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardsite.settings")
    if database_url.startswith("postgres"):
        import psycopg

        base, name = database_url.rsplit("/", 1)
        with psycopg.connect(base + "/postgres", autocommit=True) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}"')
            connection.execute(f'CREATE DATABASE "{name}"')
    import django

    django.setup()


def build(count: int, rng: random.Random) -> None:
    from django.core.management import call_command
    from django.db import transaction
    from django.utils import timezone
    from reversion.models import Revision

    from cards.models import Card, CardText, Game
    from cards.search.indexing import index_cards
    from cards.services import card_sort_key, sync_games

    call_command("migrate", verbosity=0)
    sync_games()
    game = Game.objects.get(slug="endbreaker")
    started = time.perf_counter()

    def words(length: int) -> str:
        return "".join(rng.choices(KANA, k=length))

    with transaction.atomic():
        now = timezone.now()
        first = Revision.objects.create(comment="synthetic", date_created=now)
        second = Revision.objects.create(comment="synthetic", date_created=now)
        for offset in range(0, count, 2000):
            cards = []
            for index in range(offset, min(offset + 2000, count)):
                number = f"SYN-{index:06d}"
                fields = {"at": rng.randint(0, 9)} if rng.random() < 0.7 else {}
                cards.append(
                    Card(game=game, key=number, number=number, kind="ability", fields=fields,
                         sort_key=card_sort_key(number, number))
                )  # fmt: skip
            Card.objects.bulk_create(cards)
            texts = []
            for card in cards:
                changed = rng.random() < 0.1  # the original changed after it was translated
                pin = second if changed else first
                texts.append(CardText(card=card, language="ja", name=words(5), text=words(40), pinned_revision=pin))
                if rng.random() < 0.9:
                    texts.append(
                        CardText(card=card, language="zh-hant", name=words(4), text=words(30), pinned_revision=first)
                    )
            CardText.objects.bulk_create(texts)
    inserted = time.perf_counter()
    index_cards()
    print(f"built {count:,} cards in {inserted - started:.1f} s, indexed in {time.perf_counter() - inserted:.1f} s")


def naive(game) -> dict:
    """The same counts from every row, in Python."""
    from cards.models import Card, CardText

    cards = list(Card.objects.filter(game=game).values_list("pk", "kind", "fields"))
    texts = list(
        CardText.objects.filter(card__game=game).values_list("card_id", "language", "track_id", "pinned_revision_id")
    )
    original = game.definition.original_language
    pins = {card: pin for card, language, track, pin in texts if language == original and track is None}
    stale = Counter(
        language
        for card, language, _track, pin in texts
        if language != original and pin is not None and pins.get(card) is not None and pins[card] != pin
    )
    return {
        "cards": len(cards),
        "at known": sum(1 for _pk, _kind, fields in cards if "at" in (fields or {})),
        "texts": dict(Counter(language for _card, language, _track, _pin in texts)),
        "stale": dict(stale),
    }


def from_map(gaps) -> dict:
    return {
        "cards": gaps.cards,
        "at known": gaps.known_values.get(("ability", "at"), 0),
        "texts": gaps.texts,
        "stale": gaps.stale.counts,
    }


def best(function, repeat: int) -> tuple[float, object]:
    times, result = [], None
    for _ in range(repeat):
        started = time.perf_counter()
        result = function()
        times.append((time.perf_counter() - started) * 1000)
    return min(times), result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cards", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--database-url", help="a PostgreSQL URL (its database is dropped and created)")
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        _configure(arguments.database_url or f"sqlite:///{Path(folder) / 'gaps.sqlite3'}")
        from django.db import connection

        from cards.missing.selectors import game_gaps, missing_map, stale_translations
        from cards.models import Game

        build(arguments.cards, random.Random(arguments.seed))
        game = Game.objects.get(slug="endbreaker")
        naive_ms, expected = best(lambda: naive(game), arguments.repeat)
        gaps_ms, gaps = best(lambda: game_gaps(game), arguments.repeat)
        map_ms, _map = best(lambda: missing_map(game), arguments.repeat)
        stale_ms, _stale = best(lambda: stale_translations(game), 3)
        agree = from_map(gaps) == expected
        print(f"{connection.vendor}, {arguments.cards:,} cards of one game; best of {arguments.repeat}")
        print(f"  naive pass over every row  {naive_ms:9.1f} ms")
        print(f"  missing_map (the page)     {map_ms:9.1f} ms  ({naive_ms / map_ms:.1f}x faster than naive)")
        print(f"    of which game_gaps       {gaps_ms:9.1f} ms")
        print(f"    of which stale texts     {stale_ms:9.1f} ms  ({sum(gaps.stale.counts.values()):,} stale)")
        print(f"  counts agree with the naive pass: {'yes' if agree else 'NO'}")
        if not agree:
            print(f"  naive {expected}\n  map   {from_map(gaps)}")
        return 0 if agree else 1


if __name__ == "__main__":
    raise SystemExit(main())
