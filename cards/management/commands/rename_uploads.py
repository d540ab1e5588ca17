from django.core.management.base import BaseCommand, no_translations

from cards.images.services import rename_content_named


class Command(BaseCommand):
    help = (
        "Give every upload kept under its content hash (the names of uploads stored before names were random) a "
        "random name, as new uploads get, and delete the old files: an upload's address then cannot be found "
        "from its picture. Safe to run again, and while the site serves (a page rendered before the rename "
        "links to the old address until it is rendered again)."
    )

    @no_translations  # an operator's command: its messages in English
    def handle(self, *args, **options):
        renamed, unreadable = rename_content_named()
        for name in unreadable:
            self.stderr.write(f"cannot read {name}: left as it is")
        self.stdout.write(f"{renamed} uploads renamed, {len(unreadable)} left (their files cannot be read)")
