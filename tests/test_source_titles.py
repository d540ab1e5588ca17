"""A reader meets each source by its document's title, never by the project's names for its files.

The project calls its source documents "seed 000" … "seed 003" and its notes on the games "games.md"; a reader
can look none of these up, and on a goldfish page a seed is also the shuffle's. Every page that cites a source
names the document by its own title (shown as written, in every interface language) or, for the notes on the
games, the source the note itself names.
"""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client

from .support.goldfish import make_deck

LANGUAGES = ["ja", "zh-hant", "zh-hans", "en"]

# The project's names for its files, as the pages wrote them before, in each language.
PROJECT_NAMES = re.compile(r"seed 0\d\d|games\.md|source document|元資料0|原始資料0|原始资料0|シード0|種子0|种子0")

TITLES = {
    "endbreaker": "「エンドブレイカー！SCG 規則 & 卡表 - 桌遊」",
    "shadowera": "「Shadow Era Wiki」ルール",
    "suikoden": "「乙女遊戯 水滸伝 - 桌遊」",
    "epicbattles": "「ジャガーノーツのTCGカタログ」Epic Battles",
}


def shown_text(response) -> str:
    """What a reader reads of a page: the body (the page inlines its CSS in the head), unescaped."""
    assert response.status_code == 200
    return html.unescape(response.content.decode().split("</head>", 1)[1])


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(
    ("game", "key", "named"),
    [
        # cost: seed 000 worked example (練刺棍(PPT)); games.md. kind: seed 000 (worked example in [獲得卡片] …)
        ("endbreaker", "EB1-010", TITLES["endbreaker"]),
        ("suikoden", "丁得孫", TITLES["suikoden"]),  # seed 002 (4. 內政階段, (1) 登用: …)
        ("shadowera", "Bazaar", TITLES["shadowera"]),  # seed 001 (ドローフェイズ(DRAW): …)
        # games.md (mortalkombatonline.com character lists): the source the notes on the games name, itself, not
        # in brackets after "public sources"
        ("epicbattles", "Bo' Rai Cho", " mortalkombatonline.com"),
    ],
)
def test_a_card_page_and_its_history_name_the_source_by_its_title(seeded_db, client, language, game, key, named):
    client.cookies["django_language"] = language
    page = re.sub(r"\s+", " ", shown_text(client.get(f"/games/{game}/cards/{key}/")))
    assert named in page
    assert PROJECT_NAMES.findall(page) == []
    history = shown_text(client.get(f"/games/{game}/cards/{key}/history/"))
    if game in TITLES and named == TITLES[game]:  # the history names the source of each value it lists
        assert named in history
    assert PROJECT_NAMES.findall(history) == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_game_page_lists_its_documents_with_the_official_site_the_seed_names(seeded_db, client, language):
    client.cookies["django_language"] = language
    text = shown_text(client.get("/games/suikoden/"))
    assert TITLES["suikoden"] in text  # as written, also for a Simplified Chinese reader
    assert "http://www.harvest-inc.jp/special/suiko/" in text
    assert PROJECT_NAMES.findall(text) == []
    for game, title in TITLES.items():  # each game's page and its map of what is missing
        for url in (f"/games/{game}/", f"/games/{game}/missing/"):
            text = shown_text(client.get(url))
            assert PROJECT_NAMES.findall(text) == [], url
        assert title in shown_text(client.get(f"/games/{game}/"))


@pytest.mark.usefixtures("synthetic_cards")
@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game", sorted(TITLES))
def test_goldfish_notes_name_the_seed_by_its_title(owner, language, game):
    """The goldfish's stated assumptions say which document is silent, by its title."""
    client = Client()
    client.force_login(owner)
    client.cookies["django_language"] = language
    deck = make_deck(game, owner)
    text = shown_text(client.get(f"/simulator/decks/{deck.pk}/goldfish/?seed=5"))
    assert TITLES[game] in text
    assert PROJECT_NAMES.findall(text) == []


@pytest.mark.usefixtures("synthetic_cards")
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_shadow_era_copies_option_names_the_wiki_it_was_seen_on(owner, language):
    client = Client()
    client.force_login(owner)
    client.cookies["django_language"] = language
    deck = make_deck("shadowera", owner)
    text = shown_text(client.get(f"/decks/{deck.pk}/settings/"))
    assert (
        'shadowera.com wiki、"Rule of Four"' in text
        or 'shadowera.com wiki, "Rule of Four"' in text
        or ('shadowera.com wiki，"Rule of Four"' in text)
    )
    assert PROJECT_NAMES.findall(text) == []


def test_the_api_gives_citations_as_stored_and_each_documents_title_beside_them(seeded_db, client):
    game = client.get("/api/games/suikoden/").json()
    seed = next(document for document in game["documents"] if document["key"] == "seed 002")
    assert seed["title"] == "乙女遊戯 水滸伝 - 桌遊"
    assert seed["official_site"] == "http://www.harvest-inc.jp/special/suiko/"
    card = client.get("/api/cards/suikoden/丁得孫/").json()
    assert card["source"].startswith("seed 002 (")  # the stored citation, unchanged
