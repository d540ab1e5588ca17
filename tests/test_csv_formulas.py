"""Every CSV the site writes is safe to open in a spreadsheet: a text cell that a spreadsheet would evaluate
(``=HYPERLINK(…)``, ``+1``, ``@SUM``, ``-2+3``, their full-width forms) is written after a single quote;
numbers stay numbers; and the collection import reads an export back unchanged."""

from __future__ import annotations

import copy
import csv
import io
import json
import subprocess
from pathlib import Path

import pytest
from django.test import Client

from cards import services as card_services
from cards.importing import parse_json
from cardsite import csvfiles
from collection import importing
from collection import services as collection_services
from collection.models import OwnedCard
from decks import services as deck_services
from decks.decklists.services import default_zone
from decks.rules import get_rules

from .synthetic_decks import CARDS, game

FORMULAS = ['=HYPERLINK("http://example.invalid/?leak","synthetic")', "+1", "@SUM(A1:A2)", "-2+3", "＝1+1"]


@pytest.fixture
def formula_cards(synthetic_cards):
    """Clearly synthetic cards of Shadow Era whose keys and names are formulas (and one quoted already)."""
    template = CARDS["shadowera"][0]
    made = []
    for index, formula in enumerate([*FORMULAS, "'=already quoted"]):
        record = copy.deepcopy(template)
        record["key"] = formula.replace("/", "") if index % 2 == 0 else f"synthetic-formula-{index}"
        record["number"] = None
        record["texts"] = {language: {**text, "name": formula} for language, text in record["texts"].items()}
        made.append(record)
    bundle, problems = parse_json(json.dumps({"game": "shadowera", "cards": made}, ensure_ascii=False), "test")
    assert not problems, problems
    card_services.import_bundle(bundle)
    return [record["key"] for record in made]


def cells(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text, newline="")))


def test_the_collection_export_neutralises_formulas_and_reads_back_unchanged(client, owner, formula_cards):
    shadowera = game("shadowera")
    cards = {card.key: card for card in shadowera.cards.filter(key__in=formula_cards)}
    collection_services.import_counts(owner, shadowera, {card: 2 for card in cards.values()}, "replace")
    client.force_login(owner)
    exported = client.get("/collection/shadowera/export.csv", HTTP_ACCEPT_LANGUAGE="en")
    assert exported.status_code == 200
    body = exported.content.decode("utf-8-sig")
    rows = cells(body)[1:]
    names = {row[2] for row in rows}
    assert names == {f"'{formula}" for formula in FORMULAS} | {"''=already quoted"}
    assert all(not row[0].startswith(tuple("=+-@＝")) for row in rows)  # keys too
    assert {row[3] for row in rows} == {"2"}  # numbers as they are
    before = {row.card.key: row.count for row in OwnedCard.objects.filter(owner=owner)}
    collection_services.clear(owner, shadowera)
    resolved = importing.resolve_csv(shadowera, body.encode())
    assert resolved.ok, resolved.errors
    collection_services.import_counts(owner, shadowera, resolved.counts, "add")
    assert {row.card.key: row.count for row in OwnedCard.objects.filter(owner=owner)} == before


def test_a_csv_naming_cards_by_their_quoted_name_reads_them(owner, formula_cards):
    shadowera = game("shadowera")
    resolved = importing.resolve_csv(shadowera, b"name,count\n'+1,3\n")
    assert resolved.ok, resolved.errors
    assert [(card.display_name("en"), count) for card, count in resolved.counts.items()] == [("+1", 3)]


def test_the_want_list_neutralises_formulas(client, owner, formula_cards):
    shadowera = game("shadowera")
    deck = deck_services.create_deck(owner=owner, game=shadowera, name="synthetic wants")
    for key in formula_cards:
        card = shadowera.cards.get(key=key)
        deck_services.set_count(deck, default_zone(get_rules("shadowera"), card).slug, card, 1)
    client.force_login(owner)
    answer = client.get(f"/collection/decks/{deck.pk}/wants/?format=csv", HTTP_ACCEPT_LANGUAGE="en")
    assert answer.status_code == 200
    rows = cells(answer.content.decode("utf-8-sig"))[1:]
    assert {row[2] for row in rows} >= {f"'{formula}" for formula in FORMULAS}
    api = Client()
    api.force_login(owner)
    listed = api.get(f"/api/collection/decks/{deck.pk}/wants/", HTTP_ACCEPT_LANGUAGE="en").json()
    assert all(not row[2].startswith(tuple("=+-@＝")) for row in cells(listed["csv"])[1:])


@pytest.mark.parametrize(
    ("value", "written"),
    [
        ("=1+1", "'=1+1"),
        ("+1", "'+1"),
        ("-2+3", "'-2+3"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\t=1", "'\t=1"),
        ("\r=1", "'\r=1"),
        ("＠x", "'＠x"),
        ("'=1", "''=1"),
        ("'plain", "'plain"),
        ("plain", "plain"),
        ("", ""),
        (-3, -3),
        (2.5, 2.5),
    ],
)
def test_a_text_cell_is_neutralised_and_restored_exactly_and_numbers_stay_numbers(value, written):
    assert csvfiles.neutralise(value) == written
    if isinstance(value, str):
        assert csvfiles.restore(written) == value
    out = csvfiles.dumps(["a"], [[value]])
    assert cells(out)[1] == [str(written)]


def test_no_csv_is_written_but_by_the_one_writer():
    root = Path(__file__).resolve().parent.parent
    found = subprocess.run(
        ["git", "grep", "-l", "-E", r"csv\.(writer|DictWriter)\(", "--", "*.py", ":!tests/", ":!cardsite/csvfiles.py"],
        cwd=root,
        capture_output=True,
        text=True,
    )
    assert found.stdout.split() == []
