"""A seated エンドブレイカー！SCG game's answer or take-back is never applied to a state the player did not see: a
double tap, a second tab or a program that retries sends the number of answers it saw (``answered``), and once
the game has moved on the change is refused (409 ``stale_state``, in the reader's language) and nothing changes.
Seed 11 with the synthetic pool of tests/support/endbreaker_pool.py: the first choice offers 星霊術士, 狩猟者 and
城塞騎士, and after any of them the next choice offers the other two again (星霊術士 too: two are in the hand), so
an answer sent twice, or from an older page, would otherwise be taken as an answer to the next choice."""

from __future__ import annotations

import pytest
from django.http import Http404
from rest_framework.test import APIClient

from simulator.models import SeatedGame
from simulator.seated import services as seated_services

from .support.clients import signed_in

PAGES = "/simulator/games/endbreaker/play/"
API = "/api/simulator/games/endbreaker/plays/"
MOVED_ON = {
    "en": "The game has moved on since you looked at it",
    "ja": "前に見たときからゲームが進んでいます",
}

pytestmark = pytest.mark.usefixtures("whole_game_pool")


def api_of(user, language: str = "en") -> APIClient:
    api = APIClient(HTTP_ACCEPT_LANGUAGE=language)
    api.force_authenticate(user)
    return api


