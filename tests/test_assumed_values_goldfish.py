"""Assumed values for a game without a whole game (乙女遊戯 水滸伝 here): the assumptions page lists every value
the goldfish engine reads that the deck's cards lack, grouped by card and by value with counts; a bulk fill or a
sheet assumes them; the goldfish and Monte Carlo results then name them; the goldfish and deck pages link the
owner to the page while any is unknown. Nothing is written to the card; a stranger gets 404. Synthetic cards only
(suikoden 9xx: 901 lacks its attack, ``deck_lacking_attack``)."""

from __future__ import annotations

import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from simulator.goldfish import services as goldfish_services
from simulator.models import DeckAssumption

from .support.clients import signed_in
from .synthetic_decks import card

pytestmark = pytest.mark.usefixtures("immediate_tasks")


def page_url(deck):
    return f"/simulator/decks/{deck.pk}/assumptions/"


def by_value_rows(page):
    """The by-value table's rows: each value's label (in the reader's language) and how many cards lack it."""
    (table,) = re.findall(r"<table>.*?</table>", page, re.S)
    return re.findall(r"<tr><td>([^<]+)</td><td>(\d+)</td></tr>", table)


def test_the_page_lists_the_values_the_goldfish_reads_and_the_card_lacks(deck_lacking_attack, owner):
    page = signed_in(owner).get(page_url(deck_lacking_attack))
    assert page.status_code == 200
    text = page.content.decode()
    assert "1 value is missing" in text
    assert by_value_rows(text) == [("Attack", "1")]
    assert "<code>901</code>" in text and "<code>903</code>" not in text  # the land lacks nothing it reads
    assert "Add assumed cards" not in text  # no assumed cards for a game without a whole game


def test_a_bulk_fill_is_played_and_named_and_the_card_is_untouched(deck_lacking_attack, owner):
    deck = deck_lacking_attack
    client = signed_in(owner)
    answer = client.post(page_url(deck), {"action": "bulk", "field": "attack", "kind": "", "value": "5"})
    assert answer.status_code == 302, answer.content.decode()[:2000]
    assert list(DeckAssumption.objects.filter(deck=deck).values_list("key", "field", "value")) == [("901", "attack", 5)]
    card("suikoden", "901").refresh_from_db()
    assert "attack" not in card("suikoden", "901").fields
    page = client.get(page_url(deck)).content.decode()
    assert "0 values are missing" in page and "1 assumed value" in page
    hand = client.get(f"/simulator/decks/{deck.pk}/goldfish/?seed=3", follow=True).content.decode()
    assert "With 1 assumed value" in hand
    run = goldfish_services.start_run(
        deck=deck, requester=owner, games=5, turns=2, policy="default", params={}, language="en", seed=1
    )
    assert run.assumptions == [{"key": "901", "field": "attack", "value": 5}]
    assert "With 1 assumed value" in client.get(f"/simulator/decks/{deck.pk}/simulate/{run.pk}/").content.decode()


def test_the_sheet_lists_the_missing_value_and_comes_back_up(deck_lacking_attack, owner):
    deck = deck_lacking_attack
    client = signed_in(owner)
    sheet = client.get(f"{page_url(deck)}sheet.csv").content.decode("utf-8")
    lines = sheet.strip().splitlines()
    assert lines[0].startswith("key,name,field,value") and len(lines) == 2 and lines[1].startswith("901,")
    filled = sheet.replace("attack,", "attack,4", 1).encode()
    answer = client.post(
        page_url(deck), {"action": "sheet", "sheet": SimpleUploadedFile("a.csv", filled, content_type="text/csv")}
    )
    assert answer.status_code == 302, answer.content.decode()[:2000]
    assert DeckAssumption.objects.get(deck=deck).value == 4


def test_a_stranger_gets_404_and_writes_nothing(deck_lacking_attack, other):
    deck = deck_lacking_attack
    stranger = signed_in(other)
    assert stranger.get(page_url(deck)).status_code == 404
    assert stranger.get(f"{page_url(deck)}sheet.csv").status_code == 404
    answer = stranger.post(page_url(deck), {"action": "bulk", "field": "attack", "kind": "", "value": "5"})
    assert answer.status_code == 404 and not DeckAssumption.objects.exists()


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", "1 value the goldfish needs is unknown: assume it to simulate"),
        ("ja", "一人回しに必要な値が 1 個不明です：仮定してシミュレートする"),
        ("zh-hant", "單人試轉所需的數值有 1 個不明：假設後即可模擬"),
    ],
)
def test_the_goldfish_and_deck_pages_link_the_owner_while_a_value_is_unknown(
    deck_lacking_attack, owner, language, words
):
    deck = deck_lacking_attack
    client = signed_in(owner, language)
    link = f'<a href="{page_url(deck)}">{words}</a>'
    pages = (
        f"/simulator/decks/{deck.pk}/goldfish/?seed=3",
        f"/simulator/decks/{deck.pk}/simulate/",
        reverse("decks:detail", args=[deck.pk]),
    )
    for url in pages:
        assert link in client.get(url, follow=True).content.decode(), url
    client.post(page_url(deck), {"action": "one", "key": "901", "field": "attack", "value": "3"})
    for url in pages:
        assert words not in client.get(url, follow=True).content.decode(), url


def test_a_shadow_era_deck_lists_its_card_but_never_its_placeholders(owner, synthetic_cards):
    from decks.placeholders import services as placeholder_services

    from .support.placeholder_decks import shadow_era_deck

    deck = shadow_era_deck(owner)
    ally = card("shadowera", "Test Ally 01")
    ally.fields = {name: value for name, value in ally.fields.items() if name != "attack"}
    ally.save()
    placeholder_services.add_placeholder(deck, "ally", {"cost": 3}, 4, "Ally of unstated attack")
    page = signed_in(owner).get(page_url(deck)).content.decode()
    assert by_value_rows(page) == [("Attack", "1")]
    assert "<code>Test Ally 01</code>" in page and "Ally of unstated attack" not in page
    answer = signed_in(owner).post(page_url(deck), {"action": "bulk", "field": "attack", "kind": "ally", "value": "2"})
    assert answer.status_code == 302, answer.content.decode()[:2000]
    assert list(DeckAssumption.objects.filter(deck=deck).values_list("key", "field", "value")) == [
        ("Test Ally 01", "attack", 2)
    ]
    card("shadowera", "Test Ally 01").refresh_from_db()
    assert "attack" not in card("shadowera", "Test Ally 01").fields


def test_the_deck_page_says_what_its_charts_and_the_goldfish_each_count_as_unknown(owner, synthetic_cards):
    # Four copies of one ally of unknown cost: the make-up chart counts four cards, the goldfish one value.
    from .support.html import parse, squash
    from .support.placeholder_decks import shadow_era_deck

    deck = shadow_era_deck(owner)
    ally = card("shadowera", "Test Ally 01")
    ally.fields = {name: value for name, value in ally.fields.items() if name != "cost"}
    ally.save()
    page = parse(signed_in(owner).get(reverse("decks:detail", args=[deck.pk])))
    chart = page.find("table", cls="chart-table", data_chart="cost")
    assert squash(chart.find("caption").text) == "Cards by Cost"
    unknown = chart.find("tr", cls="unknown")
    assert (squash(unknown.find("th").text), squash(unknown.find("td").text)) == ("unknown", "4")
    link = squash(page.find("p", cls="assume-link").text)
    assert link == "1 value the goldfish needs is unknown: assume it to simulate"
