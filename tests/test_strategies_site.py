"""Strategies players write for エンドブレイカー！SCG's whole game, on the site and through the API:
the editor with the server's verdict by line in the reader's language, saving only what the engine
reads, sharing like a deck (private, by link, public), and comparing a written strategy with intervals, the run
keeping the text it started with.

Every card is synthetic (the pool of tests/test_endbreaker_compare_site.py).
"""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from simulator.models import ComparisonRun, WrittenStrategy

from .support.clients import signed_in

COMPARE = "/simulator/games/endbreaker/compare/"

PAGES = "/simulator/games/endbreaker/strategies/"
API = "/api/simulator/games/endbreaker/strategies/"
GOOD = "gain EB9-912 if turn <= 3\ngain テスト特技1  # by its name\ngain *\nresolve if nothing to gain\n"
BAD = "gain *\ngain EB9-999\nresolve sometimes\n"


def write(client, **data):
    body = {"name": "Mine", "text": GOOD, "description": "", "visibility": "private", **data}
    return client.post(f"{PAGES}new/", body)


def test_the_editor_checks_the_text_as_one_types_naming_each_problem_by_line_in_the_readers_language(
    whole_game_pool, owner
):
    client = signed_in(owner, "ja")
    editor = client.get(f"{PAGES}new/").content.decode()
    assert "gain *" in editor  # starts from a shipped strategy
    assert "EB9-912" in editor and "テスト特技2" in editor  # the cards a gain line may name
    assert "手札３枚までを好きに割り振って" in editor  # the choices, as printed
    verdict = client.post(f"{PAGES}check/", {"text": BAD}, HTTP_HX_REQUEST="true").content.decode()
    assert "2 行目: 「EB9-999」はこのゲームのカードではありません。" in verdict and "3 行目" in verdict
    assert "Line" not in verdict
    english = signed_in(owner, "en")
    verdict = english.post(f"{PAGES}check/", {"text": BAD}).content.decode()
    assert "Line 2: “EB9-999” is not a card of this game." in verdict
    assert "without a problem" in english.post(f"{PAGES}check/", {"text": GOOD}).content.decode()


def test_a_strategy_with_problems_is_not_saved_and_a_good_one_is(whole_game_pool, owner):
    client = signed_in(owner, "en")
    refused = write(client, text=BAD)
    assert refused.status_code == 400 and WrittenStrategy.objects.count() == 0
    assert "Line 3: “sometimes”" in refused.content.decode()
    saved = write(client)
    strategy = WrittenStrategy.objects.get()
    assert saved.status_code == 302 and saved["Location"] == f"{PAGES}{strategy.pk}/"
    assert strategy.text == GOOD and strategy.owner == owner
    page = client.get(saved["Location"]).content.decode()
    assert "Mine" in page and "gain EB9-912 if turn &lt;= 3" in page


def test_anonymous_cannot_write(whole_game_pool):
    answer = write(Client())
    assert answer.status_code == 302 and "/login" in answer["Location"]
    assert WrittenStrategy.objects.count() == 0


def test_sharing_is_a_decks_private_by_link_public(whole_game_pool, owner, other):
    mine = signed_in(owner, "en")
    write(mine, name="Secret")
    strategy = WrittenStrategy.objects.get()
    theirs = signed_in(other, "en")
    assert theirs.get(f"{PAGES}{strategy.pk}/").status_code == 404
    assert "Secret" not in theirs.get(PAGES).content.decode()
    assert (
        theirs.post(f"{PAGES}{strategy.pk}/edit/", {"name": "x", "text": GOOD, "visibility": "public"}).status_code
        == 404
    )

    mine.post(f"{PAGES}{strategy.pk}/edit/", {"name": "Secret", "text": GOOD, "visibility": "link"})
    strategy.refresh_from_db()
    assert strategy.visibility == "link"
    assert theirs.get(f"{PAGES}shared/{strategy.share_token}/").status_code == 200
    assert "Secret" not in theirs.get(PAGES).content.decode()  # a link is not a listing
    old = strategy.share_token
    mine.post(f"{PAGES}{strategy.pk}/link/")
    assert theirs.get(f"{PAGES}shared/{old}/").status_code == 404

    mine.post(f"{PAGES}{strategy.pk}/edit/", {"name": "Secret", "text": GOOD, "visibility": "public"})
    assert "Secret" in theirs.get(PAGES).content.decode()
    assert theirs.post(f"{PAGES}{strategy.pk}/edit/", {"name": "x", "text": GOOD}).status_code == 403
    assert theirs.post(f"{PAGES}{strategy.pk}/delete/", {"confirm": "yes"}).status_code == 403
    copied = theirs.get(f"{PAGES}new/?copy={strategy.pk}").content.decode()
    assert "gain EB9-912 if turn &lt;= 3" in copied


