"""Goldfish pages of a deck (Django's test client): sample hand, draw odds and calculator, Monte Carlo runs.

Cards are the clearly synthetic ones of ``tests/synthetic_decks.py``; Monte Carlo runs use
django-tasks' immediate backend (the site's database backend needs a worker).
"""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlsplit

import pytest
from django.core.management import call_command
from django.test import Client

from decks import services as deck_services
from decks.models import Deck
from simulator import adapters
from simulator.core import cards_seen_by_turn
from simulator.engines import get_engine
from simulator.goldfish import services
from simulator.inputs import PAGE_MAX_GAMES
from simulator.models import SimulationRun
from simulator.odds import Group, at_least, at_least_one
from simulator.tasks import play_chunk

from .support.goldfish import make_deck
from .support.html import parse, squash
from .synthetic_decks import ENGINE_SLUGS, game
from .users import make_user

IMMEDIATE = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"}}

pytestmark = [
    pytest.mark.usefixtures("immediate_tasks"),
    pytest.mark.usefixtures("synthetic_cards"),
]  # every test plays a synthetic deck


# --- decks ------------------------------------------------------------------------------------------


@pytest.fixture
def client(owner) -> Client:
    """The deck's owner: a deck is never public, so its pages by number are its owner's (others use its link)."""
    client = Client()
    client.force_login(owner)
    return client


@pytest.fixture
def owner_client(owner) -> Client:
    client = Client()
    client.force_login(owner)
    return client


def hand_zone(page) -> list[str]:
    return [li.attrs["data-card"] for li in page.find(id="gf-zone-hand").find_all("li", cls="gf-card")]


def query_of(url: str) -> dict[str, str]:
    return {key: values[0] for key, values in parse_qs(urlsplit(url).query).items()}


# --- sample hand --------------------------------------------------------------------------------------


@pytest.mark.parametrize("slug", ENGINE_SLUGS)
def test_the_opening_hand_follows_each_games_rules(client, owner, slug):
    # each game's number (Shadow Era 6, Epic Battles 3, ...) is its engine's, tested in tests/test_sim_<slug>.py
    opening_hand = get_engine(slug).opening_hand
    deck = make_deck(slug, owner)
    response = client.get(f"/simulator/decks/{deck.pk}/goldfish/?seed=5")
    assert response.status_code == 200
    page = parse(response)
    assert page.find(id="gf-zone-hand").attrs["data-count"] == str(opening_hand)
    assert len(hand_zone(page)) == opening_hand
    assert page.find(id="goldfish").attrs["data-turn"] == "0"
    # the deal is logged (and translated): the draws, and the shuffle where the game shuffles (Shadow Era
    # draws at random from the unshuffled deck, and says nothing of a shuffle it does not make)
    log = squash(page.find(id="gf-turn-log").text)
    assert "ドロー" in log and "最初の手札" in log
    assert ("シャッフル" in log) == (slug != "shadowera")


def test_endbreaker_deals_from_the_fixed_starting_deck(client, owner):
    deck = make_deck("endbreaker", owner)
    simdeck = adapters.sim_deck(deck)
    assert len(simdeck.zone("starting")) == 10  # 旅人の酒場 ×4, 城塞騎士 ×2, 狩猟者 ×2, 星霊術士 ×2
    page = parse(client.get(f"/simulator/decks/{deck.pk}/goldfish/?seed=1"))
    assert set(hand_zone(page)) <= {"EB1-001", "城塞騎士", "狩猟者", "星霊術士"}


def test_without_a_seed_the_page_deals_a_new_hand_and_puts_its_seed_in_the_address(client, owner):
    deck = make_deck("shadowera", owner)
    response = client.get(f"/simulator/decks/{deck.pk}/goldfish/?policy=ramp")
    assert response.status_code == 302
    query = query_of(response["Location"])
    assert query["policy"] == "ramp" and query["seed"].isdigit()


