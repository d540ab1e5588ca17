"""An upgraded database keeps every saved set-up as a deck: its name, owner, piles, dates and sharing survive, and
its old address leads to the deck (a public one's to its published snapshot for everyone but its owner)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client

from community.models import Publication
from decks.models import Deck
from simulator.models import MovedSetup

BEFORE = [("simulator", "0009_simulation_run_odds")]
AFTER = [("simulator", "0010_saved_setups_into_decks")]
SAVED = datetime(2026, 3, 4, 5, 6, 7, tzinfo=UTC)
ELEVEN = [f"EB9-91{n:02d}" for n in range(11)]
JOBS = ["魔獣戦士", "スカイランナー", "デモニスタ"]


def _old_setups(apps):
    User = apps.get_model("auth", "User")
    owner = User.objects.create(username="test-setup-owner")
    Game = apps.get_model("cards", "Game")
    game, _created = Game.objects.get_or_create(slug="endbreaker")
    Card = apps.get_model("cards", "Card")
    for key in ELEVEN:  # synthetic abilities, in card-number order
        Card.objects.create(game=game, key=key, kind="ability", sort_key=key)
    for key in JOBS:
        Card.objects.create(game=game, key=key, kind="job", sort_key=f"zz-{key}")
    SavedSetup = apps.get_model("simulator", "SavedSetup")

    def saved(name, choices, visibility):
        setup = SavedSetup.objects.create(owner=owner, game=game, name=name, choices=choices, visibility=visibility)
        SavedSetup.objects.filter(pk=setup.pk).update(created_at=SAVED, updated_at=SAVED)
        return SavedSetup.objects.get(pk=setup.pk)

    return owner, {
        "private": saved("テスト非公開", ELEVEN[2:], "private"),
        "link": saved("テストリンク", list(reversed(ELEVEN[:9])), "link"),
        "public": saved("テスト公開", ELEVEN[1:10], "public"),
        "default": saved("テスト既定", [], "private"),
        "gone": saved("テスト欠番", [*ELEVEN[:8], "EB9-9999"], "private"),  # a card no longer stored
    }


@pytest.mark.django_db(transaction=True)
def test_an_upgrade_makes_every_saved_set_up_a_deck_and_its_old_address_leads_there(executor):
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    owner_row, setups = _old_setups(old)
    tokens = {kind: setup.share_token for kind, setup in setups.items()}

    MigrationExecutor(connection).migrate(AFTER)
    latest = MigrationExecutor(connection)
    latest.migrate(latest.loader.graph.leaf_nodes())

    moved = {kind: MovedSetup.objects.select_related("deck").get(setup_id=setup.pk) for kind, setup in setups.items()}
    assert {kind: m.choices for kind, m in moved.items()} == {kind: s.choices for kind, s in setups.items()}
    decks = {kind: m.deck for kind, m in moved.items()}
    assert Deck.objects.count() == len(setups)
    for kind, deck in decks.items():
        assert deck.name == setups[kind].name and deck.owner_id == owner_row.pk and deck.game.slug == "endbreaker"
        assert deck.created_at == SAVED and deck.updated_at == SAVED
        assert sorted(deck.entries.filter(zone="jobs").values_list("card__key", flat=True)) == sorted(JOBS)

    def piles(kind):
        return list(
            decks[kind].entries.filter(zone="supply").order_by("card__sort_key").values_list("card__key", flat=True)
        )

    assert piles("private") == ELEVEN[2:]
    assert piles("link") == ELEVEN[:9]  # the same piles, in card-number order
    assert piles("public") == ELEVEN[1:10]
    assert piles("default") == ELEVEN[:9]  # the game's default: the first 9 by card number
    assert piles("gone") == ELEVEN[:8]  # and MovedSetup keeps "EB9-9999" as it was chosen

    assert [decks[kind].visibility for kind in ("private", "link", "public", "default")] == [
        "private",
        "link",
        "link",
        "private",
    ]
    assert all(decks[kind].share_token == tokens[kind] for kind in setups)  # an old link is the deck's link
    publication = Publication.objects.get(deck=decks["public"])
    assert publication.title == "テスト公開" and publication.from_public_deck and publication.is_current
    assert not Publication.objects.exclude(deck=decks["public"]).exists()

    old_page = f"/simulator/games/endbreaker/setups/{setups['private'].pk}/"
    owner = Client()
    owner.force_login(get_user_model().objects.get(pk=owner_row.pk))
    assert owner.get(old_page)["Location"] == f"/decks/{decks['private'].pk}/"
    assert owner.get(f"{old_page}edit/")["Location"] == f"/decks/{decks['private'].pk}/edit/"
    anyone = Client()
    assert anyone.get(old_page).status_code == 404  # private stays private
    link_page = f"/simulator/games/endbreaker/setups/{setups['link'].pk}/"
    assert anyone.get(link_page).status_code == 404
    assert anyone.get(f"{link_page}?token={tokens['link']}")["Location"] == f"/decks/shared/{tokens['link']}/"
    public_page = anyone.get(f"/simulator/games/endbreaker/setups/{setups['public'].pk}/")
    assert public_page.status_code == 301 and str(publication.pk) in public_page["Location"]
    assert anyone.get(public_page["Location"]).status_code == 200


@pytest.mark.django_db(transaction=True)
def test_the_upgrade_can_be_undone_and_done_again_without_losing_or_doubling_anything(executor):
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    _owner, setups = _old_setups(old)
    MigrationExecutor(connection).migrate(AFTER)
    back = MigrationExecutor(connection)
    back.migrate(BEFORE)
    restored = back.loader.project_state(BEFORE).apps.get_model("simulator", "SavedSetup")
    fields = ("pk", "owner_id", "game_id", "name", "choices", "visibility", "share_token")
    assert sorted(restored.objects.values_list(*fields)) == sorted(
        tuple(getattr(setup, field) for field in fields) for setup in setups.values()
    )
    again = MigrationExecutor(connection)
    again.migrate(AFTER)
    assert Deck.objects.count() == len(setups) == MovedSetup.objects.count()
    assert Publication.objects.count() == 1
