"""Epic Battles (seed 003; ../shared/games.md)."""

from . import register
from .base import BooleanType, ChoiceListType, ChoiceType, FieldSpec, GameDefinition, IntegerType, KindSpec, TextType
from .documents import GameDocuments, SourceDocument

# Stored values with the names the pages show: the games by their titles in Japan and Taiwan, positions and
# traits by the words fighting-game players use.
FRANCHISES = {
    "mortal-kombat": {"ja": "モータルコンバット", "zh-hant": "真人快打", "en": "Mortal Kombat"},
    "street-fighter": {"ja": "ストリートファイター", "zh-hant": "快打旋風", "en": "Street Fighter"},
    "tekken": {"ja": "鉄拳", "zh-hant": "鐵拳", "en": "Tekken"},
}
POSITIONS = {
    "high": {"ja": "上段", "zh-hant": "上段", "en": "High"},
    "low": {"ja": "下段", "zh-hant": "下段", "en": "Low"},
}
TRAITS = {
    "punch": {"ja": "パンチ", "zh-hant": "拳擊", "en": "Punch"},
    "kick": {"ja": "キック", "zh-hant": "踢擊", "en": "Kick"},
    "throw": {"ja": "投げ", "zh-hant": "投技", "en": "Throw"},
    "projectile": {"ja": "飛び道具", "zh-hant": "飛行道具", "en": "Projectile"},
    "weapon": {"ja": "武器", "zh-hant": "武器", "en": "Weapon"},
    "special": {"ja": "スペシャル", "zh-hant": "特殊", "en": "Special"},
    "bite": {"ja": "噛みつき", "zh-hant": "咬擊", "en": "Bite"},
}

_energy = {"ja": "エネルギー", "zh-hant": "能量", "en": "energy"}
_cards = {"ja": "枚", "zh-hant": "張", "en": "cards"}
_played_fields = ("cost", "character", "side_deck_only")

# The documents its citations name (``cards.citations`` shows them by these titles; the deck rules and the
# simulator name them the same way).
DOCUMENTS = GameDocuments(
    seed=SourceDocument("seed 003", "ジャガーノーツのTCGカタログ", page="Epic Battles"),
    public=(
        SourceDocument("Wikipedia", "Wikipedia"),
        SourceDocument("fan rules site", "fan rules site"),
        SourceDocument("fan advanced-rules site", "fan advanced-rules site"),
        SourceDocument("mortalkombatonline.com", "mortalkombatonline.com"),
    ),
)

DEFINITION = register(
    GameDefinition(
        slug="epicbattles",
        sort_order=4,
        documents=DOCUMENTS,
        original_language="en",
        # Its seed is a Japanese rules site; Traditional Chinese is the site's translation.
        translation_languages=("ja", "zh-hant"),
        card_totals=(),  # no source gives how many cards the sets hold
        number_ranges=(),
        names={"ja": "Epic Battles", "zh-hant": "Epic Battles", "en": "Epic Battles"},
        fields=(
            FieldSpec(
                "franchise",
                ChoiceType(choices=tuple(FRANCHISES), value_labels=FRANCHISES),
                {"ja": "作品", "zh-hant": "作品", "en": "Franchise"},
            ),
            FieldSpec(
                "position",
                ChoiceType(choices=tuple(POSITIONS), value_labels=POSITIONS),
                {"ja": "位置", "zh-hant": "位置", "en": "Position"},
            ),
            FieldSpec(
                "trait",
                ChoiceListType(choices=tuple(TRAITS), value_labels=TRAITS),
                {"ja": "特徴", "zh-hant": "特徵", "en": "Trait"},
            ),
            FieldSpec(
                "damage", IntegerType(minimum=0), {"ja": "ダメージ", "zh-hant": "傷害", "en": "Damage"}, unit=_cards
            ),
            FieldSpec("cost", IntegerType(minimum=0), {"ja": "コスト", "zh-hant": "費用", "en": "Cost"}, unit=_energy),
            FieldSpec("follow_up", TextType(), {"ja": "継続", "zh-hant": "連續技", "en": "Follow-up"}),
            FieldSpec(
                "character",
                TextType(value_labels={"none": {"ja": "なし", "zh-hant": "無", "en": "none"}}),
                {"ja": "キャラクター名", "zh-hant": "角色名", "en": "Character"},
                help='the character a card names (such a card is only played with that character); "none" if it names none',
            ),
            FieldSpec(
                "side_deck_only",
                BooleanType(),
                {"ja": "サイドデッキ専用", "zh-hant": "僅限副牌", "en": "Side Deck only"},
            ),
        ),
        kinds=(
            KindSpec("character", {"ja": "キャラクター", "zh-hant": "角色", "en": "Character"}, ("franchise",)),
            KindSpec(
                "attack",
                {"ja": "アタック", "zh-hant": "攻擊", "en": "Attack"},
                ("position", "trait", "damage", "follow_up", *_played_fields),
            ),
            KindSpec("block", {"ja": "ブロック", "zh-hant": "防禦", "en": "Block"}, ("position", *_played_fields)),
            KindSpec("event", {"ja": "イベント", "zh-hant": "事件", "en": "Event"}, _played_fields),
        ),
    )
)
