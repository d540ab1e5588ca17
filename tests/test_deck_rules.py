"""Deck construction rules of the four games (decks/rules), on synthetic cards: no database.

Sources: seed 000 (エンドブレイカー！SCG, 遊戲準備), seed 001 and games.md (Shadow Era),
seed 002 (乙女遊戯 水滸伝, 1. 牌組構築型對戰; games.md for the boxes), seed 003 (Epic Battles, 事前準備).
Every message is compared whole, in ja, zh-hant and en.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from decks.rules import get_rules
from decks.rules.base import CardInfo, DeckSpec, Entry, Finding, Verdict, validate

LANGUAGES = ("ja", "zh-hant", "en")

# --------------------------------------------------------------------------- helpers


def card(key: str, kind: str | None, name: str | None = None, **fields) -> CardInfo:
    return CardInfo(key=key, name=name or key, kind=kind, fields=fields)


def spec(game: str, zones: dict[str, list[tuple[CardInfo, int]]], mode: str = "default", **options) -> DeckSpec:
    return DeckSpec(
        game=game,
        zones={zone: tuple(Entry(info, count) for info, count in entries) for zone, entries in zones.items()},
        mode=mode,
        options=options,
    )


def check(deck: DeckSpec) -> Verdict:
    verdict = validate(get_rules(deck.game), deck)
    for finding in verdict.findings:
        assert set(finding.texts) == set(LANGUAGES), finding
        assert all(finding.texts.values()), finding
    return verdict


def summary(verdict: Verdict) -> list[tuple[str, str]]:
    return [(finding.rule, finding.kind) for finding in verdict.findings]


def assert_legal(deck: DeckSpec) -> None:
    verdict = check(deck)
    assert verdict.checked
    assert verdict.findings == (), [finding.texts["en"] for finding in verdict.findings]
    assert verdict.legal


def only(deck: DeckSpec, rule: str, kind: str = "violation") -> Finding:
    """The deck's one finding, which must be of ``rule`` and ``kind``."""
    verdict = check(deck)
    assert summary(verdict) == [(rule, kind)], [finding.texts["en"] for finding in verdict.findings]
    assert not verdict.legal
    return verdict.findings[0]


def texts(ja: str, zh: str, en: str) -> dict[str, str]:
    return {"ja": ja, "zh-hant": zh, "en": en}


def n_cards(count: int) -> str:
    return f"{count} card" if count == 1 else f"{count} cards"


# Rule statements as the sources give them (ja, zh-hant, en), for the messages that quote them.
STATEMENTS = {
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
    "epicbattles.character-kind": (
        "キャラクター欄にはキャラクターカードのみ",
        "角色區只能放角色卡",
        "The character must be a character card",
    ),
    "epicbattles.no-characters": (
        "デッキにキャラクターカードは入れられない",
        "牌組不能放角色卡",
        "No character cards in the deck",
    ),
    "epicbattles.named-character": (
        "キャラクター名を持つカードはそのキャラクターでのみ使用可",
        "帶角色名的卡只能配合該角色使用",
        "A card that names a character only with that character",
    ),
    "epicbattles.side-only-in-deck": (
        "“Side Deck only”のカードはデッキに入れられない",
        "“Side Deck only”的卡不能放入牌組",
        "No “Side Deck only” card in the deck",
    ),
    "epicbattles.side-only": (
        "サイドデッキは“Side Deck only”のカードのみ",
        "副牌只能放“Side Deck only”的卡",
        "Side deck cards are all “Side Deck only”",
    ),
    "epicbattles.side-different": (
        "サイドデッキはすべて異なるカード",
        "副牌須全部不同",
        "Side deck cards all different",
    ),
    "shadowera.hero-kind": ("ヒーロー欄にはヒーローカードのみ", "英雄區只能放英雄卡", "The hero must be a hero card"),
    "shadowera.deck-kinds": ("デッキにヒーローは入れられない", "牌組不能放英雄", "No heroes in the deck"),
    "shadowera.faction": (
        "ヒーローの陣営かニュートラルのカードのみ",
        "只能使用英雄陣營或中立的卡",
        "Only cards of the hero's faction or neutral",
    ),
    "shadowera.class": (
        "クラスアイコンのあるカードはそのクラスのヒーローのみ",
        "有職業圖示的卡只限該職業英雄",
        "Class cards only for a hero of that class",
    ),
    "endbreaker.supply-different": (
        "アビリティの山はすべて異なる",
        "特技牌堆須各不相同",
        "The 9 ability piles all different",
    ),
    "endbreaker.supply-kind": ("サプライにはアビリティのみ", "場中牌堆只能是特技", "Only abilities in the supply"),
    "endbreaker.jobs-different": ("ジョブの山はすべて異なる", "職業牌堆須各不相同", "The job piles all different"),
    "endbreaker.setup-jobs": (
        "ジョブの山は魔獣戦士・スカイランナー・デモニスタ",
        "職業牌堆為魔獸戰士、スカイランナー、デモニスタ",
        "The job piles are 魔獣戦士, スカイランナー and デモニスタ",
    ),
    "endbreaker.masquerades-different": (
        "マスカレイドはすべて異なる",
        "假面須各不相同",
        "The masquerades all different",
    ),
    "endbreaker.masquerade-kind": (
        "マスカレイド欄にはマスカレイドのみ",
        "假面區只能放假面",
        "Only masquerades among the masquerades",
    ),
}


