"""Decks stop being public: each deck that is public is published (a snapshot made by the publishing service, with
the deck's name, description and author, dated by its last change) and becomes shared by link.

The historical model only tells whether there is anything to move; the move itself is
``community.services.publish_public_decks``, the same code that publishes any deck, so that a snapshot made here
is one a later publish would have made. A database without public decks (a new one) runs none of today's code.
"""

from django.db import migrations


def publish_public_decks(apps, schema_editor):
    Deck = apps.get_model("decks", "Deck")
    if not Deck.objects.filter(visibility="public").exists():
        return
    from community.services import publish_public_decks as move

    move()


class Migration(migrations.Migration):
    dependencies = [
        ("community", "0004_publication_from_public_deck"),
        ("decks", "0005_deck_visibility_private_or_link"),
    ]

    # Backwards: the snapshots stay published and the decks shared by link (nothing is lost either way).
    operations = [migrations.RunPython(publish_public_decks, migrations.RunPython.noop, elidable=False)]
