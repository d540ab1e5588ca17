"""エンドブレイカー！SCG (seed 000; ../shared/games.md).

Skill and cost are strings of the skill symbols P (力量), T (技術), S (精神),
B (酒) and ● (万能, stands for any one of P, T, S, B), as printed: "PPT", "●●". A card printed
without a skill has the skill "none" (a value, unlike an empty box, which means unknown).
"""

from . import register
from .base import (
    CardTotal,
    ChoiceType,
    FieldSpec,
    GameDefinition,
    IntegerType,
    KindSpec,
    NumberRange,
    SymbolStringType,
    TextType,
)
from .documents import GameDocuments, SourceDocument, titled

SKILL_SYMBOLS = ("P", "T", "S", "B", "●")

# The documents its citations name (``cards.citations`` shows them by these titles; the deck rules and the
# simulator name them the same way).
DOCUMENTS = GameDocuments(
    seed=SourceDocument("seed 000", "エンドブレイカー！SCG 規則 & 卡表 - 桌遊"),
    public=(
        SourceDocument("groupsne.co.jp", "groupsne.co.jp product page"),
        SourceDocument("broccoli.co.jp", "broccoli.co.jp, official solo rules page"),
    ),
)

DEFINITION = register(
    GameDefinition(
        slug="endbreaker",
        sort_order=1,
        documents=DOCUMENTS,
        original_language="ja",
        translation_languages=("zh-hant",),
        card_totals=(
            CardTotal(
                65,
                source={
                    "ja": "groupsne.co.jp の製品ページ：65種類、全396枚",
                    "zh-hant": "groupsne.co.jp 產品頁：65種、共396張",
                    "en": "groupsne.co.jp product page: 65 card kinds, 396 cards in all",
                },
            ),
        ),
        # The seed's card table runs from EB1-001 to EB1-059 and lists only the cards with special text
        # (「只列出有特殊能力的」), so the numbers between exist; games.md: jobs EB1-002 to EB1-007.
        number_ranges=(
            NumberRange(
                "EB1-",
                1,
                59,
                3,
                source=titled(
                    {
                        "ja": "{seed}のカード表（EB1-001〜EB1-059、特殊能力のあるカードのみ掲載）",
                        "zh-hant": "{seed}卡表（EB1-001至EB1-059，只列出有特殊能力的卡）",
                        "en": "{seed}'s card table (EB1-001 to EB1-059, listing only the cards with special text)",
                    },
                    seed=DOCUMENTS.seed.shown,
                ),
            ),
        ),
        names={"ja": "エンドブレイカー！SCG", "zh-hant": "エンドブレイカー！SCG", "en": "Endbreaker! SCG"},
        number_pattern=r"EB\d+-\d{3}",
        fields=(
            FieldSpec(
                "cost",
                SymbolStringType(symbols=SKILL_SYMBOLS),
                {"ja": "コスト", "zh-hant": "價值", "en": "Cost"},
                help="skills paid to gain the card from the supply",
            ),
            FieldSpec(
                "skill",
                # "none": a card printed without a skill (the engine then counts no skill for it).
                SymbolStringType(
                    symbols=SKILL_SYMBOLS,
                    none_value="none",
                    value_labels={"none": {"ja": "なし", "zh-hant": "無", "en": "none"}},
                ),
                {"ja": "スキル", "zh-hant": "技能點數", "en": "Skill"},
                help="skills the card produces when played",
            ),
            FieldSpec("at", IntegerType(minimum=0), {"ja": "ＡＴ", "zh-hant": "AT", "en": "AT"}),
            FieldSpec(
                "attribute",
                ChoiceType(choices=("P", "T", "S")),
                {"ja": "属性", "zh-hant": "屬性", "en": "Attribute"},
            ),
            FieldSpec(
                "payout",
                TextType(
                    pattern=r"\d+(?:-\d+)*",
                    pattern_help={
                        "ja": "順位ごとの勝利点（例：6-4-2-0）",
                        "zh-hant": "各名次的勝利點數（例：6-4-2-0）",
                        "en": "victory points per rank, e.g. 6-4-2-0",
                    },
                ),
                {"ja": "勝利点", "zh-hant": "勝利點數", "en": "Payout"},
                unit={"ja": "×1000ダルク", "zh-hant": "×1000錢幣", "en": "×1000 darc"},
            ),
            FieldSpec(
                "damage",
                IntegerType(minimum=0),
                {"ja": "ダメージ", "zh-hant": "傷害", "en": "Damage"},
                unit={"ja": "枚", "zh-hant": "張", "en": "cards"},
            ),
        ),
        kinds=(
            KindSpec("job", {"ja": "ジョブ", "zh-hant": "職業", "en": "Job"}, ("cost", "skill", "at", "attribute")),
            KindSpec(
                "ability",
                {"ja": "アビリティ", "zh-hant": "特技", "en": "Ability"},
                ("cost", "skill", "at", "attribute"),
            ),
            KindSpec(
                "masquerade",
                {"ja": "マスカレイド", "zh-hant": "假面", "en": "Masquerade"},
                ("payout", "damage", "skill"),
            ),
            KindSpec("thorn", {"ja": "ソーン", "zh-hant": "棘", "en": "Thorn"}, ("skill", "at")),
            # Seed 000 [解決事件]: a scenario is resolved when the turn's skills meet 「兩張劇本卡連結處所標示的技能值」
            # and pays 「劇本卡上標示的勝利點數(錢幣)」; no source shows a scenario card, so where on the card they
            # are printed is unknown. They are kept as the card's ``cost`` (skills) and ``payout`` (×1000ダルク),
            # read from the card the whole game's engine names (``endbreaker_game.Rules.junction_card``).
            KindSpec("scenario", {"ja": "シナリオ", "zh-hant": "劇本", "en": "Scenario"}, ("cost", "payout")),
            KindSpec("darc", {"ja": "ダルク", "zh-hant": "錢幣", "en": "Darc"}, ()),
        ),
    )
)
