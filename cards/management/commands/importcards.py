from django.core.management.base import BaseCommand, CommandError

from cards.services import ImportRejected, import_files


class Command(BaseCommand):
    help = (
        "Import cards from JSON or CSV files (format: docs/card-format.md). "
        "Every row is checked first; a file with any problem writes nothing."
    )

    def add_arguments(self, parser):
        parser.add_argument("files", nargs="+", metavar="FILE")

    def handle(self, *args, files, **options):
        try:
            summaries = import_files(files)
        except ImportRejected as rejected:
            raise CommandError(
                f"{len(rejected.problems)} problem(s); nothing was imported:\n" + "\n".join(map(str, rejected.problems))
            ) from None
        for summary in summaries:
            self.stdout.write(f"{summary.game}: {summary.created} cards added, {summary.updated} updated")