def listed(rule: str, *names: str) -> dict[str, str]:
    """The violation that states ``rule`` and names the cards that break it."""
    ja, zh, en = STATEMENTS[rule]
    return texts(f"{ja}：{'、'.join(names)}", f"{zh}：{'、'.join(names)}", f"{en}: {', '.join(names)}")


def unknown(rule: str, field: tuple[str, str, str], *names: str) -> dict[str, str]:
    """The unchecked finding of ``rule``: ``field`` is unknown for the named cards."""
    ja, zh, en = STATEMENTS[rule]
    return texts(
        f"{ja}：次のカードの{field[0]}が不明なため確認できません：{'、'.join(names)}",
        f"{zh}：以下卡片的{field[1]}不明，無法檢查：{'、'.join(names)}",
        f"{en}: could not be checked, {field[2]} unknown for: {', '.join(names)}",
    )


def copies(name: str, count: int, limit: int) -> dict[str, str]:
    return texts(
        f"{name}：{count}枚（{limit}枚まで）",
        f"{name}：{count}張（上限{limit}張）",
        f"{name}: {count} copies (at most {limit})",
    )


KIND = ("種類", "種類", "kind")


def in_fours(make, total: int, start: int = 1) -> list[tuple[CardInfo, int]]:
    """``total`` cards as 4 copies of each kind (the last kind takes the rest)."""
    entries = []
    number = start
    while total > 0:
        entries.append((make(number), min(4, total)))
        total -= 4
        number += 1
    return entries


# --------------------------------------------------------------------------- 乙女遊戯 水滸伝 (seed 002)

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


# --------------------------------------------------------------------------- Epic Battles (seed 003)

RYU = card("SF-001", "character", "Ryu", franchise="street-fighter")
KEN = card("SF-002", "character", "Ken", franchise="street-fighter")
NAMED = ("キャラクター名", "角色名", "named character")
SIDE_ONLY = ("Side Deck only の記載", "Side Deck only 標記", "Side Deck only")
_UNSET = object()


def played(number: int, kind: str = "attack", character=_UNSET, side_only=_UNSET, name: str | None = None) -> CardInfo:
    """A played card with all its fields; ``character=None`` / ``side_only=None`` leave the value unknown."""
    fields = {
        "attack": {"position": "high", "trait": ["punch"], "damage": 3, "cost": 1, "follow_up": "kick"},
        "block": {"position": "low", "cost": 0},
        "event": {"cost": 2},
    }.get(kind, {})
    fields = dict(fields)
    if character is not None:
        fields["character"] = "none" if character is _UNSET else character
    if side_only is not None:
        fields["side_deck_only"] = False if side_only is _UNSET else side_only
    return card(f"EB-{number:03d}", kind, name or f"Card {number:03d}", **fields)


def played_kinds(number: int) -> CardInfo:
    return played(number, ("attack", "block", "event")[number % 3])


def eb_deck(total: int = 59) -> list[tuple[CardInfo, int]]:
    """``total`` (3 or more) cards: three of a card that names Ryu, then four of each."""
    return [(played(1, character="Ryu", name="Hadoken"), 3), *in_fours(played_kinds, total - 3, start=2)]


def side_deck(total: int = 6) -> list[tuple[CardInfo, int]]:
    return [(played(100 + i, "event", side_only=True, name=f"Side {i + 1}"), 1) for i in range(total)]


def epic(deck=None, side=None, characters=(RYU,)) -> DeckSpec:
    return spec(
        "epicbattles",
        {
            "character": [(info, 1) for info in characters],
            "deck": eb_deck() if deck is None else deck,
            "side": side_deck() if side is None else side,
        },
    )


