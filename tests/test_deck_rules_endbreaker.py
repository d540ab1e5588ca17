"""Deck construction rules of エンドブレイカー！SCG (decks/rules/endbreaker.py), on synthetic cards: no database.

Source: seed 000 (遊戲準備). Every message is compared whole, in ja, zh-hant and en.
What every game's rules share is tested in tests/test_deck_rules_base.py.
"""

from __future__ import annotations

import pytest

from decks.rules import get_rules
from decks.rules.base import CardInfo, DeckSpec

from .deck_rules_helpers import KIND, Statements, assert_legal, card, check, n_cards, only, spec, summary, texts

# Rule statements as the sources give them (ja, zh-hant, en), for the messages that quote them.
STATEMENTS = Statements(
    {
        "endbreaker.supply-different": (
            "アビリティの山はすべて異なる",
            "特技牌堆須各不相同",
            "The 9 ability piles all different",
        ),
        "endbreaker.supply-kind": ("サプライにはアビリティのみ", "場中牌堆只能是特技", "Only abilities in the supply"),
        "endbreaker.jobs-different": ("ジョブの山はすべて異なる", "職業牌堆須各不相同", "The job piles all different"),
        "endbreaker.setup-jobs": (
            "ジョブの山は魔獣戦士・スカイランナー・デモニスタ",
            "職業牌堆為魔獸戰士、スカイランナー、デモニスタ",
            "The job piles are 魔獣戦士, スカイランナー and デモニスタ",
        ),
        "endbreaker.masquerades-different": (
            "マスカレイドはすべて異なる",
            "假面須各不相同",
            "The masquerades all different",
        ),
        "endbreaker.masquerade-kind": (
            "マスカレイド欄にはマスカレイドのみ",
            "假面區只能放假面",
            "Only masquerades among the masquerades",
        ),
    }
)
listed, unknown = STATEMENTS.listed, STATEMENTS.unknown


JOB_NAMES = ("魔獣戦士", "スカイランナー", "デモニスタ")


def ability(number: int) -> CardInfo:
    return card(f"EB1-{number:03d}", "ability", f"アビリティ{number:03d}", cost="PPT", skill="P", at=1, attribute="P")


def job(name: str) -> CardInfo:
    return card(name, "job", name, cost="PP", skill="PP", at=1, attribute="P")


def piles_texts(count: int) -> dict[str, str]:
    """The finding of a supply of ``count`` piles, in piles and with the set-up's rule (seed 000, 遊戲準備 1-2)."""
    return texts(
        f"サプライ：アビリティの山が{count}種（ゲームの準備では、ジョブの山3つのほかにアビリティの山をちょうど9種置く）",
        f"場中特技：特技牌堆{count}種（遊戲準備：三疊職業牌堆之外，特技牌堆須剛好9種）",
        f"Supply: {count} ability piles (the game sets up exactly 9 ability piles, beside the three job piles)",
    )


def masquerade(number: int) -> CardInfo:
    return card(f"EB1-{number:03d}", "masquerade", f"マスカレイド{number:03d}", payout="6-4-2-0", damage=3, skill="PTS")


def supply(total: int = 9) -> list[tuple[CardInfo, int]]:
    return [(ability(8 + i), 1) for i in range(total)]


def masquerades(total: int = 3) -> list[tuple[CardInfo, int]]:
    return [(masquerade(50 + i), 1) for i in range(total)]


def endbreaker(supply_=None, jobs=None, masks=(), **options) -> DeckSpec:
    return spec(
        "endbreaker",
        {
            "supply": supply() if supply_ is None else supply_,
            "jobs": [(job(name), 1) for name in JOB_NAMES] if jobs is None else jobs,
            "masquerades": list(masks),
        },
        **options,
    )


