"""Assumed values: a player states, for a deck, the values the card database does not know (and the cards it does
not list), kept apart from card data. One page lists every missing value at once, grouped with counts, and fills
them one by one, in bulk or by a sheet; the whole game reads them through one overlay; a comparison keeps and
names the assumptions it ran with; a card page never shows them; the database learning a value shows the
difference. Synthetic cards only (the pool of tests/test_endbreaker_compare_site.py, keys EB9-9xx)."""

from __future__ import annotations

import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from cards.models import Card
from simulator.assumptions.overlay import Assumed, overlay
from simulator.core import SimCard
from simulator.models import ComparisonRun, DeckAssumption, SeatedGame, StrategySearch

from .support.clients import signed_in
from .support.html import parse, squash
from .support.table_decks import NINE, table_deck

COMPARE = "/simulator/games/endbreaker/compare/"
ABILITIES = [f"EB9-91{n}" for n in range(10)]


def page_url(deck):
    return f"/simulator/decks/{deck.pk}/assumptions/"


@pytest.fixture
def assumed_deck(gappy_pool, owner):
    return table_deck(owner, "Assumed table", NINE)


def fill_everything(client, deck):
    """What a player does with the seed's cards only: assumed scenario cards, then every value in bulk."""
    client.post(page_url(deck), {"action": "cards", "kind": "scenario", "count": 4})
    for field, value in (("at", "2"), ("cost", "PT"), ("payout", "2")):
        answer = client.post(page_url(deck), {"action": "bulk", "field": field, "kind": "", "value": value})
        assert answer.status_code == 302, answer.content.decode()[:2000]


def test_the_overlay_fills_only_what_the_card_does_not_give_and_adds_assumed_cards():
    known = SimCard("EB9-910", "テスト特技0", "ability", {"at": 3, "cost": None})
    cards = overlay(
        [known],
        [
            Assumed("EB9-910", "at", 9),  # the database's value wins
            Assumed("EB9-910", "cost", "PS"),
            Assumed("assumed:scenario:1", "kind", "scenario"),
            Assumed("assumed:scenario:1", "cost", "PT"),
        ],
    )
    assert cards[0].fields == {"at": 3, "cost": "PS"} and known.fields["cost"] is None
    assert (cards[1].key, cards[1].kind, dict(cards[1].fields)) == ("assumed:scenario:1", "scenario", {"cost": "PT"})


def test_the_page_lists_every_missing_value_at_once_grouped_by_card_and_by_value(assumed_deck, owner):
    deck = assumed_deck
    client = signed_in(owner)
    text = client.get(page_url(deck)).content.decode()
    assert "Too few cards are known for the scenario." in text  # the scenario cards, with no count to guess
    client.post(page_url(deck), {"action": "cards", "kind": "scenario", "count": 2})
    text = client.get(page_url(deck)).content.decode()
    # The 9 ability piles and the 3 job piles lack AT; the 2 assumed scenario cards lack cost and payout.
    assert "16 values are missing" in text
    assert "<td>12</td>" in text and "<td>2</td>" in text  # by value: AT 12, cost 2, payout 2
    assert "assumed:scenario:2" in text and "/contributions/" in text


def test_a_bulk_fill_then_a_comparison_that_keeps_and_names_its_assumptions(assumed_deck, owner, immediate_tasks):
    deck = assumed_deck
    client = signed_in(owner)
    refused = client.post(COMPARE, {"seat1": "big_darc", "seat2": "build_then_resolve", "games": 12, "deck": deck.pk})
    assert refused.status_code == 400 and not ComparisonRun.objects.exists()
    fill_everything(client, deck)
    assert "0 values are missing" in client.get(page_url(deck)).content.decode()
    deck_page = client.get(f"/decks/{deck.pk}/").content.decode()
    assert "With 24 assumed values" in deck_page and page_url(deck) in deck_page
    started = client.post(COMPARE, {"seat1": "big_darc", "seat2": "build_then_resolve", "games": 12, "deck": deck.pk})
    assert started.status_code == 302, started.content.decode()[:3000]
    run = ComparisonRun.objects.get()
    assert run.status == "done"
    assert len(run.assumptions) == DeckAssumption.objects.filter(deck=deck).count() == 12 + 4 * 3
    assert {"key": "EB9-910", "field": "at", "value": 2} in run.assumptions
    # The run keeps what it ran with: dropping the deck's assumptions later does not change the result's list.
    DeckAssumption.objects.filter(deck=deck).delete()
    page = client.get(started["Location"]).content.decode()
    assert "With 24 assumed values" in page
    assert "/contributions/games/endbreaker/cards/EB9-910/edit/#id_field_at" in page


