"""Whole games played one choice at a time on the site and through the API: a person takes a
seat and strategies play the others, to the end; a comparison's sample games watched turn by turn. A played
game is its owner's alone. Synthetic cards only (the pool of tests/test_endbreaker_compare_site.py)."""

from __future__ import annotations

import re

import pytest
from rest_framework.test import APIClient

from simulator.models import ComparisonRun, SeatedGame

from .support.clients import signed_in

COMPARE = "/simulator/games/endbreaker/compare/"

PAGES = "/simulator/games/endbreaker/play/"
API = "/api/simulator/games/endbreaker/plays/"


def test_a_person_takes_a_seat_and_answers_the_games_choices_on_the_page(whole_game_pool, owner, other):
    client = signed_in(owner, "en")
    assert "Seat 1" in client.get(PAGES).content.decode()
    started = client.post(PAGES, {"seat1": "person", "seat2": "big_darc"})
    seated = SeatedGame.objects.get()
    assert started.status_code == 302 and seated.seats == ["person", "big_darc"] and seated.person == 0
    page = client.get(started["Location"]).content.decode()
    assert 'name="answer"' in page and "The table" in page and "You" in page
    first = seated.answers
    wrong = client.post(f"{PAGES}{seated.pk}/", {"answer": "EB9-999"})
    assert wrong.status_code == 400 and "“EB9-999” is not one of the choices" in wrong.content.decode()
    seated.refresh_from_db()
    assert seated.answers == first
    option = page.split('name="answer" value="', 1)[1].split('"', 1)[0]
    assert client.post(f"{PAGES}{seated.pk}/", {"answer": option}).status_code == 302
    seated.refresh_from_db()
    assert seated.answers == [option]
    client.post(f"{PAGES}{seated.pk}/back/")
    seated.refresh_from_db()
    assert seated.answers == []
    theirs = signed_in(other, None)
    assert theirs.get(f"{PAGES}{seated.pk}/").status_code == 404
    assert theirs.post(f"{PAGES}{seated.pk}/", {"answer": option}).status_code == 404


def test_two_people_cannot_share_a_table(whole_game_pool, owner):
    client = signed_in(owner, "en")
    answer = client.post(PAGES, {"seat1": "person", "seat2": "person"})
    assert answer.status_code == 400 and "one seat only" in answer.content.decode()
    assert SeatedGame.objects.count() == 0


@pytest.mark.parametrize("seats", [["person"], ["person", "big_darc", "skill_engine", "scenario_rush"]])
def test_a_whole_game_is_played_to_its_end_through_the_api(whole_game_pool, owner, seats):
    api = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    api.force_authenticate(owner)
    state = api.post(API, {"seats": seats, "seed": 11}, format="json").json()
    answers = 0
    while state["pending"] is not None:
        options = [option["value"] for option in state["pending"]["options"]]
        choice = "resolve" if "resolve" in options else options[0]  # always play or gain the first offered
        answered = api.post(f"{state['url']}answers/", {"answer": choice}, format="json")
        assert answered.status_code == 200, answered.json()
        state = answered.json()
        answers += 1
        assert answers < 2000
    assert state["winners"] and state["table"]["over"]
    assert state["table"]["battles"] == 3 or state["table"]["stopped"]
    assert len(state["table"]["players"]) == len(seats)
    again = api.post(f"{state['url']}answers/", {"answer": "stop"}, format="json")
    assert again.status_code == 409 and again.json()["code"] == "nothing_to_answer"


def test_the_api_refuses_bad_seats_naming_the_seat(whole_game_pool, owner, other):
    api = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    api.force_authenticate(owner)
    refused = api.post(API, {"seats": ["person", "no_such"]}, format="json")
    assert refused.status_code == 400 and "seats[1]" in refused.json()["errors"]
    assert api.post(API, {"seats": []}, format="json").status_code == 400
    assert SeatedGame.objects.count() == 0
    created = api.post(API, {"seats": ["person", "big_darc"]}, format="json").json()
    theirs = APIClient()
    theirs.force_authenticate(other)
    assert theirs.get(created["url"]).status_code == 404


def test_a_comparisons_sample_games_are_watched_turn_by_turn(whole_game_pool, owner, immediate_tasks):
    client = signed_in(owner, "en")
    client.post(COMPARE, {"seat1": "big_darc", "seat2": "build_then_resolve", "games": 24})
    run = ComparisonRun.objects.get()
    report = client.get(f"{COMPARE}{run.pk}/").content.decode()
    assert "Sample games" in report and "50th percentile of length" in report
    opened = client.post(f"{PAGES}sample/{run.pk}/50/")
    seated = SeatedGame.objects.get()
    assert opened.status_code == 302 and seated.person is None and seated.source["percentile"] == 50
    median = run.result["length_percentiles"]["50"]
    last = client.get(f"{PAGES}{seated.pk}/").content.decode()
    assert f"Turn {median} of {median}" in last and "The game is over" in last
    first = client.get(f"{PAGES}{seated.pk}/?turn=1").content.decode()
    assert f"Turn 1 of {median}" in first and 'rel="next"' in first