class TestEpicBattles:
    def test_legal_deck(self):
        assert_legal(epic())

    def test_legal_without_a_side_deck(self):
        assert_legal(epic(side=[]))

    def test_59_cards_and_a_side_deck_of_6_pass(self):
        assert sum(count for _, count in eb_deck()) == 59
        assert sum(count for _, count in side_deck()) == 6
        assert_legal(epic(eb_deck(59), side_deck(6)))

    def test_no_character(self):
        # The card that names Ryu is not reported as well: there is no character to compare it with.
        finding = only(epic(characters=()), "epicbattles.character")
        assert finding.texts == texts(
            "キャラクター：0枚（ちょうど1枚）", "角色：0張（須剛好1張）", "Character: 0 cards (exactly 1)"
        )

    def test_two_characters(self):
        finding = only(epic(characters=(RYU, KEN)), "epicbattles.character")
        assert finding.texts["en"] == "Character: 2 cards (exactly 1)"

    def test_character_that_is_not_a_character_card(self):
        finding = only(epic(characters=(played(90, "event", name="Tournament"),)), "epicbattles.character-kind")
        assert finding.texts == listed("epicbattles.character-kind", "Tournament")

    @pytest.mark.parametrize("total", [58, 60])
    def test_deck_exactly_59(self, total):
        finding = only(epic(eb_deck(total)), "epicbattles.deck-size")
        assert finding.texts == texts(
            f"デッキ：{total}枚（ちょうど59枚）",
            f"牌組：{total}張（須剛好59張）",
            f"Deck: {n_cards(total)} (exactly 59)",
        )

    def test_four_copies_pass_five_do_not(self):
        deck = eb_deck()
        assert max(count for _, count in deck) == 4
        deck[1] = (deck[1][0], 5)
        deck[2] = (deck[2][0], 3)
        finding = only(epic(deck), "epicbattles.copies")
        assert finding.texts == copies(deck[1][0].name, 5, 4)

    def test_character_card_in_the_deck(self):
        deck = [*eb_deck(58), (KEN, 1)]
        finding = only(epic(deck), "epicbattles.no-characters")
        assert finding.texts == listed("epicbattles.no-characters", "Ken")

    def test_character_card_in_the_side_deck(self):
        finding = only(epic(side=[*side_deck(5), (KEN, 1)]), "epicbattles.no-characters")
        assert finding.cards == ("Ken",)

    def test_card_naming_another_character(self):
        deck = [*eb_deck(58), (played(80, character="Ken", name="Shoryuken"), 1)]
        finding = only(epic(deck), "epicbattles.named-character")
        assert finding.texts == listed("epicbattles.named-character", "Shoryuken")

    def test_side_card_naming_another_character(self):
        side = [*side_deck(5), (played(80, "event", character="Ken", side_only=True, name="Ken's Rival"), 1)]
        finding = only(epic(side=side), "epicbattles.named-character")
        assert finding.cards == ("Ken's Rival",)

    @pytest.mark.parametrize("named", ["Ryu", "ryu", "RYU", "SF-001", "None", "none"])
    def test_names_that_match(self, named):
        # Compared folded (case, width) with the character's name or key; "none" names no one.
        deck = [*eb_deck(58), (played(80, character=named), 1)]
        assert_legal(epic(deck))

    def test_a_card_may_name_the_character_in_another_language(self):
        # The character is shown by its Japanese name here; a card printed with "Ryu" still goes with it.
        ryu_in_japanese = CardInfo(
            "SF-001", "リュウ", "character", {"franchise": "street-fighter"}, names=("リュウ", "Ryu")
        )
        deck = [*eb_deck(58), (played(80, character="Ryu"), 1)]
        assert_legal(epic(deck, characters=(ryu_in_japanese,)))

    def test_side_only_card_in_the_deck(self):
        deck = [*eb_deck(58), (played(80, "event", side_only=True, name="Comeback"), 1)]
        finding = only(epic(deck), "epicbattles.side-only-in-deck")
        assert finding.texts == listed("epicbattles.side-only-in-deck", "Comeback")

    @pytest.mark.parametrize("total", [5, 7, 1, 12])
    def test_side_deck_0_or_6(self, total):
        finding = only(epic(side=side_deck(total)), "epicbattles.side-size")
        assert finding.texts == texts(
            f"サイドデッキ：{total}枚（0枚または6枚）",
            f"副牌：{total}張（0張或6張）",
            f"Side deck: {n_cards(total)} (0 or 6)",
        )

    def test_side_card_not_side_only(self):
        side = [*side_deck(5), (played(90, "event", name="Plain"), 1)]
        finding = only(epic(side=side), "epicbattles.side-only")
        assert finding.texts == listed("epicbattles.side-only", "Plain")

    def test_side_cards_all_different(self):
        side = side_deck(5)
        side[0] = (side[0][0], 2)
        finding = only(epic(side=side), "epicbattles.side-different")
        assert finding.texts == listed("epicbattles.side-different", "Side 1")

    def test_several_breaks_at_once(self):
        deck = [*eb_deck(57), (KEN, 1), (played(80, character="Ken", name="Shoryuken"), 1)]
        deck[1] = (deck[1][0], 6)
        side = [*side_deck(4), (played(90, "event", name="Plain"), 1)]
        verdict = check(epic(deck, side, characters=(RYU,)))
        assert summary(verdict) == [
            ("epicbattles.deck-size", "violation"),
            ("epicbattles.copies", "violation"),
            ("epicbattles.no-characters", "violation"),
            ("epicbattles.named-character", "violation"),
            ("epicbattles.side-size", "violation"),
            ("epicbattles.side-only", "violation"),
        ]
        assert verdict.findings[0].texts["en"] == "Deck: 61 cards (exactly 59)"
        assert verdict.findings[1].texts["en"] == f"{deck[1][0].name}: 6 copies (at most 4)"
        assert verdict.findings[4].texts["en"] == "Side deck: 5 cards (0 or 6)"

    def test_unknown_named_character(self):
        deck = [*eb_deck(58), (played(80, character=None, name="Mystery"), 1)]
        finding = only(epic(deck), "epicbattles.named-character", "unchecked")
        assert finding.texts == unknown("epicbattles.named-character", NAMED, "Mystery")

    def test_unknown_side_only_in_the_deck(self):
        deck = [*eb_deck(58), (played(80, side_only=None, name="Mystery"), 1)]
        finding = only(epic(deck), "epicbattles.side-only-in-deck", "unchecked")
        assert finding.texts == unknown("epicbattles.side-only-in-deck", SIDE_ONLY, "Mystery")

    def test_unknown_side_only_in_the_side_deck(self):
        side = [*side_deck(5), (played(90, "event", side_only=None, name="Mystery"), 1)]
        finding = only(epic(side=side), "epicbattles.side-only", "unchecked")
        assert finding.texts == unknown("epicbattles.side-only", SIDE_ONLY, "Mystery")

    def test_unknown_kind_in_the_deck(self):
        deck = [*eb_deck(58), (played(80, None, name="Mystery"), 1)]
        finding = only(epic(deck), "epicbattles.no-characters", "unchecked")
        assert finding.texts == unknown("epicbattles.no-characters", KIND, "Mystery")


