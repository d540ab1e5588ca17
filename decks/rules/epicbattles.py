"""Epic Battles: deck construction (seed 003, 事前準備)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cards.search.normalize import fold

from . import register
from .base import (
    AllDifferent,
    CardInfo,
    DeckRules,
    DeckSpec,
    KindsOnly,
    MaxCopies,
    Mode,
    PerCard,
    PlaceholderKind,
    Rule,
    Zone,
    ZoneSize,
)

CHARACTER = {"ja": "キャラクター", "zh-hant": "角色", "en": "Character"}
DECK = {"ja": "デッキ", "zh-hant": "牌組", "en": "Deck"}
SIDE = {"ja": "サイドデッキ", "zh-hant": "副牌", "en": "Side deck"}
# The builder's buttons: the character is the deck's one character slot, not a pile the card goes into.
ADD_CHARACTER = {"ja": "キャラクターとして追加", "zh-hant": "加入為角色", "en": "Add as character"}
ADD_TO_DECK = {"ja": "デッキに追加", "zh-hant": "加入牌組", "en": "Add to deck"}
ADD_TO_SIDE = {"ja": "サイドデッキに追加", "zh-hant": "加入副牌", "en": "Add to side deck"}
SIDE_ONLY = {"ja": "Side Deck only の記載", "zh-hant": "Side Deck only 標記", "en": "Side Deck only"}
NAMED_CHARACTER = {"ja": "キャラクター名", "zh-hant": "角色名", "en": "named character"}
PLAYED_KINDS = ("attack", "block", "event")


def _not_side_only(card: CardInfo, deck: DeckSpec) -> bool | None:
    value = card.value("side_deck_only")
    return None if value is None else not value


def _side_only(card: CardInfo, deck: DeckSpec) -> bool | None:
    return card.value("side_deck_only")


def _matches_character(card: CardInfo, deck: DeckSpec) -> bool | None:
    """A card naming a character goes only with that character; "none" names no one."""
    named = card.value("character")
    if named is None:
        return None
    if fold(named) == "none":
        return True
    characters = list(deck.cards("character").values())
    if len(characters) != 1 or characters[0].kind not in (None, "character"):
        return True  # the character rules report a missing, doubled or wrong character (as Shadow Era's hero)
    character = characters[0]
    return fold(named) in {fold(name) for name in (character.name, character.key, *character.names)}


def _rules(mode: str, options: Mapping[str, Any]) -> list[Rule]:
    return [
        # キャラクターカード： 任意の 1枚。
        ZoneSize(
            "epicbattles.character",
            {"ja": "キャラクターカードは1枚", "zh-hant": "角色卡1張", "en": "One character card"},
            zones=("character",),
            zone_labels=CHARACTER,
            minimum=1,
            maximum=1,
        ),
        KindsOnly(
            "epicbattles.character-kind",
            {
                "ja": "キャラクター欄にはキャラクターカードのみ",
                "zh-hant": "角色區只能放角色卡",
                "en": "The character must be a character card",
            },
            zones=("character",),
            kinds=("character",),
        ),
        # デッキ枚数： 59枚ちょうど（キャラクターカードを加えて 60枚となる）。
        ZoneSize(
            "epicbattles.deck-size",
            {"ja": "デッキはちょうど59枚", "zh-hant": "牌組須剛好59張", "en": "Exactly 59 cards in the deck"},
            zones=("deck",),
            zone_labels=DECK,
            minimum=59,
            maximum=59,
        ),
        # 同一カードはデッキに 4枚まで。
        MaxCopies(
            "epicbattles.copies",
            {"ja": "同一カードは4枚まで", "zh-hant": "同一卡片最多4張", "en": "At most 4 copies of a card"},
            zones=("deck",),
            limit=4,
        ),
        # キャラクターカード以外で構成されていること。
        KindsOnly(
            "epicbattles.no-characters",
            {
                "ja": "デッキにキャラクターカードは入れられない",
                "zh-hant": "牌組不能放角色卡",
                "en": "No character cards in the deck",
            },
            zones=("deck", "side"),
            kinds=PLAYED_KINDS,
        ),
        # キャラクター名を持つカードは、使用するキャラクターカードと一致している場合にのみ投入できる。
        PerCard(
            "epicbattles.named-character",
            {
                "ja": "キャラクター名を持つカードはそのキャラクターでのみ使用可",
                "zh-hant": "帶角色名的卡只能配合該角色使用",
                "en": "A card that names a character only with that character",
            },
            zones=("deck", "side"),
            test=_matches_character,
            needs=NAMED_CHARACTER,
            field_name="character",
            kinds=PLAYED_KINDS,
        ),
        # “Side Deck only”と記載されたカードをデッキに入れられない。
        PerCard(
            "epicbattles.side-only-in-deck",
            {
                "ja": "“Side Deck only”のカードはデッキに入れられない",
                "zh-hant": "“Side Deck only”的卡不能放入牌組",
                "en": "No “Side Deck only” card in the deck",
            },
            zones=("deck",),
            test=_not_side_only,
            needs=SIDE_ONLY,
            field_name="side_deck_only",
            kinds=PLAYED_KINDS,
        ),
        # ゲーム間交換カード（Side Deck）： 0枚または 6枚（いずれも“Side Deck only”の記載を持ち、すべて異なるカード）。
        ZoneSize(
            "epicbattles.side-size",
            {"ja": "サイドデッキは0枚または6枚", "zh-hant": "副牌為0張或6張", "en": "A side deck of 0 or 6 cards"},
            zones=("side",),
            zone_labels=SIDE,
            allowed_sizes=(0, 6),
        ),
        PerCard(
            "epicbattles.side-only",
            {
                "ja": "サイドデッキは“Side Deck only”のカードのみ",
                "zh-hant": "副牌只能放“Side Deck only”的卡",
                "en": "Side deck cards are all “Side Deck only”",
            },
            zones=("side",),
            test=_side_only,
            needs=SIDE_ONLY,
            field_name="side_deck_only",
            kinds=PLAYED_KINDS,
        ),
        AllDifferent(
            "epicbattles.side-different",
            {
                "ja": "サイドデッキはすべて異なるカード",
                "zh-hant": "副牌須全部不同",
                "en": "Side deck cards all different",
            },
            zones=("side",),
        ),
    ]


RULES = register(
    DeckRules(
        game="epicbattles",
        zones=(
            Zone("character", CHARACTER, kinds=("character",), adding=ADD_CHARACTER),
            Zone("deck", DECK, kinds=PLAYED_KINDS, adding=ADD_TO_DECK),
            Zone("side", SIDE, kinds=PLAYED_KINDS, adding=ADD_TO_SIDE),
        ),
        # The values the goldfish engine reads on each kind (``simulator.engines.epicbattles``).
        placeholders=(
            PlaceholderKind("character", "character", ()),
            PlaceholderKind("attack", "deck", ("cost", "damage")),
            PlaceholderKind("block", "deck", ("cost",)),
            PlaceholderKind("event", "deck", ("cost",)),
        ),
        modes=(
            Mode(
                "default",
                {"ja": "通常対戦", "zh-hant": "一般對戰", "en": "Match"},
                win_conditions={
                    "ja": "先にゲーム（Round）で 2勝する。",  # seed 003, as written
                    "zh-hant": "先贏得2局（Round）者獲勝。",
                    "en": "Win 2 rounds first.",
                },
                win_conditions_translated=frozenset({"zh-hant", "en"}),
            ),
        ),
        rules_for_mode=_rules,
        chart_fields=("cost", "damage"),  # an attack has damage, no attack value
    )
)