def started_api(api: APIClient) -> dict:
    response = api.post(API, {"seats": ["person", "big_darc"], "seed": 11}, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def started_page(user, language: str = "en"):
    """The owner's client and the game's page address, the game on seed 11 (the page starts it on its own seed)."""
    client = signed_in(user, language)
    client.post(PAGES, {"seat1": "person", "seat2": "big_darc"})
    seated = SeatedGame.objects.get()
    seated.seed = 11
    seated.save()
    return client, f"{PAGES}{seated.pk}/"


def options(state: dict) -> list[str]:
    return [option["value"] for option in state["pending"]["options"]]


def answers() -> list[str]:
    return SeatedGame.objects.get().answers


def body(response) -> str:
    return response.content.decode().split("</head>", 1)[1]


def answer(api: APIClient, state: dict, value: str, answered: int | None):
    sent = {"answer": value} if answered is None else {"answer": value, "answered": answered}
    return api.post(f"{state['url']}answers/", sent, format="json")


# --- the API ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("language", ["en", "ja"])
def test_an_answer_sent_twice_through_the_api_is_applied_once(owner, language):
    api = api_of(owner, language)
    state = started_api(api)
    first = options(state)[0]
    assert first == "星霊術士"
    applied = answer(api, state, first, state["answered"])
    assert applied.status_code == 200 and applied.json()["answers"] == [first]
    assert first in options(applied.json())  # the next choice offers it again: the retry would be taken
    again = answer(api, state, first, state["answered"])  # the retry, with the state it was made from
    assert again.status_code == 409 and again.json()["code"] == "stale_state"
    assert again.json()["detail"].startswith(MOVED_ON[language])
    assert answers() == [first]


def test_an_answer_from_a_second_program_that_read_the_same_state_is_refused(owner):
    api = api_of(owner)
    state = started_api(api)
    hunter, knight = "狩猟者", "城塞騎士"
    assert answer(api, state, hunter, state["answered"]).status_code == 200
    other = answer(api, state, knight, state["answered"])  # read before the first answered; 城塞騎士 still offered
    assert other.status_code == 409 and other.json()["code"] == "stale_state"
    assert answers() == [hunter]


def test_an_answer_without_answered_still_works_as_before(owner):
    # programs written before ``answered`` keep working; the documentation asks them to send it
    api = api_of(owner)
    state = started_api(api)
    first = options(state)[0]
    assert answer(api, state, first, None).status_code == 200
    assert answer(api, state, first, None).status_code == 200  # unchecked: the caller did not say what it saw
    assert answers() == [first, first]


def test_the_answer_that_matches_the_game_is_applied(owner):
    api = api_of(owner)
    state = answer(api, started_api(api), "星霊術士", 0).json()
    assert state["answered"] == 1
    assert answer(api, state, "狩猟者", state["answered"]).status_code == 200
    assert answers() == ["星霊術士", "狩猟者"]


@pytest.mark.parametrize("language", ["en", "ja"])
def test_an_undo_sent_twice_through_the_api_takes_back_one_answer(owner, language):
    api = api_of(owner, language)
    state = answer(api, started_api(api), "星霊術士", 0).json()
    state = answer(api, state, "狩猟者", 1).json()
    undo = f"{state['url']}undo/"
    assert api.post(undo, {"answered": state["answered"]}, format="json").status_code == 200
    again = api.post(undo, {"answered": state["answered"]}, format="json")
    assert again.status_code == 409 and again.json()["code"] == "stale_state"
    assert again.json()["detail"].startswith(MOVED_ON[language])
    assert answers() == ["星霊術士"]


def test_an_undo_without_answered_still_works_as_before(owner):
    api = api_of(owner)
    state = answer(api, started_api(api), "星霊術士", 0).json()
    assert api.post(f"{state['url']}undo/").status_code == 200
    assert answers() == []
    nothing = api.post(f"{state['url']}undo/")
    assert nothing.status_code == 409 and nothing.json()["code"] == "nothing_to_take_back"


def test_an_undo_takes_back_the_last_answer_the_game_used(owner):
    # an answer kept under an earlier version of the game's choices was never applied: taking it back would
    # change nothing the player sees, so the one before it goes
    api = api_of(owner)
    state = answer(api, started_api(api), "星霊術士", 0).json()
    SeatedGame.objects.update(answers=["星霊術士", "an answer this version never offers"])
    assert api.get(state["url"]).json()["answered"] == 1
    undone = api.post(f"{state['url']}undo/", {"answered": 1}, format="json")
    assert undone.status_code == 200 and undone.json()["answered"] == 0
    assert answers() == []


def test_another_persons_answer_or_undo_is_404(owner, other):
    state = answer(api_of(owner), started_api(api_of(owner)), "星霊術士", 0).json()
    assert answer(api_of(other), state, "狩猟者", 1).status_code == 404
    assert api_of(other).post(f"{state['url']}undo/", {"answered": 1}, format="json").status_code == 404
    assert answers() == ["星霊術士"]


def test_the_services_themselves_refuse_someone_elses_game(owner, other):
    # whoever calls them (the page, the API, anything later), the owner check is the services' own
    state = answer(api_of(owner), started_api(api_of(owner)), "星霊術士", 0).json()
    with pytest.raises(Http404):
        seated_services.answer(other, state["id"], "狩猟者", seen=1)
    with pytest.raises(Http404):
        seated_services.take_back(other, state["id"], seen=1)
    assert answers() == ["星霊術士"]


# --- the page -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("language", ["en", "ja"])
def test_an_answer_submitted_twice_on_the_page_is_applied_once(owner, language):
    client, url = started_page(owner, language)
    page = client.get(url).content.decode()
    assert 'name="answered" value="0"' in page  # the answer form says what it was made with
    assert client.post(url, {"answer": "星霊術士", "answered": "0"}).status_code == 302
    again = client.post(url, {"answer": "星霊術士", "answered": "0"})  # the double tap
    assert again.status_code == 409 and MOVED_ON[language] in body(again)
    assert answers() == ["星霊術士"]
    assert 'name="answered" value="1"' in body(again)  # the refusal shows the game as it is now, to answer again


def test_an_answer_from_a_second_tab_is_refused_on_the_page(owner):
    client, url = started_page(owner)
    first_tab = client.get(url).content.decode()
    second_tab = client.get(url).content.decode()
    assert 'name="answered" value="0"' in first_tab and 'name="answered" value="0"' in second_tab
    assert client.post(url, {"answer": "狩猟者", "answered": "0"}).status_code == 302  # the first tab
    refused = client.post(url, {"answer": "城塞騎士", "answered": "0"})  # the second, still showing the first choice
    assert refused.status_code == 409 and MOVED_ON["en"] in body(refused)
    assert answers() == ["狩猟者"]


@pytest.mark.parametrize("language", ["en", "ja"])
def test_take_back_submitted_twice_on_the_page_takes_back_one_answer(owner, language):
    client, url = started_page(owner, language)
    client.post(url, {"answer": "星霊術士", "answered": "0"})
    client.post(url, {"answer": "狩猟者", "answered": "1"})
    page = client.get(url).content.decode()
    back = page.split(f'action="{url}back/"', 1)[1]
    assert back.split('name="answered" value="', 1)[1].startswith("2")  # the take-back form says it too
    assert client.post(f"{url}back/", {"answered": "2"}).status_code == 302
    again = client.post(f"{url}back/", {"answered": "2"})
    assert again.status_code == 409 and MOVED_ON[language] in body(again)
    assert answers() == ["星霊術士"]