# --------------------------------------------------------------------------- Shadow Era (games.md, wiki)

FACTION = ("陣営", "陣營", "faction")
CLASS = ("クラス", "職業", "class")
ALLOWED_FOR_SHADOW_MAGE = [
    ("shadow", ["none"]),
    ("neutral", ["none"]),
    ("shadow", ["mage"]),
    ("neutral", ["mage", "priest"]),
]


def hero(name: str = "Aldmor", faction: str | None = "shadow", classes=("mage",)) -> CardInfo:
    fields = {"health": 30, "ability_cost": 2, "set": "Core", "rarity": "legendary"}
    if faction is not None:
        fields["faction"] = faction
    if classes is not None:
        fields["class"] = list(classes)
    return card(f"SE-H-{name}", "hero", name, **fields)


def se_card(number: int, faction: str | None = "neutral", classes=("none",), kind: str = "ally", name=None) -> CardInfo:
    fields = {
        "cost": 2,
        "unique": False,
        "attack": 2,
        "damage_type": "melee",
        "health": 3,
        "set": "Core",
        "rarity": "common",
    }
    if faction is not None:
        fields["faction"] = faction
    if classes is not None:
        fields["class"] = list(classes)
    return card(f"SE-{number:03d}", kind, name or f"Card {number:03d}", **fields)


def se_allowed(number: int) -> CardInfo:
    faction, classes = ALLOWED_FOR_SHADOW_MAGE[number % 4]
    return se_card(number, faction, classes, kind=("ally", "ability", "weapon", "armor", "item")[number % 5])


def se_total(total: int) -> list[tuple[CardInfo, int]]:
    """A deck that, with its hero, holds ``total`` cards."""
    return in_fours(se_allowed, total - 1)


def neutral_deck(total: int) -> list[tuple[CardInfo, int]]:
    """``total`` neutral cards without class icons: any hero may use them."""
    return in_fours(se_card, total)


