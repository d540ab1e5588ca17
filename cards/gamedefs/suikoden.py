"""乙女遊戯 水滸伝 (seed 002; ../shared/games.md).

Costs are kept as printed in the seed's notation ("白1藍1": one white, one blue).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from cardsite.labels import Labels

from . import register
from .base import CardTotal, ChoiceListType, ChoiceType, FieldSpec, GameDefinition, IntegerType, KindSpec, TextType
from .documents import GameDocuments, SourceDocument

# 得意能力一覽 of seed 002; 射擊 is printed with its strength, 射擊X ("射擊2"), see SpecialtiesType.
SPECIALTIES = ("陽動", "騎馬", "射擊", "水軍", "操舵", "強奪", "火計", "水計", "妖術")
NUMBERED_SPECIALTIES = ("射擊",)
# Stored as seed 002 prints them (Traditional); a Japanese reader reads the Japanese form (射擊 is 射撃 in
# Japanese; the others are written alike). No source translates them into English: English shows them as stored.
_JAPANESE_FORMS = {"射擊": "射撃"}
SPECIALTY_LABELS: dict[str, Labels] = {
    name: {"ja": _JAPANESE_FORMS.get(name, name), "zh-hant": name, "en": name} for name in SPECIALTIES
}
# 特殊能力 the seed names (調達 in 歸還階段, 情報 and 美女 in 內政階段); a card's other abilities are in its text.
ABILITIES = ("調達", "情報", "美女")
# 白 and 仁、義、勇 (4. 內政階段, (1) 登用), and 藍: the seed's example pays 丁得孫's 白1藍1 with 一隻藍色人物. No
# source says whether 藍 is another name of one of 仁、義、勇 (games.md: four 属性), so it is kept as the seed writes it.
COLOURS = ("白", "仁", "義", "勇", "藍")


@dataclass(frozen=True)
class SpecialtiesType(ChoiceListType):
    """得意能力 as printed: each one of ``choices``; one of ``numbered`` may carry its X (射擊X: "射擊2", digits
    half- or full-width as printed). "射擊" alone is a 射擊 whose X no source gives."""

    numbered: tuple[str, ...] = ()

    def accepts(self, item: Any) -> bool:
        return item in self.choices or (
            isinstance(item, str) and any(re.fullmatch(re.escape(name) + "[0-9０-９]+", item) for name in self.numbered)
        )

    def value_label(self, value: Any, language: str) -> str:
        """A numbered item ("射擊2") as its name's label with its number ("射撃2" on a Japanese page)."""
        for name in self.numbered:
            if isinstance(value, str) and re.fullmatch(re.escape(name) + "[0-9０-９]+", value):
                return super().value_label(name, language) + value[len(name) :]
        return super().value_label(value, language)

    def named_choices(self) -> list[Labels | str]:
        named: list[Labels | str] = []
        for choice, item in zip(self.choices, super().named_choices(), strict=True):
            if choice not in self.numbered:
                named.append(item)
            elif isinstance(item, str):
                named.append(f"{item} / {item}X")
            else:
                labels = self.value_labels[choice]
                named.append(
                    {
                        code: f"{labels[code]} / {labels[code]}X"
                        + ("" if labels[code] == choice else f" ({choice} / {choice}X)")
                        for code in item
                    }
                )
        return named


# The documents its citations name (``cards.citations`` shows them by these titles; the deck rules and the
# simulator name them the same way).
DOCUMENTS = GameDocuments(
    seed=SourceDocument("seed 002", "乙女遊戯 水滸伝 - 桌遊", official_site="http://www.harvest-inc.jp/special/suiko/"),
    public=(
        SourceDocument("taitou.blog50.fc2.com", "taitou.blog50.fc2.com"),
        SourceDocument("harvest-inc.jp", "harvest-inc.jp"),
    ),
)

