"""エンドブレイカー！SCG's "play my whole hand" on a seated game, on the page and through the API: the same service,
so the same refusals (a game that is not yours, a game that is over, a state that moved on, nothing to play).
Synthetic cards only (the pool of tests/support/endbreaker_pool.py)."""

from __future__ import annotations

import pytest
from django.http import Http404
from rest_framework.test import APIClient

from simulator.models import SeatedGame
from simulator.seated import services as seated_services

from .support.clients import signed_in

PAGES = "/simulator/games/endbreaker/play/"
API = "/api/simulator/games/endbreaker/plays/"

pytestmark = pytest.mark.usefixtures("whole_game_pool")


def api_of(user, language: str = "en") -> APIClient:
    api = APIClient(HTTP_ACCEPT_LANGUAGE=language)
    if user is not None:
        api.force_authenticate(user)
    return api


def started(api: APIClient, seats=("person", "big_darc")) -> dict:
    """A game with a fixed seed whose first choice is a play from the hand (seed 11, as the page's test)."""
    response = api.post(API, {"seats": list(seats), "seed": 11}, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def play_hand(api: APIClient, state: dict, answered: int | None = None):
    seen = state["answered"] if answered is None else answered
    return api.post(f"{state['url']}play-hand/", {"answered": seen}, format="json")


def hand_options(state: dict) -> list[str]:
    return [option["value"] for option in state["pending"]["options"] if option["value"] != "stop"]


# --- the API ------------------------------------------------------------------------------------------


def test_the_api_plays_the_whole_hand_each_card_its_own_answer(owner):
    api = api_of(owner)
    state = started(api)
    assert state["pending"]["kind"] == "play" and state["answered"] == 0
    first = hand_options(state)[0]
    played = play_hand(api, state)
    assert played.status_code == 200, played.json()
    after = played.json()
    assert len(after["answers"]) > 1 and after["answers"][0] == first and "stop" not in after["answers"]
    assert after["answered"] == len(after["answers"])
    assert SeatedGame.objects.get().answers == after["answers"]
    # it stopped at another question, or where only stopping is left
    pending = after["pending"]
    assert pending is None or pending["kind"] != "play" or not hand_options(after)
    undone = api.post(f"{state['url']}undo/").json()
    assert undone["answers"] == after["answers"][:-1]  # one card taken back, not the whole hand


def test_the_api_refuses_a_state_that_moved_on_and_plays_nothing(owner):
    api = api_of(owner)
    state = started(api)
    answered = api.post(f"{state['url']}answers/", {"answer": hand_options(state)[0]}, format="json")
    assert answered.status_code == 200
    refused = play_hand(api, state)  # made from the state before that answer
    assert refused.status_code == 409 and refused.json()["code"] == "stale_state"
    assert "moved on" in refused.json()["detail"]
    assert SeatedGame.objects.get().answers == answered.json()["answers"]


def test_the_api_refuses_a_game_that_is_over(owner):
    api = api_of(owner)
    state = started(api, seats=("big_darc", "skill_engine"))  # strategies only: played to its end at once
    assert state["table"]["over"] and state["winners"]
    refused = play_hand(api, state)
    assert refused.status_code == 409 and refused.json()["code"] == "game_over"
    assert refused.json()["detail"] == "The game is over."


def test_the_api_refuses_when_no_card_can_be_played_now(owner):
    api = api_of(owner)
    state = play_hand(api, started(api)).json()
    refused = play_hand(api, state)
    assert refused.status_code == 409 and refused.json()["code"] == "nothing_to_play"
    assert SeatedGame.objects.get().answers == state["answers"]


def test_someone_elses_game_is_404_and_without_credentials_401(owner, other):
    state = started(api_of(owner))
    refused = play_hand(api_of(other), state)
    assert refused.status_code == 404
    assert play_hand(api_of(None), state).status_code == 401
    assert SeatedGame.objects.get().answers == []


def test_someone_elses_game_is_404_before_the_body_is_read(owner, other):
    # as answers and undo: a body's problems are not told about a game that is not the caller's
    state = started(api_of(owner))
    refused = api_of(other).post(f"{state['url']}play-hand/", {"answered": "many"}, format="json")
    assert refused.status_code == 404
    assert SeatedGame.objects.get().answers == []


def test_the_service_itself_refuses_someone_elses_game(owner, other):
    # whoever calls it (the page, the API, anything later), the owner check is the service's own
    state = started(api_of(owner))
    with pytest.raises(Http404):
        seated_services.play_hand(other, state["id"])
    assert SeatedGame.objects.get().answers == []


def test_the_api_refuses_a_body_without_answered(owner):
    api = api_of(owner)
    state = started(api)
    refused = api.post(f"{state['url']}play-hand/", {}, format="json")
    assert refused.status_code == 400 and "answered" in refused.json()["errors"]
    assert SeatedGame.objects.get().answers == []


def test_the_refusals_are_in_the_readers_language(owner):
    api = api_of(owner, "ja")
    state = started(api, seats=("big_darc", "skill_engine"))
    assert play_hand(api, state).json()["detail"] == "ゲームは終了しました。"


# --- the page -----------------------------------------------------------------------------------------


def test_the_page_sends_what_it_showed_and_is_refused_once_the_game_moved_on(owner):
    client = signed_in(owner)
    client.post(PAGES, {"seat1": "person", "seat2": "big_darc"})
    seated = SeatedGame.objects.get()
    seated.seed = 11
    seated.save()
    url = f"{PAGES}{seated.pk}/"
    page = client.get(url).content.decode()
    assert 'name="answered" value="0"' in page
    # another tab answered meanwhile: this page's "play my whole hand" is refused, nothing played
    first = page.split('name="answer" value="', 1)[1].split('"', 1)[0]
    assert client.post(url, {"answer": first}).status_code == 302
    refused = client.post(url, {"play_hand": "1", "answered": "0"})
    assert refused.status_code == 409 and "moved on" in refused.content.decode()
    seated.refresh_from_db()
    assert seated.answers == [first]
    assert client.post(url, {"play_hand": "1", "answered": "1"}).status_code == 302
    seated.refresh_from_db()
    assert len(seated.answers) > 1


def test_the_page_refuses_a_game_that_is_over(owner):
    client = signed_in(owner)
    client.post(PAGES, {"seat1": "big_darc", "seat2": "skill_engine"})
    seated = SeatedGame.objects.get()
    refused = client.post(f"{PAGES}{seated.pk}/", {"play_hand": "1"})
    assert refused.status_code == 409 and "The game is over." in refused.content.decode()


def test_the_page_is_404_for_someone_elses_game(owner, other):
    signed_in(owner).post(PAGES, {"seat1": "person", "seat2": "big_darc"})
    seated = SeatedGame.objects.get()
    assert signed_in(other).post(f"{PAGES}{seated.pk}/", {"play_hand": "1"}).status_code == 404