def test_the_card_page_never_shows_an_assumption_and_card_data_is_untouched(assumed_deck, owner):
    deck = assumed_deck
    client = signed_in(owner)

    def card_page():
        page = client.get("/games/endbreaker/cards/EB9-910/").content.decode()
        return re.sub(r"[A-Za-z0-9]{64}", "", page)  # the CSRF tokens, new at each answer

    before = card_page()
    client.post(page_url(deck), {"action": "one", "key": "EB9-910", "field": "at", "value": "7"}, follow=True)
    assert DeckAssumption.objects.get(deck=deck, key="EB9-910").value == 7
    assert "at" not in Card.objects.get(key="EB9-910").checked.fields
    assert card_page() == before


def test_the_database_learning_a_value_shows_the_difference_and_offers_to_drop(assumed_deck, owner):
    deck = assumed_deck
    client = signed_in(owner)
    client.post(page_url(deck), {"action": "one", "key": "EB9-910", "field": "at", "value": "2"})
    card = Card.objects.get(key="EB9-910")
    card.fields = {**card.fields, "at": 3}
    card.save()
    text = client.get(page_url(deck)).content.decode()
    assert "assumed 2, the database now says 3" in text and "Drop the assumption" in text
    client.post(page_url(deck), {"action": "drop", "key": "EB9-910", "field": "at"})
    assert not DeckAssumption.objects.filter(deck=deck).exists()


def test_bad_values_are_refused_naming_row_and_column_and_nothing_is_written(assumed_deck, owner):
    deck = assumed_deck
    client = signed_in(owner)
    answer = client.post(page_url(deck), {"action": "bulk", "field": "at", "kind": "", "value": "-1"})
    assert answer.status_code == 400 and not DeckAssumption.objects.exists()
    sheet = "key,name,field,value\nEB9-910,x,at,2\nEB9-911,x,at,two\n"
    upload = SimpleUploadedFile("a.csv", sheet.encode(), content_type="text/csv")
    answer = client.post(page_url(deck), {"action": "sheet", "sheet": upload})
    text = answer.content.decode()
    assert answer.status_code == 400 and "row 3, column D (value)" in text and "EB9-911" in text
    assert not DeckAssumption.objects.exists()  # the good row is not half-written


def test_the_sheet_goes_down_neutralised_and_comes_back_up(assumed_deck, owner):
    deck = assumed_deck
    client = signed_in(owner)
    client.post(page_url(deck), {"action": "cards", "kind": "scenario", "count": 2})
    sheet = client.get(f"{page_url(deck)}sheet.csv").content.decode()
    assert sheet.startswith("key,name,field,value\n") and "EB9-910,テスト特技0,at,\n" in sheet
    filled = sheet.replace(",at,\n", ",at,1\n").replace(",cost,\n", ",cost,'=PT\n")
    upload = SimpleUploadedFile("a.csv", filled.encode(), content_type="text/csv")
    answer = client.post(page_url(deck), {"action": "sheet", "sheet": upload})
    assert answer.status_code == 400  # "=PT" is not a cost, and it is read back as typed, not as a formula
    filled = sheet.replace(",at,\n", ",at,1\n")
    upload = SimpleUploadedFile("a.csv", filled.encode(), content_type="text/csv")
    assert client.post(page_url(deck), {"action": "sheet", "sheet": upload}).status_code == 302
    assert DeckAssumption.objects.filter(deck=deck, field="at").count() == 12


