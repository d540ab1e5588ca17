"""The map of what is missing of a game, for API clients: ``GET /api/games/<game>/missing/`` answers what the
page ``/games/<game>/missing/`` shows, from the same selector, counts as numbers and sentences in the reader's
language."""

from __future__ import annotations

import html

import pytest
from django.test import Client

from cards.missing import selectors as missing_selectors
from cards.models import Game

pytestmark = pytest.mark.django_db


def test_the_map_answers_what_the_page_shows(synthetic_cards):
    client = Client()
    response = client.get("/api/games/shadowera/missing/", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200, response.content
    body = response.json()
    expected = missing_selectors.missing_map(Game.objects.get(slug="shadowera"))
    assert (body["game"], body["cards"], body["incomplete"]) == ("shadowera", expected.cards, expected.incomplete)
    assert body["blocked"] is expected.blocked
    assert [f["unknown"] for f in body["fields"]] == [gap.unknown for gap in expected.fields]
    assert len(body["blocks"]) == (
        len(expected.shortfalls) + len(expected.goldfish_gaps) + len(expected.simulator_gaps) + len(expected.rule_gaps)
    )
    page = html.unescape(client.get("/games/shadowera/missing/", HTTP_ACCEPT_LANGUAGE="en").content.decode())
    assert body["summary"] in page
    for row in body["totals"] + body["texts"] + body["blocks"]:
        assert row["text"] in page
        for link in row.get("links", []):
            assert link["url"].startswith("http://testserver/")


def test_the_sentences_follow_the_readers_language(synthetic_cards):
    english = Client().get("/api/games/suikoden/missing/", HTTP_ACCEPT_LANGUAGE="en").json()
    chinese = Client().get("/api/games/suikoden/missing/", HTTP_ACCEPT_LANGUAGE="zh-hant").json()
    assert english["cards"] == chinese["cards"]
    assert english["summary"] != chinese["summary"]


def test_an_unknown_game_is_a_json_404(synthetic_cards):
    response = Client().get("/api/games/no-such-game/missing/")
    assert response.status_code == 404
    assert response.json()["code"]
