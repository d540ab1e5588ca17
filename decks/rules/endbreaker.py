"""エンドブレイカー！SCG: the game's set-up as a deck (seed 000, 遊戲準備; ../shared/games.md).

A player does not build a deck here: the table chooses 9 ability piles for the
supply, lays out the three job piles and may fix 3 masquerades instead of
drawing them at random. Every player starts with the same deck.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from cardsite.labels import Labels

from . import register
from .base import (
    AllDifferent,
    CardInfo,
    DeckRules,
    DeckSpec,
    Finding,
    FixedCard,
    KindsOnly,
    Mode,
    Option,
    PerCard,
    Rule,
    Zone,
    ZoneSize,
)

SUPPLY = {"ja": "サプライ（アビリティ9種）", "zh-hant": "場中特技（9種）", "en": "Supply (9 ability piles)"}
JOBS = {"ja": "ジョブの山", "zh-hant": "職業牌堆", "en": "Job piles"}
MASQUERADES = {"ja": "マスカレイド", "zh-hant": "假面", "en": "Masquerades"}
# The builder's buttons (the zones' headings, as "Supply (9 ability piles)", read oddly after "Add to").
ADD_TO_SUPPLY = {"ja": "サプライに追加", "zh-hant": "加入場中特技", "en": "Add to supply"}
ADD_TO_JOBS = {"ja": "ジョブの山に追加", "zh-hant": "加入職業牌堆", "en": "Add to job piles"}
ADD_TO_MASQUERADES = {"ja": "マスカレイドに追加", "zh-hant": "加入假面", "en": "Add to masquerades"}
STARTING = {"ja": "初期デッキ", "zh-hant": "起始牌庫", "en": "Starting deck"}

# 遊戲準備 1: 將魔獸戰士、スカイランナー、デモニスタ三疊職業卡牌堆放在場中。
SETUP_JOBS = ("魔獣戦士", "スカイランナー", "デモニスタ")


@dataclass(frozen=True)
class PileCount(ZoneSize):
    """The zones' size in piles: each different card is one pile, however many copies its entry counts.

    A table chooses piles, not cards: ten different piles of two cards are ten piles against the set-up's nine,
    and the finding says so in piles with the rule (``message``: ``{count}``), never "20 cards (exactly 9)".
    """

    message: Labels = field(default_factory=dict)

    def check(self, deck: DeckSpec) -> list[Finding]:
        piles = len(deck.copies(*self.zones))
        if (self.minimum is None or piles >= self.minimum) and (self.maximum is None or piles <= self.maximum):
            return []
        return [self.violation(self.message, count=piles)]


PILE_TIMES = {"ja": "{name}×{count}", "zh-hant": "{name}×{count}", "en": "{name} ×{count}"}
PILE_SEPARATOR = {"ja": "、", "zh-hant": "、", "en": ", "}


@dataclass(frozen=True)
class PilesChosenOnce(AllDifferent):
    """Each pile is chosen once: an entry of more than one copy is that pile chosen again.

    The finding names each such pile with how many times it is chosen (``message``: ``{piles}``): ten different
    piles entered at two copies each are not "all different" piles broken, they are piles chosen twice.
    """

    message: Labels = field(default_factory=dict)

    def check(self, deck: DeckSpec) -> list[Finding]:
        cards = deck.cards(*self.zones)
        chosen = sorted(
            (key, count)
            for key, count in deck.copies(*self.zones).items()
            if count > 1 and not cards[key].placeholder  # a placeholder stands for several different cards
        )
        if not chosen:
            return []
        piles = {
            language: PILE_SEPARATOR[language].join(
                times.format(name=cards[key].name, count=count) for key, count in chosen
            )
            for language, times in PILE_TIMES.items()
        }
        texts = {language: template.format(piles=piles[language]) for language, template in self.message.items()}
        return [Finding(self.id, "violation", texts, tuple(cards[key].name for key, _ in chosen))]


def _setup_job(card: CardInfo, deck: DeckSpec) -> bool:
    return card.key in SETUP_JOBS


def _rules(mode: str, options: Mapping[str, Any]) -> list[Rule]:
    rules: list[Rule] = [
        # 遊戲準備 1-2: the three job piles, and 特技卡牌堆任選９種放置在場中.
        PileCount(
            "endbreaker.supply",
            {"ja": "アビリティの山はちょうど9種", "zh-hant": "特技牌堆須剛好9種", "en": "Exactly 9 ability piles"},
            zones=("supply",),
            zone_labels=SUPPLY,
            minimum=9,
            maximum=9,
            message={
                "ja": "サプライ：アビリティの山が{count}種（ゲームの準備では、ジョブの山3つのほかにアビリティの山をちょうど9種置く）",
                "zh-hant": "場中特技：特技牌堆{count}種（遊戲準備：三疊職業牌堆之外，特技牌堆須剛好9種）",
                "en": "Supply: {count} ability piles (the game sets up exactly 9 ability piles, beside the three job piles)",
            },
        ),
        PilesChosenOnce(
            "endbreaker.supply-different",
            {
                "ja": "アビリティの山はすべて異なる",
                "zh-hant": "特技牌堆須各不相同",
                "en": "The 9 ability piles all different",
            },
            zones=("supply",),
            message={
                "ja": "同じアビリティの山を2回以上選んでいる（山はそれぞれ1回だけ選ぶ）：{piles}",
                "zh-hant": "同一特技牌堆選了不只一次（每疊只選一次）：{piles}",
                "en": "Ability piles chosen more than once (each pile is chosen once): {piles}",
            },
        ),
        KindsOnly(
            "endbreaker.supply-kind",
            {"ja": "サプライにはアビリティのみ", "zh-hant": "場中牌堆只能是特技", "en": "Only abilities in the supply"},
            zones=("supply",),
            kinds=("ability",),
        ),
        ZoneSize(
            "endbreaker.jobs",
            {"ja": "ジョブの山は3つ", "zh-hant": "職業牌堆3疊", "en": "Three job piles"},
            zones=("jobs",),
            zone_labels=JOBS,
            minimum=3,
            maximum=3,
        ),
        PilesChosenOnce(
            "endbreaker.jobs-different",
            {"ja": "ジョブの山はすべて異なる", "zh-hant": "職業牌堆須各不相同", "en": "The job piles all different"},
            zones=("jobs",),
            message={
                "ja": "同じジョブの山を2回以上選んでいる（山はそれぞれ1回だけ選ぶ）：{piles}",
                "zh-hant": "同一職業牌堆選了不只一次（每疊只選一次）：{piles}",
                "en": "Job piles chosen more than once (each pile is chosen once): {piles}",
            },
        ),
        PerCard(
            "endbreaker.setup-jobs",
            {
                "ja": "ジョブの山は魔獣戦士・スカイランナー・デモニスタ",
                "zh-hant": "職業牌堆為魔獸戰士、スカイランナー、デモニスタ",
                "en": "The job piles are 魔獣戦士, スカイランナー and デモニスタ",
            },
            zones=("jobs",),
            test=_setup_job,
        ),
    ]
    if options.get("fixed_masquerades"):
        rules += [
            ZoneSize(
                "endbreaker.masquerades",
                {"ja": "固定するマスカレイドは3枚", "zh-hant": "固定的假面為3張", "en": "Exactly 3 fixed masquerades"},
                zones=("masquerades",),
                zone_labels=MASQUERADES,
                minimum=3,
                maximum=3,
            ),
            AllDifferent(
                "endbreaker.masquerades-different",
                {
                    "ja": "マスカレイドはすべて異なる",
                    "zh-hant": "假面須各不相同",
                    "en": "The masquerades all different",
                },
                zones=("masquerades",),
            ),
            KindsOnly(
                "endbreaker.masquerade-kind",
                {
                    "ja": "マスカレイド欄にはマスカレイドのみ",
                    "zh-hant": "假面區只能放假面",
                    "en": "Only masquerades among the masquerades",
                },
                zones=("masquerades",),
                kinds=("masquerade",),
            ),
        ]
    else:
        # 遊戲準備 4: 將假面卡隨機選出３張 — unless the table fixes them, none is chosen here.
        rules.append(
            ZoneSize(
                "endbreaker.random-masquerades",
                {
                    "ja": "マスカレイドを固定しない場合は選ばない（ランダムに3枚）",
                    "zh-hant": "不固定假面時不選（隨機3張）",
                    "en": "No masquerades chosen unless fixed (3 are drawn at random)",
                },
                zones=("masquerades",),
                zone_labels=MASQUERADES,
                minimum=0,
                maximum=0,
            )
        )
    return rules


RULES = register(
    DeckRules(
        game="endbreaker",
        zones=(
            Zone("supply", SUPPLY, kinds=("ability",), adding=ADD_TO_SUPPLY),
            Zone("jobs", JOBS, kinds=("job",), adding=ADD_TO_JOBS),
            Zone("masquerades", MASQUERADES, kinds=("masquerade",), adding=ADD_TO_MASQUERADES),
            Zone("starting", STARTING, fixed=True),
        ),
        modes=(Mode("default", {"ja": "通常", "zh-hant": "一般", "en": "Standard"}),),
        rules_for_mode=_rules,
        chart_fields=("skill", "at"),  # skills are what a hand pays with; AT ranks the battle
        options=(
            Option(
                "fixed_masquerades",
                {"ja": "マスカレイドを固定する", "zh-hant": "固定假面", "en": "Fix the 3 masquerades"},
                default=False,
                choices=(False, True),
            ),
        ),
        # 遊戲準備 5 and games.md: 城塞騎士、狩獵者、星靈術士各２張；旅人的酒場４張; plus 7 thorns kept in front.
        fixed_cards={
            "starting": (
                FixedCard("EB1-001", 4),
                FixedCard("城塞騎士", 2),
                FixedCard("狩猟者", 2),
                FixedCard("星霊術士", 2),
            )
        },
        notes={
            "ja": "各プレイヤーはさらにソーン＆ダブルトリガー7枚を自分の前に置く。",
            "zh-hant": "每位玩家另將棘７張放置在自己面前。",
            "en": "Each player also keeps 7 thorn cards (ソーン＆ダブルトリガー) in front of them.",
        },
        # The site's own wording in every language (seed 000: 並將棘７張放置在自己面前; games.md: plus 7 thorn cards).
        notes_translated=frozenset({"ja", "zh-hant", "en"}),
    )
)