def test_only_the_owner_writes_and_a_stranger_does_not_see_a_private_deck(assumed_deck, owner, other):
    deck = assumed_deck
    stranger = signed_in(other)
    assert stranger.get(page_url(deck)).status_code == 404
    answer = stranger.post(page_url(deck), {"action": "one", "key": "EB9-910", "field": "at", "value": "2"})
    assert answer.status_code == 404 and not DeckAssumption.objects.exists()


def test_a_seated_game_and_a_strategy_search_keep_and_name_the_assumptions(assumed_deck, owner, immediate_tasks):
    deck = assumed_deck
    client = signed_in(owner)
    fill_everything(client, deck)
    seated = client.post(
        "/simulator/games/endbreaker/play/", {"seat1": "big_darc", "seat2": "build_then_resolve", "deck": deck.pk}
    )
    assert seated.status_code == 302, seated.content.decode()[:2000]
    assert len(SeatedGame.objects.get().assumptions) == 24
    assert "With 24 assumed values" in client.get(seated["Location"]).content.decode()
    searched = client.post(
        "/simulator/games/endbreaker/search/", {"players": 2, "generations": 1, "islands": 1, "deck": deck.pk}
    )
    assert searched.status_code == 302
    assert len(StrategySearch.objects.get().assumptions) == 24
    assert "With 24 assumed values" in client.get(searched["Location"]).content.decode()


def test_a_monte_carlo_run_plays_the_decks_assumed_values_and_keeps_and_names_them(owner, synthetic_cards, settings):
    from decks import services as deck_services
    from simulator import adapters
    from simulator.assumptions import services as assumption_services
    from simulator.goldfish import services as goldfish_services

    from .synthetic_decks import card, game

    settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"}}
    deck = deck_services.create_deck(
        owner=owner,
        game=game("suikoden"),
        name="テスト",
        entries=[("characters", card("suikoden", "901"), 20), ("lands", card("suikoden", "903"), 6)],
    )
    unknown = "attack"
    lacking = card("suikoden", "901")
    lacking.fields = {name: value for name, value in lacking.fields.items() if name != unknown}
    lacking.save()
    assumption_services.set_values(owner, deck, [assumption_services.Row("901", unknown, "5", "test")])
    played = adapters.sim_deck(deck, "ja").zone("characters")
    assert {c.fields[unknown] for c in played} == {5} and len({id(c) for c in played}) == 1  # copies stay one card
    run = goldfish_services.start_run(
        deck=deck, requester=owner, games=20, turns=3, policy="default", params={}, language="ja", seed=1
    )
    assert run.assumptions == [{"key": "901", "field": unknown, "value": 5}]
    assumption_services.drop(owner, deck, "901", unknown)
    client = signed_in(owner)
    page = client.get(f"/simulator/decks/{deck.pk}/simulate/{run.pk}/").content.decode()
    assert "With 1 assumed value" in page and f"/cards/901/edit/#id_field_{unknown}" in page


def test_the_decks_long_list_of_missing_values_is_folded_under_its_count(gappy_pool, owner):
    """On a phone the seed's hundred missing values stood 7000 px before the deck itself; a long list is folded."""
    deck = table_deck(owner, "Folded table", NINE)
    page = parse(signed_in(owner, "en").get(f"/decks/{deck.pk}/"))
    verdict = page.find("section", cls="deck-whole-game-verdict")
    folded = verdict.find("details", cls="missing-group")
    rows = [node for node in verdict.find_all("li") if "data-card" in node.attrs]
    assert len(rows) > 12 and folded is not None and "open" not in folded.attrs
    assert squash(folded.find("summary").text) == f"{len(rows)} things are missing in all:"
    assert len([node for node in folded.find_all("li") if "data-card" in node.attrs]) == len(rows)
