"""``python manage.py backup FILE``: the whole database in one file (cardsite/backup.py says what and how).

The command lives in the cards app only because the project package (cardsite) is not an app.
"""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, no_translations

from cardsite import backup


class Command(BaseCommand):
    help = (
        "Write every row of the database (cards, texts, glossary, rules, users, decks, runs, tokens …; not the "
        "search index, which a restore rebuilds, nor sessions) to FILE: gzip-compressed JSON lines with a header. "
        "The file is replaced only once it is complete. `restore FILE` loads it into an empty database."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", type=Path, help="the backup file to write, e.g. cardsite-2025-01-01.jsonl.gz")

    @no_translations  # an operator's command: its messages, the database's included, in English
    def handle(self, *args, file: Path, **options):
        try:
            summary = backup.write_backup(file)
        except backup.BackupError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(
            f"{summary.rows} rows of {len(summary.counts)} models written to {summary.path} "
            f"({summary.size:,} bytes) in {summary.seconds:.2f} s"
        )
