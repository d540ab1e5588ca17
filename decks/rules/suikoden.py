"""乙女遊戯 水滸伝: deck construction (seed 002, 1. 牌組構築型對戰; ../shared/games.md)."""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from typing import Any

from . import register
from .base import (
    AtLeastWhere,
    CardInfo,
    DeckRules,
    KindsOnly,
    MaxCopies,
    Mode,
    Option,
    PlaceholderKind,
    Rule,
    SumAtMost,
    Zone,
    ZoneSize,
)

CHARACTERS = {"ja": "人物", "zh-hant": "人物", "en": "Characters"}
LANDS = {"ja": "土地", "zh-hant": "土地", "en": "Lands"}
ADD_TO_CHARACTERS = {"ja": "人物に追加", "zh-hant": "加入人物", "en": "Add to characters"}
ADD_TO_LANDS = {"ja": "土地に追加", "zh-hant": "加入土地", "en": "Add to lands"}
COST = {"ja": "コスト", "zh-hant": "代價", "en": "cost"}
VALUE = {"ja": "価値", "zh-hant": "價值", "en": "value"}

# The costs that count towards the "cheap characters" minimum: no cost, or one white.
CHEAP_COSTS = frozenset({"0", "白1"})


def _is_cheap(card: CardInfo) -> bool | None:
    cost = card.value("cost")
    # The cost field's pattern also admits full-width digits ("白１"), which mean the same cost.
    return None if cost is None else unicodedata.normalize("NFKC", cost) in CHEAP_COSTS


def _rules(mode: str, options: Mapping[str, Any]) -> list[Rule]:
    four_boxes = options.get("boxes") == 4
    character_limit, land_limit = (4, 4) if four_boxes else (1, 2)
    return [
        # seed 002: 雙方選擇40張人物卡以及4-10張土地卡做為自己牌庫。
        ZoneSize(
            "suikoden.characters",
            {"ja": "人物カードはちょうど40枚", "zh-hant": "人物卡須剛好40張", "en": "Exactly 40 characters"},
            zones=("characters",),
            zone_labels=CHARACTERS,
            minimum=40,
            maximum=40,
        ),
        ZoneSize(
            "suikoden.lands",
            {"ja": "土地カードは4〜10枚", "zh-hant": "土地卡4至10張", "en": "4 to 10 lands"},
            zones=("lands",),
            zone_labels=LANDS,
            minimum=4,
            maximum=10,
        ),
        KindsOnly(
            "suikoden.character-zone",
            {
                "ja": "人物の欄には人物カードのみ",
                "zh-hant": "人物區只能放人物卡",
                "en": "Only characters among the characters",
            },
            zones=("characters",),
            kinds=("character",),
        ),
        KindsOnly(
            "suikoden.land-zone",
            {"ja": "土地の欄には土地カードのみ", "zh-hant": "土地區只能放土地卡", "en": "Only lands among the lands"},
            zones=("lands",),
            kinds=("land",),
        ),
        # seed 002: 40張人物中，不需代價以及代價為白色一點的總數必須在10張以上。
        AtLeastWhere(
            "suikoden.cheap-characters",
            {
                "ja": "コストなし、または白1つだけの人物が10枚以上",
                "zh-hant": "不需代價或代價為白色一點的人物須在10張以上",
                "en": "At least 10 characters that cost nothing or exactly one white",
            },
            zones=("characters",),
            minimum=10,
            test=_is_cheap,
            needs=COST,
            field_name="cost",
            kinds=("character",),
        ),
        # seed 002: 土地卡的總價值則不能超過10點。
        SumAtMost(
            "suikoden.land-value",
            {
                "ja": "土地の価値の合計は10以下",
                "zh-hant": "土地總價值不能超過10點",
                "en": "Total land value at most 10",
            },
            zones=("lands",),
            field_name="value",
            field_labels=VALUE,
            maximum=10,
            kinds=("land",),
        ),
        # games.md: one copy of each character kind and two of each land per box; four boxes: up to 4.
        # The statements give the limit in force (the four-box variant raises both to 4).
        MaxCopies(
            "suikoden.character-copies",
            {
                "ja": f"同じ人物は{character_limit}枚まで",
                "zh-hant": f"同一人物限{character_limit}張",
                "en": f"At most {character_limit} of each character",
            },
            zones=("characters",),
            limit=character_limit,
        ),
        MaxCopies(
            "suikoden.land-copies",
            {
                "ja": f"同じ土地は{land_limit}枚まで",
                "zh-hant": f"同一土地限{land_limit}張",
                "en": f"At most {land_limit} of each land",
            },
            zones=("lands",),
            limit=land_limit,
        ),
    ]


