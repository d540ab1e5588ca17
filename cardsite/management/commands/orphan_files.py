"""``python manage.py orphan_files [--delete]``: the files of the media storage that no row names."""

from datetime import timedelta

from django.core.files.storage import default_storage
from django.core.management.base import BaseCommand, no_translations

from cardsite.storage import orphan_files


class Command(BaseCommand):
    help = (
        "List the files of the media storage (MEDIA_ROOT, or the storage MEDIA_STORAGE names) that no row of the "
        "database names: left by a write whose transaction did not commit (a process killed half-way), or by a "
        "restore into another database. With --delete, remove them. Files changed in the last --min-age minutes "
        "are left alone: an upload being written now is named once its transaction commits."
    )

    def add_arguments(self, parser):
        parser.add_argument("--delete", action="store_true", help="remove the files listed")
        parser.add_argument(
            "--min-age", type=int, default=60, metavar="MINUTES", help="leave out files newer than this (60)"
        )

    @no_translations  # an operator's command: its messages in English
    def handle(self, *args, delete: bool, min_age: int, **options):
        orphans = orphan_files(min_age=timedelta(minutes=max(min_age, 0)))
        for name in orphans:
            if delete:
                default_storage.delete(name)
            self.stdout.write(name)
        if delete:
            self.stdout.write(f"{len(orphans)} files that no row names removed")
        else:
            self.stdout.write(f"{len(orphans)} files that no row names (--delete removes them)")