DEFINITION = register(
    GameDefinition(
        slug="suikoden",
        sort_order=3,
        documents=DOCUMENTS,
        original_language="ja",
        translation_languages=("zh-hant",),
        card_totals=(
            CardTotal(
                148,
                kind="character",
                source={
                    "ja": "taitou.blog50.fc2.com 記事503：人物カード148種（1箱に各1枚）",
                    "zh-hant": "taitou.blog50.fc2.com 第503篇：人物卡148種（每盒各1張）",
                    "en": "taitou.blog50.fc2.com entry 503: 148 character cards, one of each in a box",
                },
            ),
        ),
        # Numbers look like "008 呼延灼", but no source says which numbers exist (lands included or not).
        number_ranges=(),
        names={"ja": "乙女遊戯 水滸伝", "zh-hant": "乙女遊戯 水滸伝", "en": "Otome Yuugi Suikoden"},
        number_pattern=r"\d{3}",
        fields=(
            FieldSpec("colour", ChoiceType(choices=COLOURS), {"ja": "属性", "zh-hant": "屬性", "en": "Colour"}),
            FieldSpec(
                "cost",
                TextType(
                    pattern=r"0|(?:[^\d\s]{1,2}\d+)+",
                    pattern_help={
                        "ja": "コストなしは0、または属性と数の組（例：白1藍1）",
                        "zh-hant": "無代價為0，或屬性與數量的組合（例：白1藍1）",
                        "en": "0 for no cost, or colour and count pairs, e.g. 白1藍1",
                    },
                ),
                {"ja": "コスト", "zh-hant": "代價", "en": "Cost"},
            ),
            FieldSpec("attack", IntegerType(minimum=0), {"ja": "攻撃力", "zh-hant": "攻擊力", "en": "Attack"}),
            FieldSpec("defense", IntegerType(minimum=0), {"ja": "防御力", "zh-hant": "防禦力", "en": "Defence"}),
            FieldSpec("intelligence", IntegerType(minimum=0), {"ja": "智力", "zh-hant": "智力", "en": "Intelligence"}),
            FieldSpec(
                "specialties",
                SpecialtiesType(choices=SPECIALTIES, numbered=NUMBERED_SPECIALTIES, value_labels=SPECIALTY_LABELS),
                {"ja": "得意能力", "zh-hant": "得意能力", "en": "Specialties"},
            ),
            FieldSpec(
                "abilities",
                # "none": a character printed with no special ability (an empty box means unknown).
                ChoiceListType(
                    choices=ABILITIES,
                    none_value="none",
                    value_labels={"none": {"ja": "なし", "zh-hant": "無", "en": "none"}},
                ),
                {"ja": "特殊能力", "zh-hant": "特殊能力", "en": "Special abilities"},
            ),
            FieldSpec(
                "value",
                IntegerType(minimum=1, maximum=3),
                {"ja": "価値", "zh-hant": "價值", "en": "Value"},
                unit={"ja": "☆", "zh-hant": "☆", "en": "☆"},
            ),
            FieldSpec("leader", IntegerType(minimum=0), {"ja": "頭領", "zh-hant": "頭領", "en": "Leaders"}),
            FieldSpec(
                "land_defense", IntegerType(), {"ja": "土地能力", "zh-hant": "土地能力", "en": "Land defence bonus"}
            ),
            FieldSpec("repair", IntegerType(minimum=0), {"ja": "修復", "zh-hant": "修復", "en": "Repair"}),
            FieldSpec("commerce", IntegerType(minimum=0), {"ja": "商業", "zh-hant": "商業", "en": "Commerce"}),
            FieldSpec("hunting", IntegerType(minimum=0), {"ja": "狩猟", "zh-hant": "狩獵", "en": "Hunting"}),
            FieldSpec("land_type", TextType(), {"ja": "地形", "zh-hant": "地形", "en": "Terrain"}),
        ),
        kinds=(
            KindSpec(
                "character",
                {"ja": "人物", "zh-hant": "人物", "en": "Character"},
                ("colour", "cost", "attack", "defense", "intelligence", "specialties", "abilities"),
            ),
            KindSpec(
                "land",
                {"ja": "土地", "zh-hant": "土地", "en": "Land"},
                ("value", "leader", "land_defense", "repair", "commerce", "hunting", "land_type"),
            ),
        ),
    )
)
