from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from cards.services import ImportRejected, import_files, sync_games

DATA_DIR = Path(__file__).resolve().parents[2] / "data"


class Command(BaseCommand):
    help = "Load the seed card data (cards/data/*.json). Safe to run again: it changes nothing the second time."

    def handle(self, *args, **options):
        sync_games()
        paths = sorted(str(path) for path in DATA_DIR.glob("*.json"))
        try:
            summaries = import_files(paths)
        except ImportRejected as rejected:
            raise CommandError(
                "The seed data has problems; nothing was loaded:\n" + "\n".join(map(str, rejected.problems))
            ) from None
        for summary in summaries:
            self.stdout.write(
                f"{summary.game}: {summary.created} cards added, {summary.updated} updated, "
                f"{summary.terms} glossary terms, {summary.rule_sections} rules sections"
            )
