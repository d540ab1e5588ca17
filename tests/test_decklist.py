"""Decklists: the text parser (plain Python), resolving lines to cards, import pages, export and round trips."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse
from django.utils import translation

from cardsite.labels import pick
from decks import services
from decks.decklist import MAX_COUNT, ListedCard, format_decklist, parse_decklist
from decks.decklists.services import (
    create_from_decklist,
    describe,
    describe_line,
    export_data,
    export_text,
    import_decklist,
    resolve_decklist,
)
from decks.models import Deck, DeckEntry
from decks.rules import all_rules, get_rules

from .synthetic_decks import card, game
from .users import make_user

GAMES = [rules.game for rules in all_rules()]  # every game with deck rules
LANGUAGES = ("ja", "zh-hant", "en")


def parse(text: str, slug: str = "suikoden"):
    return parse_decklist(text, get_rules(slug))


def only_line(text: str, slug: str = "suikoden"):
    result = parse(text, slug)
    assert not result.errors, result.errors
    assert len(result.lines) == 1, result.lines
    return result.lines[0]


# --- parser: counts and names ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "count", "name"),
    [
        ("3 林沖", 3, "林沖"),
        ("4 EB1-008", 4, "EB1-008"),
        ("2x Sub-Zero", 2, "Sub-Zero"),
        ("2 x Sub-Zero", 2, "Sub-Zero"),
        ("Sub-Zero x2", 2, "Sub-Zero"),
        ("Sub-Zero x 2", 2, "Sub-Zero"),
        ("1 ラビシャン", 1, "ラビシャン"),
        ("林沖", 1, "林沖"),
        ("３ 林沖", 3, "林沖"),
        ("１２ 林沖", 12, "林沖"),
        ("2× 林沖", 2, "林沖"),
        ("2×林沖", 2, "林沖"),
        ("林沖 ×2", 2, "林沖"),
        ("林沖×２", 2, "林沖"),
        ("２ｘ 林沖", 2, "林沖"),
        ("2枚 林沖", 2, "林沖"),
        ("林沖 2枚", 2, "林沖"),
        ("3\t林沖", 3, "林沖"),
        ("３\u3000林沖", 3, "林沖"),
        ("  3   Bo' Rai Cho  ", 3, "Bo' Rai Cho"),
        ("4 EB1-008 居合い斬り", 4, "EB1-008 居合い斬り"),
        # A name that starts with digits is a name, unless a space follows them; "x" starting a name stays.
        ("1000ダルク", 1, "1000ダルク"),
        ("2 1000ダルク", 2, "1000ダルク"),
        ("4 xavier", 4, "xavier"),
    ],
)
def test_card_lines(text, count, name):
    line = only_line(text)
    assert (line.count, line.name, line.line, line.zone) == (count, name, 1, None)


def test_comments_and_blank_lines_are_skipped_and_lines_keep_their_numbers():
    text = "# my deck\n\n// a note\n3 林沖\n＃ full-width hash\n   \n2x 關勝\n"
    result = parse(text)
    assert not result.errors
    assert [(line.line, line.count, line.name) for line in result.lines] == [(4, 3, "林沖"), (7, 2, "關勝")]


# --- parser: headings -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("slug", "heading", "zone"),
    [
        ("epicbattles", "Side deck:", "side"),
        ("epicbattles", "Deck:", "deck"),
        ("epicbattles", "サイドデッキ:", "side"),
        ("epicbattles", "副牌：", "side"),
        ("epicbattles", "Character:", "character"),
        ("shadowera", "Hero:", "hero"),
        ("shadowera", "英雄：", "hero"),
        ("shadowera", "牌组:", "deck"),  # Simplified Chinese for 牌組
        ("shadowera", "DECK:", "deck"),
        ("shadowera", "Deck (59):", "deck"),
        ("suikoden", "人物：", "characters"),
        ("suikoden", "人物:", "characters"),
        ("suikoden", "Lands:", "lands"),
        ("suikoden", "lands:", "lands"),
        ("endbreaker", "サプライ:", "supply"),  # the label without its bracketed part
        ("endbreaker", "サプライ（アビリティ9種）：", "supply"),
        ("endbreaker", "Supply (9 ability piles):", "supply"),
        ("endbreaker", "ジョブの山：", "jobs"),
        ("endbreaker", "masquerades:", "masquerades"),
        ("endbreaker", "ますかれいど:", "masquerades"),  # hiragana for マスカレイド
    ],
)
def test_headings_name_zones_in_any_language(slug, heading, zone):
    result = parse(f"{heading}\n2 Foo\n", slug)
    assert not result.errors
    assert [(line.line, line.zone) for line in result.lines] == [(2, zone)]


@pytest.mark.parametrize("slug", GAMES)
def test_every_zone_label_and_slug_is_a_heading(slug):
    rules = get_rules(slug)
    for zone in rules.zones:
        if zone.fixed:
            continue
        for label in [zone.slug, *zone.labels.values()]:
            for colon in (":", "："):
                result = parse(f"{label}{colon}\n1 X", slug)
                assert not result.errors, (label, result.errors)
                assert result.lines[0].zone == zone.slug


def test_a_heading_and_a_card_on_one_line():
    result = parse("Hero: Zaladar\n4 Test Ally 01\nDeck：2 Test Ally 02", "shadowera")
    assert not result.errors
    assert [(line.count, line.name, line.zone) for line in result.lines] == [
        (1, "Zaladar", "hero"),
        (4, "Test Ally 01", "hero"),
        (2, "Test Ally 02", "deck"),
    ]


def test_a_colon_in_a_card_name_is_not_a_heading_unless_it_names_a_zone():
    line = only_line("2 Research: the next step", "shadowera")
    assert (line.count, line.name, line.zone) == (2, "Research: the next step", None)


# --- parser: errors -------------------------------------------------------------------------------


def test_errors_are_per_line_with_codes_and_line_numbers():
    text = "\n".join(
        [
            "人物：",  # 1
            "3 林沖",  # 2
            "0 關勝",  # 3
            "-1 關勝",  # 4
            "1.5 關勝",  # 5
            "100 關勝",  # 6
            "Sub-Zero x0",  # 7
            "Sideboard:",  # 8
            "2 丁得孫",  # 9
            "土地：",  # 10
            "1 梁山泊",  # 11
        ]
    )
    result = parse(text)
    assert [(error.line, error.code) for error in result.errors] == [
        (3, "zero-count"),
        (4, "bad-count"),
        (5, "bad-count"),
        (6, "count-too-large"),
        (7, "zero-count"),
        (8, "unknown-heading"),
    ]
    assert result.errors[5].params["heading"] == "Sideboard"
    assert [(line.line, line.zone, line.zone_failed) for line in result.lines] == [
        (2, "characters", False),
        (9, None, True),  # under a heading that failed: no zone to check against
        (11, "lands", False),
    ]
    assert result.errors[3].params == {"count": 100, "maximum": MAX_COUNT}
    assert str(result.errors[0]) == "line 3: a count of 0 adds nothing; leave the line out or write at least 1"
    assert "no zone called 'Sideboard'" in result.errors[5].message()
    assert "characters, lands" in result.errors[5].message()


def test_a_fixed_zone_cannot_be_listed():
    result = parse("初期デッキ：\n4 EB1-001\nサプライ：\n1 EB1-008", "endbreaker")
    assert [(error.line, error.code, error.params["zone"]) for error in result.errors] == [
        (1, "fixed-zone", "starting")
    ]
    assert [(line.zone, line.zone_failed) for line in result.lines] == [(None, True), ("supply", False)]


def test_max_count_is_the_services_limit():
    assert MAX_COUNT == services.MAX_COPIES_PER_ENTRY


# --- format -----------------------------------------------------------------------------------------


def test_format_writes_headings_in_the_language_and_reads_back():
    rules = get_rules("endbreaker")
    zones = {
        "jobs": [ListedCard(1, "テストジョブ", "EB9-003")],
        "supply": [ListedCard(1, "テスト居合い", "EB9-001"), ListedCard(1, "EB9-002", "EB9-002")],
    }
    text = format_decklist(rules, zones, "ja", title=["テストデッキ"])
    assert text.splitlines() == [
        "# テストデッキ",
        "",
        "サプライ（アビリティ9種）：",
        "1 EB9-001 テスト居合い",
        "1 EB9-002",
        "",
        "ジョブの山：",
        "1 EB9-003 テストジョブ",
    ]
    assert text.endswith("テストジョブ\n")
    english = format_decklist(rules, zones, "en")
    assert english.startswith("Supply (9 ability piles):\n")
    for language in LANGUAGES:
        result = parse_decklist(format_decklist(rules, zones, language), rules)
        assert not result.errors
        assert [(line.zone, line.count, line.name) for line in result.lines] == [
            ("supply", 1, "EB9-001 テスト居合い"),
            ("supply", 1, "EB9-002"),
            ("jobs", 1, "EB9-003 テストジョブ"),
        ]


# --- resolving ----------------------------------------------------------------------------------------


def resolved_keys(slug: str, text: str):
    result = resolve_decklist(game(slug), text, "ja")
    assert not result.errors, [error.message() for error in result.errors]
    return [(zone, found.key, count) for zone, found, count in result.entries]


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("テスト林沖", "901"),  # Japanese name
        ("測試林沖", "901"),  # Traditional Chinese name
        ("测试林冲", "901"),  # Simplified Chinese input
        ("てすとらびしゃん", "902"),  # hiragana for katakana
        ("ﾃｽﾄﾗﾋﾞｼｬﾝ", "902"),  # half-width katakana
        ("測試拉比香", "902"),
        ("901", "901"),  # number
        ("901 テスト林沖", "901"),  # number and name, as exported
        ("901 测试林冲", "901"),  # number and a name in another language
        ("テスト人物03", "テスト人物03"),  # key (no number)
        ("テスト人物０３", "テスト人物03"),  # full-width digits
    ],
)
def test_names_in_any_language_and_numbers_resolve(synthetic_cards, text, key):
    assert resolved_keys("suikoden", f"2 {text}") == [("characters", key, 2)]


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("EB9-001", "EB9-001"),
        ("eb9-001", "EB9-001"),
        ("ＥＢ９－００１", "EB9-001"),
        ("EB9-001 テスト居合い", "EB9-001"),
        ("測試居合", "EB9-001"),
    ],
)
def test_endbreaker_numbers(synthetic_cards, text, key):
    assert resolved_keys("endbreaker", f"1 {text}") == [("supply", key, 1)]


def test_english_names_ignore_case_spaces_and_punctuation(synthetic_cards):
    assert resolved_keys("epicbattles", "1 test-zero\n4 Test punch\n2 TestKick\n1 Test Zero") == [
        ("character", "Test-Zero", 1),
        ("deck", "Test Punch", 4),
        ("deck", "Test Kick", 2),
        ("character", "Test-Zero", 1),
    ]


def test_same_card_twice_adds_up(synthetic_cards):
    result = resolve_decklist(game("shadowera"), "Deck:\n2 Test Ally 01\nTest Ally 01 x2\n", "en")
    deck = services.create_deck(owner=make_user("adder"), game=game("shadowera"), name="t", entries=result.entries)
    assert [(e.card.key, e.count) for e in deck.entries.all()] == [("Test Ally 01", 4)]


def test_ambiguous_name_lists_the_candidates(synthetic_cards):
    result = resolve_decklist(game("suikoden"), "1 テスト林沖\n1 テスト双子", "ja")
    assert [(error.line, error.code) for error in result.errors] == [(2, "ambiguous")]
    assert [candidate.key for candidate in result.errors[0].candidates] == ["テスト双子A", "テスト双子B"]
    # The key of either resolves it.
    assert resolved_keys("suikoden", "1 テスト双子B") == [("characters", "テスト双子B", 1)]


def test_unknown_card_lists_up_to_five_candidates(synthetic_cards):
    text = "\n".join(["人物：", "1 テスト林沖", "", "", "", "", "1 テスト林"])
    result = resolve_decklist(game("suikoden"), text, "ja")
    assert [(error.line, error.code) for error in result.errors] == [(7, "unknown-card")]
    error = result.errors[0]
    assert error.params == {"name": "テスト林"}
    assert error.candidates[0].key == "901"
    assert 1 <= len(error.candidates) <= 5
    assert error.message().startswith("line 7: no card named 'テスト林'; did you mean: 901 テスト林沖")
    # Any common prefix finds many cards; at most 5 are offered.
    many = resolve_decklist(game("suikoden"), "1 テスト", "ja").errors[0]
    assert many.code == "unknown-card"
    assert len(many.candidates) == 5


def test_typo_finds_similar_names(synthetic_cards):
    error = resolve_decklist(game("epicbattles"), "1 Tset Punch", "en").errors[0]
    assert error.code == "unknown-card"
    assert "Test Punch" in [candidate.key for candidate in error.candidates]


def test_number_with_a_name_of_another_card_is_reported(synthetic_cards):
    error = resolve_decklist(game("endbreaker"), "1 EB9-001 テストシールド", "ja").errors[0]
    assert error.code == "number-mismatch"
    assert error.params == {"number": "EB9-001", "name": "テストシールド", "card": "テスト居合い"}
    assert [candidate.key for candidate in error.candidates][:2] == ["EB9-001", "EB9-002"]


def test_only_a_printed_number_before_a_name_counts_as_a_number(synthetic_cards):
    error = resolve_decklist(game("shadowera"), "2 TST-001 Test Ally 02", "en").errors[0]
    assert (error.code, error.params["card"]) == ("number-mismatch", "Test Ally 01")
    assert [candidate.key for candidate in error.candidates][:2] == ["Test Ally 01", "Test Ally 02"]
    assert resolved_keys("shadowera", "2 tst-001 テストアリー01") == [("deck", "Test Ally 01", 2)]
    # The first word of a name is not a number even when it is another card's key.
    error = resolve_decklist(game("suikoden"), "1 テスト人物03 テスト林沖", "ja").errors[0]
    assert error.code == "unknown-card"


def test_card_in_the_wrong_zone_is_an_error_naming_the_line(synthetic_cards):
    result = resolve_decklist(game("suikoden"), "土地：\n1 テスト土地01\n1 テスト林沖", "ja")
    assert [(error.line, error.code) for error in result.errors] == [(3, "wrong-zone")]
    assert result.errors[0].params["suggested"] == "characters"
    with translation.override("en"):
        assert describe_line(result.errors[0], "suikoden") == (
            "Line 3: テスト林沖 is a card of kind Character and cannot go in Lands. It goes in Characters."
        )


def test_lines_without_heading_go_to_the_first_zone_that_takes_the_card(synthetic_cards):
    assert resolved_keys("suikoden", "1 901\n2 903") == [("characters", "901", 1), ("lands", "903", 2)]
    assert resolved_keys("shadowera", "1 Test Hero 01\n4 TST-001") == [
        ("hero", "Test Hero 01", 1),
        ("deck", "Test Ally 01", 4),
    ]
    assert resolved_keys("epicbattles", "Test-Zero\n4 Test Punch\n1 Test Side Guard") == [
        ("character", "Test-Zero", 1),
        ("deck", "Test Punch", 4),
        ("deck", "Test Side Guard", 1),
    ]
    # A card of unknown kind: the zone that takes the most kinds (Endbreaker: every zone takes one; the first).
    assert resolved_keys("endbreaker", "EB9-001\nEB9-003\nEB9-004\nEB9-006") == [
        ("supply", "EB9-001", 1),
        ("jobs", "EB9-003", 1),
        ("masquerades", "EB9-004", 1),
        ("supply", "EB9-006", 1),
    ]
    # Under a heading, a card of unknown kind is let through (the verdict reports it).
    assert resolved_keys("endbreaker", "ジョブの山：\nEB9-006") == [("jobs", "EB9-006", 1)]


def test_card_no_zone_takes(synthetic_cards):
    result = resolve_decklist(game("endbreaker"), "1 EB9-001\n7 EB9-005", "ja")
    assert [(error.line, error.code) for error in result.errors] == [(2, "no-zone")]


def test_too_many_copies_in_all(synthetic_cards):
    result = resolve_decklist(game("shadowera"), "Deck:\n60 Test Ally 01\n40 Test Ally 01", "en")
    assert [(error.line, error.code) for error in result.errors] == [(3, "count-too-large")]


def test_empty_list(synthetic_cards):
    result = resolve_decklist(game("shadowera"), "# nothing\n\n", "en")
    assert [(error.line, error.code) for error in result.errors] == [(None, "empty")]


def test_messages_in_the_reader_language(synthetic_cards):
    result = resolve_decklist(game("suikoden"), "人物：\n3 なにもない\nSideboard:\n0 テスト林沖", "ja")
    assert [error.code for error in result.errors] == ["unknown-card", "unknown-heading", "zero-count"]
    with translation.override("en"):
        texts = [describe_line(error, "suikoden") for error in result.errors]
    assert texts[0] == "Line 2: No card named “なにもない”."
    assert texts[1] == "Line 3: No zone called “Sideboard” in this game. Zones: Characters, Lands."
    with translation.override("ja"):
        japanese = describe(result.errors[0], "suikoden")
    assert japanese == "「なにもない」という名前のカードはありません。"
    with translation.override("zh-hant"):
        assert describe_line(result.errors[0], "suikoden") == "第2行：沒有名為「なにもない」的卡片。"


# --- writing: all or nothing ------------------------------------------------------------------------


def entry_rows(deck: Deck) -> set[tuple[str, str, int]]:
    return {(e.zone, e.card.key, e.count) for e in DeckEntry.objects.filter(deck=deck).select_related("card")}


def test_nothing_is_saved_when_any_line_fails(synthetic_cards):
    owner = make_user("owner")
    deck = services.create_deck(
        owner=owner, game=game("suikoden"), name="before", entries=[("characters", card("suikoden", "901"), 1)]
    )
    before, total = entry_rows(deck), DeckEntry.objects.count()
    result = import_decklist(deck, "人物：\n1 テスト林沖\n1 テストラビシャン\n1 存在しない", "ja")
    assert [error.line for error in result.errors] == [4]
    assert entry_rows(deck) == before
    assert DeckEntry.objects.count() == total
    decks = Deck.objects.count()
    new, result = create_from_decklist(owner=owner, game=game("suikoden"), name="new", text="1 テスト双子")
    assert new is None
    assert result.errors[0].code == "ambiguous"
    assert Deck.objects.count() == decks
    assert DeckEntry.objects.count() == total


def test_import_replaces_every_entry(synthetic_cards):
    owner = make_user("owner")
    deck = services.create_deck(
        owner=owner, game=game("suikoden"), name="d", entries=[("characters", card("suikoden", "901"), 1)]
    )
    result = import_decklist(deck, "人物：\n1 テストラビシャン\n土地：\n2 測試土地01", "ja")
    assert result.ok
    assert entry_rows(deck) == {("characters", "902", 1), ("lands", "903", 2)}


# --- export and round trips ---------------------------------------------------------------------------

ROUND_TRIP_DECKS = {
    "endbreaker": [
        ("supply", "EB9-001", 1),
        ("supply", "EB9-002", 1),
        ("supply", "EB9-006", 1),
        ("jobs", "EB9-003", 1),
        ("masquerades", "EB9-004", 1),
    ],
    "shadowera": [("hero", "Test Hero 01", 1), ("deck", "Test Ally 01", 4), ("deck", "Test Ally 02", 3)],
    "suikoden": [
        ("characters", "901", 1),
        ("characters", "テスト人物03", 1),
        ("characters", "テスト双子A", 1),  # its name names two cards: exported by key
        ("characters", "テスト双子B", 1),
        ("lands", "903", 2),
        ("lands", "テスト土地02", 1),
    ],
    "epicbattles": [
        ("character", "Test-Zero", 1),
        ("deck", "Test Punch", 4),
        ("deck", "Test Kick", 2),
        ("side", "Test Side Guard", 1),
    ],
}


def make_deck(owner, slug: str, **fields) -> Deck:
    entries = [(zone, card(slug, key), count) for zone, key, count in ROUND_TRIP_DECKS[slug]]
    return services.create_deck(owner=owner, game=game(slug), name=f"テスト {slug}", entries=entries, **fields)


@pytest.mark.parametrize("slug", GAMES)
@pytest.mark.parametrize("language", LANGUAGES)
def test_export_then_import_gives_the_same_deck(synthetic_cards, slug, language):
    owner = make_user("owner")
    deck = make_deck(owner, slug)
    text = export_text(deck, language)
    rules = get_rules(slug)
    for zone in {zone for zone, _key, _count in ROUND_TRIP_DECKS[slug]}:
        assert f"{pick(rules.zone(zone).labels, language)}" in text
    copy, result = create_from_decklist(owner=owner, game=game(slug), name="copy", text=text, language=language)
    assert copy is not None, [error.message() for error in result.errors]
    assert entry_rows(copy) == entry_rows(deck) == set(ROUND_TRIP_DECKS[slug])


def test_export_text_writes_numbers_and_names(synthetic_cards):
    deck = make_deck(make_user("owner"), "suikoden")
    text = export_text(deck, "zh-hant")
    assert text.splitlines() == [
        "# テスト suikoden (乙女遊戯 水滸伝)",
        "",
        "人物：",
        "1 901 測試林沖",
        "1 テスト人物03",
        "1 テスト双子A",
        "1 テスト双子B",
        "",
        "土地：",
        "2 903 測試土地01",
        "1 テスト土地02",
    ]


def test_export_data(synthetic_cards):
    deck = make_deck(make_user("owner"), "shadowera", options={"copies": 3})
    data = export_data(deck, "ja")
    assert data == {
        "format": "cardsite-deck/1",
        "game": "shadowera",
        "name": "テスト shadowera",
        "description": "",
        "mode": "default",
        "options": {"copies": 3},
        "language": "ja",
        "zones": {
            "hero": [{"key": "Test Hero 01", "number": None, "name": "テストヒーロー01", "count": 1}],
            "deck": [
                {"key": "Test Ally 01", "number": "TST-001", "name": "テストアリー01", "count": 4},
                {"key": "Test Ally 02", "number": None, "name": "Test Ally 02", "count": 3},
            ],
        },
    }


# --- pages ----------------------------------------------------------------------------------------------


def test_import_page_needs_an_account(client, synthetic_cards):
    response = client.get(reverse("decklist:import"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_import_page_shows_problems_and_keeps_the_text(client, synthetic_cards, owner):
    client.force_login(owner)
    text = "人物：\n1 テスト林沖\n1 テスト双子\n土地：\n1 テスト林"
    decks = Deck.objects.count()
    response = client.post(
        reverse("decklist:import"),
        {"game": "suikoden", "name": "取り込み", "text": text},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 400
    page = response.content.decode()
    assert "Line 3: “テスト双子” names several cards" in page
    assert "Line 5: No card named “テスト林”." in page
    assert "テスト双子A" in page and "テスト双子B" in page  # the candidates
    assert 'name="use" value="5|901"' in page  # a candidate mends its line in place
    assert "1 テスト林沖\n1 テスト双子" in page  # the text as it was
    assert Deck.objects.count() == decks


def test_a_suggestion_taken_mends_its_line_in_place_and_saves_nothing(client, synthetic_cards, owner):
    client.force_login(owner)
    text = "人物：\n1 テスト林沖\n土地：\n2 テスト林"
    data = {"game": "suikoden", "name": "取り込み", "text": text, "use": "4|903"}
    response = client.post(reverse("decklist:import"), data, HTTP_ACCEPT_LANGUAGE="en", HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    mended = response.context["form"].data["text"]
    assert mended.splitlines() == ["人物：", "1 テスト林沖", "土地：", "2 903"]
    assert not response.context["problems"] and not Deck.objects.filter(name="取り込み").exists()
    response = client.post(reverse("decklist:import"), {"game": "suikoden", "name": "取り込み", "text": mended})
    assert response.status_code == 302
    assert entry_rows(Deck.objects.get(name="取り込み")) == {("characters", "901", 1), ("lands", "903", 2)}


def test_a_found_card_under_the_wrong_heading_is_not_suggested_back_but_moved(client, synthetic_cards, owner):
    client.force_login(owner)
    text = "Deck:\n1 Test-Zero\n4 Test Punch\n"
    data = {"game": "epicbattles", "name": "Moved", "text": text}
    response = client.post(reverse("decklist:import"), data, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    (problem,) = response.context["problems"]
    assert problem["candidates"] == [] and problem["move_to"]["zone"] == "character"
    assert "Did you mean" not in response.content.decode()
    response = client.post(reverse("decklist:import"), {**data, "move": "2|character"}, HTTP_ACCEPT_LANGUAGE="en")
    mended = response.context["form"].data["text"]
    assert mended.splitlines() == ["Deck:", "4 Test Punch", "Character:", "1 Test-Zero"]
    assert not response.context["problems"]


def test_import_page_makes_the_deck(client, synthetic_cards, owner):
    client.force_login(owner)
    response = client.post(
        reverse("decklist:import"),
        {"game": "shadowera", "name": "Imported", "text": "Hero:\nTest Hero 01\nDeck:\n4 Test Ally 01"},
    )
    deck = Deck.objects.get(name="Imported")
    assert response.status_code == 302
    assert response["Location"] == reverse("decks:detail", args=[deck.pk])
    assert deck.owner == owner
    assert entry_rows(deck) == {("hero", "Test Hero 01", 1), ("deck", "Test Ally 01", 4)}


def test_replace_page(client, synthetic_cards, owner, other):
    deck = make_deck(owner, "suikoden", visibility=Deck.Visibility.LINK)
    url = reverse("decklist:replace", args=[deck.pk])
    client.force_login(owner)
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "1 901 テスト林沖" in page  # the deck's own list to start from
    response = client.post(url, {"text": "人物：\n1 テストラビシャン\n1 存在しない"}, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    assert "Line 3: No card named “存在しない”." in response.content.decode()
    assert entry_rows(deck) == set(ROUND_TRIP_DECKS["suikoden"])
    response = client.post(url, {"text": "人物：\n1 テストラビシャン"})
    assert response.status_code == 302
    assert entry_rows(deck) == {("characters", "902", 1)}


@pytest.mark.parametrize("visibility", [Deck.Visibility.LINK, Deck.Visibility.PRIVATE])
def test_replace_only_by_the_owner(client, synthetic_cards, owner, other, visibility):
    deck = make_deck(owner, "suikoden", visibility=visibility)
    url = reverse("decklist:replace", args=[deck.pk])
    visible = False  # by its number, someone else never sees a deck (a shared one only through its link)
    for who in (None, other):
        if who is not None:
            client.force_login(who)
        assert client.get(url).status_code == (403 if visible else 404)
        assert client.post(url, {"text": "1 テストラビシャン"}).status_code == (403 if visible else 404)
    assert entry_rows(deck) == set(ROUND_TRIP_DECKS["suikoden"])


def test_export_views(client, synthetic_cards, owner, other):
    deck = make_deck(owner, "epicbattles")
    text_url = reverse("decklist:export_text", args=[deck.pk])
    json_url = reverse("decklist:export_json", args=[deck.pk])
    client.force_login(owner)
    response = client.get(text_url, {"lang": "en"})
    assert response.status_code == 200
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert response["Content-Disposition"].startswith("attachment;")
    assert response.content.decode().splitlines()[2:4] == ["Character:", "1 Test-Zero"]
    response = client.get(json_url, {"lang": "en"})
    assert response["Content-Type"] == "application/json"
    data = json.loads(response.content)
    assert (data["game"], data["mode"], data["options"]) == ("epicbattles", "default", {})
    assert data["zones"]["side"] == [{"key": "Test Side Guard", "number": None, "name": "Test Side Guard", "count": 1}]
    # Others: a private deck is not found; a deck shared by link only through its token.
    client.force_login(other)
    assert client.get(text_url).status_code == 404
    assert client.get(json_url).status_code == 404
    services.update_deck(deck, visibility=Deck.Visibility.LINK)
    assert client.get(text_url).status_code == 404
    shared = client.get(reverse("decklist:shared_export_text", args=[deck.share_token]))
    assert shared.status_code == 200
    assert "4 テストパンチ" in shared.content.decode()
    assert client.get(reverse("decklist:shared_export_json", args=[deck.share_token])).status_code == 200
    services.update_deck(deck, visibility=Deck.Visibility.PRIVATE)
    client.logout()
    assert client.get(text_url).status_code == 404


def test_deck_page_links_to_export_and_replace(client, synthetic_cards, owner, other):
    deck = make_deck(owner, "shadowera", visibility=Deck.Visibility.LINK)
    client.force_login(owner)
    page = client.get(reverse("decks:detail", args=[deck.pk])).content.decode()
    assert reverse("decklist:export_text", args=[deck.pk]) in page
    assert reverse("decklist:replace", args=[deck.pk]) in page
    client.force_login(other)
    page = client.get(reverse("decks:shared", args=[deck.share_token])).content.decode()
    assert reverse("decklist:shared_export_json", args=[deck.share_token]) in page
    assert reverse("decklist:replace", args=[deck.pk]) not in page
