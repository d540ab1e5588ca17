"""Placeholder cards in a deck: stated values for cards the database does not hold yet.

A Shadow Era deck is completed with placeholders: its verdict says it is legal apart from them, its page and its
exports mark them, and its goldfish deals them with their stated values and says it did. Cards are the clearly
synthetic ones of ``tests/synthetic_decks.py``.
"""

from __future__ import annotations

import json

import pytest
from django.test import Client

from decks import selectors
from decks import services as deck_services
from decks.decklists.services import export_data, export_text
from decks.models import DeckEntry, DeckPlaceholder
from decks.placeholders import services
from decks.services import DeckError

from .support.clients import signed_in
from .support.html import parse, squash
from .support.placeholder_decks import fill_with_placeholders, shadow_era_deck
from .synthetic_decks import card, game

pytestmark = pytest.mark.usefixtures("synthetic_cards")


def test_a_deck_completed_with_placeholders_is_legal_apart_from_them(owner):
    deck = shadow_era_deck(owner)
    short = selectors.verdict(deck, "en")
    assert not short.legal and short.violations  # 9 cards: the size rule is broken
    fill_with_placeholders(deck)
    verdict = selectors.verdict(deck, "en")
    assert verdict.placeholders == 31
    assert not verdict.legal  # a placeholder is never legal
    assert verdict.legal_apart_from_placeholders
    # 12 copies of one placeholder break no copy limit, and its unknown faction and class are not "unchecked"
    assert verdict.findings == ()


def test_placeholders_do_not_hide_a_broken_rule(owner):
    deck = shadow_era_deck(owner)
    services.add_placeholder(deck, "ally", {"cost": 3}, 4)
    verdict = selectors.verdict(deck, "en")
    assert verdict.placeholders == 4 and verdict.violations and not verdict.legal_apart_from_placeholders


def test_the_deck_page_says_legal_apart_from_placeholders_and_lists_them(owner):
    english = signed_in(owner)
    deck = shadow_era_deck(owner)
    fill_with_placeholders(deck)
    page = parse(english.get(f"/decks/{deck.pk}/"))
    summary = squash(page.find(id="deck-verdict").text)
    assert "Legal apart from 31 placeholder cards" in summary
    listed = squash(page.find(id="deck-placeholders").text)
    assert "12× Big ally [placeholder: Ally (Cost 3, Attack 2)]" in listed
    assert "19× [placeholder: Ability (Cost 1)]" in listed


def test_the_owner_adds_removes_and_replaces_placeholders_on_the_deck_page(owner):
    english = signed_in(owner)
    deck = shadow_era_deck(owner)
    response = english.post(
        f"/decks/{deck.pk}/placeholders/",
        {"kind": "ally", "value_cost": "3", "value_attack": "", "count": "2"},
        follow=True,
    )
    assert response.status_code == 200, squash(parse(response).text)
    placeholder = DeckPlaceholder.objects.get(deck=deck)
    assert placeholder.values == {"cost": 3}  # the attack left empty stays unknown, never 0
    # a value the kind does not state is refused with its name, and nothing is written
    page = parse(
        english.post(
            f"/decks/{deck.pk}/placeholders/", {"kind": "ability", "value_attack": "2", "count": "1"}, follow=True
        )
    )
    assert "'attack' is not a value stated on a placeholder of kind ability" in squash(page.text)
    assert DeckPlaceholder.objects.filter(deck=deck).count() == 1
    # replaced by a real card in one step: the card's entry grows by the placeholder's count
    english.post(f"/decks/{deck.pk}/placeholders/{placeholder.pk}/replace/", {"card": "Test Ally 01"})
    assert not DeckPlaceholder.objects.filter(deck=deck).exists()
    assert DeckEntry.objects.get(deck=deck, card__key="Test Ally 01").count == 6
    again = services.add_placeholder(deck, "trap", {}, 1)
    english.post(f"/decks/{deck.pk}/placeholders/{again.pk}/remove/")
    assert not DeckPlaceholder.objects.filter(deck=deck).exists()


def test_someone_else_cannot_add_placeholders(owner, db):
    from .users import make_user

    deck = shadow_era_deck(owner)
    other = Client()
    other.force_login(make_user("other"))
    response = other.post(f"/decks/{deck.pk}/placeholders/", {"kind": "ally", "count": "1"})
    assert response.status_code in (403, 404)
    assert not DeckPlaceholder.objects.filter(deck=deck).exists()


