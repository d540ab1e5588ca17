"""``python manage.py restore FILE``: load a backup into an empty database (cardsite/restore.py says how).

The command lives in the cards app only because the project package (cardsite) is not an app.
"""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, no_translations

from cardsite import backup, restore


class Command(BaseCommand):
    help = (
        "Load a file written by `backup` into this database, which must be empty and migrated to the file's "
        "migration state (`python manage.py migrate` on a new database), on SQLite or PostgreSQL. One transaction: "
        "everything is loaded or nothing. Ids and password hashes are kept; sessions are not in the file (everyone "
        "logs in again); the search index is rebuilt."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", type=Path, help="a file written by `python manage.py backup`")

    @no_translations  # an operator's command: its messages, the database's included, in English
    def handle(self, *args, file: Path, **options):
        try:
            summary = restore.restore_backup(file)
        except backup.BackupError as error:
            raise CommandError(f"{error}; nothing was restored") from None
        self.stdout.write(
            f"{summary.rows} rows of {len(summary.counts)} models restored from {file}, "
            f"{summary.cards_indexed} cards indexed, in {summary.seconds:.2f} s"
        )
