"""Epic Battles (seed 003; ../shared/games.md)."""

from . import register
from .base import BooleanType, ChoiceListType, ChoiceType, FieldSpec, GameDefinition, IntegerType, KindSpec, TextType

FRANCHISES = ("mortal-kombat", "street-fighter", "tekken")
POSITIONS = ("high", "low")
TRAITS = ("punch", "kick", "throw", "projectile", "weapon", "special", "bite")

_energy = {"ja": "エネルギー", "zh-hant": "能量", "en": "energy"}
_cards = {"ja": "枚", "zh-hant": "張", "en": "cards"}
_played_fields = ("cost", "character", "side_deck_only")

DEFINITION = register(
    GameDefinition(
        slug="epicbattles",
        sort_order=4,
        original_language="en",
        names={"ja": "Epic Battles", "zh-hant": "Epic Battles", "en": "Epic Battles"},
        fields=(
            FieldSpec(
                "franchise", ChoiceType(choices=FRANCHISES), {"ja": "作品", "zh-hant": "作品", "en": "Franchise"}
            ),
            FieldSpec("position", ChoiceType(choices=POSITIONS), {"ja": "位置", "zh-hant": "位置", "en": "Position"}),
            FieldSpec("trait", ChoiceListType(choices=TRAITS), {"ja": "特徴", "zh-hant": "特徵", "en": "Trait"}),
            FieldSpec(
                "damage", IntegerType(minimum=0), {"ja": "ダメージ", "zh-hant": "傷害", "en": "Damage"}, unit=_cards
            ),
            FieldSpec("cost", IntegerType(minimum=0), {"ja": "コスト", "zh-hant": "費用", "en": "Cost"}, unit=_energy),
            FieldSpec("follow_up", TextType(), {"ja": "継続", "zh-hant": "連續技", "en": "Follow-up"}),
            FieldSpec(
                "character",
                TextType(),
                {"ja": "キャラクター名", "zh-hant": "角色名", "en": "Character"},
                help='the character a card names (such a card is only played with that character); "none" if it names none',
            ),
            FieldSpec(
                "side_deck_only",
                BooleanType(),
                {"ja": "Side Deck only", "zh-hant": "僅限副牌", "en": "Side Deck only"},
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
