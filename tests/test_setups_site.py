"""エンドブレイカー！SCG: the table's choice of piles is a deck. It is built and checked in the deck builder, its page
leads to every whole-game tool preset with it, and each tool (a comparison, a seated game, a strategy search, one
strategy on several decks) plays the piles the deck holds; the set-up builder's old addresses lead to the decks.
Synthetic cards only (the pool of tests/test_endbreaker_compare_site.py)."""

from __future__ import annotations

import pytest
from django.test import Client

from cards.models import Card
from decks.selectors import verdict
from simulator.models import ComparisonRun, SeatedGame, StrategySearch

from .support.clients import api_client, signed_in
from .support.table_decks import JOBS, NINE, OTHER_NINE, table_deck

PAGES = "/simulator/games/endbreaker/setups/"
OLDER_PAGES = "/games/endbreaker/setups/"  # before the simulator had its own first segment
PLAY = "/simulator/games/endbreaker/play/"


def test_the_deck_builder_checks_the_tables_piles(whole_game_pool, owner):
    assert verdict(table_deck(owner, "Late piles", OTHER_NINE), "en").legal
    short = verdict(table_deck(owner, "Four piles", NINE[:4], jobs=JOBS[:2]), "en")
    failed = {finding.rule for finding in short.violations}
    assert {"endbreaker.supply", "endbreaker.jobs"} <= failed


def test_the_decks_page_leads_to_every_whole_game_tool_with_the_deck(whole_game_pool, owner, other):
    deck = table_deck(owner, "Late piles", OTHER_NINE, visibility="link")
    page = signed_in(owner, "en").get(f"/decks/{deck.pk}/").content.decode()
    for address in ("compare/", "play/", "search/", "compare/setups/"):
        assert f"/simulator/games/endbreaker/{address}?deck={deck.pk}" in page
    shared = signed_in(other, "en").get(f"/decks/shared/{deck.share_token}/")
    assert f"/simulator/games/endbreaker/play/?deck={deck.pk}%3A{deck.share_token}" in shared.content.decode()


def test_the_decks_page_gives_the_whole_games_verdict_on_its_piles(whole_game_pool, owner):
    client = signed_in(owner, "en")
    ready = client.get(f"/decks/{table_deck(owner, 'Late piles', OTHER_NINE).pk}/").content.decode()
    assert "These piles make a game" in ready
    short = client.get(f"/decks/{table_deck(owner, 'Four piles', NINE[:4]).pk}/").content.decode()
    assert "Choose 9 piles, not 4." in short and "These piles make a game" not in short
    Card.objects.filter(key="EB9-912").update(fields={})  # a value the game reads is no longer known
    lacking = client.get(f"/decks/{table_deck(owner, 'Lacking', NINE).pk}/").content.decode()
    assert "EB9-912" in lacking and "These piles make a game" not in lacking


def test_a_seated_game_is_played_on_the_chosen_decks_piles(whole_game_pool, owner):
    deck = table_deck(owner, "Late piles", OTHER_NINE)
    client = signed_in(owner, "en")
    form = client.get(f"{PLAY}?deck={deck.pk}").content.decode()
    assert f'<option value="{deck.pk}" selected>Late piles</option>' in form
    started = client.post(PLAY, {"seat1": "person", "seat2": "big_darc", "deck": str(deck.pk)})
    assert started.status_code == 302
    assert [card["key"] for card in SeatedGame.objects.get().setup["abilities"]] == OTHER_NINE


def test_a_deck_without_piles_is_refused_and_never_played_as_the_default(whole_game_pool, owner):
    empty = table_deck(owner, "No piles", [])
    client = signed_in(owner, "en")
    refused = client.post(PLAY, {"seat1": "person", "seat2": "big_darc", "deck": str(empty.pk)})
    assert refused.status_code == 400 and "Choose 9 piles, not 0." in refused.content.decode()
    assert not SeatedGame.objects.exists()


def test_anothers_private_deck_cannot_be_played_and_one_shared_by_link_can(whole_game_pool, owner, other):
    private = table_deck(owner, "Mine", OTHER_NINE)
    linked = table_deck(owner, "Shared", OTHER_NINE, visibility="link")
    theirs = signed_in(other, "en")
    seats = {"seat1": "person", "seat2": "big_darc"}
    hidden = theirs.post(PLAY, {**seats, "deck": str(private.pk)})
    assert hidden.status_code == 400 and "deck" in hidden.context["form"].errors
    wrong_token = theirs.post(PLAY, {**seats, "deck": f"{linked.pk}:not-the-token"})
    assert wrong_token.status_code == 400 and not SeatedGame.objects.exists()
    played = theirs.post(PLAY, {**seats, "deck": f"{linked.pk}:{linked.share_token}"})
    assert played.status_code == 302
    assert [card["key"] for card in SeatedGame.objects.get().setup["abilities"]] == OTHER_NINE


def test_a_comparison_and_a_search_play_the_decks_piles(whole_game_pool, owner, immediate_tasks):
    deck = table_deck(owner, "Late piles", OTHER_NINE)
    client = signed_in(owner, "en")
    compared = client.post(
        "/simulator/games/endbreaker/compare/",
        {"seat1": "big_darc", "seat2": "build_then_resolve", "games": 12, "deck": str(deck.pk)},
    )
    assert compared.status_code == 302
    assert ComparisonRun.objects.get().abilities == OTHER_NINE
    searched = client.post(
        "/simulator/games/endbreaker/search/",
        {"players": 2, "generations": 1, "islands": 1, "deck": str(deck.pk)},
    )
    assert searched.status_code == 302
    assert StrategySearch.objects.get().abilities == OTHER_NINE