def test_the_choice_is_asked_in_the_readers_language(whole_game_pool, owner):
    from simulator.fullgames.endbreaker import CHOICE_WORDS

    client = signed_in(owner, "ja")
    client.post(PAGES, {"seat1": "person", "seat2": "big_darc"})
    seated = SeatedGame.objects.get()
    for _ in range(12):  # a few choices of different kinds
        page = client.get(f"{PAGES}{seated.pk}/").content.decode()
        prompt = page.split('id="choice-prompt">', 1)[1].split("</h2>", 1)[0]
        # What the reader sees: the text between tags (a random CSRF token in an attribute may spell "No").
        # The inlined stylesheet is not shown either (its font names spell "No").
        shown = re.sub(r"<[^>]*>", " ", re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S))
        leaked = [words["en"] for words in CHOICE_WORDS.values() if words["en"][0] != "{"]
        assert not [text for text in leaked if text.split("{")[0] in shown]
        assert any(words["ja"].split("{")[0] in prompt for words in CHOICE_WORDS.values()), prompt
        option = page.split('name="answer" value="', 1)[1].split('"', 1)[0]
        client.post(f"{PAGES}{seated.pk}/", {"answer": option})


def test_the_seated_page_shows_the_skill_pool_each_hand_cards_skill_cost_and_text_and_short_seat_names(
    whole_game_pool, owner
):
    client = signed_in(owner)
    client.post(PAGES, {"seat1": "person", "seat2": "big_darc"})
    seated = SeatedGame.objects.get()
    page = client.get(f"{PAGES}{seated.pk}/").content.decode()
    assert "Your skill pool now" in page
    hand = page.split('class="seated-hand">', 1)[1].split("</ul>", 1)[0]
    assert "テスト用の架空のカード。" in hand and "skill" in hand and "cost" in hand
    for _ in range(40):  # play on until the strategy's seat has logged something
        option = page.split('name="answer" value="', 1)[1].split('"', 1)[0]
        client.post(f"{PAGES}{seated.pk}/", {"answer": option})
        page = client.get(f"{PAGES}{seated.pk}/").content.decode()
        if "<td>Big darc</td>" in page:
            break
    assert "<td>Big darc</td>" in page and "<td>Big darc (resolve" not in page


def test_answers_kept_before_the_games_choices_changed_replay_up_to_the_first_that_no_longer_fits(
    whole_game_pool, owner
):
    client = signed_in(owner)
    client.post(PAGES, {"seat1": "person", "seat2": "big_darc"})
    seated = SeatedGame.objects.get()
    seated.answers = ["an answer this version never offers", "stop"]
    seated.save()
    page = client.get(f"{PAGES}{seated.pk}/")
    assert page.status_code == 200 and 'name="answer"' in page.content.decode()
    option = page.content.decode().split('name="answer" value="', 1)[1].split('"', 1)[0]
    assert client.post(f"{PAGES}{seated.pk}/", {"answer": option}).status_code == 302
    seated.refresh_from_db()
    assert seated.answers == [option]


def test_each_gain_shows_the_cards_cost_and_the_end_says_the_third_battle_ended_the_game(whole_game_pool, owner):
    from simulator.seated.selectors import advanced
    from simulator.shared.selectors import fullgame_or_404

    client = signed_in(owner)
    client.post(PAGES, {"seat1": "person", "seat2": "big_darc"})
    seated = SeatedGame.objects.get()
    seated.seed = 11  # a game that reaches its third battle
    seated.save()
    url = f"{PAGES}{seated.pk}/"
    page = ""
    for _ in range(60):  # on the page, until a gain is asked: every card offered with its cost
        page = client.get(url).content.decode()
        kind = page.split('data-kind="', 1)[1].split('"', 1)[0]
        options = re.findall(r'name="answer" value="([^"]*)"[^>]*>(.*?)</button>', page, flags=re.S)
        if kind == "gain":
            break
        values = [value for value, _label in options]
        client.post(url, {"answer": "gain" if "gain" in values else values[0]})
    assert kind == "gain", "no gain was asked"
    cards = [label for value, label in options if value != "stop"]
    assert cards and all(re.search(r"cost [PTSB●]+", label) for label in cards), cards
    # The rest of the game answered at once (resolve whenever the skills pay, else the first option).
    _game, fullgame = fullgame_or_404("endbreaker")
    seated.refresh_from_db()
    while (pending := advanced(seated, fullgame).pending) is not None:
        seated.answers.append("resolve" if "resolve" in pending.options else pending.options[0])
    seated.save()
    over = client.get(url).content.decode().split('id="game-over"', 1)[1].split("</section>", 1)[0]
    assert "The third battle ended the game in turn" in over and "turn limit" not in over, over


def test_play_my_whole_hand_plays_card_after_card_until_the_game_asks_anything_else(whole_game_pool, owner):
    client = signed_in(owner)
    client.post(PAGES, {"seat1": "person", "seat2": "big_darc"})
    seated = SeatedGame.objects.get()
    seated.seed = 11
    seated.save()
    url = f"{PAGES}{seated.pk}/"
    page = client.get(url).content.decode()
    assert 'data-kind="play"' in page and "Play my whole hand" in page
    hand = re.findall(r'name="answer" value="([^"]*)"', page)[:-1]
    assert client.post(url, {"play_hand": "1"}).status_code == 302
    seated.refresh_from_db()
    assert len(seated.answers) > 1 and seated.answers[0] == hand[0] and "stop" not in seated.answers
    page = client.get(url).content.decode()
    kind = page.split('data-kind="', 1)[1].split('"', 1)[0]
    assert kind != "play" or "Play my whole hand" not in page, kind  # asked something else, or only "stop" left
    client.post(f"{PAGES}{seated.pk}/back/")  # one card taken back, not the whole hand
    played = len(seated.answers)
    seated.refresh_from_db()
    assert len(seated.answers) == played - 1