def shadowera(deck=None, heroes=None, **options) -> DeckSpec:
    return spec(
        "shadowera",
        {
            "hero": [(info, 1) for info in ((hero(),) if heroes is None else heroes)],
            "deck": se_total(40) if deck is None else deck,
        },
        **options,
    )


class TestShadowEra:
    def test_legal_deck(self):
        assert_legal(shadowera())

    @pytest.mark.parametrize("total", [40, 41, 79, 80])
    def test_sizes_that_pass(self, total):
        assert_legal(shadowera(se_total(total)))

    @pytest.mark.parametrize("total", [39, 81])
    def test_sizes_that_fail(self, total):
        finding = only(shadowera(se_total(total)), "shadowera.size")
        assert finding.texts == texts(
            f"ヒーローを含むデッキ：{total}枚（40〜80枚）",
            f"含英雄的牌組：{total}張（40至80張）",
            f"Deck with the hero: {n_cards(total)} (40 to 80)",
        )

    def test_no_hero(self):
        finding = only(shadowera(se_total(41), heroes=()), "shadowera.hero")  # 40 cards without a hero
        assert finding.texts == texts(
            "ヒーロー：0枚（ちょうど1枚）", "英雄：0張（須剛好1張）", "Hero: 0 cards (exactly 1)"
        )

    def test_two_heroes(self):
        finding = only(shadowera(se_total(39), heroes=(hero(), hero("Zhanna"))), "shadowera.hero")
        assert finding.texts["zh-hant"] == "英雄：2張（須剛好1張）"

    def test_hero_that_is_not_a_hero_card(self):
        finding = only(
            shadowera(heroes=(se_card(90, "shadow", name="Ally in the hero's place"),)), "shadowera.hero-kind"
        )
        assert finding.texts == listed("shadowera.hero-kind", "Ally in the hero's place")

    def test_hero_in_the_deck(self):
        deck = [*se_total(39), (hero("Zhanna"), 1)]
        finding = only(shadowera(deck), "shadowera.deck-kinds")
        assert finding.texts == listed("shadowera.deck-kinds", "Zhanna")

    def test_four_copies_pass_five_do_not(self):
        deck = se_total(40)
        deck[0] = (deck[0][0], 5)
        deck[1] = (deck[1][0], 3)
        finding = only(shadowera(deck), "shadowera.copies")
        assert finding.texts == copies(deck[0][0].name, 5, 4)

    def test_copies_option(self):
        deck = [(se_allowed(number), 2) for number in range(1, 21)]  # 41 with the hero, two of each
        assert_legal(shadowera(deck, copies=2))
        deck[0] = (deck[0][0], 3)
        finding = only(shadowera(deck, copies=2), "shadowera.copies")
        assert finding.texts == copies(deck[0][0].name, 3, 2)
        assert_legal(shadowera(deck))  # the default, 4

    def test_copies_option_declared(self):
        option = next(option for option in get_rules("shadowera").options if option.slug == "copies")
        assert option.default == 4
        assert set(option.help) == set(LANGUAGES)  # the Rule of Four is unconfirmed: the UI says so

    @pytest.mark.parametrize(("hero_faction", "faction"), [("shadow", "human"), ("human", "shadow")])
    def test_faction(self, hero_faction, faction):
        deck = [*neutral_deck(38), (se_card(90, faction, name="Wrong side"), 1)]
        finding = only(shadowera(deck, heroes=(hero(faction=hero_faction),)), "shadowera.faction")
        assert finding.texts == listed("shadowera.faction", "Wrong side")

    @pytest.mark.parametrize("faction", ["human", "shadow"])
    def test_hero_takes_its_faction_and_neutral(self, faction):
        deck = neutral_deck(19) + [(se_card(90 + number, faction), 4) for number in range(5)]
        assert_legal(shadowera(deck, heroes=(hero(faction=faction),)))

    def test_class(self):
        deck = [*se_total(39), (se_card(90, "shadow", ["warrior"], name="Warrior's blade"), 1)]
        finding = only(shadowera(deck), "shadowera.class")
        assert finding.texts == listed("shadowera.class", "Warrior's blade")

    def test_class_any_of_the_icons(self):
        assert_legal(shadowera([*se_total(39), (se_card(90, "shadow", ["warrior", "mage"]), 1)]))
        warrior = hero("Boris", classes=("warrior",))
        assert_legal(shadowera([*neutral_deck(38), (se_card(90, "shadow", ["warrior"]), 1)], heroes=(warrior,)))
        assert_legal(shadowera(neutral_deck(39), heroes=(hero("Twin", classes=("warrior", "mage")),)))

    def test_several_breaks_at_once(self):
        deck = [*se_total(77), (se_card(90, "human", ["warrior"], name="Paladin"), 5)]
        verdict = check(shadowera(deck, heroes=(hero(), hero("Zhanna"))))
        # With two heroes the faction and class cannot be compared (the hero rule reports the heroes).
        assert summary(verdict) == [
            ("shadowera.hero", "violation"),
            ("shadowera.size", "violation"),
            ("shadowera.copies", "violation"),
        ]
        assert verdict.findings[1].texts["en"] == "Deck with the hero: 83 cards (40 to 80)"
        verdict = check(shadowera(deck))
        assert summary(verdict) == [
            ("shadowera.size", "violation"),
            ("shadowera.copies", "violation"),
            ("shadowera.faction", "violation"),
            ("shadowera.class", "violation"),
        ]
        assert verdict.findings[0].texts["en"] == "Deck with the hero: 82 cards (40 to 80)"
        assert verdict.findings[1].texts == copies("Paladin", 5, 4)
        assert verdict.findings[2].cards == verdict.findings[3].cards == ("Paladin",)

    def test_unknown_card_faction(self):
        deck = [*se_total(39), (se_card(90, None, name="Mystery"), 1)]
        finding = only(shadowera(deck), "shadowera.faction", "unchecked")
        assert finding.texts == unknown("shadowera.faction", FACTION, "Mystery")

    def test_unknown_card_class(self):
        deck = [*se_total(39), (se_card(90, "shadow", None, name="Mystery"), 1)]
        finding = only(shadowera(deck), "shadowera.class", "unchecked")
        assert finding.texts == unknown("shadowera.class", CLASS, "Mystery")

    def test_unknown_hero_faction_names_the_hero(self):
        finding = only(shadowera(heroes=(hero(faction=None),)), "shadowera.faction", "unchecked")
        assert finding.texts == unknown("shadowera.faction", FACTION, "Aldmor")

    def test_unknown_hero_class_names_the_hero(self):
        finding = only(shadowera(heroes=(hero(classes=None),)), "shadowera.class", "unchecked")
        assert finding.texts == unknown("shadowera.class", CLASS, "Aldmor")

    def test_unknown_hero_values_with_only_neutral_and_classless_cards(self):
        # Neutral cards without class icons go with any hero: nothing depends on the unknown values.
        deck = [(se_card(number), 4) for number in range(1, 10)] + [(se_card(10), 3)]
        assert_legal(shadowera(deck, heroes=(hero(faction=None, classes=None),)))

    def test_unknown_kind(self):
        deck = [*se_total(39), (se_card(90, kind=None, name="Mystery"), 1)]
        finding = only(shadowera(deck), "shadowera.deck-kinds", "unchecked")
        assert finding.cards == ("Mystery",)


