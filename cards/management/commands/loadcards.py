from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from cards.services import ImportRejected, import_files, sync_games

DATA_DIR = Path(__file__).resolve().parents[2] / "data"


class Command(BaseCommand):
    help = (
        "Load the seed card data (cards/data/*.json). Safe to run again: it changes nothing the second time, "
        "and never overwrites a change made to a card since its seed was loaded (that becomes a seed conflict)."
    )

    def handle(self, *args, **options):
        sync_games()
        paths = sorted(str(path) for path in DATA_DIR.glob("*.json"))
        try:
            summaries = import_files(paths, seed=True)
        except ImportRejected as rejected:
            raise CommandError(
                "The seed data has problems; nothing was loaded:\n" + "\n".join(map(str, rejected.problems))
            ) from None
        for summary in summaries:
            self.stdout.write(
                f"{summary.game}: {summary.created} cards added, {summary.updated} updated, "
                f"{summary.unchanged} unchanged, {summary.terms} glossary terms, {summary.rule_sections} rules sections"
            )
            if summary.conflicts:
                self.stderr.write(
                    f"{summary.game}: {summary.conflicts} cards changed since their seed was loaded were kept as they "
                    "are although their seed changed; an editor decides (admin: seed conflicts)."
                )
