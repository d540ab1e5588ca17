"""エンドブレイカー！SCG's whole game on the site: the set-up built from the stored cards (refused, naming each
missing value with a link to fill it), comparisons of shipped strategies played by the task workers, the map of
what is missing, the page and the API.

Every value is synthetic (names テスト…, keys EB9-9xx). The starting cards, the job piles and the thorn keep the
keys the seed's 遊戲準備 names them by, with synthetic values, so the set-up finds them.
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from cards.missing.selectors import missing_map
from cards.models import Card, Game
from simulator.models import ComparisonChunk, ComparisonRun

from .support.clients import signed_in
from .support.endbreaker_pool import synthetic_pool
from .support.html import parse, squash
from .support.tasks import DUMMY, IMMEDIATE

URL = "/simulator/games/endbreaker/compare/"
API = "/api/simulator/games/endbreaker/comparisons/"


def start_page(client, **data):
    body = {"seat1": "big_darc", "seat2": "build_then_resolve", "games": 24, **data}
    return client.post(URL, body)


# --- the set-up from the database -------------------------------------------------------------------------


def test_a_complete_pool_makes_the_set_up_of_the_seed(whole_game_pool):
    from simulator.shared.selectors import build_setup, fullgame_or_404

    game, fullgame = fullgame_or_404("endbreaker")
    setup = build_setup(game, fullgame, [], "ja")
    assert setup.knight.key == "城塞騎士" and setup.knight.fields["skill"] == "P"
    assert [card.key for card in setup.jobs] == ["魔獣戦士", "スカイランナー", "デモニスタ"]
    assert [card.key for card in setup.abilities] == [f"EB9-91{n}" for n in range(9)]  # the first 9 by number
    assert len(setup.scenarios) == 10 and len(setup.masquerades) == 8
    # A skill stored as "none" reaches the engine as no skill at all, and is not a missing value.
    assert setup.thorn.fields["skill"] == "" and setup.tavern.fields["skill"] == ""


def test_a_skill_of_none_is_stored_as_a_value_shown_in_the_readers_language_and_empty_stays_unknown(whole_game_pool):
    from cards.gamedefs import get_game
    from cards.gamedefs.base import FieldValueError

    skill = get_game("endbreaker").field("skill").type
    assert skill.clean(" None ") == "none"
    for raw in ("", "  ", "nothing"):
        with pytest.raises(FieldValueError):
            skill.clean(raw)
    assert "none" in skill.describe()
    page = Client(HTTP_ACCEPT_LANGUAGE="ja").get("/games/endbreaker/cards/EB1-059/").content.decode()
    assert "なし" in page


def test_missing_values_refuse_naming_each_card_and_value(db):
    from simulator.fullgames import SetupRefused
    from simulator.shared.selectors import build_setup, fullgame_or_404, refusal_rows

    synthetic_pool(**{"EB9-930": {"payout": "2"}, "EB9-951": {"payout": "6-4-2-0"}})
    game, fullgame = fullgame_or_404("endbreaker")
    with pytest.raises(SetupRefused) as refused:
        build_setup(game, fullgame, [], "en")
    found = {(entry.key, entry.field) for entry in refused.value.refused}
    assert found == {("EB9-930", "cost"), ("EB9-951", "damage")}
    rows = refusal_rows(game, fullgame, refused.value, "en")
    urls = {row.url for row in rows}
    assert reverse("contributions:card_edit", args=["endbreaker", "EB9-930"]) + "#id_field_cost" in urls
    assert reverse("contributions:card_edit", args=["endbreaker", "EB9-951"]) + "#id_field_damage" in urls


def test_the_map_of_what_is_missing_counts_the_gaps_as_blocking_the_simulator(db):
    synthetic_pool(**{"EB9-930": {"payout": "2"}})
    game = Game.objects.get(slug="endbreaker")
    gaps = missing_map(game)
    blocking = {(gap.field, gap.kinds, gap.cards - gap.known) for gap in gaps.simulator_gaps}
    assert ("cost", ("job", "ability", "scenario"), 1) in blocking
    assert gaps.blocked
    page = Client(HTTP_ACCEPT_LANGUAGE="en").get("/games/endbreaker/missing/")
    text = page.content.decode()
    assert "Simulator: Cost is unknown on 1 of" in text and "blocks the Endbreaker! SCG simulator" in text
    assert "the エンドブレイカー" not in text  # the game's English name on an English page


def test_a_complete_pool_has_no_simulator_gap(whole_game_pool):
    assert missing_map(Game.objects.get(slug="endbreaker")).simulator_gaps == []


# --- the page ----------------------------------------------------------------------------------------------


def test_the_page_refuses_listing_each_missing_value_with_a_link_to_fill_it(db, owner, immediate_tasks):
    synthetic_pool(**{"EB9-952": {"damage": 3}})
    client = signed_in(owner, "en")
    page = client.get(URL)
    text = page.content.decode()
    assert page.status_code == 200
    assert "テスト仮面2 (EB9-952, masquerade): Payout is unknown." in squash(
        parse(page).find("section", id="setup-missing").text
    )
    assert reverse("contributions:card_edit", args=["endbreaker", "EB9-952"]) + "#id_field_payout" in text
    answer = start_page(client)
    assert answer.status_code == 400 and not ComparisonRun.objects.exists()


def test_the_page_lists_missing_cards_and_missing_values_at_once_grouped_with_counts(db, owner, immediate_tasks):
    synthetic_pool(**{"EB9-952": {"damage": 3}})
    Card.objects.filter(game__slug="endbreaker", key="スカイランナー").delete()  # a job pile's card is missing
    client = signed_in(owner, "en")
    page = parse(client.get(URL))
    missing = page.find("section", id="setup-missing")
    groups = {squash(node.find("summary").text) for node in missing.find_all("details", cls="missing-group")}
    text = squash(missing.text)
    assert "スカイランナー (job pile) is not in the database." in text
    assert "テスト仮面2 (EB9-952, Masquerade): Payout is unknown." in text  # not only the first block
    assert any(group.endswith("(1)") for group in groups) and len(groups) >= 2
    # a heading starts with a capital, as headings do, though a role's name is lower-case inside a sentence
    assert all(group[:1] == group[:1].upper() for group in groups), groups
    assert "2 things are missing in all" in text


def test_a_comparison_started_on_the_page_is_played_by_the_task_and_reported_with_intervals(
    whole_game_pool, owner, immediate_tasks
):
    client = signed_in(owner, "en")
    answer = start_page(client, games=24)
    run = ComparisonRun.objects.get()
    assert answer.status_code == 302 and answer["Location"] == f"{URL}{run.pk}/"
    assert run.status == "done" and run.progress == 24 == run.planned
    assert ComparisonChunk.objects.filter(run=run).count() == 3  # 12 blocks in chunks of 5
    rows = {row["label"]: row for row in run.result["strategies"]}
    for row in rows.values():
        low, high = row["interval"]
        assert row["games"] == 24 and 0 <= low <= row["win_rate"] <= high <= 1 and high - low > 0.1
        assert row["mean_darc"] > 0 and row["mean_turns"] > 0
        assert sum(p["battles"] for p in row["placings"]) == 24 * 3  # three battles a game
    assert run.result["leaders"]["first"] in rows
    page = client.get(answer["Location"]).content.decode()
    assert "95% interval (Wilson)" in page and "Big darc" in page
    # Games stopped by the turn limit are counted and named, even when there are none.
    assert "Stopped by the turn limit" in page
    assert page.count('data-stopped="') == len(rows) and all(row["stopped"] == 0 for row in rows.values())


def test_the_same_seed_gives_the_same_report_however_it_is_chunked(whole_game_pool, owner, settings):
    from simulator.comparisons import services as comparisons
    from simulator.shared.selectors import build_setup, fullgame_or_404

    settings.TASKS = IMMEDIATE
    game, fullgame = fullgame_or_404("endbreaker")
    setup = build_setup(game, fullgame, [], "ja")
    reports = []
    for size in (3, 100):
        settings.COMPARISON_CHUNK_BLOCKS = size
        run = comparisons.start_comparison(
            game=game, requester=owner, setup=setup, strategies=["big_darc", "big_darc"], games=16,
            sequential=False, abilities=[], language="ja", seed=5,
        )  # fmt: skip
        reports.append(run.result)
    assert reports[0] == reports[1]
    first, second = reports[0]["strategies"]
    assert first["win_rate"] == second["win_rate"]  # a strategy against itself, the same shuffles at every seat
    assert reports[0]["leaders"]["significant"] is False


def test_a_cancelled_comparison_plays_no_more(whole_game_pool, owner, settings):
    settings.TASKS = DUMMY
    client = APIClient()
    client.force_authenticate(owner)
    run = client.post(API, {"strategies": ["big_darc", "build_then_resolve"], "games": 20}, format="json").json()
    answer = client.post(run["cancel_url"])
    assert answer.status_code == 200 and answer.json()["status"] == "cancelled"
    from simulator.comparisons.services import execute_chunk

    chunk = ComparisonChunk.objects.get(run_id=run["id"])
    assert execute_chunk(chunk.pk) is None and ComparisonRun.objects.get().progress == 0


# --- the API -----------------------------------------------------------------------------------------------


def test_anonymous_cannot_start_and_nothing_is_stored(whole_game_pool, immediate_tasks):
    answer = APIClient().post(API, {"strategies": ["big_darc", "build_then_resolve"], "games": 10}, format="json")
    assert answer.status_code in (401, 403) and not ComparisonRun.objects.exists()
    page = Client().post(URL, {"seat1": "big_darc", "seat2": "big_darc", "games": 10})
    assert page.status_code == 302 and "/login" in page["Location"] and not ComparisonRun.objects.exists()


def test_the_api_starts_follows_and_reports_and_another_user_sees_nothing(
    whole_game_pool, owner, other, immediate_tasks
):
    client = APIClient()
    client.force_authenticate(owner)
    body = {"strategies": ["big_darc", "build_then_resolve", "big_darc"], "games": 12, "seed": 3}
    answer = client.post(API, body, format="json", HTTP_ACCEPT_LANGUAGE="en")
    assert answer.status_code == 201, answer.json()
    run = answer.json()
    assert run["status"] == "done" and run["planned"] == 12
    labels = [row["label"] for row in run["result"]["strategies"]]
    assert labels == ["big_darc", "build_then_resolve", "big_darc #2"]
    followed = client.get(answer["Location"]).json()
    assert followed["result"] == run["result"]
    stranger = APIClient()
    stranger.force_authenticate(other)
    assert stranger.get(answer["Location"]).status_code == 404
    assert stranger.post(run["cancel_url"]).status_code == 404
    assert signed_in(other, None).get(f"{URL}{run['id']}/").status_code == 404


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"strategies": ["big_darc"], "games": 10}, "strategies"),
        ({"strategies": ["big_darc", "no_such"], "games": 10}, "strategies[1]"),
        ({"strategies": ["big_darc"] * 5, "games": 10}, "strategies"),
        ({"strategies": ["big_darc", "big_darc"], "games": 0}, "games"),
        ({"strategies": ["big_darc", "big_darc"], "games": 10**6}, "games"),
        ({"strategies": ["big_darc", "big_darc"], "games": "many"}, "games"),
        ({"strategies": ["big_darc", "big_darc"], "games": 10, "abilities": ["EB9-910"]}, "abilities"),
        ({"strategies": ["big_darc", "big_darc"], "games": 10, "abilities": ["EB9-950"] * 9}, "abilities"),
    ],
)
def test_bad_input_is_answered_400_with_field_errors(whole_game_pool, owner, immediate_tasks, body, field):
    client = APIClient()
    client.force_authenticate(owner)
    answer = client.post(API, body, format="json", HTTP_ACCEPT_LANGUAGE="ja")
    assert answer.status_code == 400, answer.json()
    assert field in answer.json()["errors"], answer.json()
    assert not ComparisonRun.objects.exists()


def test_the_page_answers_bad_input_with_the_field_in_error(whole_game_pool, owner, immediate_tasks):
    client = signed_in(owner, "en")
    answer = start_page(client, games=10**6, deck="999999")
    assert answer.status_code == 400 and not ComparisonRun.objects.exists()
    form = answer.context["form"]
    assert "games" in form.errors and "deck" in form.errors


def test_the_api_refuses_with_409_listing_the_missing_values(db, owner, immediate_tasks):
    synthetic_pool(**{"EB9-935": {"cost": "PT"}})
    client = APIClient()
    client.force_authenticate(owner)
    answer = client.post(API, {"strategies": ["big_darc", "big_darc"], "games": 10}, format="json")
    assert answer.status_code == 409
    missing = answer.json()["missing"]
    assert [(row["key"], row["url"]) for row in missing] == [
        ("EB9-935", reverse("contributions:card_edit", args=["endbreaker", "EB9-935"]) + "#id_field_payout")
    ]
    setup = client.get("/api/simulator/games/endbreaker/comparisons/setup/").json()
    assert setup["ready"] is False and setup["missing"][0]["key"] == "EB9-935"
    assert not ComparisonRun.objects.exists()


def test_a_game_without_a_whole_game_has_no_comparison_page(db):
    assert Client().get("/simulator/games/suikoden/compare/").status_code == 404


def test_a_run_that_may_stop_stops_at_the_first_look_where_the_leaders_differ(whole_game_pool, owner, settings):
    settings.TASKS = IMMEDIATE
    settings.COMPARISON_CHUNK_BLOCKS = 20
    client = APIClient()
    client.force_authenticate(owner)
    body = {"strategies": ["big_darc", "build_then_resolve"], "games": 400, "sequential": True, "seed": 1}
    run = client.post(API, body, format="json").json()
    assert run["status"] == "done" and run["planned"] == 400
    assert run["result"]["stopped_early"] is True and run["progress"] == 100  # the first look: after 100 games
    leaders = run["result"]["leaders"]
    assert leaders["significant"] and leaders["threshold"] == pytest.approx(0.05 / 4)  # 4 looks, 1 pair


def test_the_game_page_links_to_the_comparisons_of_a_game_with_a_whole_game(db):
    from cards.services import sync_games

    sync_games()
    assert URL in Client().get("/games/endbreaker/").content.decode()
    assert "/simulator/games/suikoden/compare/" not in Client().get("/games/suikoden/").content.decode()


def test_results_on_a_set_up_with_hekatonkheires_say_which_cards_its_effect_reaches():
    from simulator.fullgames.endbreaker import result_notes

    from .support.endbreaker_game import MASQUERADES, card, make_setup

    hekatonkheires = card("EB1-048", "masquerade", payout="6-4-2-0", damage=3)
    assert result_notes(make_setup(), "en") == []
    [note] = result_notes(make_setup(masquerades=(*MASQUERADES[:7], hekatonkheires)), "ja")
    assert "都市国家" in note and "効果は起きません" in note