def test_one_strategy_on_two_decks_against_the_same_opponent_with_intervals(whole_game_pool, owner, immediate_tasks):
    deck = table_deck(owner, "Late piles", OTHER_NINE)
    client = signed_in(owner, "en")
    form = client.get(f"/simulator/games/endbreaker/compare/setups/?deck={deck.pk}").content.decode()
    assert f'<option value="{deck.pk}" selected>Late piles</option>' in form
    started = client.post(
        "/simulator/games/endbreaker/compare/setups/",
        {
            "strategy": "big_darc",
            "setup1": "default",
            "setup2": str(deck.pk),
            "opponent1": "build_then_resolve",
            "games": 24,
        },
    )
    run = ComparisonRun.objects.get()
    assert started.status_code == 302 and run.status == "done"
    assert run.strategies == ["big_darc", "big_darc"] and run.opponents == ["build_then_resolve"]
    assert run.setup_names == ["The first piles by card number", "Late piles"]
    assert [card["key"] for card in run.setups[1]["abilities"]] == OTHER_NINE
    for row in run.result["strategies"]:
        low, high = row["interval"]
        assert row["games"] == 24 and low <= row["win_rate"] <= high
    report = client.get(started["Location"]).content.decode()
    assert "Late piles" in report and "Opponents" in report
    assert client.post(f"/simulator/games/endbreaker/play/sample/{run.pk}/50/").status_code == 302
    sample = SeatedGame.objects.get()
    assert "build_then_resolve" in sample.seats and sample.person is None


def test_the_api_takes_a_deck_and_names_what_is_wrong(whole_game_pool, owner, other, immediate_tasks):
    deck = table_deck(owner, "Late", OTHER_NINE)
    api = api_client(owner)
    url = "/api/simulator/games/endbreaker/comparisons/"
    body = {"strategies": ["big_darc"], "setups": ["default", str(deck.pk)], "opponents": ["big_darc"], "games": 12}
    created = api.post(url, body, format="json")
    assert created.status_code == 201, created.json()
    assert created.json()["setup_names"] == ["The first piles by card number", "Late"]
    on_deck = api.post(url, {"strategies": ["big_darc", "big_darc"], "games": 12, "deck": str(deck.pk)}, format="json")
    assert on_deck.status_code == 201 and on_deck.json()["abilities"] == OTHER_NINE
    both = api.post(
        url, {"strategies": ["big_darc", "big_darc"], "games": 12, "deck": str(deck.pk), "abilities": NINE}, "json"
    )
    assert both.status_code == 400 and "deck" in both.json()["errors"]
    plays = "/api/simulator/games/endbreaker/plays/"
    played = api.post(plays, {"seats": ["person", "big_darc"], "deck": str(deck.pk)}, "json")
    assert played.status_code == 201
    assert [card["key"] for card in SeatedGame.objects.get().setup["abilities"]] == OTHER_NINE
    theirs = api_client(other)
    refused = theirs.post(url, {**body, "strategies": ["big_darc", "big_darc"]}, format="json")
    assert refused.status_code == 400
    assert {"setups[1]", "strategies"} <= set(refused.json()["errors"])
    hidden = theirs.post("/api/simulator/games/endbreaker/searches/", {"deck": str(deck.pk)}, format="json")
    assert hidden.status_code == 400 and "deck" in hidden.json()["errors"]
    assert ComparisonRun.objects.count() == 2 and not StrategySearch.objects.exists()


@pytest.mark.parametrize("member", [True, False])
def test_the_set_up_builders_addresses_lead_to_the_decks(whole_game_pool, owner, member):
    client = signed_in(owner, None) if member else Client()
    listed = client.get(PAGES)
    assert listed.status_code == 302
    published = "/community/games/endbreaker/decks/"
    assert listed["Location"] == ("/decks/?game=endbreaker" if member else published)
    assert client.get(f"{PAGES}new/")["Location"].startswith("/decks/new/?game=endbreaker")
    assert client.get(f"{PAGES}424242/").status_code == 404  # no set-up was ever saved with that id


def test_the_set_up_builders_older_addresses_lead_to_the_decks_too(whole_game_pool, owner):
    """The addresses from before the simulator had its own first segment: moved first, then on to the decks."""
    client = signed_in(owner, None)
    followed = client.get(OLDER_PAGES, follow=True)
    assert followed.redirect_chain == [(PAGES, 301), ("/decks/?game=endbreaker", 302)]
    assert followed.status_code == 200
    created = client.get(f"{OLDER_PAGES}new/", follow=True)
    assert created.redirect_chain[0] == (f"{PAGES}new/", 301)
    assert created.redirect_chain[-1][0].startswith("/decks/new/?game=endbreaker")


def test_the_game_verdict_on_a_choice_of_piles_still_answers(whole_game_pool):
    client = Client(HTTP_ACCEPT_LANGUAGE="ja")
    verdict_page = client.post(f"{PAGES}check/", {"abilities": NINE[:4]}).content.decode()
    assert "山は 9 種類選んでください（今は 4 種類）。" in verdict_page
