"""A bulk contribution's preview against the importer's own check of the same rows, in one process.

    python benchmarks/bulk.py [--rows 1000] [--database-url postgres://…/cardsite_bulk]

Builds a database (a temporary SQLite file, or the named PostgreSQL database, dropped and created) holding
half of the rows' cards already, then times, best of ``--repeat``:
- the importer's check of the pasted table (``cards.importing.parse_text``: reading and checking every row);
- the preview (``contributions.bulk.preview``): that check, plus every card compared with the database and
  with the change sets waiting for review.
Goal: the preview takes at most 2x the importer's check. The cards are synthetic (SE9-…, テスト).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _table(rows: int) -> str:
    lines = ["game\tkey\tkind\tfield:cost\tfield:attack\tfield:health\tfield:faction\tname:ja\ttext:ja"]
    for index in range(rows):
        lines.append(
            f"shadowera\tSE9-{index:05d}\tally\t{index % 7}\t{index % 5}\t{1 + index % 6}\thuman"
            f"\tテスト{index}\tテスト用の架空のカード{index}。"
        )
    return "\n".join(lines) + "\n"


def _best_of_each(functions: list, repeat: int) -> list[float]:
    """Each function's best time in ms, the functions taking turns so that a busy moment hits them alike."""
    best = [float("inf")] * len(functions)
    for _ in range(repeat):
        for index, function in enumerate(functions):
            started = time.perf_counter()
            function()
            best[index] = min(best[index], time.perf_counter() - started)
    return [seconds * 1000 for seconds in best]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--database-url", default="")
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        url = arguments.database_url or f"sqlite:///{Path(folder) / 'bulk.sqlite3'}"
        if url.startswith("postgres"):
            import psycopg

            base, name = url.rsplit("/", 1)
            with psycopg.connect(base + "/postgres", autocommit=True) as connection:
                connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
                connection.execute(f'CREATE DATABASE "{name}"')
        os.environ["DATABASE_URL"] = url
        os.environ.setdefault("SECRET_KEY", "benchmark-only")
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardsite.settings")
        import django

        django.setup()
        from django.core.management import call_command

        from cards.importing import parse_text
        from cards.models import Game
        from cards.services import import_bundle
        from contributions.bulk import preview

        call_command("migrate", verbosity=0)
        table = _table(arguments.rows)
        existing, problems = parse_text(_table(arguments.rows // 2).replace("\thuman\t", "\tshadow\t"), "")
        assert not problems, problems[:3]
        import_bundle(existing)
        game = Game.objects.get(slug="shadowera")
        result = preview(game, table)
        assert not result.problems and result.counts["changed"] == arguments.rows // 2, result.counts
        check, previewed = _best_of_each(
            [lambda: parse_text(table, ""), lambda: preview(game, table)], arguments.repeat
        )
        print(f"{arguments.rows:,} rows ({result.counts}), {django.db.connection.vendor}, best of {arguments.repeat}")
        print(f"importer's check: {check:8.1f} ms")
        print(f"preview:          {previewed:8.1f} ms  ({previewed / check:.2f}x the check; goal at most 2x)")
        if url.startswith("postgres"):
            django.db.connections.close_all()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
