"""Shadow Era (seed 001; ../shared/games.md, from the shadowera.com wiki)."""

from . import register
from .base import (
    BooleanType,
    CardTotal,
    ChoiceListType,
    ChoiceType,
    FieldSpec,
    GameDefinition,
    IntegerType,
    KindSpec,
    TextType,
)
from .documents import GameDocuments, SourceDocument

# Stored values (as the wiki names them) with the names the pages show.
FACTIONS = {
    "human": {"ja": "ヒューマン", "zh-hant": "人類", "en": "Human"},
    "shadow": {"ja": "シャドウ", "zh-hant": "暗影", "en": "Shadow"},
    "neutral": {"ja": "ニュートラル", "zh-hant": "中立", "en": "Neutral"},
}
# "none": the card shows no class icon, so any hero may use it (wiki, Category:Deck).
CLASSES = {
    "warrior": {"ja": "ウォリアー", "zh-hant": "戰士", "en": "Warrior"},
    "mage": {"ja": "メイジ", "zh-hant": "法師", "en": "Mage"},
    "hunter": {"ja": "ハンター", "zh-hant": "獵人", "en": "Hunter"},
    "priest": {"ja": "プリースト", "zh-hant": "牧師", "en": "Priest"},
    "wulven": {"ja": "ウルヴェン", "zh-hant": "狼人", "en": "Wulven"},
    "rogue": {"ja": "ローグ", "zh-hant": "盜賊", "en": "Rogue"},
    "elemental": {"ja": "エレメンタル", "zh-hant": "元素", "en": "Elemental"},
    "none": {"ja": "クラスなし", "zh-hant": "無職業", "en": "No class"},
}
RARITIES = {
    "common": {"ja": "コモン", "zh-hant": "普通", "en": "Common"},
    "uncommon": {"ja": "アンコモン", "zh-hant": "非普通", "en": "Uncommon"},
    "rare": {"ja": "レア", "zh-hant": "稀有", "en": "Rare"},
    "epic": {"ja": "エピック", "zh-hant": "史詩", "en": "Epic"},
    "legendary": {"ja": "レジェンダリー", "zh-hant": "傳說", "en": "Legendary"},
}

_resources = {"ja": "リソース", "zh-hant": "資源", "en": "resources"}

# The documents its citations name (``cards.citations`` shows them by these titles; the deck rules and the
# simulator name them the same way).
DOCUMENTS = GameDocuments(
    seed=SourceDocument("seed 001", "Shadow Era Wiki", page="ルール", subtitle="公式ＨＰ記載のルールの日本語訳"),
    public=(SourceDocument("shadowera.com wiki", "shadowera.com wiki"),),
)

