"""The API answers in the format a client asks for: JSON by default, the browsable page for a browser."""

import json

import pytest

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("accept", [None, "*/*", "application/json", " application/json "])
def test_a_program_gets_json(client, accept):
    headers = {"HTTP_ACCEPT": accept} if accept is not None else {}
    response = client.get("/api/games/", **headers)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    json.loads(response.content)


@pytest.mark.parametrize(
    "path, accept",
    [
        ("/api/games/", "text/html"),
        ("/api/games/?format=api", "*/*"),
        ("/api/games/?format=api", None),
    ],
)
def test_a_browser_or_an_explicit_format_gets_the_browsable_page(client, path, accept):
    headers = {"HTTP_ACCEPT": accept} if accept is not None else {}
    response = client.get(path, **headers)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/html")


def test_a_format_nobody_serves_is_refused_with_406(client):
    response = client.get("/api/games/", HTTP_ACCEPT="application/xml")
    assert response.status_code == 406


def test_json_asked_by_format_is_json_even_from_a_browser(client):
    response = client.get(
        "/api/games/?format=json", HTTP_ACCEPT="text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
    )
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
