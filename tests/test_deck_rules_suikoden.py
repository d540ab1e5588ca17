"""Deck construction rules of 乙女遊戯 水滸伝 (decks/rules/suikoden.py), on synthetic cards: no database.

Source: seed 002 (1. 牌組構築型對戰; games.md for the boxes). Every message is compared whole, in ja, zh-hant and en.
What every game's rules share is tested in tests/test_deck_rules_base.py.
"""

from __future__ import annotations

import pytest

from decks.rules import get_rules
from decks.rules.base import CardInfo, DeckSpec

from .deck_rules_helpers import (
    KIND,
    LANGUAGES,
    Statements,
    assert_legal,
    card,
    check,
    copies,
    n_cards,
    only,
    spec,
    summary,
    texts,
)

# Rule statements as the sources give them (ja, zh-hant, en), for the messages that quote them.
STATEMENTS = Statements(
    {
        "suikoden.character-zone": (
            "人物の欄には人物カードのみ",
            "人物區只能放人物卡",
            "Only characters among the characters",
        ),
        "suikoden.land-zone": ("土地の欄には土地カードのみ", "土地區只能放土地卡", "Only lands among the lands"),
        "suikoden.cheap-characters": (
            "コストなし、または白1つだけの人物が10枚以上",
            "不需代價或代價為白色一點的人物須在10張以上",
            "At least 10 characters that cost nothing or exactly one white",
        ),
        "suikoden.land-value": ("土地の価値の合計は10以下", "土地總價值不能超過10點", "Total land value at most 10"),
    }
)
listed, unknown = STATEMENTS.listed, STATEMENTS.unknown


NON_CHEAP = ("仁1", "白2", "白1義1")  # a cost, two whites, one white and one more: none is "nothing or one white"


def character(number: int, cost: str | None = "仁1") -> CardInfo:
    fields = {"colour": "仁", "attack": 5, "defense": 4, "intelligence": 3, "specialties": ["騎馬"]}
    if cost is not None:
        fields["cost"] = cost
    return card(f"{number:03d}", "character", f"人物{number:03d}", **fields)


def land(number: int, value: int | None = 1) -> CardInfo:
    fields = {"leader": 5, "land_defense": 1, "repair": 3, "commerce": 4, "hunting": 4, "land_type": "山"}
    if value is not None:
        fields["value"] = value
    return card(f"L{number:02d}", "land", f"土地{number:02d}", **fields)


def characters(total: int = 40, cheap: int = 10, start: int = 1) -> list[tuple[CardInfo, int]]:
    """``total`` different characters, the first ``cheap`` of them costing "0" or "白1"."""
    return [(character(start + i, ("0", "白1")[i % 2] if i < cheap else NON_CHEAP[i % 3]), 1) for i in range(total)]


def lands(*values: int, copies: int = 2) -> list[tuple[CardInfo, int]]:
    return [(land(i + 1, value), copies) for i, value in enumerate(values)]


