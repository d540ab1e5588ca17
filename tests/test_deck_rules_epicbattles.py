"""Deck construction rules of Epic Battles (decks/rules/epicbattles.py), on synthetic cards: no database.

Source: seed 003 (事前準備). Every message is compared whole, in ja, zh-hant and en.
What every game's rules share is tested in tests/test_deck_rules_base.py.
"""

from __future__ import annotations

import pytest

from decks.rules.base import CardInfo, DeckSpec

from .deck_rules_helpers import (
    KIND,
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
    }
)
listed, unknown = STATEMENTS.listed, STATEMENTS.unknown


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


def test_statements_quoted_above_are_the_rules_own():
    STATEMENTS.assert_the_rules_own("epicbattles")


def test_the_win_condition_is_the_seeds_words_in_japanese_and_the_sites_own_translation_elsewhere():
    from decks.rules import get_rules

    from .support.seeds import EPICBATTLES_SEED, read_seed

    mode = get_rules("epicbattles").modes[0]
    assert any(mode.win_conditions["ja"] in line for line in read_seed(EPICBATTLES_SEED))
    assert mode.win_conditions_translated == {"zh-hant", "en"}
