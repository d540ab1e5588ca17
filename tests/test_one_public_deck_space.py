"""One public deck space: a deck is private or shared by link, and what everyone sees is a published snapshot.

Decks that were public before are published by a data migration (with the publishing service) and shared by
link; their old addresses (the deck's page, ``/decks/public/``) lead to the published deck space.
"""

from __future__ import annotations

import datetime
from importlib import import_module

import pytest
from django.apps import apps
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from cards.models import Card, Game
from community import services as community_services
from community.models import Publication
from decks import services
from decks.models import Deck

from .support.clients import signed_in

pytestmark = pytest.mark.django_db

OLD = timezone.make_aware(datetime.datetime(2024, 5, 6, 7, 8, 9))


def shadow_deck(owner, name: str = "Synthetic public deck", cards: bool = True) -> Deck:
    game = Game.objects.get(slug="shadowera")
    entries = []
    if cards:
        entries = [
            ("hero", Card.objects.get(game=game, key="Test Hero 01"), 1),
            ("deck", Card.objects.get(game=game, key="Test Ally 01"), 3),
        ]
    return services.create_deck(owner=owner, game=game, name=name, description="Synthetic notes.", entries=entries)


def made_public(deck: Deck, last_change: datetime.datetime = OLD) -> Deck:
    """A deck as one was stored while decks could be public (the services no longer make one)."""
    Deck.objects.filter(pk=deck.pk).update(visibility="public", updated_at=last_change)
    deck.refresh_from_db()
    return deck


def run_the_migration() -> None:
    migration = import_module("community.migrations.0005_publish_public_decks")
    migration.publish_public_decks(apps, None)


@pytest.fixture
def former_public(synthetic_cards, owner) -> Deck:
    deck = made_public(shadow_deck(owner))
    run_the_migration()
    deck.refresh_from_db()
    return deck


def test_the_migration_publishes_each_public_deck_once_and_leaves_none_public(synthetic_cards, owner, other):
    public = made_public(shadow_deck(owner))
    empty = made_public(shadow_deck(other, name="Synthetic empty deck", cards=False))
    private = shadow_deck(other, name="Synthetic private deck")
    run_the_migration()
    run_the_migration()  # a second run finds nothing left to move

    assert not Deck.objects.filter(visibility="public").exists()
    publication = Publication.objects.get(deck=public)  # exactly one
    assert (publication.title, publication.description, publication.author) == (
        "Synthetic public deck",
        "Synthetic notes.",
        owner,
    )
    assert publication.published_at == OLD and publication.is_current and publication.from_public_deck
    assert sorted((e["zone"], e["card"], e["count"]) for e in publication.entries) == [
        ("deck", "Test Ally 01", 3),
        ("hero", "Test Hero 01", 1),
    ]
    assert publication.cards.count() == 2  # the rows the card filters read
    public.refresh_from_db()
    assert public.visibility == "link" and public.updated_at == OLD  # the deck itself is not changed
    # nothing to publish: still seen by whoever has its link
    empty.refresh_from_db()
    assert empty.visibility == "link" and not Publication.objects.filter(deck=empty).exists()
    private.refresh_from_db()
    assert private.visibility == "private" and not Publication.objects.filter(deck=private).exists()


def test_an_old_public_deck_link_leads_visitors_to_its_publication(former_public, owner, other):
    publication = Publication.objects.get(deck=former_public)
    for visitor in (Client(HTTP_ACCEPT_LANGUAGE="en"), signed_in(other)):
        response = visitor.get(f"/decks/{former_public.pk}/")
        assert response.status_code == 302 and response["Location"] == f"/community/decks/published/{publication.pk}/"
        assert "Synthetic public deck" in visitor.get(response["Location"]).content.decode()
    # its owner still opens the deck itself, now shared by link
    page = signed_in(owner).get(f"/decks/{former_public.pk}/")
    assert page.status_code == 200 and "Synthetic public deck" in page.content.decode()
    # withdrawn by its author: the old link leads nowhere any more
    community_services.withdraw(publication, user=owner)
    assert Client().get(f"/decks/{former_public.pk}/").status_code == 404


