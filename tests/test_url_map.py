"""The URL map: a URL's first segment names the app that answers it, and the old addresses of moved pages redirect."""

import re
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import RequestFactory
from django.urls import include, path, resolve, reverse

from cardsite.urlmap import declared_prefixes, doubly_declared, misplaced, url_map

# A URLconf that mounts the goldfish pages under the decks app's segment, as the site did before.
urlpatterns = [path("decks/", include("simulator.goldfish.urls"))]

SAMPLES = {"int": "7", "slug": "endbreaker", "str": "tok", "path": "SYN-1", "segment": "SYN-1"}


def sample_path(route: str) -> str:
    """A concrete address of a route: each parameter filled with a sample value of its converter."""
    return "/" + re.sub(r"<(?:(\w+):)?\w+>", lambda found: SAMPLES[found.group(1) or "str"], route)


def test_the_command_prints_every_pattern_with_its_name_and_module():
    out = StringIO()
    call_command("urlmap", "--check", stdout=out)
    printed = out.getvalue()
    assert re.search(
        r"^/simulator/decks/<int:pk>/goldfish/\s+goldfish:hand\s+simulator\.goldfish\.views$", printed, re.M
    )
    assert re.search(
        r"^/api/simulator/comparisons/<int:run_id>/\s+simulator_api:comparison\s+simulator\.comparisons\.api",
        printed,
        re.M,
    )
    assert re.search(r"^/decks/<int:pk>/goldfish/\s+-> goldfish:hand\s+cardsite\.moved\s+moved$", printed, re.M)
    assert "each first segment belongs to the app that answers it" in printed


def test_every_first_segment_belongs_to_the_app_that_answers_it():
    assert doubly_declared() == []
    assert misplaced(url_map()) == []


def test_the_check_names_a_page_under_another_apps_segment():
    problems = misplaced(url_map(__name__))
    assert problems and all("the segment 'decks' belongs to decks" in problem for problem in problems)
    assert any(problem.startswith("/decks/<int:pk>/goldfish/ (simulator.goldfish.views)") for problem in problems)


def test_the_command_fails_on_a_misplaced_page(settings):
    settings.ROOT_URLCONF = __name__
    with pytest.raises(CommandError, match=r"simulator\.goldfish\.views"):
        call_command("urlmap", "--check", stdout=StringIO())


def test_the_ground_keeps_its_segments():
    owners = declared_prefixes()
    assert {owners[segment] for segment in ("admin", "i18n", "healthz", "static", "media")} == {"cardsite"}
    assert owners["simulator"] == "simulator"
    assert owners["games"] == "cards"


def test_no_old_address_hides_a_live_page():
    for route in url_map():
        if route.is_moved or route.route.startswith(("^", "admin/")) or "(?" in route.route:
            continue
        found = resolve(sample_path(route.route))
        assert not hasattr(found.func, "moved_to"), route.route


def test_every_old_address_leads_to_the_page_of_its_name():
    factory = RequestFactory()
    moved = [route for route in url_map() if route.is_moved]
    assert len(moved) > 100
    for route in moved:
        old = sample_path(route.route)
        found = resolve(old)
        response = found.func(factory.get(old), **found.kwargs)
        assert response.status_code == (308 if old.startswith("/api/") else 301), old
        assert response["Location"] == reverse(found.func.moved_to, kwargs=found.kwargs), old
        assert not response["Location"].startswith(old)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("/decks/7/goldfish/?games=50&seed=3", "/simulator/decks/7/goldfish/?games=50&seed=3"),
        ("/decks/shared/tok/odds/", "/simulator/decks/shared/tok/odds/"),
        ("/games/endbreaker/compare/12/", "/simulator/games/endbreaker/compare/12/"),
        ("/games/endbreaker/strategies/shipped/big-darc/", "/simulator/games/endbreaker/strategies/shipped/big-darc/"),
        ("/games/endbreaker/play/", "/simulator/games/endbreaker/play/"),
        ("/games/endbreaker/search/", "/simulator/games/endbreaker/search/"),
        ("/games/endbreaker/setups/new/", "/simulator/games/endbreaker/setups/new/"),
        ("/decks/published/?game=suikoden", "/community/decks/published/?game=suikoden"),
        ("/games/suikoden/decks/", "/community/games/suikoden/decks/"),
        ("/moderation/", "/community/moderation/"),
        ("/contributions/photos/3/", "/readings/photos/3/"),
        ("/games/suikoden/cards/SYN-1/edit/", "/contributions/games/suikoden/cards/SYN-1/edit/"),
        ("/games/suikoden/contribute/", "/contributions/games/suikoden/contribute/"),
    ],
)
def test_an_old_page_address_redirects_permanently_keeping_the_query(client, old, new):
    response = client.get(old)
    assert response.status_code == 301
    assert response["Location"] == new


def test_a_form_posted_to_an_old_page_address_is_sent_on_with_its_method(client):
    response = client.post("/decks/7/simulate/", {"games": "100"})
    assert response.status_code == 308
    assert response["Location"] == "/simulator/decks/7/simulate/"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("/api/decks/7/simulations/", "/api/simulator/decks/7/simulations/"),
        ("/api/simulations/5/cancel/", "/api/simulator/simulations/5/cancel/"),
        ("/api/games/endbreaker/comparisons/?lang=ja", "/api/simulator/games/endbreaker/comparisons/?lang=ja"),
        ("/api/plays/4/answers/", "/api/simulator/plays/4/answers/"),
        ("/api/publications/2/like/", "/api/community/publications/2/like/"),
        ("/api/token/", "/api/accounts/token/"),
        ("/api/change-sets/", "/api/contributions/change-sets/"),
        ("/api/cards/suikoden/SYN-1/history/", "/api/contributions/cards/suikoden/SYN-1/history/"),
    ],
)
def test_an_old_api_address_redirects_with_308(client, old, new):
    for method in (client.get, client.post):
        response = method(old)
        assert response.status_code == 308
        assert response["Location"] == new


@pytest.mark.django_db
def test_a_token_request_to_the_old_address_arrives_with_its_body(client, django_user_model):
    django_user_model.objects.create_user("mover", password="a long synthetic password")
    response = client.post("/api/token/", {"username": "mover", "password": "a long synthetic password"}, follow=True)
    assert response.redirect_chain == [("/api/accounts/token/", 308)]
    assert response.status_code == 201
    assert response.json()["token"]


@pytest.mark.django_db
def test_the_old_names_of_the_inbox_lead_to_it(client, django_user_model):
    client.force_login(django_user_model.objects.create_user("reader"))
    response = client.get(reverse("community:notifications"), follow=True)
    assert response.redirect_chain == [("/notifications/", 301)]
    assert response.status_code == 200


def test_names_are_unchanged():
    assert reverse("goldfish:hand", kwargs={"pk": 7}) == "/simulator/decks/7/goldfish/"
    assert reverse("comparisons:setups", kwargs={"game": "endbreaker"}) == "/simulator/games/endbreaker/compare/setups/"
    assert reverse("simulator_api:simulation", kwargs={"run_id": 5}) == "/api/simulator/simulations/5/"
    assert reverse("community:index") == "/community/decks/published/"
    assert reverse("readings:upload") == "/readings/photos/"
    assert reverse("contributions:mine") == "/contributions/"


def test_the_command_prints_the_prefix_table():
    out = StringIO()
    call_command("urlmap", "--prefixes", stdout=out)
    rows = dict(line.split() for line in out.getvalue().splitlines())
    assert rows["/simulator/"] == "simulator" and rows["/community/"] == "community" and rows["/"] == "cards"
    assert rows["/admin/"] == "cardsite"
