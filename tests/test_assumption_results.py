"""Every goldfish result made with a deck's assumed values names them: the sample hand and the Monte Carlo page
say "With N assumed values" and list each with its contribution form, and so do their exports (the goldfish and
run API answers). Only the values a result filled in count: an assumption of a value the card database gives, or
of a card the deck does not hold, is not named; the odds (copies and draws only) read no value and say nothing.
Synthetic cards only (suikoden 9xx)."""

from __future__ import annotations

import re

import pytest

from simulator.assumptions import services as assumption_services
from simulator.goldfish import services as goldfish_services

from .support.clients import api_client, signed_in

pytestmark = pytest.mark.usefixtures("immediate_tasks")
LINK = "/contributions/games/suikoden/cards/901/edit/#id_field_attack"


@pytest.fixture
def result_deck(deck_lacking_attack, owner):
    made = deck_lacking_attack
    rows = [
        ("901", "attack", "5"),  # the card lacks it: played, and named
        ("901", "defense", "9"),  # the database gives 2: not played, not named
        ("999", "attack", "4"),  # a card the deck does not hold
    ]
    assumption_services.set_values(owner, made, [assumption_services.Row(*row, "test") for row in rows])
    return made


def test_the_sample_hand_names_the_values_it_was_dealt_with(result_deck, owner):
    client = signed_in(owner)
    page = client.get(f"/simulator/decks/{result_deck.pk}/goldfish/?seed=3", follow=True).content.decode()
    (section,) = re.findall(r'<section class="assumed-values".*?</section>', page, re.S)
    assert "With 1 assumed value" in section and LINK in section
    assert section.count("<li>") == 1 and "999" not in section
    answer = api_client(owner).get(f"/api/simulator/decks/{result_deck.pk}/goldfish/?seed=3").json()
    assert answer["assumed_count"] == 1
    (only,) = answer["assumptions"]
    assert (only["key"], only["field"], only["value"]) == ("901", "attack", 5)
    assert only["contribute_url"].startswith("http") and only["contribute_url"].endswith(LINK)


def test_the_odds_read_no_value_and_say_nothing_of_assumptions(result_deck, owner):
    page = signed_in(owner).get(f"/simulator/decks/{result_deck.pk}/odds/").content.decode()
    assert "assumed value" not in page
    assert "assumptions" not in api_client(owner).get(f"/api/simulator/decks/{result_deck.pk}/odds/").json()


def test_a_monte_carlo_run_keeps_and_exports_only_the_values_it_played(result_deck, owner):
    client = signed_in(owner)
    assert "With 1 assumed value" in client.get(f"/simulator/decks/{result_deck.pk}/simulate/").content.decode()
    run = goldfish_services.start_run(
        deck=result_deck, requester=owner, games=10, turns=2, policy="default", params={}, language="en", seed=1
    )
    assert run.assumptions == [{"key": "901", "field": "attack", "value": 5}]
    assumption_services.drop(owner, result_deck, "901", "attack")  # the run keeps what it played
    answer = api_client(owner).get(f"/api/simulator/simulations/{run.pk}/").json()
    assert answer["assumed_count"] == 1 and answer["assumptions"][0]["contribute_url"].endswith(LINK)
    page = client.get(f"/simulator/decks/{result_deck.pk}/simulate/{run.pk}/").content.decode()
    assert "With 1 assumed value" in page and LINK in page
