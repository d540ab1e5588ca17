"""Shadow Era: deck construction (../shared/games.md, from the shadowera.com wiki)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from cards.gamedefs.shadowera import DOCUMENTS

from . import register
from .base import (
    CardInfo,
    DeckRules,
    DeckSpec,
    Finding,
    KindsOnly,
    MaxCopies,
    Mode,
    Option,
    PerCard,
    PlaceholderKind,
    Rule,
    Zone,
    ZoneSize,
    reads,
)

HERO = {"ja": "ヒーロー", "zh-hant": "英雄", "en": "Hero"}
DECK = {"ja": "デッキ", "zh-hant": "牌組", "en": "Deck"}
# The builder's buttons: the hero is the deck's one hero, not a pile the card goes into.
ADD_HERO = {"ja": "ヒーローとして追加", "zh-hant": "加入為英雄", "en": "Add as hero"}
ADD_TO_DECK = {"ja": "デッキに追加", "zh-hant": "加入牌組", "en": "Add to deck"}
HERO_AND_DECK = {"ja": "ヒーローを含むデッキ", "zh-hant": "含英雄的牌組", "en": "Deck with the hero"}
FACTION = {"ja": "陣営", "zh-hant": "陣營", "en": "faction"}
CLASS = {"ja": "クラス", "zh-hant": "職業", "en": "class"}
DECK_KINDS = ("ally", "ability", "artifact", "weapon", "armor", "trap", "item", "location")

# Where the deck rules were seen (the notes on the games cite the wiki for each), by its name as cited.
_WIKI = DOCUMENTS["shadowera.com wiki"].title


def _hero(deck: DeckSpec) -> CardInfo | None:
    """The deck's one hero; None when the hero rules report it (missing, doubled, not a hero)."""
    heroes = list(deck.cards("hero").values())
    if len(heroes) != 1 or heroes[0].kind not in (None, "hero"):
        return None
    return heroes[0]


def _faction_allowed(card: CardInfo, deck: DeckSpec) -> bool | None:
    """A Human hero takes Human and Neutral cards, a Shadow hero Shadow and Neutral."""
    hero = _hero(deck)
    if hero is None:
        return True  # the hero rule reports a missing or doubled hero
    faction = card.value("faction")
    if faction is None:
        return None
    if faction == "neutral":
        return True  # allowed whatever the hero's faction
    hero_faction = hero.value("faction")
    return None if hero_faction is None else faction == hero_faction


def _class_allowed(card: CardInfo, deck: DeckSpec) -> bool | None:
    """A card with class icons needs a hero of one of those classes."""
    hero = _hero(deck)
    if hero is None:
        return True
    classes = card.value("class")
    if classes is None:
        return None
    if "none" in classes:
        return True  # no class icon: any hero may use it (wiki, Category:Deck)
    hero_classes = hero.value("class")
    return None if hero_classes is None else bool(set(classes) & set(hero_classes))


@dataclass(frozen=True)
class HeroAllows(PerCard):
    """A ``PerCard`` rule that compares each card with the hero's ``field_name``.

    When the hero's own value is unknown, the unchecked finding names the hero (and the
    cards whose own value is unknown), not every card that could not be compared with it.
    """

    def check(self, deck: DeckSpec) -> list[Finding]:
        findings = super().check(deck)
        hero = _hero(deck)
        if hero is None or hero.value(self.field_name) is not None:
            return findings
        if not any(finding.kind == "unchecked" for finding in findings):
            return findings
        unknown = [
            card
            for card in deck.cards(*self.zones).values()
            if reads(card, self.kinds) and card.value(self.field_name) is None
        ]
        kept = [finding for finding in findings if finding.kind != "unchecked"]
        return [*kept, self.unchecked(self.needs, [hero, *unknown])]