DEFINITION = register(
    GameDefinition(
        slug="shadowera",
        sort_order=2,
        documents=DOCUMENTS,
        original_language="en",
        # Its seed is the Japanese translation of the rules; Traditional Chinese is the site's translation.
        translation_languages=("ja", "zh-hant"),
        card_totals=(
            CardTotal(
                32,
                kind="hero",
                source={
                    "ja": "shadowera.com wiki, Category:Heroes：合法なヒーロー32枚（各陣営16枚）",
                    "zh-hant": "shadowera.com wiki, Category:Heroes：合法英雄32張（每陣營16張）",
                    "en": "shadowera.com wiki, Category:Heroes: 32 legal heroes, 16 per faction",
                },
            ),
            CardTotal(
                403,
                kind="ally",
                source={
                    "ja": "shadowera.com wiki, Category:Allies：アリーのページ403件",
                    "zh-hant": "shadowera.com wiki, Category:Allies：盟友頁面403個",
                    "en": "shadowera.com wiki, Category:Allies: 403 ally pages",
                },
            ),
        ),
        number_ranges=(),
        names={"ja": "Shadow Era", "zh-hant": "Shadow Era", "en": "Shadow Era"},
        fields=(
            FieldSpec(
                "cost", IntegerType(minimum=0), {"ja": "コスト", "zh-hant": "費用", "en": "Cost"}, unit=_resources
            ),
            FieldSpec(
                "faction",
                ChoiceType(choices=tuple(FACTIONS), value_labels=FACTIONS),
                {"ja": "陣営", "zh-hant": "陣營", "en": "Faction"},
            ),
            FieldSpec(
                "class",
                ChoiceListType(choices=tuple(CLASSES), value_labels=CLASSES),
                {"ja": "クラス", "zh-hant": "職業", "en": "Class"},
            ),
            FieldSpec("unique", BooleanType(), {"ja": "ユニーク", "zh-hant": "唯一", "en": "Unique"}),
            FieldSpec("attack", IntegerType(minimum=0), {"ja": "攻撃力", "zh-hant": "攻擊力", "en": "Attack"}),
            FieldSpec("damage_type", TextType(), {"ja": "ダメージタイプ", "zh-hant": "傷害類型", "en": "Damage type"}),
            FieldSpec("health", IntegerType(minimum=0), {"ja": "体力", "zh-hant": "生命值", "en": "Health"}),
            FieldSpec(
                "ability_cost",
                IntegerType(minimum=0),
                {"ja": "能力コスト", "zh-hant": "能力費用", "en": "Ability cost"},
                unit={"ja": "シャドーエネルギー", "zh-hant": "暗影能量", "en": "Shadow Energy"},
            ),
            FieldSpec("durability", IntegerType(minimum=0), {"ja": "耐久力", "zh-hant": "耐久度", "en": "Durability"}),
            FieldSpec("defense", IntegerType(minimum=0), {"ja": "防御力", "zh-hant": "防禦力", "en": "Defense"}),
            FieldSpec(
                "min_turn", IntegerType(minimum=1), {"ja": "最小ターン", "zh-hant": "最早回合", "en": "Minimum turn"}
            ),
            FieldSpec(
                "rarity",
                ChoiceType(choices=tuple(RARITIES), value_labels=RARITIES),
                {"ja": "レアリティ", "zh-hant": "稀有度", "en": "Rarity"},
            ),
            FieldSpec("set", TextType(), {"ja": "セット", "zh-hant": "系列", "en": "Set"}),
        ),
        kinds=(
            KindSpec(
                "hero",
                {"ja": "ヒーロー", "zh-hant": "英雄", "en": "Hero"},
                ("faction", "class", "health", "ability_cost", "set", "rarity"),
            ),
            KindSpec(
                "ally",
                {"ja": "アリー", "zh-hant": "盟友", "en": "Ally"},
                ("cost", "faction", "class", "unique", "attack", "damage_type", "health", "set", "rarity"),
            ),
            KindSpec(
                "ability",
                {"ja": "アビリティ", "zh-hant": "能力", "en": "Ability"},
                ("cost", "faction", "class", "set", "rarity"),
            ),
            KindSpec(
                "artifact",
                {"ja": "アーティファクト", "zh-hant": "神器", "en": "Artifact"},
                ("cost", "faction", "class", "unique", "set", "rarity"),
            ),
            KindSpec(
                "weapon",
                {"ja": "武器", "zh-hant": "武器", "en": "Weapon"},
                ("cost", "faction", "class", "attack", "damage_type", "durability", "set", "rarity"),
            ),
            KindSpec(
                "armor",
                {"ja": "防具", "zh-hant": "護甲", "en": "Armor"},
                ("cost", "faction", "class", "defense", "durability", "set", "rarity"),
            ),
            KindSpec(
                "trap",
                {"ja": "トラップ", "zh-hant": "陷阱", "en": "Trap"},
                ("cost", "faction", "class", "set", "rarity"),
            ),
            KindSpec(
                "item",
                {"ja": "アイテム", "zh-hant": "物品", "en": "Item"},
                ("cost", "faction", "class", "set", "rarity"),
            ),
            KindSpec(
                "location",
                {"ja": "ロケーション", "zh-hant": "場地", "en": "Location"},
                ("faction", "class", "min_turn", "set", "rarity"),
            ),
        ),
    )
)