def test_a_written_strategy_is_compared_with_intervals_and_the_run_keeps_the_text_it_started_with(
    whole_game_pool, owner, immediate_tasks
):
    client = signed_in(owner, "en")
    write(client, name="My rush", text="gain *\nresolve always\nthorn fewest\n")
    strategy = WrittenStrategy.objects.get()
    form = client.get(f"{COMPARE}?strategy={strategy.reference}").content.decode()
    assert f'value="{strategy.reference}" selected' in form
    started = client.post(COMPARE, {"seat1": strategy.reference, "seat2": "big_darc", "games": 24})
    run = ComparisonRun.objects.get()
    assert started.status_code == 302 and run.status == "done"
    assert run.strategies == [strategy.reference, "big_darc"]
    assert run.written[strategy.reference]["name"] == "My rush"
    rows = {row["strategy"]: row for row in run.result["strategies"]}
    low, high = rows[strategy.reference]["interval"]
    assert low <= rows[strategy.reference]["win_rate"] <= high
    report = client.get(started["Location"]).content.decode()
    assert "My rush" in report

    client.post(f"{PAGES}{strategy.pk}/delete/", {"confirm": "yes"})
    assert WrittenStrategy.objects.count() == 0
    run.refresh_from_db()
    assert "My rush" in client.get(started["Location"]).content.decode()  # the run keeps its text


def test_another_users_private_strategy_cannot_be_compared(whole_game_pool, owner, other, immediate_tasks):
    write(signed_in(owner, None), name="Secret")
    strategy = WrittenStrategy.objects.get()
    theirs = signed_in(other, "en")
    answer = theirs.post(COMPARE, {"seat1": strategy.reference, "seat2": "big_darc", "games": 24})
    assert answer.status_code == 400 and ComparisonRun.objects.count() == 0
    api = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    api.force_authenticate(other)
    body = {"strategies": [strategy.reference, "big_darc"], "games": 24}
    refused = api.post("/api/simulator/games/endbreaker/comparisons/", body, format="json")
    assert refused.status_code == 400 and strategy.reference in str(refused.json()["errors"]["strategies[0]"])
    assert ComparisonRun.objects.count() == 0


def test_the_api_writes_checks_shares_and_compares(whole_game_pool, owner, other, immediate_tasks):
    api = APIClient(HTTP_ACCEPT_LANGUAGE="zh-hant")
    api.force_authenticate(owner)
    refused = api.post(API, {"name": "Mine", "text": BAD}, format="json")
    assert refused.status_code == 400 and WrittenStrategy.objects.count() == 0
    assert any("第 2 行" in message for message in refused.json()["errors"]["text"])
    checked = api.post(f"{API}check/", {"text": GOOD}, format="json").json()
    assert checked == {"ok": True, "problems": []}
    created = api.post(API, {"name": "Mine", "text": GOOD, "visibility": "link"}, format="json")
    assert created.status_code == 201
    body = created.json()
    assert body["reference"] == f"written:{body['id']}" and body["share_token"]

    theirs = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    theirs.force_authenticate(other)
    assert theirs.get(body["url"]).status_code == 404
    shared = theirs.get(body["url"], {"token": body["share_token"]}).json()
    assert shared["text"] == GOOD and shared["share_token"] is None
    assert theirs.patch(body["url"], {"name": "x"}, format="json").status_code == 404
    assert theirs.get(API).json() == []
    compared = theirs.post(
        "/api/simulator/games/endbreaker/comparisons/",
        {"strategies": [f"{body['reference']}:{body['share_token']}", "big_darc"], "games": 24},
        format="json",
    )
    assert compared.status_code == 201 and compared.json()["strategies"] == [body["reference"], "big_darc"]

    changed = api.patch(body["url"], {"text": "gain *\nthorn left\n"}, format="json")
    assert changed.status_code == 400 and WrittenStrategy.objects.get().text == GOOD
    assert api.delete(body["url"]).status_code == 204
    assert WrittenStrategy.objects.count() == 0


@pytest.mark.parametrize("language, expected", [("ja", "戦略"), ("zh-hant", "策略"), ("en", "Strategies")])
def test_the_strategy_pages_speak_the_readers_language(whole_game_pool, owner, language, expected):
    client = signed_in(owner, language)
    page = client.get(PAGES).content.decode()
    assert expected in page
    editor = client.get(f"{PAGES}new/").content.decode()
    if language != "en":
        assert "How a strategy is written" not in editor