def land_count(total: int) -> list[tuple[CardInfo, int]]:
    """``total`` lands of value 1, two of each kind."""
    return lands(*[1] * (total // 2)) + ([(land(99), 1)] if total % 2 else [])


def suikoden(chars=None, lands_=None, mode: str = "construction", **options) -> DeckSpec:
    return spec(
        "suikoden",
        {
            "characters": characters() if chars is None else chars,
            "lands": lands(1, 2, 1) if lands_ is None else lands_,  # 6 lands, value 8
        },
        mode,
        **options,
    )


class TestSuikoden:
    def test_legal_deck(self):
        assert_legal(suikoden())

    def test_default_mode_is_construction(self):
        assert_legal(suikoden(mode="default"))
        assert summary(check(suikoden(characters(39), mode="default"))) == [("suikoden.characters", "violation")]

    def test_40_characters_pass(self):
        assert sum(count for _, count in characters()) == 40
        assert_legal(suikoden(characters()))

    @pytest.mark.parametrize("total", [39, 41])
    def test_characters_exactly_40(self, total):
        finding = only(suikoden(characters(total)), "suikoden.characters")
        assert finding.texts == texts(
            f"人物：{total}枚（ちょうど40枚）",
            f"人物：{total}張（須剛好40張）",
            f"Characters: {n_cards(total)} (exactly 40)",
        )

    @pytest.mark.parametrize("total", [4, 10])
    def test_lands_4_to_10_pass(self, total):
        assert_legal(suikoden(lands_=land_count(total)))

    def test_3_lands(self):
        finding = only(suikoden(lands_=land_count(3)), "suikoden.lands")
        assert finding.texts == texts("土地：3枚（4〜10枚）", "土地：3張（4至10張）", "Lands: 3 cards (4 to 10)")

    def test_11_lands_also_exceed_the_value(self):
        # Every land is worth at least one ☆ (games.md), so 11 lands always exceed the value of 10 too.
        verdict = check(suikoden(lands_=land_count(11)))
        assert summary(verdict) == [("suikoden.lands", "violation"), ("suikoden.land-value", "violation")]
        assert verdict.findings[0].texts == texts(
            "土地：11枚（4〜10枚）", "土地：11張（4至10張）", "Lands: 11 cards (4 to 10)"
        )

    def test_land_value_10_passes(self):
        assert_legal(suikoden(lands_=lands(3, 3, 2, 2, copies=1)))

    def test_land_value_over_10(self):
        finding = only(suikoden(lands_=lands(3, 3, 3, 2, copies=1)), "suikoden.land-value")
        assert finding.texts == texts(
            "土地の価値の合計は10以下：11（10以下）",
            "土地總價值不能超過10點：11（上限10）",
            "Total land value at most 10: 11 (at most 10)",
        )

    def test_land_value_counts_copies(self):
        finding = only(suikoden(lands_=lands(3, 3)), "suikoden.land-value")  # 2 × 3 + 2 × 3
        assert finding.texts["en"] == "Total land value at most 10: 12 (at most 10)"

    def test_cheap_characters_at_least_10(self):
        finding = only(suikoden(characters(cheap=9)), "suikoden.cheap-characters")
        assert finding.texts == texts(
            "コストなし、または白1つだけの人物が10枚以上：9枚（10枚以上必要）",
            "不需代價或代價為白色一點的人物須在10張以上：9張（至少需10張）",
            "At least 10 characters that cost nothing or exactly one white: 9 (10 or more needed)",
        )

    @pytest.mark.parametrize("cost", ["0", "白1", "白１", "０"])
    def test_what_counts_as_cheap(self, cost):
        # "０" and "白１" (full-width) mean the same costs as "0" and "白1".
        assert_legal(suikoden([*characters(39, cheap=9), (character(99, cost), 1)]))

    @pytest.mark.parametrize("cost", ["白2", "白1義1", "仁1", "白1仁1", "白11"])
    def test_what_does_not_count_as_cheap(self, cost):
        only(suikoden([*characters(39, cheap=9), (character(99, cost), 1)]), "suikoden.cheap-characters")

    def test_character_copies_one_box(self):
        chars = characters(39)
        chars[20] = (chars[20][0], 2)
        finding = only(suikoden(chars), "suikoden.character-copies")
        assert finding.texts == copies("人物021", 2, 1)
        assert finding.cards == ("人物021",)

    def test_land_copies_one_box(self):
        finding = only(suikoden(lands_=[(land(1), 3), (land(2), 2)]), "suikoden.land-copies")
        assert finding.texts == copies("土地01", 3, 2)

    def test_two_boxes_keep_the_limits(self):
        chars = characters(39)
        chars[20] = (chars[20][0], 2)
        assert summary(check(suikoden(chars, boxes=2))) == [("suikoden.character-copies", "violation")]
        assert summary(check(suikoden(lands_=[(land(1), 3), (land(2), 2)], boxes=2))) == [
            ("suikoden.land-copies", "violation")
        ]

    def test_four_boxes_allow_four_copies(self):
        chars = characters(37)
        chars[20] = (chars[20][0], 4)
        assert_legal(suikoden(chars, lands_=[(land(1), 4), (land(2), 4)], boxes=4))

    def test_four_boxes_five_copies(self):
        chars = characters(36)
        chars[20] = (chars[20][0], 5)
        verdict = check(suikoden(chars, lands_=[(land(1), 5), (land(2), 2)], boxes=4))
        assert summary(verdict) == [("suikoden.character-copies", "violation"), ("suikoden.land-copies", "violation")]
        assert verdict.findings[0].texts == copies("人物021", 5, 4)
        assert verdict.findings[1].texts == copies("土地01", 5, 4)

    def test_copy_statements_follow_the_boxes(self):
        rules = get_rules("suikoden")
        one = {rule.id: rule for rule in rules.rules("construction", {})}
        four = {rule.id: rule for rule in rules.rules("construction", {"boxes": 4})}
        assert one["suikoden.character-copies"].texts == texts(
            "同じ人物は1枚まで", "同一人物限1張", "At most 1 of each character"
        )
        assert one["suikoden.land-copies"].texts == texts(
            "同じ土地は2枚まで", "同一土地限2張", "At most 2 of each land"
        )
        assert four["suikoden.character-copies"].texts == texts(
            "同じ人物は4枚まで", "同一人物限4張", "At most 4 of each character"
        )
        assert four["suikoden.land-copies"].texts == texts(
            "同じ土地は4枚まで", "同一土地限4張", "At most 4 of each land"
        )

    def test_land_among_characters(self):
        chars = [*characters(39), (land(50), 1)]
        finding = only(suikoden(chars), "suikoden.character-zone")
        assert finding.texts == listed("suikoden.character-zone", "土地50")
        assert finding.cards == ("土地50",)

    def test_character_among_lands(self):
        # The character's land value does not exist: no "value unknown" for it, only the zone rule.
        finding = only(suikoden(lands_=[*lands(1, 2), (character(99), 1)]), "suikoden.land-zone")
        assert finding.texts == listed("suikoden.land-zone", "人物099")

    def test_several_breaks_at_once(self):
        chars = characters(38, cheap=8)
        chars[30] = (chars[30][0], 2)
        verdict = check(suikoden(chars, lands_=[(land(1, 3), 1), (land(2, 3), 1), (land(3, 3), 1), (land(4, 3), 3)]))
        assert summary(verdict) == [
            ("suikoden.characters", "violation"),
            ("suikoden.cheap-characters", "violation"),
            ("suikoden.land-value", "violation"),
            ("suikoden.character-copies", "violation"),
            ("suikoden.land-copies", "violation"),
        ]
        by_rule = {finding.rule: finding for finding in verdict.findings}
        assert by_rule["suikoden.characters"].texts["en"] == "Characters: 39 cards (exactly 40)"
        assert by_rule["suikoden.cheap-characters"].texts["en"].endswith(": 8 (10 or more needed)")
        assert by_rule["suikoden.land-value"].texts["en"].endswith(": 18 (at most 10)")
        assert by_rule["suikoden.character-copies"].texts == copies("人物031", 2, 1)
        assert by_rule["suikoden.land-copies"].texts == copies("土地04", 3, 2)

    def test_unknown_cost_that_could_make_up_the_minimum(self):
        chars = [*characters(39, cheap=9), (character(99, cost=None), 1)]
        finding = only(suikoden(chars), "suikoden.cheap-characters", "unchecked")
        assert finding.texts == unknown("suikoden.cheap-characters", ("コスト", "代價", "cost"), "人物099")
        assert finding.cards == ("人物099",)

    def test_unknown_costs_that_cannot_make_up_the_minimum(self):
        chars = [*characters(38, cheap=5), (character(98, cost=None), 1), (character(99, cost=None), 1)]
        verdict = check(suikoden(chars))
        assert summary(verdict) == [
            ("suikoden.cheap-characters", "violation"),
            ("suikoden.cheap-characters", "unchecked"),
        ]
        assert verdict.violations[0].texts["en"].endswith(": 5 (10 or more needed)")
        assert verdict.unchecked[0].texts == unknown(
            "suikoden.cheap-characters", ("コスト", "代價", "cost"), "人物098", "人物099"
        )

    def test_unknown_cost_when_the_minimum_is_met_anyway(self):
        # Ten cheap characters are known: the rule holds whatever the unknown cost is.
        chars = [*characters(39), (character(99, cost=None), 1)]
        assert_legal(suikoden(chars))

    def test_unknown_land_value(self):
        finding = only(suikoden(lands_=[*lands(1, 2), (land(9, None), 1)]), "suikoden.land-value", "unchecked")
        assert finding.texts == unknown("suikoden.land-value", ("価値", "價值", "value"), "土地09")

    def test_unknown_land_value_over_the_limit_anyway(self):
        verdict = check(suikoden(lands_=[*lands(3, 3), (land(9, None), 1)]))
        assert summary(verdict) == [("suikoden.land-value", "violation"), ("suikoden.land-value", "unchecked")]
        assert verdict.findings[0].texts["ja"] == "土地の価値の合計は10以下：12（10以下）"
        assert verdict.findings[1].cards == ("土地09",)

    def test_unknown_kind(self):
        stray = card("X01", None, "謎のカード", value=1)
        verdict = check(suikoden(lands_=[*lands(1, 2), (stray, 1)]))
        assert summary(verdict) == [("suikoden.land-zone", "unchecked")]
        assert verdict.findings[0].texts == unknown("suikoden.land-zone", KIND, "謎のカード")

    @pytest.mark.parametrize("mode", ["shared", "multiplayer"])
    def test_unchecked_modes(self, mode):
        for deck in (suikoden(mode=mode), suikoden([], [], mode=mode), suikoden(characters(12, cheap=0), mode=mode)):
            verdict = check(deck)
            assert verdict.checked is False
            assert verdict.findings == ()
            assert not verdict.legal
        assert get_rules("suikoden").rules(mode, {}) == []

    def test_each_mode_states_its_own_win_conditions(self):
        modes = get_rules("suikoden").modes
        assert [mode.slug for mode in modes] == ["construction", "shared", "multiplayer"]
        assert [mode.checked for mode in modes] == [True, False, False]
        for mode in modes:
            assert set(mode.win_conditions) == set(LANGUAGES)
        assert len({mode.win_conditions["zh-hant"] for mode in modes}) == 3
        # seed 002's texts
        assert modes[0].win_conditions["zh-hant"] == "(1) 擊破對方所有土地\n(2) 獲得10點戰果\n(3) 對方牌庫用完"
        assert modes[1].win_conditions["zh-hant"] == "(1) 獲得價值10以上土地\n(2) 擊退數20以上\n(3) 獲得戰果10點"
        assert modes[2].win_conditions["zh-hant"] == "(1) 獲得價值10以上的土地\n(2) 獲得戰果10點"


def test_statements_quoted_above_are_the_rules_own():
    STATEMENTS.assert_the_rules_own("suikoden")
