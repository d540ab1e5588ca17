"""The goldfish API: sample games replayed from their seed, exact odds, Monte Carlo runs (immediate task backend)."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from decks.models import Deck
from simulator.core import cards_seen_by_turn
from simulator.engines import get_engine
from simulator.inputs import API_MAX_GAMES
from simulator.models import SimulationRun
from simulator.odds import at_least_one

from .support.goldfish import make_deck
from .synthetic_decks import ENGINE_SLUGS

pytestmark = pytest.mark.usefixtures("immediate_tasks")


@pytest.fixture
def api(owner, synthetic_cards) -> APIClient:
    """The owner's API client; the synthetic cards are loaded for the owner's decks."""
    client = APIClient()
    client.force_authenticate(owner)
    return client


@pytest.fixture
def other_api(other) -> APIClient:
    """An API client of someone who is not the owner (the fixture ``other`` is that user)."""
    client = APIClient()
    client.force_authenticate(other)
    return client


# --- sample games -------------------------------------------------------------------------------------


@pytest.mark.parametrize("slug", ENGINE_SLUGS)
def test_goldfish_deals_the_opening_hand(api, owner, slug):
    deck = make_deck(slug, owner)
    data = api.get(f"/api/simulator/decks/{deck.pk}/goldfish/?seed=4").json()
    assert data["seed"] == 4 and data["turns"] == 0
    assert data["zones"]["hand"]["count"] == get_engine(slug).opening_hand == data["opening_hand"]
    assert data["zones"]["deck"]["hidden"] and data["zones"]["deck"]["cards"] == []
    # the deal: a shuffle where the game shuffles (Shadow Era draws at random from the unshuffled deck)
    first = "draw" if slug == "shadowera" else "shuffle"
    assert [event["kind"] for event in data["log"]][:1] == [first]
    assert all(event["kind_label"] and event["text"] is not None for event in data["log"])


def test_an_opening_hand_no_source_gives_is_a_parameter_the_answer_follows(api, owner):
    # エンドブレイカー！SCG: seed 000 does not say how many cards a player draws first.
    deck = make_deck("endbreaker", owner)
    data = api.get(f"/api/simulator/decks/{deck.pk}/goldfish/?seed=4&opening_hand=3&lang=en").json()
    assert data["zones"]["hand"]["count"] == 3 == data["opening_hand"]
    stated = next(p for p in data["parameters"] if p["slug"] == "opening_hand")
    assert stated["value"] == 3 and stated["default"] == 5 and "assumption" in stated["source"]


def test_goldfish_replays_exactly_from_the_seed(api, owner):
    deck = make_deck("shadowera", owner)
    url = f"/api/simulator/decks/{deck.pk}/goldfish/?seed=21&turns=6&policy=ramp&opponent_health=10&lang=en"
    first, second = api.get(url).json(), api.get(url).json()
    assert first == second
    assert first["policy"] == "ramp"
    values = {p["slug"]: p["value"] for p in first["parameters"]}
    assert values == {"opponent_health": 10, "weapon_wear": 1, "first_player": 1}
    health = next(p for p in first["parameters"] if p["slug"] == "opponent_health")
    assert health["default"] == 30 and "assumption" in health["source"] and health["label"] == "Opponent hero's health"
    assert max(event["turn"] for event in first["log"]) == first["turns"] <= 6
    assert "field_allies" in first["zones"] and "resources" in first["counters"]
    # without a seed, one is chosen and returned, and it replays the same game
    fresh = api.get(f"/api/simulator/decks/{deck.pk}/goldfish/?turns=2").json()
    again = api.get(f"/api/simulator/decks/{deck.pk}/goldfish/?turns=2&seed={fresh['seed']}").json()
    assert fresh["log"] == again["log"]


def test_goldfish_extra_draws(api, owner):
    deck = make_deck("epicbattles", owner)
    data = api.get(f"/api/simulator/decks/{deck.pk}/goldfish/?seed=3&turns=1&draws=0,1").json()
    assert data["draws"] == [0, 1]
    extra = [event for event in data["log"] if event["message"] == "extra_draw"]
    assert [event["turn"] for event in extra] == [0, 1]


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("seed=x", "seed"),
        ("seed=1&turns=51", "turns"),
        ("seed=1&policy=nonsense", "policy"),
        ("seed=1&opponent_health=0", "opponent_health"),
        ("seed=1&turns=1&draws=0,2", "draws"),
    ],
)
def test_goldfish_rejects_bad_input(api, owner, query, field):
    deck = make_deck("shadowera", owner)
    response = api.get(f"/api/simulator/decks/{deck.pk}/goldfish/?{query}")
    assert response.status_code == 400
    assert field in response.json()["errors"]


def test_a_deck_without_its_main_zone_is_a_409_conflict(api, owner):
    """The request is well formed (a 400 would say otherwise); the deck's state stands in its way."""
    from decks import services

    from .synthetic_decks import game

    deck = services.create_deck(owner=owner, game=game("suikoden"), name="空")
    for response in (
        api.get(f"/api/simulator/decks/{deck.pk}/goldfish/?seed=1"),
        api.post(f"/api/simulator/decks/{deck.pk}/simulations/", {"games": 10}, format="json"),
    ):
        assert response.status_code == 409
        assert response.json()["code"] == "deck_not_ready" and "deck" in response.json()["errors"]
    assert not SimulationRun.objects.exists()


# --- odds -------------------------------------------------------------------------------------------


