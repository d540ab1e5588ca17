from django.core.management.base import BaseCommand

from cards.services import reindex_all_cards


class Command(BaseCommand):
    help = (
        "Rebuild the search index of every card (for example after restoring a database or going back "
        "a migration). One transaction: it completes or changes nothing."
    )

    def handle(self, *args, **options):
        count = reindex_all_cards()
        self.stdout.write(f"{count} cards indexed")