def test_a_deck_published_today_is_not_revealed_by_its_own_page(synthetic_cards, owner, other):
    deck = shadow_deck(owner, name="Synthetic private deck")
    community_services.publish(deck, user=owner, title="Synthetic published title")
    assert Client().get(f"/decks/{deck.pk}/").status_code == 404
    assert signed_in(other).get(f"/decks/{deck.pk}/").status_code == 404


def test_the_old_public_list_moves_to_the_published_list(synthetic_cards):
    client = Client()
    response = client.get("/decks/public/")
    assert response.status_code == 301 and response["Location"] == "/community/decks/published/"
    response = client.get("/decks/public/?game=shadowera")
    assert response.status_code == 301 and response["Location"] == "/community/games/shadowera/decks/"
    response = client.get("/decks/public/?game=no-such-game")
    assert response.status_code == 301 and response["Location"] == "/community/decks/published/"


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_navigation_has_one_public_deck_entry(owner, language):
    for client in (Client(HTTP_ACCEPT_LANGUAGE=language), signed_in(owner, language)):
        page = client.get("/").content.decode()
        nav = page[page.index('class="account-nav"') :]
        nav = nav[: nav.index("</nav>")]
        assert 'href="/community/decks/published/"' in nav and 'href="/decks/public/"' not in nav


def test_the_api_refuses_a_public_deck_and_says_to_publish(synthetic_cards, owner):
    api = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    api.force_authenticate(owner)
    before = Deck.objects.count()
    created = api.post("/api/decks/", {"game": "shadowera", "name": "Synthetic", "visibility": "public"}, format="json")
    assert created.status_code == 400
    assert "publish it" in created.json()["errors"]["visibility"][0]
    assert Deck.objects.count() == before
    deck = shadow_deck(owner)
    changed = api.patch(f"/api/decks/{deck.pk}/", {"name": "Changed", "visibility": "public"}, format="json")
    assert changed.status_code == 400 and "publish it" in changed.json()["errors"]["visibility"][0]
    deck.refresh_from_db()
    assert (deck.name, deck.visibility) == ("Synthetic public deck", "private")
    japanese = APIClient(HTTP_ACCEPT_LANGUAGE="ja")
    japanese.force_authenticate(owner)
    refused = japanese.patch(f"/api/decks/{deck.pk}/", {"visibility": "public"}, format="json")
    assert refused.status_code == 400 and "公開" in refused.json()["errors"]["visibility"][0]
    assert api.patch(f"/api/decks/{deck.pk}/", {"visibility": "link"}, format="json").status_code == 200


def test_the_services_refuse_a_public_deck(synthetic_cards, owner):
    deck = shadow_deck(owner)
    with pytest.raises(services.DeckError) as refused:
        services.update_deck(deck, visibility="public")
    assert refused.value.code == "publish_instead"
    with pytest.raises(services.DeckError):
        services.create_deck(owner=owner, game=deck.game, name="Synthetic", visibility="public")
    assert Deck.objects.filter(owner=owner).count() == 1


def test_the_schema_offers_private_and_link_only(db):
    schemas = Client().get("/api/schema/?format=json").json()["components"]["schemas"]

    def values(field: dict) -> list[str]:
        field = field["allOf"][0] if "allOf" in field else field
        return sorted(field["enum"] if "enum" in field else schemas[field["$ref"].rsplit("/", 1)[1]]["enum"])

    for name in ("DeckWrite", "DeckUpdate", "Deck"):
        assert values(schemas[name]["properties"]["visibility"]) == ["link", "private"], name
    assert "publish" in schemas["DeckWrite"]["properties"]["visibility"]["description"]