# The win conditions in Chinese are seed 002's words; in Japanese and English they are the site's own translation.
SITE_TRANSLATED = frozenset({"ja", "en"})

RULES = register(
    DeckRules(
        game="suikoden",
        zones=(
            Zone("characters", CHARACTERS, kinds=("character",), adding=ADD_TO_CHARACTERS),
            Zone("lands", LANDS, kinds=("land",), adding=ADD_TO_LANDS),
        ),
        # The values the goldfish engine reads on each kind (``simulator.engines.suikoden``).
        placeholders=(
            PlaceholderKind("character", "characters", ("cost", "attack", "intelligence")),
            PlaceholderKind("land", "lands", ()),
        ),
        modes=(
            Mode(
                "construction",
                {"ja": "デッキ構築型対戦", "zh-hant": "牌組構築型對戰", "en": "Deck construction duel"},
                win_conditions={
                    "ja": "(1) 相手の土地をすべて破壊する（占領）\n(2) 戦果を10点獲得する\n(3) 相手の山札が尽きる（殲滅）",
                    "zh-hant": "(1) 擊破對方所有土地\n(2) 獲得10點戰果\n(3) 對方牌庫用完",
                    "en": (
                        "Destroy all the opponent's lands; collect 10 戦果 (points won by defeating the opponent's "
                        "characters); or the opponent cannot draw."
                    ),
                },
                win_conditions_translated=SITE_TRANSLATED,
            ),
            Mode(
                "shared",
                {"ja": "山札共有型対戦", "zh-hant": "牌庫共有型對戰", "en": "Shared-deck duel"},
                win_conditions={
                    "ja": "(1) 価値10以上の土地を獲得する\n(2) 撃退数20以上\n(3) 戦果を10点獲得する",
                    "zh-hant": "(1) 獲得價值10以上土地\n(2) 擊退數20以上\n(3) 獲得戰果10點",
                    "en": "Lands worth 10 or more; 20 or more repelled; or 10 戦果.",
                },
                win_conditions_translated=SITE_TRANSLATED,
                checked=False,
            ),
            Mode(
                "multiplayer",
                {"ja": "多人数対戦", "zh-hant": "多人參加型對戰", "en": "Multiplayer"},
                win_conditions={
                    "ja": "(1) 価値10以上の土地を獲得する\n(2) 戦果を10点獲得する",
                    "zh-hant": "(1) 獲得價值10以上的土地\n(2) 獲得戰果10點",
                    "en": "Lands worth 10 or more; or 10 戦果.",
                },
                win_conditions_translated=SITE_TRANSLATED,
                checked=False,
            ),
        ),
        rules_for_mode=_rules,
        options=(
            Option(
                "boxes",
                {"ja": "使用するボックス数", "zh-hant": "使用盒數", "en": "Boxes"},
                default=1,
                choices=(1, 2, 4),
                help={
                    "ja": "1箱：人物は各1枚、土地は各2枚まで。2箱：148種すべてから選べる。"
                    "4箱（公式サイトの非公式バリアント）：同じカードを4枚まで。",
                    "zh-hant": "1盒：每種人物1張、每種土地至多2張。2盒：可從全部148種中選。"
                    "4盒（官網上的非正式變體）：同一卡片至多4張。",
                    "en": "One box: one copy of each character, two of each land. Two boxes: pick from all 148. "
                    "Four boxes (unofficial variant on the official site): up to 4 copies of a card.",
                },
            ),
        ),
    )
)
