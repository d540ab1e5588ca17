import json

from django.core.management.base import BaseCommand, CommandError

from cards.importing import bundle_to_document
from cards.models import Game
from cards.selectors import export_bundle


class Command(BaseCommand):
    help = "Print a game's cards, glossary and rules as JSON (the format importcards reads)."

    def add_arguments(self, parser):
        parser.add_argument("game", help="game slug, e.g. endbreaker")
        parser.add_argument("--output", "-o", help="write to this file instead of standard output")

    def handle(self, *args, game, output=None, **options):
        try:
            game_row = Game.objects.get(slug=game)
        except Game.DoesNotExist:
            slugs = ", ".join(Game.objects.values_list("slug", flat=True)) or "none loaded; run loadcards"
            raise CommandError(f"no game {game!r} (games: {slugs})") from None
        text = json.dumps(bundle_to_document(export_bundle(game_row)), ensure_ascii=False, indent=2)
        if output:
            with open(output, "w", encoding="utf-8") as handle:
                handle.write(text + "\n")
        else:
            self.stdout.write(text)