def test_the_seed_in_the_address_replays_the_same_hand_and_log(client, owner):
    deck = make_deck("suikoden", owner)
    url = f"/simulator/decks/{deck.pk}/goldfish/?seed=77&turn=3&policy=cheap-first&opponent_lands=3&draws=0,2"
    first, second = parse(client.get(url)), parse(client.get(url))
    assert hand_zone(first) == hand_zone(second)
    assert squash(first.find(cls="gf-full-log").text) == squash(second.find(cls="gf-full-log").text)
    assert first.find(id="goldfish").attrs["data-turn"] == "3"
    # another seed deals another game (the deck has three different characters)
    logs = {
        squash(parse(client.get(url.replace("seed=77", f"seed={seed}"))).find(cls="gf-full-log").text)
        for seed in range(5)
    }
    assert len(logs) > 1


def test_next_turn_shows_that_turns_log(client, owner):
    deck = make_deck("shadowera", owner)
    page = parse(client.get(f"/simulator/decks/{deck.pk}/goldfish/?seed=3"))
    next_url = page.find(id="goldfish-next").attrs["href"]
    assert query_of(next_url)["turn"] == "1"
    response = client.get(next_url, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    fragment = parse(response)
    assert fragment.find(id="goldfish").attrs["data-turn"] == "1"
    assert "<html" not in response.content.decode()  # htmx gets the panel only
    turn_log = fragment.find(id="gf-turn-log")
    assert "ターン1のログ" in squash(turn_log.text)
    # Shadow Era, going first: no draw on turn 1; the log shows the sacrifice and the plays of turn 1
    kinds = [row.attrs["data-kind"] for row in turn_log.find_all("tr", cls="gf-event")]
    assert "draw" not in kinds and "sacrifice" in kinds


def test_draw_adds_a_card_from_the_deck_and_is_replayed(client, owner):
    deck = make_deck("epicbattles", owner)
    page = parse(client.get(f"/simulator/decks/{deck.pk}/goldfish/?seed=9"))
    draw_url = page.find(id="goldfish-draw").attrs["href"]
    assert query_of(draw_url)["draws"] == "0"
    after = parse(client.get(draw_url))
    assert len(hand_zone(after)) == 4
    assert after.find(id="gf-zone-deck").attrs["data-count"] == str(59 - 4)
    assert "追加ドロー" in squash(after.find(id="gf-turn-log").text)
    assert hand_zone(after)[:3] == hand_zone(page)


def test_new_hand_changes_the_seed(client, owner):
    deck = make_deck("shadowera", owner)
    page = parse(client.get(f"/simulator/decks/{deck.pk}/goldfish/?seed=3&turn=2"))
    new = query_of(page.find(id="goldfish-new").attrs["href"])
    assert new["seed"] != "3" and new["turn"] == "0"


def test_parameters_are_shown_with_defaults_and_sources_and_checked(client, owner):
    deck = make_deck("shadowera", owner)
    page = parse(client.get(f"/simulator/decks/{deck.pk}/goldfish/?seed=3"))
    field = page.find("input", id="param-opponent_health")
    assert (field.attrs["value"], field.attrs["min"], field.attrs["max"]) == ("30", "1", "200")
    assert "30は仮定です" in page.find(cls="gf-settings").text  # the stated source, in the reader's language
    page = parse(client.get(f"/simulator/decks/{deck.pk}/goldfish/?seed=3&opponent_health=999"))
    assert "1から200" in squash(page.find(cls="gf-settings").text)


def test_a_deck_without_the_zone_its_goldfish_draws_from_says_so(client, owner):
    deck = deck_services.create_deck(owner=owner, game=game("shadowera"), name="空", visibility="link")
    for path in ("goldfish/?seed=1", "odds/", "simulate/"):
        response = client.get(f"/simulator/decks/{deck.pk}/{path}")
        assert response.status_code == 200
        assert "デッキ" in parse(response).find(cls="goldfish-missing").text


def test_the_deck_page_links_to_the_goldfish(client, owner):
    deck = make_deck("shadowera", owner)
    page = parse(client.get(f"/decks/{deck.pk}/"))
    assert page.find("a", cls="goldfish-link").attrs["href"] == f"/simulator/decks/{deck.pk}/goldfish/"


# --- permissions -------------------------------------------------------------------------------------


def test_a_private_decks_goldfish_is_404_for_others(client, owner, owner_client):
    deck = make_deck("shadowera", owner, visibility=Deck.Visibility.PRIVATE)
    other = Client()
    other.force_login(make_user("other"))
    for path in (
        "goldfish/?seed=1",
        "odds/",
        "odds/calculate/?group_a=x",
        "odds/cards/?group=a",
        "odds/chip/?group=a&card=Test%20Ally%2001",
        "simulate/",
    ):
        assert Client().get(f"/simulator/decks/{deck.pk}/{path}").status_code == 404
        assert other.get(f"/simulator/decks/{deck.pk}/{path}").status_code == 404
        assert owner_client.get(f"/simulator/decks/{deck.pk}/{path}").status_code in (200, 400)
    assert (
        other.post(f"/simulator/decks/{deck.pk}/simulate/", {"games": 10, "turns": 2, "policy": "default"}).status_code
        == 404
    )


def test_a_deck_shared_by_link_has_its_goldfish_under_the_token(client, owner):
    deck = make_deck("suikoden", owner, visibility=Deck.Visibility.LINK)
    assert Client().get(f"/simulator/decks/{deck.pk}/goldfish/?seed=1").status_code == 404
    response = Client().get(f"/simulator/decks/shared/{deck.share_token}/goldfish/?seed=1")
    assert response.status_code == 200
    page = parse(response)
    assert (
        page.find(id="goldfish-next").attrs["href"].startswith(f"/simulator/decks/shared/{deck.share_token}/goldfish/?")
    )
    assert Client().get(f"/simulator/decks/shared/{deck.share_token}/odds/").status_code == 200
    page = parse(Client().get(f"/decks/shared/{deck.share_token}/"))
    assert page.find("a", cls="goldfish-link").attrs["href"] == f"/simulator/decks/shared/{deck.share_token}/goldfish/"


# --- odds -------------------------------------------------------------------------------------------


def test_the_odds_table_is_the_exact_hypergeometric_odds(client, owner):
    deck = make_deck("shadowera", owner)
    engine = get_engine("shadowera")
    for first, flag in ((True, "1"), (False, "0")):
        page = parse(client.get(f"/simulator/decks/{deck.pk}/odds/?first_player={flag}"))
        seen = cards_seen_by_turn(engine, 10, first)
        row = page.find("tr", data_card="Test Ally 01")
        cells = row.find_all("td", cls="number")[1:]
        assert len(cells) == 10
        for turn, cell in enumerate(cells):
            exact = at_least_one(40, 20, seen[turn])
            assert cell.attrs["data-exact"] == f"{exact.numerator}/{exact.denominator}"
            assert cell.text == f"{round(float(exact) * 100, 1):.1f}%"
    # a known case: 20 of 40, going first: 6 cards by turn 1 → 1 − C(20,6)/C(40,6)
    page = parse(client.get(f"/simulator/decks/{deck.pk}/odds/"))
    assert page.find("tr", data_card="Test Ally 01").find("td", data_turn="1").text == "99.0%"


def test_the_odds_page_has_a_first_player_toggle_only_where_the_game_has_one(client, owner):
    shadowera = parse(client.get(f"/simulator/decks/{make_deck('shadowera', owner).pk}/odds/"))
    assert "後攻" in shadowera.find(cls="odds-toggle").text
    page = parse(client.get(f"/simulator/decks/{make_deck('suikoden', owner).pk}/odds/"))
    assert not page.find_all(cls="odds-toggle")


def test_the_calculator_finds_cards_as_you_type_and_makes_chips(client, owner):
    deck = make_deck("suikoden", owner, visibility=Deck.Visibility.LINK)
    base = f"/simulator/decks/shared/{deck.share_token}/odds/"
    page = parse(client.get(base))
    assert not page.find_all("select", multiple="")  # no long multi-select lists
    search = page.find("input", id="find-a")
    assert search.attrs["hx-get"] == f"{base}cards/?group=a" and search.attrs["data-chip-search"] == "a"
    assert page.find("input", id="find-b").attrs["hx-target"] == "#suggest-b"

    def suggested(query: str) -> list[str]:
        fragment = parse(client.get(f"{base}cards/?{query}", HTTP_HX_REQUEST="true"))
        return [button.attrs["data-card"] for button in fragment.find_all("button", cls="chip-suggestion")]

    everything = suggested("group=a")
    assert set(everything) == {"901", "902", "テスト人物03"}  # the zone the odds are drawn from, not the lands
    assert suggested("group=a&find_a=てすとらび") == ["902"]  # folded as the card search folds: テストラビシャン
    assert suggested("group=b&find_b=&group_a=901") == ["902", "テスト人物03"]  # a card is in one group only
    nothing = client.get(f"{base}cards/?group=a&find_a=zzz").content.decode()
    assert "「zzz」に一致するカードはデッキにありません。" in squash(nothing)
    assert client.get(f"{base}cards/?group=c").status_code == 404

    chip = parse(client.get(f"{base}chip/?group=b&card=902", HTTP_HX_REQUEST="true"))
    assert chip.find("input", type="hidden").attrs == {"type": "hidden", "name": "group_b", "value": "902"}
    assert chip.find("div", id="suggest-b").attrs["hx-swap-oob"] == "true"
    assert client.get(f"{base}chip/?group=b&card=903").status_code == 404  # a land: not drawn from
    # a full page (no htmx) keeps the chips chosen
    page = parse(client.get(f"{base}calculate/?group_a=901&a=1&group_b=902&b=0&turn=3"))
    assert page.find(id="chips-a").find("input").attrs["value"] == "901"
    assert page.find(id="chips-b").find("input").attrs["value"] == "902"


def test_the_calculator_answers_with_the_multivariate_odds(client, owner):
    deck = make_deck("suikoden", owner)
    url = f"/simulator/decks/{deck.pk}/odds/calculate/?group_a=901&a=1&group_b=902&group_b=テスト人物03&b=2&turn=3"
    response = client.get(url, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    answer = parse(response).find(cls="calc-answer")
    seen = cards_seen_by_turn(get_engine("suikoden"), 10, True)[2]
    expected = at_least(40, [Group(10, 1), Group(30, 2)], seen)
    assert answer.attrs["data-exact"] == f"{expected.numerator}/{expected.denominator}"
    assert f"{round(float(expected) * 100, 1):.1f}%" in answer.text


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("a=1&b=0&turn=3", "少なくとも一方のグループ"),
        ("group_a=901&a=11&b=0&turn=3", "グループAのカードは全部で10枚"),
        ("group_a=901&a=1&group_b=901&b=1&turn=3", "両方のグループに入れることはできません"),
        ("group_a=901&a=1&group_b=902&b=0&turn=11", "10"),
        ("group_a=テスト人物03&a=7&group_b=902&b=0&turn=1", "6枚しか"),
        ("group_a=nothing&a=1&b=0&turn=1", "nothing"),
    ],
)
def test_the_calculator_explains_impossible_input(client, owner, query, message):
    deck = make_deck("suikoden", owner)
    response = client.get(f"/simulator/decks/{deck.pk}/odds/calculate/?{query}", HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    errors = parse(response).find(cls="calc-errors")
    assert message in squash(errors.text)
    assert client.get(f"/simulator/decks/{deck.pk}/odds/calculate/?{query}").status_code == 400


# --- Monte Carlo -------------------------------------------------------------------------------------


def test_a_run_from_the_page_produces_a_summary_with_the_stated_parameters(owner, owner_client):
    deck = make_deck("shadowera", owner)
    page = parse(owner_client.get(f"/simulator/decks/{deck.pk}/simulate/"))
    assert "20,000" in squash(page.find(cls="simulate-form").text)  # the page states its cap
    response = owner_client.post(
        f"/simulator/decks/{deck.pk}/simulate/",
        {"games": 600, "turns": 8, "policy": "curve", "opponent_health": 20, "first_player": 0},
    )
    run = SimulationRun.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/simulator/decks/{deck.pk}/simulate/{run.pk}/"
    assert run.status == "done" and run.progress == 600
    assert run.result["games"] == 600 and run.result["policy"] == "curve"
    assert run.result["parameters"] == {"opponent_health": 20, "weapon_wear": 1, "first_player": 0}
    assert [row["turn"] for row in run.result["turns"]] == list(range(1, 9))
    assert run.result["won"] == sum(row["games"] for row in run.result["win_turn_histogram"])
    assert run.started_at and run.finished_at

    page = parse(owner_client.get(response["Location"]))
    panel = page.find(id="run")
    assert panel.attrs["data-status"] == "done" and "hx-trigger" not in panel.attrs
    stated = page.find("table", cls="sim-parameters")
    health = stated.find("tr", data_parameter="opponent_health")
    assert [squash(td.text) for td in health.find_all("td")][:2] == ["20", "30"]
    assert "仮定" in health.text
    assert page.find("script", id="sim-chart-data")
    assert len(page.find("table", cls="sim-turns").find_all("tr")) == 9
    # simulated draw odds beside the exact ones
    cell = page.find("table", cls="sim-odds").find("tr", data_card="Test Ally 01").find_all("td")[0]
    exact, simulated = (float(part) for part in cell.text.split(" / "))
    second_player_seen = cards_seen_by_turn(get_engine("shadowera"), 10, False)[0]  # the run went second
    assert exact == round(float(at_least_one(40, 20, second_player_seen)) * 100, 1)
    assert abs(exact - simulated) < 5


def test_going_first_or_second_is_chosen_from_a_list_and_checked_by_the_server(owner, owner_client, settings):
    settings.TASKS = IMMEDIATE
    deck = make_deck("shadowera", owner)
    owner_client.cookies["django_language"] = "en"
    hand = parse(owner_client.get(f"/simulator/decks/{deck.pk}/goldfish/?seed=5&first_player=0"))
    select = hand.find("select", name="first_player")
    options = {squash(option.text): option.attrs["value"] for option in select.find_all("option")}
    assert options == {"Going first": "1", "Going second": "0"}
    assert [o.attrs["value"] for o in select.find_all("option") if "selected" in o.attrs] == ["0"]
    assert hand.find("input", name="opponent_health").attrs["type"] == "number"  # a number stays a number
    # a value that is not one of the choices is refused, named, and the default is played instead
    wrong = parse(owner_client.get(f"/simulator/decks/{deck.pk}/goldfish/?seed=5&first_player=7"))
    assert "must be one of: 1 (Going first), 0 (Going second)" in squash(wrong.text)

    form = parse(owner_client.get(f"/simulator/decks/{deck.pk}/simulate/")).find("form", cls="simulate-form")
    select = form.find("select", name="first_player")
    assert [squash(option.text) for option in select.find_all("option")] == ["Going first", "Going second"]
    start = {"games": 100, "turns": 5, "policy": "default"}
    refused = owner_client.post(f"/simulator/decks/{deck.pk}/simulate/", {**start, "first_player": 2})
    assert refused.status_code in (200, 400) and not SimulationRun.objects.exists()
    response = owner_client.post(f"/simulator/decks/{deck.pk}/simulate/", {**start, "first_player": 0})
    run = SimulationRun.objects.get()
    assert run.params["first_player"] == 0
    stated = parse(owner_client.get(response["Location"])).find("table", cls="sim-parameters")
    row = stated.find("tr", data_parameter="first_player")
    assert [squash(td.text) for td in row.find_all("td")][:2] == ["Going second", "Going first"]


def test_a_queued_run_polls_and_can_be_cancelled(owner, owner_client, settings):
    settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.dummy.DummyBackend"}}
    deck = make_deck("shadowera", owner)
    owner_client.post(f"/simulator/decks/{deck.pk}/simulate/", {"games": 1000, "turns": 5, "policy": "default"})
    run = SimulationRun.objects.get()
    assert run.status == "queued"
    page = parse(owner_client.get(f"/simulator/decks/{deck.pk}/simulate/{run.pk}/"))
    panel = page.find(id="run")
    assert panel.attrs["hx-trigger"] == "every 1s"
    response = owner_client.post(f"/simulator/decks/{deck.pk}/simulate/{run.pk}/cancel/", HTTP_HX_REQUEST="true")
    assert parse(response).find(id="run").attrs["data-status"] == "cancelled"
    # the task, when the worker gets to it, does not play a cancelled run
    assert all(play_chunk.call(chunk.pk) is None for chunk in run.chunks.all())
    run.refresh_from_db()
    assert run.status == "cancelled" and run.result is None


def test_cancelling_a_running_run_keeps_the_partial_summary(owner, monkeypatch):
    deck = make_deck("shadowera", owner)
    original = services.MONTE_CARLO.beat

    def cancel_after_a_thousand_games(chunk, done: int) -> bool:
        if done == 1000:
            services.cancel_run(SimulationRun.objects.get(pk=chunk.run_id))
        return original(chunk, done)

    monkeypatch.setattr(services.MONTE_CARLO, "beat", cancel_after_a_thousand_games)
    run = services.start_run(
        deck=deck, requester=owner, games=5000, turns=6, policy="default", params={}, language="ja", seed=11
    )
    assert run.status == "cancelled"
    assert run.progress == 1000 and run.result["games"] == 1000
    assert len(run.result["turns"]) == 6


def test_the_task_function_plays_a_stored_run(owner, settings):
    settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.dummy.DummyBackend"}}
    deck = make_deck("epicbattles", owner)
    run = services.start_run(
        deck=deck, requester=owner, games=50, turns=5, policy="cheapest", params={"opponent_deck": 30}, language="en"
    )
    assert run.status == "queued"
    (chunk,) = run.chunks.all()
    assert play_chunk.call(chunk.pk) == {"chunk": 0, "games": 50}
    run.refresh_from_db()
    assert run.status == "done" and run.result["parameters"] == {"opponent_deck": 30, "both_out_wins": 0}
    assert run.result["policy"] == "cheapest"


def test_the_page_caps_the_games(owner, owner_client):
    deck = make_deck("shadowera", owner)
    response = owner_client.post(
        f"/simulator/decks/{deck.pk}/simulate/", {"games": PAGE_MAX_GAMES + 1, "turns": 10, "policy": "default"}
    )
    assert response.status_code == 400
    assert "20,000" in squash(parse(response).find(cls="simulate-form").text)
    assert not SimulationRun.objects.exists()


def test_runs_belong_to_whoever_started_them(owner, owner_client):
    deck = make_deck("shadowera", owner)
    owner_client.post(f"/simulator/decks/{deck.pk}/simulate/", {"games": 10, "turns": 2, "policy": "default"})
    run = SimulationRun.objects.get()
    other = Client()
    other.force_login(make_user("other"))
    assert other.get(f"/simulator/decks/{deck.pk}/simulate/{run.pk}/").status_code == 404
    assert other.post(f"/simulator/decks/{deck.pk}/simulate/{run.pk}/cancel/").status_code == 404
    assert Client().get(f"/simulator/decks/{deck.pk}/simulate/{run.pk}/").status_code == 404
    # anyone with the link may see the form; starting a run needs an account
    anonymous = Client()
    shared = f"/simulator/decks/shared/{deck.share_token}/simulate/"
    assert "ログイン" in parse(anonymous.get(shared)).find(cls="simulate-form").text
    response = anonymous.post(shared, {"games": 10, "turns": 2, "policy": "default"})
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_the_simulate_command_prints_the_summary(owner, capsys):
    deck = make_deck("shadowera", owner)
    call_command(
        "simulate",
        str(deck.pk),
        "--games",
        "300",
        "--turns",
        "6",
        "--policy",
        "ramp",
        "--seed",
        "4",
        "--param",
        "opponent_health=12",
        "--lang",
        "en",
    )
    out = capsys.readouterr().out
    assert "300 games of up to 6 turns, seed 4" in out
    assert "policy: ramp" in out
    assert "Opponent hero's health (opponent_health) = 12 (default 30)" in out
    assert re.search(r"won: [\d,]+ of 300", out)


def test_suikoden_pays_white_costs_with_copies_of_the_hired_card(owner):
    """Regression: copies of a card are one object in a SimDeck; paying 白 must not skip the hired card's copies."""
    from simulator.core import play_game

    deck = adapters.sim_deck(make_deck("suikoden", owner))
    engine = get_engine("suikoden")
    for seed in range(60):
        play_game(engine, deck, seed, turns=10)
