from django.core.management.base import BaseCommand

from cards.images.services import image_hash
from cards.models import StoredImage


class Command(BaseCommand):
    help = (
        "Compute the perceptual hash of every card image that has none yet (images kept before hashes were, or "
        "restored from a backup), so that a photo of a card that already has its picture is recognised. "
        "With --all, of every upload. Safe to run again: only missing hashes are computed."
    )

    def add_arguments(self, parser):
        parser.add_argument("--all", action="store_true", help="every upload, not only the cards' images")

    def handle(self, *args, **options):
        images = StoredImage.objects.filter(perceptual_hash="")
        if not options["all"]:
            images = images.filter(card_images__isnull=False).distinct()
        hashed = missing = 0
        for stored in images.order_by("pk").iterator():
            if image_hash(stored):
                hashed += 1
            else:
                missing += 1
        self.stdout.write(f"{hashed} images hashed, {missing} without a hash (no detail, or the file unreadable)")