def _rules(mode: str, options: Mapping[str, Any]) -> list[Rule]:
    return [
        ZoneSize(
            "shadowera.hero",
            {"ja": "ヒーローはちょうど1枚", "zh-hant": "英雄須剛好1張", "en": "Exactly one hero"},
            zones=("hero",),
            zone_labels=HERO,
            minimum=1,
            maximum=1,
        ),
        KindsOnly(
            "shadowera.hero-kind",
            {
                "ja": "ヒーロー欄にはヒーローカードのみ",
                "zh-hant": "英雄區只能放英雄卡",
                "en": "The hero must be a hero card",
            },
            zones=("hero",),
            kinds=("hero",),
        ),
        # games.md: exactly 1 hero plus at least 39 other cards, at most 80 including the hero.
        ZoneSize(
            "shadowera.size",
            {"ja": "ヒーローを含め40〜80枚", "zh-hant": "含英雄40至80張", "en": "40 to 80 cards including the hero"},
            zones=("hero", "deck"),
            zone_labels=HERO_AND_DECK,
            minimum=40,
            maximum=80,
        ),
        KindsOnly(
            "shadowera.deck-kinds",
            {"ja": "デッキにヒーローは入れられない", "zh-hant": "牌組不能放英雄", "en": "No heroes in the deck"},
            zones=("deck",),
            kinds=DECK_KINDS,
        ),
        # games.md: "Rule of Four" (unconfirmed): an option of the deck, default 4.
        MaxCopies(
            "shadowera.copies",
            {
                "ja": "同じカードの枚数上限（既定4枚）",
                "zh-hant": "同一卡片數量上限（預設4張）",
                "en": "Copies of a card (4 unless set)",
            },
            zones=("deck",),
            limit=4,
            limit_option="copies",
        ),
        # games.md (wiki, Category:Deck): a Human hero may use Human and Neutral cards, a Shadow hero
        # Shadow and Neutral cards; a card with class icons only if the hero has one of those classes.
        HeroAllows(
            "shadowera.faction",
            {
                "ja": "ヒーローの陣営かニュートラルのカードのみ",
                "zh-hant": "只能使用英雄陣營或中立的卡",
                "en": "Only cards of the hero's faction or neutral",
            },
            zones=("deck",),
            test=_faction_allowed,
            needs=FACTION,
            field_name="faction",
            kinds=DECK_KINDS,
        ),
        HeroAllows(
            "shadowera.class",
            {
                "ja": "クラスアイコンのあるカードはそのクラスのヒーローのみ",
                "zh-hant": "有職業圖示的卡只限該職業英雄",
                "en": "Class cards only for a hero of that class",
            },
            zones=("deck",),
            test=_class_allowed,
            needs=CLASS,
            field_name="class",
            kinds=DECK_KINDS,
        ),
    ]


RULES = register(
    DeckRules(
        game="shadowera",
        zones=(
            Zone("hero", HERO, kinds=("hero",), adding=ADD_HERO),
            Zone("deck", DECK, kinds=DECK_KINDS, adding=ADD_TO_DECK),
        ),
        # The values the goldfish engine reads on each kind (``simulator.engines.shadowera``).
        placeholders=(
            PlaceholderKind("hero", "hero", ()),
            PlaceholderKind("ally", "deck", ("cost", "attack", "health")),
            PlaceholderKind("ability", "deck", ("cost",)),
            PlaceholderKind("weapon", "deck", ("cost", "attack", "durability")),
            PlaceholderKind("armor", "deck", ("cost", "defense", "durability")),
            PlaceholderKind("artifact", "deck", ("cost",)),
            PlaceholderKind("item", "deck", ("cost",)),
            PlaceholderKind("location", "deck", ("cost",)),
            PlaceholderKind("trap", "deck", ("cost",)),
        ),
        modes=(Mode("default", {"ja": "通常対戦", "zh-hant": "一般對戰", "en": "Match"}),),
        rules_for_mode=_rules,
        options=(
            Option(
                "copies",
                {"ja": "同名カードの上限", "zh-hant": "同名卡上限", "en": "Copies of a card"},
                default=4,
                choices=(1, 2, 3, 4),
                help={
                    "ja": f'「4枚ルール」は未確認の情報です（{_WIKI}、"Rule of Four"）。',
                    "zh-hant": f'「四張規則」尚未確認（{_WIKI}，"Rule of Four"）。',
                    "en": f'The Rule of Four is unconfirmed ({_WIKI}, "Rule of Four"); change it if your table plays '
                    "otherwise.",
                },
            ),
        ),
    )
)