# --------------------------------------------------------------------------- エンドブレイカー！SCG (seed 000)

JOB_NAMES = ("魔獣戦士", "スカイランナー", "デモニスタ")


def ability(number: int) -> CardInfo:
    return card(f"EB1-{number:03d}", "ability", f"アビリティ{number:03d}", cost="PPT", skill="P", at=1, attribute="P")


def job(name: str) -> CardInfo:
    return card(name, "job", name, cost="PP", skill="PP", at=1, attribute="P")


def masquerade(number: int) -> CardInfo:
    return card(f"EB1-{number:03d}", "masquerade", f"マスカレイド{number:03d}", payout="6-4-2-0", damage=3, skill="PTS")


def supply(total: int = 9) -> list[tuple[CardInfo, int]]:
    return [(ability(8 + i), 1) for i in range(total)]


def masquerades(total: int = 3) -> list[tuple[CardInfo, int]]:
    return [(masquerade(50 + i), 1) for i in range(total)]


def endbreaker(supply_=None, jobs=None, masks=(), **options) -> DeckSpec:
    return spec(
        "endbreaker",
        {
            "supply": supply() if supply_ is None else supply_,
            "jobs": [(job(name), 1) for name in JOB_NAMES] if jobs is None else jobs,
            "masquerades": list(masks),
        },
        **options,
    )