class TestEndbreaker:
    def test_legal_setup(self):
        assert_legal(endbreaker())

    def test_legal_with_fixed_masquerades(self):
        assert_legal(endbreaker(masks=masquerades(), fixed_masquerades=True))

    @pytest.mark.parametrize("total", [8, 10])
    def test_supply_exactly_9(self, total):
        finding = only(endbreaker(supply(total)), "endbreaker.supply")
        assert finding.texts == piles_texts(total)

    def test_ten_piles_of_two_cards_are_ten_piles_not_twenty_cards(self):
        piles = [(info, 2) for info, _ in supply(10)]
        verdict = check(endbreaker(piles))
        assert summary(verdict) == [
            ("endbreaker.supply", "violation"),
            ("endbreaker.supply-different", "violation"),
        ]
        assert verdict.findings[0].texts == piles_texts(10)
        # The piles are different: what is wrong with them is that each is entered twice, and the finding says so.
        chosen_twice = verdict.findings[1].texts["en"]
        assert chosen_twice.startswith(
            "Ability piles chosen more than once (each pile is chosen once): アビリティ008 ×2, "
        )
        assert chosen_twice.count(" ×2") == 10

    def test_supply_all_different(self):
        piles = supply(9)  # nine piles, one chosen twice: ten cards, yet the count of piles is right
        piles[3] = (piles[3][0], 2)
        finding = only(endbreaker(piles), "endbreaker.supply-different")
        assert finding.texts == texts(
            "同じアビリティの山を2回以上選んでいる（山はそれぞれ1回だけ選ぶ）：アビリティ011×2",
            "同一特技牌堆選了不只一次（每疊只選一次）：アビリティ011×2",
            "Ability piles chosen more than once (each pile is chosen once): アビリティ011 ×2",
        )

    def test_supply_only_abilities(self):
        finding = only(endbreaker([*supply(8), (job("城塞騎士"), 1)]), "endbreaker.supply-kind")
        assert finding.texts == listed("endbreaker.supply-kind", "城塞騎士")

    def test_three_job_piles(self):
        finding = only(endbreaker(jobs=[(job("魔獣戦士"), 1), (job("デモニスタ"), 1)]), "endbreaker.jobs")
        assert finding.texts == texts(
            "ジョブの山：2枚（ちょうど3枚）", "職業牌堆：2張（須剛好3張）", "Job piles: 2 cards (exactly 3)"
        )

    def test_job_piles_all_different(self):
        finding = only(endbreaker(jobs=[(job("魔獣戦士"), 2), (job("デモニスタ"), 1)]), "endbreaker.jobs-different")
        assert finding.texts == texts(
            "同じジョブの山を2回以上選んでいる（山はそれぞれ1回だけ選ぶ）：魔獣戦士×2",
            "同一職業牌堆選了不只一次（每疊只選一次）：魔獣戦士×2",
            "Job piles chosen more than once (each pile is chosen once): 魔獣戦士 ×2",
        )

    def test_job_piles_are_the_three_of_the_seed(self):
        jobs = [(job("魔獣戦士"), 1), (job("スカイランナー"), 1), (job("城塞騎士"), 1)]
        finding = only(endbreaker(jobs=jobs), "endbreaker.setup-jobs")
        assert finding.texts == listed("endbreaker.setup-jobs", "城塞騎士")

    @pytest.mark.parametrize("total", [2, 4])
    def test_fixed_masquerades_exactly_3(self, total):
        finding = only(endbreaker(masks=masquerades(total), fixed_masquerades=True), "endbreaker.masquerades")
        assert finding.texts == texts(
            f"マスカレイド：{total}枚（ちょうど3枚）",
            f"假面：{total}張（須剛好3張）",
            f"Masquerades: {n_cards(total)} (exactly 3)",
        )

    def test_fixed_masquerades_none_chosen(self):
        finding = only(endbreaker(fixed_masquerades=True), "endbreaker.masquerades")
        assert finding.texts["en"] == "Masquerades: 0 cards (exactly 3)"

    def test_fixed_masquerades_all_different(self):
        masks = masquerades(2)
        masks[0] = (masks[0][0], 2)
        finding = only(endbreaker(masks=masks, fixed_masquerades=True), "endbreaker.masquerades-different")
        assert finding.texts == listed("endbreaker.masquerades-different", "マスカレイド050")

    def test_fixed_masquerades_only_masquerades(self):
        masks = [*masquerades(2), (ability(30), 1)]
        finding = only(endbreaker(masks=masks, fixed_masquerades=True), "endbreaker.masquerade-kind")
        assert finding.texts == listed("endbreaker.masquerade-kind", "アビリティ030")

    @pytest.mark.parametrize("total", [1, 3])
    def test_masquerades_not_fixed_none_chosen(self, total):
        finding = only(endbreaker(masks=masquerades(total)), "endbreaker.random-masquerades")
        assert finding.texts == texts(
            f"マスカレイド：{total}枚（ちょうど0枚）",
            f"假面：{total}張（須剛好0張）",
            f"Masquerades: {n_cards(total)} (exactly 0)",
        )
        assert summary(check(endbreaker(masks=masquerades(total), fixed_masquerades=False))) == [
            ("endbreaker.random-masquerades", "violation")
        ]

    def test_option_changes_the_rules(self):
        rules = get_rules("endbreaker")
        assert rules.default_options() == {"fixed_masquerades": False}
        loose = {rule.id for rule in rules.rules("default", {})}
        fixed = {rule.id for rule in rules.rules("default", {"fixed_masquerades": True})}
        assert "endbreaker.random-masquerades" in loose - fixed
        assert {
            "endbreaker.masquerades",
            "endbreaker.masquerades-different",
            "endbreaker.masquerade-kind",
        } <= fixed - loose

    def test_several_breaks_at_once(self):
        piles = [*supply(6), (job("城塞騎士"), 1)]
        piles[0] = (piles[0][0], 2)
        jobs = [(job("魔獣戦士"), 1), (job("狩猟者"), 1)]
        verdict = check(endbreaker(piles, jobs, masquerades(1), fixed_masquerades=True))
        assert summary(verdict) == [
            ("endbreaker.supply", "violation"),
            ("endbreaker.supply-different", "violation"),
            ("endbreaker.supply-kind", "violation"),
            ("endbreaker.jobs", "violation"),
            ("endbreaker.setup-jobs", "violation"),
            ("endbreaker.masquerades", "violation"),
        ]
        assert verdict.findings[0].texts == piles_texts(7)  # six abilities and a job: seven piles of cards
        assert verdict.findings[3].texts["en"] == "Job piles: 2 cards (exactly 3)"
        assert verdict.findings[5].texts == texts(
            "マスカレイド：1枚（ちょうど3枚）", "假面：1張（須剛好3張）", "Masquerades: 1 card (exactly 3)"
        )

    def test_unknown_kind_in_the_supply(self):
        finding = only(
            endbreaker([*supply(8), (card("EB1-099", None, "謎のアビリティ"), 1)]),
            "endbreaker.supply-kind",
            "unchecked",
        )
        assert finding.texts == unknown("endbreaker.supply-kind", KIND, "謎のアビリティ")

    def test_starting_deck(self):
        # 遊戲準備 5: 城塞騎士、狩獵者、星靈術士各２張；旅人的酒場４張 (旅人の酒場 is EB1-001).
        rules = get_rules("endbreaker")
        fixed = {fixed.key: fixed.count for fixed in rules.fixed_cards["starting"]}
        assert fixed == {"EB1-001": 4, "城塞騎士": 2, "狩猟者": 2, "星霊術士": 2}
        assert rules.zone("starting").fixed


def test_statements_quoted_above_are_the_rules_own():
    STATEMENTS.assert_the_rules_own("endbreaker", {"fixed_masquerades": True})
