"""What a real service needs: rate limits (429 with Retry-After), a lock on user names that fail to log
in too often, run quotas, size limits on what users send, API tokens that expire and can be revoked,
share links that can be replaced, and runs that follow their deck's visibility."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from knox.models import AuthToken

from accounts import services as account_services
from decks import services as deck_services
from decks.api.serializers import MAX_ENTRIES
from decks.decklist import MAX_LINES
from decks.models import Deck
from decks.services import MAX_DESCRIPTION_LENGTH
from simulator.goldfish import services as sim_services
from simulator.models import SimulationRun

from .support.limits import suikoden_deck
from .synthetic_decks import card, game

pytestmark = pytest.mark.usefixtures("cards")

PASSWORD = "correct-horse-battery-42"
DUMMY_TASKS = {"default": {"BACKEND": "django_tasks.backends.dummy.DummyBackend"}}


def make_user(name: str):
    return get_user_model().objects.create_user(name, password=PASSWORD)


def token_header(user) -> dict[str, str]:
    return {"HTTP_AUTHORIZATION": f"Token {account_services.token_create(user=user)[1]}"}


# --- rate limits ---------------------------------------------------------------------------------


def test_too_many_searches_are_answered_429_with_retry_after(settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "search": "3/min"}
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    for _ in range(3):
        assert client.get("/api/cards/", {"q": "テスト"}).status_code == 200
    refused = client.get("/api/cards/", {"q": "テスト"})
    assert refused.status_code == 429
    assert int(refused["Retry-After"]) > 0
    page = client.get("/search/", {"q": "テスト"})
    assert page.status_code == 429 and int(page["Retry-After"]) > 0
    assert "Too many requests" in page.content.decode()
    # Another address has its own count.
    assert Client(REMOTE_ADDR="10.0.0.2").get("/api/cards/", {"q": "テスト"}).status_code == 200


def test_a_throttled_page_speaks_the_readers_language(settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "search": "1/min"}
    client = Client(HTTP_ACCEPT_LANGUAGE="ja")
    client.get("/search/", {"q": "テスト"})
    page = client.get("/search/", {"q": "テスト"})
    assert page.status_code == 429
    assert "Too many requests" not in page.content.decode()


def test_sign_ups_are_limited_per_address(settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "signup": "2/hour"}
    client = Client()
    for index in range(2):
        form = {"username": f"new{index}", "password1": PASSWORD, "password2": PASSWORD}
        assert Client().post("/accounts/signup/", form).status_code == 302
    form = {"username": "new9", "password1": PASSWORD, "password2": PASSWORD}
    assert client.post("/accounts/signup/", form).status_code == 429
    assert not get_user_model().objects.filter(username="new9").exists()


def test_deck_writes_are_limited_per_user(alice, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "deck_write": "2/min"}
    deck = suikoden_deck(alice)
    client = Client()
    client.force_login(alice)
    change = {"zone": "characters", "card": card("suikoden", "902").pk, "delta": 1}
    assert client.post(f"/decks/{deck.pk}/edit/entry/", change, HTTP_HX_REQUEST="true").status_code == 200
    body = {"entries": [{"zone": "characters", "card": "902", "count": 3}]}
    api = client.patch(f"/api/decks/{deck.pk}/entries/", json.dumps(body), content_type="application/json")
    assert api.status_code == 200
    refused = client.post(f"/decks/{deck.pk}/edit/entry/", change, HTTP_HX_REQUEST="true")
    assert refused.status_code == 429
    assert deck.entries.get(card__key="902").count == 3
    # Reading is not limited.
    assert client.get(f"/api/decks/{deck.pk}/").status_code == 200


# --- failed log-ins ------------------------------------------------------------------------------


def test_many_wrong_passwords_lock_the_user_name_even_for_the_right_one(alice, caplog):
    client = Client()
    for _ in range(4):
        response = client.post("/accounts/login/", {"username": "alice", "password": "wrong"})
        assert response.status_code == 200  # the form again
    # The fifth failure locks the user name for this address.
    assert client.post("/accounts/login/", {"username": "alice", "password": "wrong"}).status_code == 429
    locked = client.post("/accounts/login/", {"username": "alice", "password": PASSWORD})
    assert locked.status_code == 429
    assert int(locked["Retry-After"]) >= 60
    assert "_auth_user_id" not in client.session
    # The token endpoint shares the lock.
    token = client.post("/api/accounts/token/", {"username": "alice", "password": PASSWORD})
    assert token.status_code == 429
    assert not AuthToken.objects.exists()
    # Every failure was logged, with the user name and the address (never the password).
    failures = [record for record in caplog.records if record.getMessage() == "login failed"]
    assert len(failures) >= 5
    assert failures[0].username == "alice" and failures[0].client == "127.0.0.1"
    assert all("wrong" not in str(record.__dict__) for record in failures)


def test_another_address_can_still_log_in_while_one_is_locked(alice):
    for _ in range(5):
        Client().post("/accounts/login/", {"username": "alice", "password": "wrong"})
    other = Client(REMOTE_ADDR="10.0.0.9")
    assert other.post("/accounts/login/", {"username": "alice", "password": PASSWORD}).status_code == 302


def test_log_in_attempts_are_rate_limited_per_address(alice, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "login": "3/min"}
    client = Client()
    for index in range(3):
        client.post("/accounts/login/", {"username": f"nobody{index}", "password": "x"})
    assert client.post("/accounts/login/", {"username": "alice", "password": PASSWORD}).status_code == 429


# --- quotas and sizes ----------------------------------------------------------------------------


def test_a_user_may_have_only_so_many_runs_waiting(alice, settings):
    settings.TASKS = DUMMY_TASKS
    settings.MAX_ACTIVE_RUNS_PER_USER = 2
    deck = suikoden_deck(alice)
    client = Client()
    client.force_login(alice)
    url = f"/api/simulator/decks/{deck.pk}/simulations/"
    for _ in range(2):
        assert client.post(url, {"games": 1000}, content_type="application/json").status_code == 201
    refused = client.post(url, {"games": 1000}, content_type="application/json", HTTP_ACCEPT_LANGUAGE="en")
    assert refused.status_code == 429
    assert "2 runs waiting or running" in refused.json()["detail"]
    page = client.post(f"/simulator/decks/{deck.pk}/simulate/", {"games": 1000, "turns": 5, "policy": "default"})
    # The page answers as the API does: 429 with the wait, the form drawn again with the reason on it.
    assert page.status_code == 429 and int(page["Retry-After"]) > 0
    assert "2" in page.content.decode() and 'name="games"' in page.content.decode()
    assert SimulationRun.objects.count() == 2
    # A cancelled run frees its place.
    sim_services.cancel_run(SimulationRun.objects.first())
    assert client.post(url, {"games": 1000}, content_type="application/json").status_code == 201


def test_a_description_over_the_limit_is_refused_naming_it(alice):
    deck = suikoden_deck(alice)
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(alice)
    body = {"description": "x" * (MAX_DESCRIPTION_LENGTH + 1)}
    response = client.patch(f"/api/decks/{deck.pk}/", json.dumps(body), content_type="application/json")
    assert response.status_code == 400
    assert "10000" in json.dumps(response.json()) or "10,000" in json.dumps(response.json())
    deck.refresh_from_db()
    assert deck.description == ""


@pytest.mark.parametrize(("entries", "status"), [(MAX_ENTRIES + 1, 400), (38_000, 413)])
def test_an_entry_list_over_the_limit_is_refused_without_a_long_answer(entries, status):
    body = {
        "game": "suikoden",
        "entries": [{"zone": "characters", "card": f"x{i}", "count": 1} for i in range(entries)],
    }
    response = Client(HTTP_ACCEPT_LANGUAGE="en").post(
        "/api/decks/validate/", json.dumps(body), content_type="application/json"
    )
    assert response.status_code == status
    # The entry limit, or (38,000 entries: 413) the body size limit, named.
    assert str(MAX_ENTRIES) in json.dumps(response.json()) or "1 MB" in response.json()["detail"]
    assert len(response.content) < 2_000


def test_a_long_decklist_is_refused_and_its_answer_stays_small(alice):
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(alice)
    text = "\n".join(f"1 Unknown card {index}" for index in range(MAX_LINES + 50))
    response = client.post("/decks/import/", {"game": "suikoden", "name": "t", "text": text})
    assert response.status_code == 400
    assert f"at most {MAX_LINES} card lines" in response.content.decode()
    # The answer does not grow with what was sent (measured after the head, whose inlined stylesheet is fixed).
    assert len(response.content.decode().split("</head>", 1)[-1]) < 20_000
    # Within the limit, at most 50 problems are listed with their candidates; the rest are counted.
    text = "\n".join(f"1 Unknown card {index}" for index in range(MAX_LINES))
    response = client.post("/decks/import/", {"game": "suikoden", "name": "t", "text": text})
    body = response.content.decode()
    assert f"{MAX_LINES} problems" in body
    assert "…and 250 more problems, not listed" in body
    assert len(response.content) < 100_000
    assert not Deck.objects.exists()


# --- tokens --------------------------------------------------------------------------------------


def test_tokens_are_listed_and_revoked_by_their_owner(alice, bob):
    header = token_header(alice)
    second = token_header(alice)
    listed = Client().get("/api/accounts/tokens/", **header).json()
    assert len(listed) == 2 and sum(item["current"] for item in listed) == 1
    victim = next(item for item in listed if not item["current"])
    # Bob cannot revoke Alice's token.
    assert Client().delete(f"/api/accounts/tokens/{victim['token_key']}/", **token_header(bob)).status_code == 404
    assert Client().delete(f"/api/accounts/tokens/{victim['token_key']}/", **header).status_code == 204
    assert Client().get("/api/accounts/tokens/", **second).status_code == 401
    assert Client().get("/api/accounts/tokens/", **header).status_code == 200


def test_an_expired_token_no_longer_works(alice, settings):
    settings.REST_KNOX = {**settings.REST_KNOX, "TOKEN_TTL": timedelta(seconds=-1)}
    header = token_header(alice)
    assert Client().get("/api/accounts/tokens/", **header).status_code == 401


def test_a_password_change_revokes_every_token(alice):
    header = token_header(alice)
    client = Client()
    client.force_login(alice)
    new = "another-horse-staple-77"
    response = client.post(
        "/accounts/password_change/", {"old_password": PASSWORD, "new_password1": new, "new_password2": new}
    )
    assert response.status_code == 302
    assert Client().get("/api/accounts/tokens/", **header).status_code == 401
    assert not AuthToken.objects.filter(user=alice).exists()
    # The session that changed it stays logged in.
    assert client.get("/accounts/tokens/").status_code == 200


def test_the_tokens_page_makes_shows_once_and_revokes(alice):
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(alice)
    made = client.post("/accounts/tokens/", {"action": "create"}).content.decode()
    token = AuthToken.objects.get(user=alice)
    assert token.token_key in made
    assert "not shown again" in made
    assert token.token_key in client.get("/accounts/tokens/").content.decode()
    client.post("/accounts/tokens/", {"action": "revoke", "token_key": token.token_key})
    assert not AuthToken.objects.filter(user=alice).exists()


# --- share links and runs ------------------------------------------------------------------------


def test_a_new_share_link_kills_the_old_one(alice):
    deck = suikoden_deck(alice, Deck.Visibility.LINK)
    old = deck.share_token
    assert Client().get(f"/decks/shared/{old}/").status_code == 200
    owner = Client()
    owner.force_login(alice)
    assert owner.post(f"/decks/{deck.pk}/share-link/").status_code == 302
    deck.refresh_from_db()
    assert deck.share_token != old
    assert Client().get(f"/decks/shared/{old}/").status_code == 404
    assert Client().get(f"/api/decks/{deck.pk}/", {"token": old}).status_code == 404
    assert Client().get(f"/decks/shared/{deck.share_token}/").status_code == 200
    # Through the API too.
    api = owner.post(f"/api/decks/{deck.pk}/share-link/")
    assert api.status_code == 200 and api.json()["share_token"] not in (old, deck.share_token)


def test_turning_link_sharing_off_and_on_gives_a_new_link(alice):
    deck = suikoden_deck(alice, Deck.Visibility.LINK)
    old = deck.share_token
    deck_services.update_deck(deck, visibility=Deck.Visibility.PRIVATE)
    deck_services.update_deck(deck, visibility=Deck.Visibility.LINK)
    assert deck.share_token != old
    assert Client().get(f"/decks/shared/{old}/").status_code == 404


def test_only_the_owner_makes_a_new_link(alice, bob):
    deck = suikoden_deck(alice, Deck.Visibility.LINK)
    client = Client()
    client.force_login(bob)
    assert client.post(f"/decks/{deck.pk}/share-link/").status_code == 404
    assert client.post(f"/api/decks/{deck.pk}/share-link/?token={deck.share_token}").status_code == 403


def test_a_run_follows_its_decks_visibility(alice, bob, settings):
    settings.TASKS = DUMMY_TASKS
    deck = suikoden_deck(alice, Deck.Visibility.LINK)
    client = Client()
    client.force_login(bob)
    created = client.post(
        f"/api/simulator/decks/{deck.pk}/simulations/?token={deck.share_token}",
        {"games": 100},
        content_type="application/json",
    )
    assert created.status_code == 201
    run_url = created.json()["url"]
    assert client.get(run_url).status_code == 200
    run_page = f"/simulator/decks/shared/{deck.share_token}/simulate/{created.json()['id']}/"
    assert client.get(run_page).status_code == 200
    deck_services.update_deck(deck, visibility=Deck.Visibility.PRIVATE)
    assert client.get(run_url).status_code == 404
    assert client.post(created.json()["cancel_url"]).status_code == 404
    assert client.get(run_page).status_code == 404


def test_a_run_started_through_a_share_link_dies_with_the_link(alice, bob, settings):
    settings.TASKS = DUMMY_TASKS
    deck = suikoden_deck(alice, Deck.Visibility.LINK)
    client = Client()
    client.force_login(bob)
    created = client.post(
        f"/api/simulator/decks/{deck.pk}/simulations/?token={deck.share_token}",
        {"games": 100},
        content_type="application/json",
    )
    assert created.status_code == 201
    assert client.get(created.json()["url"]).status_code == 200
    deck_services.regenerate_share_link(deck)
    assert client.get(created.json()["url"]).status_code == 404


def test_comparisons_and_monte_carlo_runs_share_one_quota(alice, settings):
    from simulator.models import ComparisonRun

    settings.TASKS = DUMMY_TASKS
    settings.MAX_ACTIVE_RUNS_PER_USER = 1
    waiting = ComparisonRun.objects.create(
        game=game("endbreaker"), requester=alice, strategies=["big_darc", "big_darc"], games=100, seed=1
    )
    deck = suikoden_deck(alice)
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(alice)
    url = f"/api/simulator/decks/{deck.pk}/simulations/"
    assert client.post(url, {"games": 1000}, content_type="application/json").status_code == 429
    ComparisonRun.objects.filter(pk=waiting.pk).update(status=ComparisonRun.Status.CANCELLED)
    assert client.post(url, {"games": 1000}, content_type="application/json").status_code == 201
