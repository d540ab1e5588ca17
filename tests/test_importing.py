"""Importing card files (JSON and CSV) and exporting them again.

A file with any problem must write nothing and report every problem, naming the file,
the row (JSON ``cards[1]``, CSV ``line 3``) and the field (docs/card-format.md).
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from cards.gamedefs import all_games, get_game
from cards.importing import parse_file
from cards.models import Card, CardText, Game, RuleSection, RuleText, Term, TermText

from .support.seeds import DATA_DIR, assert_same_as_seed_lines, endbreaker_seed_cards

GOOD_CARD = {
    "key": "EB9-001",
    "number": "EB9-001",
    "kind": "ability",
    "fields": {"cost": "PT", "at": 2},
    "source": "test file",
    "texts": {
        "ja": {"name": "テストカード", "text": "[日常]「ドロー：＋１」してもよい。", "source": "test"},
        "zh-hant": {"name": "測試卡", "text": "[日常] 可獲得抽牌+1", "source": "test"},
    },
}


def card(**changes) -> dict:
    record = json.loads(json.dumps(GOOD_CARD))
    record.update(changes)
    return record


def write_json(directory: Path, name: str, cards: list, game: str = "endbreaker", **extra) -> Path:
    document = {"format": "cardsite-cards/1", "game": game, "cards": cards, **extra}
    path = directory / name
    path.write_text(json.dumps(document, ensure_ascii=False, indent=1), encoding="utf-8")
    return path


def write_csv(directory: Path, name: str, rows: list[list[str]], bom: bool = False) -> Path:
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerows(rows)
    path = directory / name
    path.write_text(("\ufeff" if bom else "") + buffer.getvalue(), encoding="utf-8")
    return path


def counts() -> dict[str, int]:
    return {model.__name__: model.objects.count() for model in (Card, CardText, Term, TermText, RuleSection, RuleText)}


def rejected(*paths: Path) -> list[str]:
    """Run importcards, which must refuse; the problem lines of its message."""
    with pytest.raises(CommandError) as info:
        call_command("importcards", *map(str, paths), verbosity=0)
    return str(info.value).splitlines()[1:]


def line_naming(lines: list[str], *parts: str) -> str:
    matches = [line for line in lines if all(part in line for part in parts)]
    assert matches, f"no problem line names {parts}; got:\n" + "\n".join(lines)
    return matches[0]


EXTRA_SECTIONS = {
    "terms": [{"key": "test-term", "category": "term", "texts": {"ja": {"name": "テスト用語"}}}],
    "rules": [{"key": "other", "order": 99, "texts": {"ja": {"title": "テスト", "body": "テストの規則"}}}],
}

BAD_CARDS = {
    "unknown kind": (card(key="EB9-002", number="EB9-002", kind="spell"), "kind"),
    "unknown field": (card(key="EB9-002", number="EB9-002", fields={"colour": "P"}), "colour"),
    "non-integer at": (card(key="EB9-002", number="EB9-002", fields={"at": "three"}), "at"),
    "fractional at": (card(key="EB9-002", number="EB9-002", fields={"at": 2.5}), "at"),
    "negative at": (card(key="EB9-002", number="EB9-002", fields={"at": -1}), "at"),
    "bad skill symbol": (card(key="EB9-002", number="EB9-002", fields={"skill": "PX"}), "skill"),
    "field the kind lacks": (card(key="EB9-002", number="EB9-002", kind="masquerade", fields={"cost": "P"}), "cost"),
    "duplicate key": (card(), "key"),
    "unknown language": (card(key="EB9-002", number="EB9-002", texts={"fr": {"name": "carte"}}), "fr"),
    "bad number": (card(key="EB9-002", number="EB1-8"), "number"),
    "no name in any language": (card(key="EB9-002", number="EB9-002", texts={"ja": {"text": "本文"}}), "texts"),
}


@pytest.mark.parametrize("case", BAD_CARDS, ids=list(BAD_CARDS))
def test_a_bad_json_row_after_a_good_one_writes_nothing(seeded_db, tmp_path, case):
    bad, field = BAD_CARDS[case]
    path = write_json(tmp_path, "bad.json", [card(), bad], **EXTRA_SECTIONS)
    before = counts()

    lines = rejected(path)

    line_naming(lines, str(path), "cards[1]", field)
    assert counts() == before
    assert not Card.objects.filter(key__in=["EB9-001", "EB9-002"]).exists()
    assert not Term.objects.filter(key="test-term").exists()
    assert RuleText.objects.filter(body="テストの規則").count() == 0


@pytest.mark.parametrize("case", BAD_CARDS, ids=list(BAD_CARDS))
def test_parse_file_reports_the_bad_json_row(tmp_path, case):
    bad, field = BAD_CARDS[case]
    path = write_json(tmp_path, "bad.json", [card(), bad])

    _bundle, problems = parse_file(path)

    assert problems, "the file has a problem"
    assert all(problem.file == str(path) for problem in problems)
    assert any(problem.where.startswith("cards[1]") and field in problem.field for problem in problems), problems
    assert not any(problem.where.startswith("cards[0]") for problem in problems), "the good row has no problem"


def test_every_problem_of_a_file_is_listed(db, tmp_path):
    cards = [
        card(),
        card(key="EB9-002", number="EB9-002", kind="spell"),
        card(key="EB9-003", number="EB9-003", fields={"at": "x"}),
        card(key="EB9-004", number="EB9-004", texts={"ja": {"name": "名前"}, "de": {"name": "Name"}}),
        card(key="EB9-005", number="EB1-5"),
    ]
    path = write_json(tmp_path, "many.json", cards)
    before = counts()

    lines = rejected(path)

    line_naming(lines, str(path), "cards[1]", "kind")
    line_naming(lines, str(path), "cards[2]", "at")
    line_naming(lines, str(path), "cards[3]", "de")
    line_naming(lines, str(path), "cards[4]", "number")
    assert len(lines) == 4, lines
    assert counts() == before


def test_a_bad_update_leaves_the_stored_card_alone(seeded_db, tmp_path):
    document = json.loads((DATA_DIR / "endbreaker.json").read_text(encoding="utf-8"))
    eb010 = next(c for c in document["cards"] if c["key"] == "EB1-010")
    eb010["texts"]["zh-hant"]["text"] = "改寫的文字"
    document["cards"].append(card(key="EB9-002", number="EB9-002", fields={"skill": "Q"}))
    path = tmp_path / "endbreaker.json"
    path.write_text(json.dumps(document, ensure_ascii=False), encoding="utf-8")
    stored = CardText.objects.get(card__key="EB1-010", language="zh-hant").text
    before = counts()

    lines = rejected(path)

    line_naming(lines, str(path), f"cards[{len(document['cards']) - 1}]", "skill")
    assert CardText.objects.get(card__key="EB1-010", language="zh-hant").text == stored
    assert counts() == before


def test_malformed_json_is_reported_with_its_line(db, tmp_path):
    path = tmp_path / "broken.json"
    path.write_text(
        '{"format": "cardsite-cards/1", "game": "endbreaker",\n"cards": [\n{"key": "EB9-001",}\n]}\n', encoding="utf-8"
    )
    before = counts()

    lines = rejected(path)

    line_naming(lines, str(path), "line 3")
    assert counts() == before
    _bundle, problems = parse_file(path)
    assert [problem.where.split(",")[0] for problem in problems] == ["line 3"]


def test_an_unknown_game_is_reported(db, tmp_path):
    path = write_json(tmp_path, "game.json", [card()], game="magic")
    lines = rejected(path)
    line_naming(lines, str(path), "game")
    assert counts()["Card"] == 0


def test_a_bad_second_file_stops_the_good_first_one(db, tmp_path):
    good = write_json(tmp_path, "good.json", [card()], **EXTRA_SECTIONS)
    bad = write_json(tmp_path, "bad.json", [card(key="EB9-002", number="EB9-002", kind="spell")])
    before = counts()

    lines = rejected(good, bad)

    line_naming(lines, str(bad), "cards[0]", "kind")
    assert not any(str(good) in line for line in lines)
    assert counts() == before
    assert not Card.objects.filter(key="EB9-001").exists()

    # and the other way round
    lines = rejected(bad, good)
    assert counts() == before


def test_both_bad_files_are_reported(db, tmp_path):
    first = write_json(tmp_path, "first.json", [card(kind="spell")])
    second = write_csv(tmp_path, "second.csv", [["game", "key", "kind", "name:ja"], ["endbreaker", "X", "spell", "名"]])
    lines = rejected(first, second)
    line_naming(lines, str(first), "cards[0]", "kind")
    line_naming(lines, str(second), "line 2", "kind")


def test_a_good_json_file_imports_and_importing_it_again_changes_nothing(db, tmp_path):
    path = write_json(tmp_path, "good.json", [card(), card(key="EB9-002", number="EB9-002", fields={})])
    call_command("importcards", str(path), verbosity=0)
    stored = Card.objects.get(game__slug="endbreaker", key="EB9-001")
    assert stored.fields == {"cost": "PT", "at": 2}
    assert stored.texts.get(language="ja").text == GOOD_CARD["texts"]["ja"]["text"]
    assert Card.objects.get(key="EB9-002").fields == {}
    after_first = counts()

    call_command("importcards", str(path), verbosity=0)

    assert counts() == after_first
    assert Card.objects.get(game__slug="endbreaker", key="EB9-001").pk == stored.pk


# --- CSV ------------------------------------------------------------------------------------------

SHADOWERA_HEADER = [
    "game",
    "key",
    "number",
    "kind",
    "field:cost",
    "field:faction",
    "field:class",
    "field:attack",
    "field:health",
    "name:en",
    "text:en",
    "name:ja",
    "source",
]


def test_a_good_csv_imports_with_a_class_list(db, tmp_path):
    path = write_csv(
        tmp_path,
        "allies.csv",
        [
            SHADOWERA_HEADER,
            [
                "shadowera",
                "Test Ally",
                "",
                "ally",
                "3",
                "human",
                "warrior|mage",
                "",
                "4",
                "Test Ally",
                "Hits, then draws.",
                "",
                "my notes",
            ],
            [
                "shadowera",
                "Test Hero",
                "",
                "hero",
                "",
                "shadow",
                "priest",
                "",
                "",
                "Test Hero",
                "",
                "テストヒーロー",
                "",
            ],
        ],
    )
    call_command("importcards", str(path), verbosity=0)

    ally = Card.objects.get(game__slug="shadowera", key="Test Ally")
    assert ally.kind == "ally"
    assert ally.fields["class"] == ["warrior", "mage"]
    assert ally.fields["cost"] == 3 and ally.fields["health"] == 4 and ally.fields["faction"] == "human"
    assert "attack" not in ally.fields, "an empty cell is unknown"
    assert ally.number is None
    assert ally.texts.get(language="en").text == "Hits, then draws."
    assert not ally.texts.filter(language="ja").exists()
    hero = Card.objects.get(game__slug="shadowera", key="Test Hero")
    assert hero.fields == {"faction": "shadow", "class": ["priest"]}
    assert hero.texts.get(language="ja").name == "テストヒーロー"
    after_first = counts()

    call_command("importcards", str(path), verbosity=0)

    assert counts() == after_first
    assert Card.objects.get(game__slug="shadowera", key="Test Ally").pk == ally.pk


def test_a_csv_cell_may_hold_several_lines_and_the_file_a_byte_order_mark(db, tmp_path):
    text = "[日常]「ドロー：＋２」してもよい。\n[戦闘]「ダメージ：－３」してもよい。"
    path = write_csv(
        tmp_path,
        "excel.csv",
        [
            ["game", "key", "number", "kind", "field:cost", "name:ja", "text:ja"],
            ["endbreaker", "EB9-001", "EB9-001", "ability", "●●", "テスト", text],
        ],
        bom=True,
    )
    call_command("importcards", str(path), verbosity=0)
    stored = Card.objects.get(game__slug="endbreaker", key="EB9-001")
    assert stored.fields == {"cost": "●●"}
    assert stored.texts.get(language="ja").text == text


ENDBREAKER_HEADER = ["game", "key", "number", "kind", "field:at", "name:ja"]


def test_csv_unknown_column(db, tmp_path):
    path = write_csv(
        tmp_path,
        "cols.csv",
        [[*ENDBREAKER_HEADER, "colour"], ["endbreaker", "EB9-001", "EB9-001", "ability", "1", "名", "P"]],
    )
    lines = rejected(path)
    line_naming(lines, str(path), "line 1", "colour")
    assert counts()["Card"] == 0


def test_csv_row_with_too_many_cells(db, tmp_path):
    path = write_csv(
        tmp_path,
        "cells.csv",
        [
            ENDBREAKER_HEADER,
            ["endbreaker", "EB9-001", "EB9-001", "ability", "1", "名"],
            ["endbreaker", "EB9-002", "EB9-002", "ability", "1", "名", "extra"],
        ],
    )
    lines = rejected(path)
    line_naming(lines, str(path), "line 3")
    assert counts()["Card"] == 0
    _bundle, problems = parse_file(path)
    assert [problem.where for problem in problems] == ["line 3"]


def test_csv_mixing_two_games(db, tmp_path):
    path = write_csv(
        tmp_path,
        "mixed.csv",
        [
            ["game", "key", "kind", "name:en"],
            ["endbreaker", "EB9-001", "ability", "A"],
            ["shadowera", "Some Ally", "ally", "B"],
        ],
    )
    lines = rejected(path)
    line_naming(lines, str(path), "line 3", "game")
    assert counts()["Card"] == 0


def test_csv_bad_value_names_line_and_field(db, tmp_path):
    path = write_csv(
        tmp_path,
        "values.csv",
        [
            ENDBREAKER_HEADER,
            ["endbreaker", "EB9-001", "EB9-001", "ability", "1", "名"],
            ["endbreaker", "EB9-002", "EB9-002", "ability", "1.5", "名"],
            ["endbreaker", "EB9-003", "EB9-003", "spell", "", "名"],
        ],
    )
    lines = rejected(path)
    line_naming(lines, str(path), "line 3", "at")
    line_naming(lines, str(path), "line 4", "kind")
    assert counts()["Card"] == 0


def test_csv_row_with_too_few_cells(db, tmp_path):
    """A row missing a cell would otherwise import with its values in the wrong columns."""
    path = write_csv(
        tmp_path,
        "short.csv",
        [
            ["game", "key", "number", "kind", "name:ja", "text:ja", "source"],
            ["endbreaker", "EB9-001", "EB9-001", "ability", "名", "seed 000"],  # the text cell is missing
        ],
    )
    lines = rejected(path)
    line_naming(lines, str(path), "line 2")
    assert counts()["Card"] == 0


def test_too_long_values_are_reported_as_problems(db, tmp_path):
    """Values longer than the database columns are problems of the file, on every database
    (SQLite would store them, PostgreSQL would fail with a DataError instead of a report)."""
    long_card = card(
        key="K" * 101,
        number=None,
        texts={"ja": {"name": "名" * 201, "source": "出典" * 151}},
    )
    path = write_json(tmp_path, "long.json", [long_card])
    lines = rejected(path)
    line_naming(lines, str(path), "cards[0]", "key")
    line_naming(lines, str(path), "cards[0]", "texts.ja.name")
    line_naming(lines, str(path), "cards[0]", "texts.ja.source")
    assert counts()["Card"] == 0


# --- export and import again ----------------------------------------------------------------------


def _export(slug: str, path: Path) -> str:
    call_command("exportcards", slug, output=str(path))
    return path.read_text(encoding="utf-8")


def test_export_then_import_gives_the_same_export(seeded_db, tmp_path):
    slugs = list(Game.objects.values_list("slug", flat=True))
    assert {definition.slug for definition in all_games()} <= set(slugs)
    first = {slug: _export(slug, tmp_path / f"first-{slug}.json") for slug in slugs}
    loaded = counts()
    assert json.loads(first["endbreaker"])["cards"], "the export holds the loaded cards"

    Card.objects.all().delete()
    Term.objects.all().delete()
    RuleSection.objects.all().delete()
    assert counts()["Card"] == 0 and counts()["Term"] == 0

    call_command("importcards", *(str(tmp_path / f"first-{slug}.json") for slug in slugs), verbosity=0)

    assert counts() == loaded
    second = {slug: _export(slug, tmp_path / f"second-{slug}.json") for slug in slugs}
    for slug in slugs:
        assert second[slug] == first[slug], slug


def test_the_export_matches_the_seed_data_file(seeded_db, tmp_path):
    """What loadcards read is what exportcards gives back (the same cards, terms and rules)."""
    for data_file in sorted(DATA_DIR.glob("*.json")):
        source = json.loads(data_file.read_text(encoding="utf-8"))
        exported = json.loads(_export(source["game"], tmp_path / data_file.name))

        def cards_by_key(document):
            return {
                c["key"]: (
                    c.get("number"),
                    c.get("kind"),
                    c.get("fields") or {},
                    c.get("source") or "",
                    _clean(c.get("texts")),
                )
                for c in document["cards"]
            }

        assert cards_by_key(exported) == cards_by_key(source), data_file.name
        assert [t["key"] for t in exported["terms"]] == [t["key"] for t in source.get("terms", [])]
        assert {t["key"]: _clean(t["texts"]) for t in exported["terms"]} == {
            t["key"]: _clean(t["texts"]) for t in source.get("terms", [])
        }
        assert sorted(
            (r["key"], r["order"], json.dumps(_clean(r["texts"]), sort_keys=True)) for r in exported["rules"]
        ) == sorted(
            (r["key"], r.get("order", index), json.dumps(_clean(r["texts"]), sort_keys=True))
            for index, r in enumerate(source.get("rules", []))
        )


def _clean(texts: dict | None) -> dict:
    """Texts without empty parts (absent, null and "" all mean: not known)."""
    return {
        language: {part: value for part, value in parts.items() if value}
        for language, parts in (texts or {}).items()
        if any(parts.values())
    }


def test_endbreaker_export_has_every_seed_card_and_its_japanese_text(seeded_db):
    seed = endbreaker_seed_cards()
    out = io.StringIO()
    call_command("exportcards", "endbreaker", stdout=out)
    exported = {c["number"]: c for c in json.loads(out.getvalue())["cards"] if c["number"]}
    assert set(seed) <= set(exported)
    for number, seed_card in seed.items():
        ja = exported[number]["texts"].get("ja", {})
        assert ja.get("name") == seed_card.name, number
        assert_same_as_seed_lines(ja.get("text"), seed_card.ja, number)


def test_export_of_an_unknown_game_is_refused(db):
    with pytest.raises(CommandError) as info:
        call_command("exportcards", "magic", stdout=io.StringIO())
    assert "magic" in str(info.value)


# --- values the seeds give that a field must hold exactly -------------------------------------------


def test_suikoden_holds_the_seeds_blue_colour():
    # seed 002: 丁得孫的代價是白1藍1 … 讓一隻藍色人物放浪: a character whose 属性 is 藍.
    checked = get_game("suikoden").check_values("character", {"colour": "藍", "cost": "白1藍1"})
    assert checked.valid, checked.problems
    assert checked.fields["colour"] == "藍"


@pytest.mark.parametrize("printed", ["射擊2", "射擊１"])
def test_suikoden_holds_shooting_with_its_x(printed):
    # seed 002, 得意能力一覽: [射擊X] … 對手的攻防下降X: the X is printed with the specialty and kept as printed.
    checked = get_game("suikoden").check_values("character", {"specialties": [printed, "騎馬"]})
    assert checked.valid, checked.problems
    assert checked.fields["specialties"] == [printed, "騎馬"]


@pytest.mark.parametrize("printed", ["騎馬2", "射擊X", "射擊-1", "射撃2"])
def test_suikoden_refuses_a_number_on_another_specialty_or_a_shooting_without_one(printed):
    checked = get_game("suikoden").check_values("character", {"specialties": [printed]})
    assert "specialties" in checked.invalid_fields(), printed
