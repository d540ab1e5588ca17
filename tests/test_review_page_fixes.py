"""What a screenshot review of every page found: a date breaking inside on a phone, the whole game's missing
values as one long list, card names in Japanese unmarked inside Chinese sentences, a field's code name after its
label in English, and the search page's query in two boxes. Synthetic cards only (keys EB9-9xx, names テスト…)."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from cards.models import Card, Game
from contributions.models import ChangeSet

from .support.clients import signed_in
from .support.endbreaker_pool import synthetic_pool
from .support.html import parse, squash
from .support.table_decks import NINE, table_deck

COMPARE = "/simulator/games/endbreaker/compare/"
WHOLE_GAME_PAGES = [COMPARE, "/simulator/games/endbreaker/play/", "/simulator/games/endbreaker/search/"]


def inline_style(page) -> str:
    return re.search(r"<style>(.*?)</style>", page.content.decode(), re.S).group(1)


def test_a_change_sets_date_is_kept_whole_on_a_narrow_screen(db, owner):
    synthetic_pool()
    ChangeSet.objects.create(game=Game.objects.get(slug="endbreaker"), author=owner, source_kind="card")
    page = signed_in(owner, "ja").get("/contributions/")
    assert parse(page).find_all("time"), "the date is not in a <time> element"
    rules = [rule.partition("{")[::2] for rule in inline_style(page).split("}")]
    assert any("time" in selector.split(",") and re.search(r"white-space:\s*nowrap", body) for selector, body in rules)


@pytest.fixture
def gappy(db):
    synthetic_pool(**{"EB9-952": {"damage": 3}})
    Card.objects.filter(game__slug="endbreaker", key="スカイランナー").delete()  # many values are listed then


@pytest.mark.parametrize("url", WHOLE_GAME_PAGES)
def test_the_missing_values_are_folded_by_group_with_counts_after_the_way_to_fill_them_in_bulk(gappy_pool, owner, url):
    deck = table_deck(owner, "Folded table", NINE)
    page = parse(signed_in(owner, "en").get(url))
    missing = page.find("section", id="setup-missing")
    groups = missing.find_all("details", cls="missing-group")
    assert len(groups) >= 2
    listed = 0
    for group in groups:
        summary = squash(group.find("summary").text)
        count = int(re.search(r"\((\d+)\)$", summary).group(1))
        assert count == len(group.find_all("li"))
        listed += count
    assert f"{listed} things are missing in all" in squash(missing.text)  # the list stays whole
    assert [group for group in groups if "open" in group.attrs] in ([], [groups[0]])
    links = [a.attrs["href"] for a in missing.find_all("a")]
    assert links[0] == f"/simulator/decks/{deck.pk}/assumptions/"


def test_a_reader_without_a_deck_is_led_to_the_games_missing_values_first(gappy):
    missing = parse(Client(HTTP_ACCEPT_LANGUAGE="en").get(COMPARE)).find("section", id="setup-missing")
    assert missing.find_all("a")[0].attrs["href"] == "/games/endbreaker/missing/"


@pytest.mark.parametrize("language", ["zh-hant", "zh-hans", "en"])
def test_a_japanese_card_name_inside_another_languages_sentence_is_marked_japanese(gappy, owner, language):
    page = parse(signed_in(owner, language).get(COMPARE))
    row = page.find("li", data_card="EB9-952")
    assert [squash(span.text) for span in row.find_all("span", lang="ja")] == ["テスト仮面2"]


def test_a_japanese_page_does_not_mark_its_own_language(gappy, owner):
    row = parse(signed_in(owner, "ja").get(COMPARE)).find("li", data_card="EB9-952")
    assert "テスト仮面2" in squash(row.text) and not row.find_all("span", lang="ja")


def test_the_assumptions_table_names_each_value_once_in_english(gappy_pool, owner):
    deck = table_deck(owner, "Assumed table", NINE)
    page = parse(signed_in(owner, "en").get(f"/simulator/decks/{deck.pk}/assumptions/"))
    table = page.find("table")
    cells = [squash(row.find_all("td")[0].text) for row in table.find("tbody").find_all("tr")]
    assert "AT" in cells, cells
    assert not table.find_all("code")


def test_the_search_page_shows_its_query_in_one_box_its_own_first(db):
    page = Client(HTTP_ACCEPT_LANGUAGE="en").get("/search/", {"q": "テスト"})
    tree = parse(page)
    boxes = [node for node in tree.find_all("input") if node.attrs.get("name") == "q"]
    assert [box.attrs.get("id") for box in boxes] == ["search-input"]
    assert tree.find_all("a")[0].attrs["href"] == "#main"
    elsewhere = parse(Client(HTTP_ACCEPT_LANGUAGE="en").get("/"))
    assert elsewhere.find_all("form", cls="site-search")  # other pages keep the header's box


@pytest.mark.parametrize(("language", "marked"), [("zh-hant", ["テスト特技0"]), ("ja", [])])
def test_the_assumptions_page_marks_a_japanese_card_name_on_a_page_of_another_language(
    gappy_pool, owner, language, marked
):
    deck = table_deck(owner, "Assumed table", NINE)
    page = parse(signed_in(owner, language).get(f"/simulator/decks/{deck.pk}/assumptions/"))
    heading = next(h4 for h4 in page.find_all("h4") if "EB9-910" in h4.text)
    assert "テスト特技0" in heading.text
    assert [squash(span.text) for span in heading.find_all("span", lang="ja")] == marked
