"""On a phone, a narrow table column breaks a word only between words: seen on the screenshot review of the
signed-out pages, where a Japanese kind in the card list stood a character or two a line (アビ/リ/ティ), the
published decks' game names one character a line, and a card history's labels broke mid-word (デー/タの/出典).
Synthetic cards only."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from community import services as community_services

from .support.browser import signed_in_phone
from .support.goldfish import make_deck
from .support.missing_cards import import_cards
from .support.phone import TEXT_LINES
from .synthetic_decks import load_synthetic_cards
from .users import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


def _long_named(key: str, kind: str) -> dict:
    fields = {"at": 1, "cost": "PT"} if kind == "ability" else {}
    name = "テストテストテストロングネーム"  # long enough to take the name column's room
    texts = {"ja": {"name": name, "source": "test"}}
    return {"key": key, "number": key, "kind": kind, "fields": fields, "source": "test", "texts": texts}


def test_a_phone_keeps_the_words_of_narrow_columns_whole(live_server, browser):
    from cards.services import sync_games

    sync_games()
    load_synthetic_cards()
    import_cards("endbreaker", _long_named("EB9-971", "ability"), _long_named("EB9-972", "masquerade"))
    user = get_user_model().objects.create_user("phone-words", password=PASSWORD)
    community_services.publish(make_deck("suikoden", user), user=user, title="テストデッキの公開")

    context = browser.new_context(viewport=PHONE, locale="ja-JP", extra_http_headers={"Accept-Language": "ja"})
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/games/endbreaker/cards/")
        kinds = page.evaluate(TEXT_LINES, ".card-list tbody td:nth-child(3)")
        assert ["アビリティ", 1] in kinds and ["マスカレイド", 1] in kinds
        assert all(lines == 1 for _text, lines in kinds), kinds

        page.goto(f"{live_server.url}/games/endbreaker/cards/EB9-971/history/")
        labels = page.evaluate(TEXT_LINES, ".revision-changes tbody th")
        assert labels and all(lines == 1 for text, lines in labels if " " not in text), labels  # データの出典

        page.goto(f"{live_server.url}/community/decks/published/")
        games = page.evaluate(TEXT_LINES, ".publication-list tbody td:nth-child(2)")
        titles = page.evaluate(TEXT_LINES, ".publication-list tbody td:first-child a")
        assert games == [["乙女遊戯 水滸伝", 2]]  # broken at its space only
        assert titles and all(lines <= 2 for _text, lines in titles), titles
    finally:
        context.close()


def test_a_phone_keeps_the_goldfish_logs_event_labels_whole_in_japanese(live_server, browser):
    """The log's event column broke シャッフ/ル at 390 px; a label now breaks only between its words."""
    from cards.services import sync_games

    sync_games()
    load_synthetic_cards()
    user = get_user_model().objects.create_user("phone-log-words", password=PASSWORD)
    deck = make_deck("suikoden", user)
    page = signed_in_phone(browser, live_server.url, user.username, "ja-JP")
    try:
        page.goto(f"{live_server.url}/simulator/decks/{deck.pk}/goldfish/?seed=5")
        labels = page.evaluate(TEXT_LINES, "#gf-turn-log .gf-events tbody td.event-kind")
        assert ["シャッフル", 1] in labels
        assert all(lines == 1 for text, lines in labels if " " not in text), labels
    finally:
        page.context.close()