class TestEndbreaker:
    def test_legal_setup(self):
        assert_legal(endbreaker())

    def test_legal_with_fixed_masquerades(self):
        assert_legal(endbreaker(masks=masquerades(), fixed_masquerades=True))

    @pytest.mark.parametrize("total", [8, 10])
    def test_supply_exactly_9(self, total):
        finding = only(endbreaker(supply(total)), "endbreaker.supply")
        assert finding.texts == texts(
            f"サプライ（アビリティ9種）：{total}枚（ちょうど9枚）",
            f"場中特技（9種）：{total}張（須剛好9張）",
            f"Supply (9 ability piles): {n_cards(total)} (exactly 9)",
        )

    def test_supply_all_different(self):
        piles = supply(8)
        piles[3] = (piles[3][0], 2)
        finding = only(endbreaker(piles), "endbreaker.supply-different")
        assert finding.texts == listed("endbreaker.supply-different", "アビリティ011")

    def test_supply_only_abilities(self):
        finding = only(endbreaker([*supply(8), (job("城塞騎士"), 1)]), "endbreaker.supply-kind")
        assert finding.texts == listed("endbreaker.supply-kind", "城塞騎士")

    def test_three_job_piles(self):
        finding = only(endbreaker(jobs=[(job("魔獣戦士"), 1), (job("デモニスタ"), 1)]), "endbreaker.jobs")
        assert finding.texts == texts(
            "ジョブの山：2枚（ちょうど3枚）", "職業牌堆：2張（須剛好3張）", "Job piles: 2 cards (exactly 3)"
        )

    def test_job_piles_all_different(self):
        finding = only(endbreaker(jobs=[(job("魔獣戦士"), 2), (job("デモニスタ"), 1)]), "endbreaker.jobs-different")
        assert finding.texts == listed("endbreaker.jobs-different", "魔獣戦士")

    def test_job_piles_are_the_three_of_the_seed(self):
        jobs = [(job("魔獣戦士"), 1), (job("スカイランナー"), 1), (job("城塞騎士"), 1)]
        finding = only(endbreaker(jobs=jobs), "endbreaker.setup-jobs")
        assert finding.texts == listed("endbreaker.setup-jobs", "城塞騎士")

    @pytest.mark.parametrize("total", [2, 4])
    def test_fixed_masquerades_exactly_3(self, total):
        finding = only(endbreaker(masks=masquerades(total), fixed_masquerades=True), "endbreaker.masquerades")
        assert finding.texts == texts(
            f"マスカレイド：{total}枚（ちょうど3枚）",
            f"假面：{total}張（須剛好3張）",
            f"Masquerades: {n_cards(total)} (exactly 3)",
        )

    def test_fixed_masquerades_none_chosen(self):
        finding = only(endbreaker(fixed_masquerades=True), "endbreaker.masquerades")
        assert finding.texts["en"] == "Masquerades: 0 cards (exactly 3)"

    def test_fixed_masquerades_all_different(self):
        masks = masquerades(2)
        masks[0] = (masks[0][0], 2)
        finding = only(endbreaker(masks=masks, fixed_masquerades=True), "endbreaker.masquerades-different")
        assert finding.texts == listed("endbreaker.masquerades-different", "マスカレイド050")

    def test_fixed_masquerades_only_masquerades(self):
        masks = [*masquerades(2), (ability(30), 1)]
        finding = only(endbreaker(masks=masks, fixed_masquerades=True), "endbreaker.masquerade-kind")
        assert finding.texts == listed("endbreaker.masquerade-kind", "アビリティ030")

    @pytest.mark.parametrize("total", [1, 3])
    def test_masquerades_not_fixed_none_chosen(self, total):
        finding = only(endbreaker(masks=masquerades(total)), "endbreaker.random-masquerades")
        assert finding.texts == texts(
            f"マスカレイド：{total}枚（ちょうど0枚）",
            f"假面：{total}張（須剛好0張）",
            f"Masquerades: {n_cards(total)} (exactly 0)",
        )
        assert summary(check(endbreaker(masks=masquerades(total), fixed_masquerades=False))) == [
            ("endbreaker.random-masquerades", "violation")
        ]

    def test_option_changes_the_rules(self):
        rules = get_rules("endbreaker")
        assert rules.default_options() == {"fixed_masquerades": False}
        loose = {rule.id for rule in rules.rules("default", {})}
        fixed = {rule.id for rule in rules.rules("default", {"fixed_masquerades": True})}
        assert "endbreaker.random-masquerades" in loose - fixed
        assert {
            "endbreaker.masquerades",
            "endbreaker.masquerades-different",
            "endbreaker.masquerade-kind",
        } <= fixed - loose

    def test_several_breaks_at_once(self):
        piles = [*supply(6), (job("城塞騎士"), 1)]
        piles[0] = (piles[0][0], 2)
        jobs = [(job("魔獣戦士"), 1), (job("狩猟者"), 1)]
        verdict = check(endbreaker(piles, jobs, masquerades(1), fixed_masquerades=True))
        assert summary(verdict) == [
            ("endbreaker.supply", "violation"),
            ("endbreaker.supply-different", "violation"),
            ("endbreaker.supply-kind", "violation"),
            ("endbreaker.jobs", "violation"),
            ("endbreaker.setup-jobs", "violation"),
            ("endbreaker.masquerades", "violation"),
        ]
        assert verdict.findings[0].texts["en"] == "Supply (9 ability piles): 8 cards (exactly 9)"
        assert verdict.findings[3].texts["en"] == "Job piles: 2 cards (exactly 3)"
        assert verdict.findings[5].texts == texts(
            "マスカレイド：1枚（ちょうど3枚）", "假面：1張（須剛好3張）", "Masquerades: 1 card (exactly 3)"
        )

    def test_unknown_kind_in_the_supply(self):
        finding = only(
            endbreaker([*supply(8), (card("EB1-099", None, "謎のアビリティ"), 1)]),
            "endbreaker.supply-kind",
            "unchecked",
        )
        assert finding.texts == unknown("endbreaker.supply-kind", KIND, "謎のアビリティ")

    def test_starting_deck(self):
        # 遊戲準備 5: 城塞騎士、狩獵者、星靈術士各２張；旅人的酒場４張 (旅人の酒場 is EB1-001).
        rules = get_rules("endbreaker")
        fixed = {fixed.key: fixed.count for fixed in rules.fixed_cards["starting"]}
        assert fixed == {"EB1-001": 4, "城塞騎士": 2, "狩猟者": 2, "星霊術士": 2}
        assert rules.zone("starting").fixed


