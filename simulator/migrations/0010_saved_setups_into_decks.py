"""Set-ups become decks: an エンドブレイカー！SCG deck is the table's choice of piles (``decks.rules.endbreaker``:
9 ability piles in the supply, the 3 job piles), so each saved set-up becomes a deck of its owner with its name,
its piles, its dates and its sharing, and its old address leads to that deck (``MovedSetup``).

- The chosen piles go into the deck's ``supply`` zone, one copy each, in the order of the card numbers; a set-up
  that chose none (the game's default: the first 9 abilities by card number) gets those 9 as they are now.
- The three job piles go into ``jobs`` (遊戲準備 1 lays them on every table, and the deck rules ask for them).
- Private stays private and a link stays the same link (the deck takes the set-up's share token). A public set-up
  becomes a deck shared by link that is published, as public decks were (``community.services
  .publish_public_decks``, the same code that moved them, so that its snapshot is one a later publish would make).
- ``MovedSetup`` keeps the set-up's id and its choice exactly as saved, a card it named that is no longer stored
  included.

Backwards: the set-ups come back from the moved decks' addresses (name, owner, sharing, choices); the decks stay,
and moving forward again finds each set-up's deck again (by its share token) instead of making a second one.
"""

import django.db.models.deletion
from django.db import migrations, models

ABILITY_PILES = 9
JOB_PILE_KEYS = ("魔獣戦士", "スカイランナー", "デモニスタ")  # 遊戲準備 1, as simulator.fullgames.endbreaker keys them


def setups_into_decks(apps, schema_editor):
    SavedSetup = apps.get_model("simulator", "SavedSetup")
    MovedSetup = apps.get_model("simulator", "MovedSetup")
    Deck = apps.get_model("decks", "Deck")
    DeckEntry = apps.get_model("decks", "DeckEntry")
    Card = apps.get_model("cards", "Card")
    any_public = False
    for saved in SavedSetup.objects.order_by("pk"):
        # Moved before and brought back by the backward step: the deck it became is still there, changes and all.
        earlier = Deck.objects.filter(share_token=saved.share_token, owner_id=saved.owner_id).first()
        if earlier is not None:
            MovedSetup.objects.create(setup_id=saved.pk, deck=earlier, choices=list(saved.choices))
            continue
        cards = Card.objects.filter(game_id=saved.game_id)
        if saved.choices:
            by_key = {card.key: card for card in cards.filter(key__in=saved.choices)}
            piles = sorted(
                (by_key[key] for key in set(saved.choices) if key in by_key), key=lambda c: (c.sort_key, c.pk)
            )
        else:
            piles = list(cards.filter(kind="ability").order_by("sort_key", "pk")[:ABILITY_PILES])
        jobs = list(cards.filter(key__in=JOB_PILE_KEYS).order_by("sort_key", "pk"))
        public = saved.visibility == "public"
        any_public = any_public or public
        deck = Deck.objects.create(
            owner_id=saved.owner_id,
            game_id=saved.game_id,
            name=saved.name,
            mode="default",
            options={"fixed_masquerades": False},
            visibility=saved.visibility,  # "public" only until publish_public_decks below moves it
            share_token=saved.share_token,
        )
        Deck.objects.filter(pk=deck.pk).update(created_at=saved.created_at, updated_at=saved.updated_at)
        DeckEntry.objects.bulk_create(
            [DeckEntry(deck=deck, zone="supply", card=card, count=1) for card in piles]
            + [DeckEntry(deck=deck, zone="jobs", card=card, count=1) for card in jobs]
        )
        MovedSetup.objects.create(setup_id=saved.pk, deck=deck, choices=list(saved.choices))
    if any_public:
        from community.services import publish_public_decks

        publish_public_decks()


def decks_into_setups(apps, schema_editor):
    SavedSetup = apps.get_model("simulator", "SavedSetup")
    MovedSetup = apps.get_model("simulator", "MovedSetup")
    for moved in MovedSetup.objects.select_related("deck").order_by("setup_id"):
        deck = moved.deck
        published = deck.publications.filter(from_public_deck=True).exists()
        SavedSetup.objects.create(
            pk=moved.setup_id,
            owner_id=deck.owner_id,
            game_id=deck.game_id,
            name=deck.name,
            choices=list(moved.choices),
            visibility="public" if published else deck.visibility,
            share_token=deck.share_token,
        )


class Migration(migrations.Migration):
    dependencies = [
        ("simulator", "0009_simulation_run_odds"),
        ("decks", "0005_deck_visibility_private_or_link"),
        ("community", "0005_publish_public_decks"),
    ]

    operations = [
        migrations.CreateModel(
            name="MovedSetup",
            fields=[
                ("setup_id", models.BigIntegerField(primary_key=True, serialize=False)),
                ("choices", models.JSONField(blank=True, default=list)),
                (
                    "deck",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE, related_name="moved_setups", to="decks.deck"
                    ),
                ),
            ],
            options={"verbose_name": "moved set-up", "verbose_name_plural": "moved set-ups"},
        ),
        migrations.RunPython(setups_into_decks, decks_into_setups, elidable=False),
        migrations.DeleteModel(name="SavedSetup"),
    ]