def test_bad_placeholder_input_is_refused_with_what_and_where(owner):
    deck = shadow_era_deck(owner)
    with pytest.raises(DeckError) as refused:
        services.add_placeholder(deck, "hero-of-old", {}, 1)
    assert refused.value.errors["kind"]
    with pytest.raises(DeckError) as refused:
        services.add_placeholder(deck, "ally", {"cost": -1}, 1)
    assert "cost" in refused.value.message
    with pytest.raises(DeckError):
        services.add_placeholder(deck, "ally", {"cost": 1}, 0)
    assert not DeckPlaceholder.objects.filter(deck=deck).exists()


def test_endbreaker_decks_hold_no_placeholders(owner):
    deck = deck_services.create_deck(owner=owner, game=game("endbreaker"), name="テストEB", entries=[])
    with pytest.raises(DeckError):
        services.add_placeholder(deck, "ability", {}, 1)


def test_exports_mark_placeholders_and_keep_them_out_of_the_cards(owner):
    deck = shadow_era_deck(owner)
    fill_with_placeholders(deck)
    text = export_text(deck, "en")
    assert "# 12 Big ally [placeholder: Ally (Cost 3, Attack 2)]" in text
    assert "# 19 [placeholder: Ability (Cost 1)]" in text
    data = export_data(deck, "en")
    assert all("placeholder" not in json.dumps(card) for zone in data["zones"].values() for card in zone)
    assert {(p["kind"], p["count"]) for p in data["placeholders"]} == {("ally", 12), ("ability", 19)}


def test_the_goldfish_deals_placeholders_and_names_them(owner):
    english = signed_in(owner)
    deck = deck_services.create_deck(
        owner=owner,
        game=game("shadowera"),
        name="仮カードだけ",
        entries=[("hero", card("shadowera", "Test Hero 01"), 1)],
    )
    services.add_placeholder(deck, "ally", {"cost": 1, "attack": 2}, 39)
    page = parse(english.get(f"/simulator/decks/{deck.pk}/goldfish/?seed=5"))
    hand = [li.attrs["data-card"] for li in page.find(id="gf-zone-hand").find_all("li", cls="gf-card")]
    assert hand and all(key.startswith("placeholder:") for key in hand)
    assert "This uses 39 placeholder cards" in squash(page.find(id="goldfish").text)
    odds = parse(english.get(f"/simulator/decks/{deck.pk}/odds/"))
    assert "This uses 39 placeholder cards" in squash(odds.text)


def test_the_builder_adds_a_placeholder_and_shows_the_servers_verdict(owner):
    deck = shadow_era_deck(owner)
    services.add_placeholder(deck, "ability", {"cost": 1}, 19)
    english = signed_in(owner)
    builder = parse(english.get(f"/decks/{deck.pk}/edit/"))
    form = builder.find(id="builder-placeholders").find("form", action=f"/decks/{deck.pk}/placeholders/")
    assert form.attrs["hx-post"] == f"/decks/{deck.pk}/placeholders/"
    body = {"from": "builder", "kind": "ally", "value_cost": "3", "value_attack": "2", "count": "12"}
    body["name"] = "Big ally"
    answer = english.post(f"/decks/{deck.pk}/placeholders/", body, HTTP_HX_REQUEST="true")
    assert answer.status_code == 200
    page = parse(answer)
    assert "12× Big ally [placeholder: Ally (Cost 3, Attack 2)]" in squash(page.find(id="builder-placeholders").text)
    assert "Legal apart from 31 placeholder cards" in squash(page.find(id="deck-verdict").text)
    refused = english.post(f"/decks/{deck.pk}/placeholders/", {**body, "value_cost": "100"}, HTTP_HX_REQUEST="true")
    assert refused.status_code == 400 and refused["HX-Retarget"] == "#builder-message"
    assert "Cost" in refused.content.decode()
    assert sum(p.count for p in deck.placeholders.all()) == 31  # nothing written by the refusal
    # without htmx the form goes back to the builder
    plain = english.post(f"/decks/{deck.pk}/placeholders/", {**body, "count": "1"})
    assert plain.status_code == 302 and plain["Location"] == f"/decks/{deck.pk}/edit/"
