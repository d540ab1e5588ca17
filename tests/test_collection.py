"""Collections (issue 14, item 1): what a player owns per game, filled by +/−, a pasted list or a CSV, used by
owned: in the search language, the builder's "only cards I own", a deck's want list and several decks checked
against one collection. Synthetic cards only (tests/synthetic_decks.py)."""

from __future__ import annotations

import csv
import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from cards import selectors as card_selectors
from collection import importing, selectors, services
from collection.models import MAX_OWNED, OwnedCard
from collection.rules import CollectionError
from decks import services as deck_services
from decks.models import Deck

from .synthetic_decks import card, game
from .users import PASSWORD, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def cards(synthetic_cards):
    return None


def signed_in(user) -> Client:
    client = Client()
    assert client.login(username=user.username, password=PASSWORD)
    return client


def owned(user, slug: str) -> dict[str, int]:
    rows = OwnedCard.objects.filter(owner=user, card__game__slug=slug, count__gte=1).select_related("card")
    return {row.card.key: row.count for row in rows}


def make_deck(owner, slug: str, entries: list[tuple[str, str, int]], **fields) -> Deck:
    return deck_services.create_deck(
        owner=owner,
        game=game(slug),
        name=fields.pop("name", "テストデッキ"),
        entries=[(zone, card(slug, key), count) for zone, key, count in entries],
        **fields,
    )


# --- services: the bounds hold on every write


def test_plus_and_minus_change_the_count_and_a_count_of_zero_leaves_no_row(cards, owner):
    ally = card("shadowera", "Test Ally 01")
    assert services.change_count(owner, ally, 1) == 1
    assert services.change_count(owner, ally, 1) == 2
    assert services.change_count(owner, ally, -1) == 1
    assert services.change_count(owner, ally, -1) == 0
    assert not OwnedCard.objects.filter(owner=owner).exists()


def test_a_count_below_zero_or_above_the_bound_is_refused_and_nothing_changes(cards, owner):
    ally = card("shadowera", "Test Ally 01")
    with pytest.raises(CollectionError, match="cannot be removed"):
        services.change_count(owner, ally, -1)
    services.set_count(owner, ally, MAX_OWNED)
    with pytest.raises(CollectionError, match=str(MAX_OWNED)):
        services.change_count(owner, ally, 1)
    for hostile in (-1, MAX_OWNED + 1, 10**30, "3", 2.5, True, None):
        with pytest.raises(CollectionError):
            services.set_count(owner, ally, hostile)
    assert owned(owner, "shadowera") == {"Test Ally 01": MAX_OWNED}


def test_import_adds_or_replaces_the_collection_of_one_game_only(cards, owner):
    services.set_count(owner, card("shadowera", "Test Ally 01"), 2)
    services.set_count(owner, card("suikoden", "901"), 4)
    services.import_counts(owner, game("shadowera"), {card("shadowera", "Test Ally 01"): 1}, "add")
    assert owned(owner, "shadowera") == {"Test Ally 01": 3}
    services.import_counts(owner, game("shadowera"), {card("shadowera", "Test Ally 02"): 2}, "replace")
    assert owned(owner, "shadowera") == {"Test Ally 02": 2}
    assert owned(owner, "suikoden") == {"901": 4}  # another game's collection is untouched


def test_an_import_that_would_pass_the_bound_writes_nothing(cards, owner):
    services.set_count(owner, card("shadowera", "Test Ally 01"), MAX_OWNED - 1)
    counts = {card("shadowera", "Test Ally 02"): 3, card("shadowera", "Test Ally 01"): 2}
    with pytest.raises(CollectionError):
        services.import_counts(owner, game("shadowera"), counts, "add")
    assert owned(owner, "shadowera") == {"Test Ally 01": MAX_OWNED - 1}
    with pytest.raises(CollectionError):
        services.import_counts(owner, game("shadowera"), {card("suikoden", "901"): 1}, "add")


# --- owned: in the search language


def keys(outcome) -> set[str]:
    assert outcome.error is None, outcome.error
    return {found.key for found in outcome.cards}


def test_owned_finds_the_cards_of_the_user_who_searches(cards, owner, other):
    services.set_count(owner, card("shadowera", "Test Ally 01"), 3)
    services.set_count(owner, card("shadowera", "Test Hero 01"), 1)
    services.set_count(other, card("shadowera", "Test Ally 02"), 1)
    search = card_selectors.search_cards
    assert keys(search("owned:yes", "ja", user=owner)) == {"Test Ally 01", "Test Hero 01"}
    assert keys(search("game:shadowera -owned:yes", "ja", user=owner)) == {"Test Ally 02"}
    assert keys(search("game:shadowera owned:no", "ja", user=owner)) == {"Test Ally 02"}
    assert keys(search("owned>=2", "ja", user=owner)) == {"Test Ally 01"}
    assert keys(search("owned=1", "ja", user=owner)) == {"Test Hero 01"}
    assert keys(search("game:shadowera owned<2", "ja", user=owner)) == {"Test Hero 01", "Test Ally 02"}
    assert keys(search("game:shadowera owned=0", "ja", user=owner)) == {"Test Ally 02"}
    assert keys(search("owned>99999999999999999999", "ja", user=owner)) == set()
    assert keys(search("owned:yes or テストパンチ", "ja", user=owner)) == {"Test Ally 01", "Test Hero 01", "Test Punch"}
    assert keys(search("owned:yes", "ja", user=other)) == {"Test Ally 02"}


def test_owned_without_an_account_or_with_a_bad_value_is_a_query_error(cards, owner):
    from django.contrib.auth.models import AnonymousUser

    for user in (None, AnonymousUser()):
        outcome = card_selectors.search_cards("owned:yes", "en", user=user)
        assert outcome.error_code == "needs_account" and "Sign in" in outcome.error
    for query in ("owned:maybe", "owned>yes", "owned:/x/"):
        outcome = card_selectors.search_cards(query, "en", user=owner)
        assert outcome.error_code == "owned_value", query


def test_owned_on_the_search_page_anonymous_gets_a_message_not_a_500(cards, client):
    response = client.get("/search/", {"q": "owned:yes"})
    assert response.status_code == 200
    assert "Sign in" in response.content.decode() or "ログイン" in response.content.decode()