# --------------------------------------------------------------------------- every game


@pytest.mark.parametrize("game", ["endbreaker", "shadowera", "suikoden", "epicbattles"])
def test_every_statement_in_three_languages(game):
    rules = get_rules(game)
    option_sets = [{}] + [{option.slug: choice} for option in rules.options for choice in option.choices]
    for mode in rules.modes:
        assert set(mode.labels) == set(LANGUAGES)
        for options in option_sets:
            for rule in rules.rules(mode.slug, options):
                assert set(rule.texts) == set(LANGUAGES), rule.id
                assert rule.id.startswith(f"{game}.")
    for zone in rules.zones:
        assert set(zone.labels) == set(LANGUAGES)


def test_statements_quoted_above_are_the_rules_own():
    for rule_id, statement in STATEMENTS.items():
        game = rule_id.split(".")[0]
        options = {"fixed_masquerades": True} if game == "endbreaker" else {}
        rules = {rule.id: rule for rule in get_rules(game).rules(get_rules(game).modes[0].slug, options)}
        assert (rules[rule_id].texts["ja"], rules[rule_id].texts["zh-hant"], rules[rule_id].texts["en"]) == statement


# --------------------------------------------------------------------------- properties


@settings(max_examples=60, deadline=None)
@given(total=st.integers(min_value=1, max_value=120))
def test_shadowera_size_holds_exactly_for_40_to_80(total):
    verdict = check(shadowera(se_total(total)))
    if 40 <= total <= 80:
        assert verdict.legal
    else:
        assert summary(verdict) == [("shadowera.size", "violation")]
        assert verdict.findings[0].texts["en"] == f"Deck with the hero: {n_cards(total)} (40 to 80)"


@settings(max_examples=80, deadline=None)
@given(
    counts=st.lists(st.integers(min_value=1, max_value=8), min_size=1, max_size=12),
    added=st.lists(
        st.tuples(st.integers(min_value=0, max_value=11), st.integers(min_value=1, max_value=4)), max_size=6
    ),
    limit=st.sampled_from((1, 2, 3, 4)),
)
def test_adding_copies_never_removes_a_copies_violation(counts, added, limit):
    rule = next(rule for rule in get_rules("shadowera").rules("default", {}) if rule.id == "shadowera.copies")

    def violating(entries):
        deck = spec("shadowera", {"deck": entries}, copies=limit)
        return {finding.cards for finding in rule.check(deck)}

    before = [(se_allowed(number), count) for number, count in enumerate(counts)]
    after = list(before)
    for index, extra in added:
        if index < len(after):
            after[index] = (after[index][0], after[index][1] + extra)
    assert violating(before) <= violating(after)
    assert violating(before) == {(info.name,) for info, count in before if count > limit}
