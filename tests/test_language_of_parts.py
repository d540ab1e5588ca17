"""A card's name shown in another language than the page's is marked with its language (WCAG 3.1.2).

A Japanese 水滸伝 name on a Chinese page must be drawn with Japanese glyphs and read aloud in Japanese; an
English Shadow Era or Epic Battles name on a Japanese page read in English. Synthetic cards
(``tests.synthetic_decks``): テスト人物03 has only a Japanese name, Test-Zero only an English one.
"""

from __future__ import annotations

import pytest

from decks import services
from decks.models import Deck

from .support.html import Node, get, parse, squash
from .synthetic_decks import card, game

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _cards(synthetic_cards):
    return None


def name_link(page: Node, name: str) -> Node:
    links = [link for link in page.find("tbody").find_all("a") if squash(link.text) == name]
    assert links, f"{name} is not listed"
    return links[0]


def marked_language(node: Node) -> str | None:
    """The language the name inside ``node`` is marked with (on the node or on an element of its own)."""
    if "lang" in node.attrs:
        return node.attrs["lang"]
    marked = [child for child in node.iter() if "lang" in child.attrs]
    return marked[0].attrs["lang"] if marked else None


@pytest.mark.parametrize(
    ("language", "url", "name", "expected"),
    [
        ("ja", "/games/epicbattles/cards/", "Test-Zero", "en"),
        ("zh-hant", "/games/epicbattles/cards/", "Test-Zero", "en"),
        ("en", "/games/epicbattles/cards/", "Test-Zero", None),
        ("zh-hant", "/games/suikoden/cards/", "テスト人物03", "ja"),
        ("en", "/games/suikoden/cards/", "テスト人物03", "ja"),
        ("ja", "/games/suikoden/cards/", "テスト人物03", None),
        ("zh-hant", "/games/suikoden/cards/", "測試林沖", None),  # translated: in the page's language
    ],
)
def test_the_card_list_marks_a_name_in_another_language(client, language, url, name, expected):
    client.cookies["django_language"] = language
    assert marked_language(name_link(parse(get(client, url)), name)) == expected


@pytest.mark.parametrize(("language", "expected"), [("ja", "en"), ("zh-hant", "en"), ("en", None)])
def test_the_card_page_heading_marks_its_name(client, language, expected):
    client.cookies["django_language"] = language
    heading = parse(get(client, "/games/epicbattles/cards/Test-Zero/")).find("h1")
    assert squash(heading.text) == "Test-Zero"
    assert marked_language(heading) == expected


def test_search_results_mark_a_name_in_another_language(client):
    client.cookies["django_language"] = "zh-hant"
    page = parse(get(client, "/search/?q=テスト人物03"))
    assert marked_language(name_link(page, "テスト人物03")) == "ja"
    client.cookies["django_language"] = "ja"
    page = parse(get(client, "/search/?q=テスト人物03"))
    assert marked_language(name_link(page, "テスト人物03")) is None


def test_a_deck_marks_its_cards_names_in_another_language(client, owner):
    deck = services.create_deck(
        owner=owner,
        game=game("suikoden"),
        name="テストデッキ",
        mode="construction",
        visibility=Deck.Visibility.LINK,
        entries=[("characters", card("suikoden", "テスト人物03"), 1), ("characters", card("suikoden", "901"), 1)],
    )
    client.cookies["django_language"] = "zh-hant"
    page = parse(get(client, f"/decks/shared/{deck.share_token}/"))
    links = [node.find("a") for node in page.find_all("span", cls="entry-name")]
    names = {squash(link.text): marked_language(link) for link in links}
    assert names == {"テスト人物03": "ja", "測試林沖": None}


def test_glossary_cells_carry_their_columns_language(seeded_db, client):
    client.cookies["django_language"] = "en"
    rows = parse(get(client, "/games/endbreaker/glossary/")).find("table", cls="glossary").find("tbody").find_all("tr")
    cells = [{td.attrs.get("lang"): squash(td.text) for td in row.find_all("td")} for row in rows]
    job = next(row for row in cells if row.get("ja") == "ジョブ")
    assert job["zh-hant"] == "職業"


# --- games' names ---------------------------------------------------------------------------------

# The languages the site's games menu marks each game's name with, per interface language (None: not marked,
# the name is in the page's language). The names are declared in cards.gamedefs: a Chinese reader sees the
# Japanese titles as printed, a Japanese reader the English ones.
GAME_NAMES_MARKED = {
    "ja": {"endbreaker": None, "shadowera": "en", "suikoden": None, "epicbattles": "en"},
    "zh-hant": {"endbreaker": "ja", "shadowera": "en", "suikoden": "ja", "epicbattles": "en"},
    "en": {"endbreaker": None, "shadowera": None, "suikoden": None, "epicbattles": None},
}


@pytest.mark.parametrize("language", GAME_NAMES_MARKED)
def test_the_games_menu_marks_each_name_in_its_language(client, language):
    client.cookies["django_language"] = language
    menu = parse(get(client, "/games/suikoden/cards/")).find("nav", cls="games-nav")
    marked = {link.attrs["href"].split("/")[2]: marked_language(link) for link in menu.find_all("a")}
    assert marked == GAME_NAMES_MARKED[language]


def test_a_games_heading_marks_its_name(client):
    client.cookies["django_language"] = "zh-hant"
    heading = parse(get(client, "/games/suikoden/")).find("h1")
    assert squash(heading.text) == "乙女遊戯 水滸伝" and marked_language(heading) == "ja"
    client.cookies["django_language"] = "en"
    heading = parse(get(client, "/games/suikoden/")).find("h1")
    assert squash(heading.text) == "Otome Yuugi Suikoden" and marked_language(heading) is None


def test_a_cards_history_breadcrumb_marks_its_name(client):
    client.cookies["django_language"] = "ja"
    crumbs = parse(get(client, "/games/epicbattles/cards/Test-Zero/history/")).find("nav", cls="breadcrumbs")
    link = next(link for link in crumbs.find_all("a") if squash(link.text) == "Test-Zero")
    assert marked_language(link) == "en"
