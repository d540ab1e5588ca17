"""The set-up builder of エンドブレイカー！SCG's whole game and one strategy compared on two set-ups (issue 13,
items 5 and 7): the game's verdict on the piles as they are chosen, saving and sharing a set-up like a deck, its
piles presetting the other forms, and a comparison where each set-up plays its own games against the same
opponents, with intervals. Synthetic cards only (the pool of tests/test_endbreaker_compare_site.py)."""

from __future__ import annotations

from simulator.models import ComparisonRun, SavedSetup, SeatedGame

from .support.clients import signed_in

PAGES = "/games/endbreaker/setups/"
NINE = [f"EB9-91{n}" for n in range(9)]
OTHER_NINE = [f"EB9-91{n}" for n in range(1, 10)]


def test_the_builder_shows_the_games_verdict_as_piles_are_chosen_and_saves_only_what_adds_up(whole_game_pool, owner):
    client = signed_in(owner, "en")
    assert "These piles make a game" in client.get(f"{PAGES}new/").content.decode()  # the default piles
    verdict = client.post(f"{PAGES}check/", {"abilities": NINE[:4]}).content.decode()
    assert "do not make a set-up" in verdict and "Choose 9 piles, not 4." in verdict
    japanese = signed_in(owner, "ja").post(f"{PAGES}check/", {"abilities": NINE[:4]})
    assert "山は 9 種類選んでください（今は 4 種類）。" in japanese.content.decode()
    assert "These piles make a game" in client.post(f"{PAGES}check/", {"abilities": NINE}).content.decode()
    refused = client.post(f"{PAGES}new/", {"name": "Four", "abilities": NINE[:4], "visibility": "private"})
    assert refused.status_code == 400 and not SavedSetup.objects.exists()
    saved = client.post(f"{PAGES}new/", {"name": "Late piles", "abilities": OTHER_NINE, "visibility": "public"})
    setup = SavedSetup.objects.get()
    assert saved["Location"] == f"{PAGES}{setup.pk}/" and setup.choices == OTHER_NINE
    page = client.get(saved["Location"]).content.decode()
    assert "テスト特技9" in page and "abilities=EB9-919" in page


def test_a_set_up_is_shared_like_a_deck(whole_game_pool, owner, other):
    mine = signed_in(owner, None)
    mine.post(f"{PAGES}new/", {"name": "Mine", "abilities": NINE, "visibility": "private"})
    setup = SavedSetup.objects.get()
    theirs = signed_in(other, None)
    assert theirs.get(f"{PAGES}{setup.pk}/").status_code == 404
    assert theirs.post(f"{PAGES}{setup.pk}/edit/", {"name": "x", "abilities": NINE}).status_code == 404
    mine.post(f"{PAGES}{setup.pk}/edit/", {"name": "Mine", "abilities": NINE, "visibility": "link"})
    setup.refresh_from_db()
    assert theirs.get(f"{PAGES}{setup.pk}/?token={setup.share_token}").status_code == 200
    assert theirs.post(f"{PAGES}{setup.pk}/delete/", {"confirm": "yes"}).status_code == 404  # no token: hidden
    mine.post(f"{PAGES}{setup.pk}/edit/", {"name": "Mine", "abilities": NINE, "visibility": "public"})
    assert theirs.post(f"{PAGES}{setup.pk}/delete/", {"confirm": "yes"}).status_code == 403
    assert SavedSetup.objects.count() == 1


def test_a_saved_set_ups_piles_preset_the_play_form(whole_game_pool, owner):
    client = signed_in(owner, "en")
    query = "&".join(f"abilities={key}" for key in OTHER_NINE)
    form = client.get(f"/games/endbreaker/play/?{query}").content.decode()
    assert 'value="EB9-919"' in form and 'value="EB9-919"\n' not in form
    assert form.count("checked") >= 9
    body = {"seat1": "person", "seat2": "big_darc", "abilities": OTHER_NINE}
    client.post("/games/endbreaker/play/", body)
    assert [card["key"] for card in SeatedGame.objects.get().setup["abilities"]] == OTHER_NINE


def test_one_strategy_on_two_set_ups_against_the_same_opponent_with_intervals(whole_game_pool, owner, immediate_tasks):
    client = signed_in(owner, "en")
    client.post(f"{PAGES}new/", {"name": "Late piles", "abilities": OTHER_NINE, "visibility": "private"})
    setup = SavedSetup.objects.get()
    form = client.get(f"/games/endbreaker/compare/setups/?setup={setup.pk}").content.decode()
    assert "Late piles" in form
    started = client.post(
        "/games/endbreaker/compare/setups/",
        {
            "strategy": "big_darc",
            "setup1": "default",
            "setup2": str(setup.pk),
            "opponent1": "build_then_resolve",
            "games": 24,
        },
    )
    run = ComparisonRun.objects.get()
    assert started.status_code == 302 and run.status == "done"
    assert run.strategies == ["big_darc", "big_darc"] and run.opponents == ["build_then_resolve"]
    assert run.setup_names == ["The first piles by card number", "Late piles"]
    assert [card["key"] for card in run.setups[1]["abilities"]] == OTHER_NINE
    rows = run.result["strategies"]
    assert [row["games"] for row in rows] == [24, 24]
    for row in rows:
        low, high = row["interval"]
        assert low <= row["win_rate"] <= high
    report = client.get(started["Location"]).content.decode()
    assert "Late piles" in report and "Opponents" in report
    assert client.post(f"/games/endbreaker/play/sample/{run.pk}/50/").status_code == 302
    sample = SeatedGame.objects.get()
    assert "build_then_resolve" in sample.seats and sample.person is None


def test_the_api_compares_one_strategy_on_two_set_ups_and_names_what_is_wrong(
    whole_game_pool, owner, other, immediate_tasks
):
    from rest_framework.test import APIClient

    signed_in(owner, None).post(f"{PAGES}new/", {"name": "Late", "abilities": OTHER_NINE, "visibility": "private"})
    setup = SavedSetup.objects.get()
    api = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    api.force_authenticate(owner)
    url = "/api/games/endbreaker/comparisons/"
    body = {"strategies": ["big_darc"], "setups": ["default", str(setup.pk)], "opponents": ["big_darc"], "games": 12}
    created = api.post(url, body, format="json")
    assert created.status_code == 201, created.json()
    assert created.json()["setup_names"] == ["The first piles by card number", "Late"]
    theirs = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    theirs.force_authenticate(other)
    refused = theirs.post(url, {**body, "strategies": ["big_darc", "big_darc"]}, format="json")
    assert refused.status_code == 400
    assert {"setups[1]", "strategies"} <= set(refused.json()["errors"])
    assert ComparisonRun.objects.count() == 1
