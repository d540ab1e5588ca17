"""Deck construction rules of Shadow Era (decks/rules/shadowera.py), on synthetic cards: no database.

Source: seed 001 and games.md (and the wiki). Every message is compared whole, in ja, zh-hant and en.
What every game's rules share is tested in tests/test_deck_rules_base.py.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from decks.rules import get_rules
from decks.rules.base import CardInfo, DeckSpec

from .deck_rules_helpers import (
    LANGUAGES,
    Statements,
    assert_legal,
    card,
    check,
    copies,
    in_fours,
    n_cards,
    only,
    spec,
    summary,
    texts,
)

# Rule statements as the sources give them (ja, zh-hant, en), for the messages that quote them.
STATEMENTS = Statements(
    {
        "shadowera.hero-kind": (
            "ヒーロー欄にはヒーローカードのみ",
            "英雄區只能放英雄卡",
            "The hero must be a hero card",
        ),
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
    }
)
listed, unknown = STATEMENTS.listed, STATEMENTS.unknown


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


def test_statements_quoted_above_are_the_rules_own():
    STATEMENTS.assert_the_rules_own("shadowera")


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
