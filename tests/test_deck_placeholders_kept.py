"""Placeholder cards kept wherever a deck's cards are kept: its versions (and their diffs, restoring one,
branching one off), a copy of the deck, a published snapshot and a copy of it. Synthetic cards only."""

from __future__ import annotations

import pytest

from community import services as community_services
from decks import services as deck_services
from decks.models import DeckVersion
from decks.placeholders import services

from .support.clients import api_client, signed_in
from .support.html import parse, squash
from .support.placeholder_decks import fill_with_placeholders, shadow_era_deck

pytestmark = pytest.mark.usefixtures("synthetic_cards")

FILLED = [("deck", "ability", {"cost": 1}, "", 19), ("deck", "ally", {"cost": 3, "attack": 2}, "Big ally", 12)]


def held(deck) -> list[tuple]:
    return sorted(deck.placeholders.values_list("zone", "kind", "values", "name", "count"), key=lambda r: r[1])


def last_version(deck) -> DeckVersion:
    version = DeckVersion.objects.filter(deck=deck).order_by("-number").first()
    assert version is not None
    return version


def test_a_version_keeps_the_placeholders_and_the_diff_shows_them(owner):
    deck = shadow_era_deck(owner)
    first = last_version(deck)
    fill_with_placeholders(deck)
    kept = last_version(deck)
    assert sorted(p["kind"] for p in kept.placeholders) == ["ability", "ally"]
    assert kept.verdict.get("placeholders") == 31
    page = parse(signed_in(owner).get(f"/decks/{deck.pk}/diff/?a={first.number}&b={kept.number}"))
    shown = squash(page.find(cls="deck-diff").text)
    assert "+12 Big ally [placeholder: Ally (Cost 3, Attack 2)]" in shown
    assert "+19 [placeholder: Ability (Cost 1)]" in shown
    text = signed_in(owner).get(f"/decks/{deck.pk}/diff/?a={first.number}&b={kept.number}&format=text")
    assert "+12 Big ally [placeholder: Ally (Cost 3, Attack 2)]" in text.content.decode()
    answer = api_client(owner).get(f"/api/decks/{deck.pk}/diff/?a={first.number}&b={kept.number}").json()
    added = [row for zone in answer["zones"] for row in zone["added"]]
    big = {"placeholder": {"kind": "ally", "values": {"cost": 3, "attack": 2}, "name": "Big ally"}, "count": 12}
    assert big in added


def test_restoring_a_version_restores_its_placeholders(owner):
    deck = shadow_era_deck(owner)
    fill_with_placeholders(deck)
    with_them = last_version(deck)
    for placeholder in list(deck.placeholders.all()):
        services.remove_placeholder(placeholder)
    assert held(deck) == [] and last_version(deck).placeholders == []
    deck_services.restore_version(deck, with_them)
    assert held(deck) == FILLED
    assert last_version(deck).kind == "restore" and len(last_version(deck).placeholders) == 2


def test_copies_and_branches_carry_the_placeholders(owner, other):
    deck = shadow_era_deck(owner)
    fill_with_placeholders(deck)
    deck.visibility = "link"
    deck.save()
    copy = deck_services.copy_deck(other, deck.pk, token=deck.share_token)
    assert held(copy) == FILLED
    branch = deck_services.branch_version(other, deck.pk, last_version(deck).number, token=deck.share_token)
    assert held(branch) == FILLED
    assert held(deck) == FILLED  # the source keeps its own


def test_a_published_deck_keeps_its_placeholders_and_its_copy_carries_them(owner, other):
    deck = shadow_era_deck(owner)
    fill_with_placeholders(deck)
    publication = community_services.publish(deck, user=owner, title="テスト公開")
    assert sorted(p["kind"] for p in publication.placeholders) == ["ability", "ally"]
    services.remove_placeholder(deck.placeholders.order_by("pk").first())  # the snapshot does not follow the deck
    copy = community_services.copy_publication(publication, owner=other)
    assert held(copy) == FILLED


def test_a_published_decks_page_and_api_list_its_placeholders_apart_from_the_cards(owner, other):
    deck = shadow_era_deck(owner)
    fill_with_placeholders(deck)
    publication = community_services.publish(deck, user=owner, title="テスト公開")
    page = parse(signed_in(other).get(f"/community/decks/published/{publication.pk}/"))
    listed = squash(page.find(id="publication-placeholders").text)
    assert "(31)" in listed
    assert "12× Big ally [placeholder: Ally (Cost 3, Attack 2)]" in listed
    assert "19× [placeholder: Ability (Cost 1)]" in listed
    assert "placeholder" not in squash(page.find(cls="publication-cards").text)  # never among the cards
    detail = api_client(other).get(f"/api/community/publications/{publication.pk}/").json()
    assert {"zone": "deck", "kind": "ally", "values": {"cost": 3, "attack": 2}, "name": "Big ally", "count": 12,
            "label": "Big ally [placeholder: Ally (Cost 3, Attack 2)]"} in detail["placeholders"]  # fmt: skip
    assert all(not entry["card"].startswith("placeholder") for entry in detail["entries"])
    japanese = api_client(other, "ja").get(f"/api/community/publications/{publication.pk}/").json()
    assert {p["count"] for p in japanese["placeholders"]} == {12, 19} and "仮" in japanese["placeholders"][0]["label"]