def test_odds_are_the_exact_hypergeometric_odds(api, owner):
    deck = make_deck("shadowera", owner)
    for flag, first in (("1", True), ("0", False)):
        data = api.get(f"/api/simulator/decks/{deck.pk}/odds/?first_player={flag}").json()
        seen = cards_seen_by_turn(get_engine("shadowera"), 10, first)
        assert data["deck_size"] == 40 and data["cards_seen"] == seen and data["first_player"] is first
        ally = next(card for card in data["cards"] if card["key"] == "Test Ally 01")
        assert ally["copies"] == 20
        assert ally["odds"] == [float(at_least_one(40, 20, s)) for s in seen]
        p = at_least_one(40, 20, seen[0])
        assert ally["exact"][0] == f"{p.numerator}/{p.denominator}"
    suikoden = api.get(f"/api/simulator/decks/{make_deck('suikoden', owner).pk}/odds/").json()
    assert suikoden["first_player"] is None and suikoden["zone"] == "characters"


# --- Monte Carlo runs -------------------------------------------------------------------------------------


def test_a_run_through_the_api(api, owner):
    deck = make_deck("suikoden", owner)
    response = api.post(
        f"/api/simulator/decks/{deck.pk}/simulations/",
        {"games": 700, "turns": 6, "policy": "cheap-first", "parameters": {"opponent_lands": 2}, "seed": 5},
        format="json",
    )
    assert response.status_code == 201, response.content
    data = response.json()
    assert response["Location"].endswith(f"/api/simulator/simulations/{data['id']}/")
    assert data["status"] == "done" and data["progress"] == 700
    assert data["result"]["parameters"] == {"opponent_lands": 2, "returns_ready": 1}
    assert data["result"]["policy"] == "cheap-first"
    assert data["result"]["seed"] == 5 and len(data["result"]["turns"]) == 6
    stats = data["result"]["win_turn_stats"]
    if stats:
        assert stats["p10"] <= stats["median"] <= stats["p90"]
    fetched = api.get(f"/api/simulator/simulations/{data['id']}/").json()
    assert fetched["result"] == data["result"]
    # cancelling a finished run leaves it as it is
    assert api.post(f"/api/simulator/simulations/{data['id']}/cancel/").json()["status"] == "done"


def test_the_api_caps_the_games_and_says_so(api, owner):
    deck = make_deck("shadowera", owner)
    response = api.post(f"/api/simulator/decks/{deck.pk}/simulations/", {"games": API_MAX_GAMES + 1}, format="json")
    assert response.status_code == 400
    assert "200,000" in response.json()["errors"]["games"][0]
    assert not SimulationRun.objects.exists()


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"policy": "nonsense"}, "policy"),
        ({"parameters": {"opponent_health": 0}}, "parameters.opponent_health"),
        ({"parameters": {"nonsense": 1}}, "parameters.nonsense"),
        ({"turns": 0}, "turns"),
    ],
)
def test_a_run_with_bad_input_is_400(api, owner, body, field):
    deck = make_deck("shadowera", owner)
    response = api.post(f"/api/simulator/decks/{deck.pk}/simulations/", {"games": 10, **body}, format="json")
    assert response.status_code == 400
    assert field in response.json()["errors"]


def test_cancel_through_the_api(api, owner, settings):
    settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.dummy.DummyBackend"}}
    deck = make_deck("shadowera", owner)
    data = api.post(f"/api/simulator/decks/{deck.pk}/simulations/", {"games": 10}, format="json").json()
    assert data["status"] == "queued"
    cancelled = api.post(data["cancel_url"]).json()
    assert cancelled["status"] == "cancelled" and cancelled["result"] is None


def test_permissions_follow_the_deck_and_runs_belong_to_their_requester(api, owner, other_api):
    private = make_deck("shadowera", owner, visibility=Deck.Visibility.PRIVATE)
    link = make_deck("shadowera", owner, visibility=Deck.Visibility.LINK)
    anonymous = APIClient()
    for path in ("goldfish/?seed=1", "odds/"):
        assert other_api.get(f"/api/simulator/decks/{private.pk}/{path}").status_code == 404
        assert anonymous.get(f"/api/simulator/decks/{private.pk}/{path}").status_code == 404
        assert api.get(f"/api/simulator/decks/{private.pk}/{path}").status_code == 200
        assert other_api.get(f"/api/simulator/decks/{link.pk}/{path}").status_code == 404
        joiner = "&" if "?" in path else "?"
        shared = f"/api/simulator/decks/{link.pk}/{path}{joiner}token={link.share_token}"
        assert other_api.get(shared).status_code == 200
    assert (
        other_api.post(f"/api/simulator/decks/{private.pk}/simulations/", {"games": 10}, format="json").status_code
        == 404
    )
    assert (
        anonymous.post(f"/api/simulator/decks/{private.pk}/simulations/", {"games": 10}, format="json").status_code
        == 401
    )
    response = other_api.post(
        f"/api/simulator/decks/{link.pk}/simulations/?token={link.share_token}", {"games": 10}, format="json"
    )
    assert response.status_code == 201
    run_id = api.post(f"/api/simulator/decks/{private.pk}/simulations/", {"games": 10}, format="json").json()["id"]
    assert other_api.get(f"/api/simulator/simulations/{run_id}/").status_code == 404
    assert other_api.post(f"/api/simulator/simulations/{run_id}/cancel/").status_code == 404
    assert anonymous.get(f"/api/simulator/simulations/{run_id}/").status_code == 401
    assert api.get(f"/api/simulator/simulations/{run_id}/").status_code == 200


def test_the_schema_documents_the_goldfish_api(client, db):
    paths = client.get("/api/schema/?format=json").json()["paths"]
    for path in (
        "/api/simulator/decks/{id}/goldfish/",
        "/api/simulator/decks/{id}/odds/",
        "/api/simulator/decks/{id}/simulations/",
        "/api/simulator/simulations/{run_id}/",
        "/api/simulator/simulations/{run_id}/cancel/",
    ):
        assert path in paths, sorted(paths)
