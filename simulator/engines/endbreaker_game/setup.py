"""The cards a game is set up with, and the values it needs from them (never invented).

Seed 000, 遊戲準備:
1「將魔獸戰士、スカイランナー、デモニスタ三疊職業卡牌堆放在場中。」
2「特技卡牌堆任選９種放置在場中。」
3「將所有的劇本卡洗牌後疊成一起，表面朝上放在場中，並翻開一張到牌庫右方。」
4「將假面卡隨機選出３張，用面具蓋住以所有人都不知道的方式放進場中。」
5「所有玩家獲得以下卡片：城塞騎士、狩獵者、星靈術士各２張；旅人的酒場４張，洗牌後成為牌庫。並將棘７張放置在自己面前。」

The values come from the card database (``SimCard.fields``). A value that is None is unknown; the
engine names every unknown value it would need (card key and field) and refuses to play rather than
guess. An empty skill ("") is a known value: the card gives no skill.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ...core import SimCard
from .effects import MASQUERADE_SCRIPTS, SCRIPTS
from .rules import ABILITY_PILES, JOB_PILES, MASQUERADES_IN_PLAY, Rules

# 遊戲準備 5: 城塞騎士、狩獵者、星靈術士各２張；旅人的酒場４張
STARTING_COPIES = {"tavern": 4, "knight": 2, "hunter": 2, "astromancer": 2}


@dataclass(frozen=True)
class MissingValue:
    """A value the engine needs and the card database does not give."""

    key: str
    field: str
    role: str  # why it is needed: "starting", "job", "ability", "thorn", "masquerade", "scenario"


class MissingCardValues(Exception):
    """The set-up lacks values; ``missing`` names each (card key and field)."""

    def __init__(self, missing: list[MissingValue]) -> None:
        self.missing = missing
        super().__init__(", ".join(f"{m.key}.{m.field}" for m in missing))


class SetupError(ValueError):
    """The set-up does not have the cards the seed's 遊戲準備 asks for."""


@dataclass(frozen=True)
class Setup:
    """The cards of one game: what 遊戲準備 places, each a SimCard with its database values."""

    tavern: SimCard  # 旅人の酒場 (EB1-001)
    knight: SimCard  # 城塞騎士
    hunter: SimCard  # 狩猟者
    astromancer: SimCard  # 星霊術士
    jobs: tuple[SimCard, ...]  # 魔獣戦士, スカイランナー, デモニスタ
    abilities: tuple[SimCard, ...]  # the 9 chosen ability piles
    scenarios: tuple[SimCard, ...]
    masquerades: tuple[SimCard, ...]  # all of them: 3 are masked, the rest make the damage pile
    thorn: SimCard  # ソーン＆ダブルトリガー (EB1-059)

    def starting_deck(self) -> list[SimCard]:
        return [card for role, copies in STARTING_COPIES.items() for card in [getattr(self, role)] * copies]

    def check_counts(self) -> None:
        if len(self.jobs) != JOB_PILES:
            raise SetupError(f"jobs: {JOB_PILES} job piles are needed, {len(self.jobs)} given")
        if len(self.abilities) != ABILITY_PILES:
            raise SetupError(f"abilities: {ABILITY_PILES} ability piles are needed, {len(self.abilities)} given")
        if len({card.key for card in (*self.jobs, *self.abilities)}) != JOB_PILES + ABILITY_PILES:
            raise SetupError("jobs, abilities: a card names two piles")
        # 3 masked, and a damage card drawn 「由不在場上的假面牌堆中抽出１張」 for each of the 3 battles.
        needed = MASQUERADES_IN_PLAY + MASQUERADES_IN_PLAY
        if len(self.masquerades) < needed:
            raise SetupError(f"masquerades: at least {needed} are needed, {len(self.masquerades)} given")
        # 「劇本卡在看的時候以兩張一組的方式來看」: a pair, and one more pair for each thorn a battle needs.
        if len(self.scenarios) < 2:
            raise SetupError(f"scenarios: at least 2 are needed, {len(self.scenarios)} given")


def _needs(cards: Iterable[SimCard], fields: tuple[str, ...], role: str) -> list[MissingValue]:
    missing = []
    for card in cards:
        script = SCRIPTS.get(card.key)
        for name in fields:
            if name == "at" and script is not None and script.at is not None:
                continue  # the text gives the AT (アローレイン: 「ＡＴ：プレイしているアビリティ枚数」)
            value = card.kind if name == "kind" else card.fields.get(name)
            if value is None:
                missing.append(MissingValue(card.key, name, role))
    return missing


def missing_values(setup: Setup, rules: Rules | None = None) -> list[MissingValue]:
    """Every value the game would read and the cards do not give, one entry per card and field."""
    found: list[MissingValue] = []
    # The kind (job or ability) decides what 練刺棍, トンファーコンボ, the masquerades' 「場のジョブすべて」… count.
    starting = tuple(dict.fromkeys((setup.tavern, setup.knight, setup.hunter, setup.astromancer)))
    found += _needs(starting[:1], ("skill", "at"), "starting")
    found += _needs(starting[1:], ("kind", "skill", "at"), "starting")
    found += _needs(setup.jobs, ("kind", "cost", "skill", "at"), "job")
    found += _needs(setup.abilities, ("kind", "cost", "skill", "at"), "ability")
    # Fields a card's text reads on other cards (アクスディバイド: the cost of any card in hand; ランスインパクト and
    # ラビシャン…: the attribute). The jobs and abilities must give them; the tavern must give a cost (it can be
    # destroyed) but is not asked for an attribute (its kind has none in the game definition).
    reads = {name for card in setup.abilities if card.key in SCRIPTS for name in SCRIPTS[card.key].reads}
    reads |= {
        name
        for card in setup.masquerades
        if card.key in MASQUERADE_SCRIPTS
        for name in MASQUERADE_SCRIPTS[card.key].reads
    }
    for name in sorted(reads):
        found += _needs(starting[:1] if name == "cost" else (), (name,), "starting")
        found += _needs(starting[1:], (name,), "starting")
        found += _needs(setup.jobs, (name,), "job")
        found += _needs(setup.abilities, (name,), "ability")
    found += _needs((setup.thorn,), ("at",), "thorn")
    found += _needs(setup.masquerades, ("payout", "damage"), "masquerade")
    # Every scenario comes to the junction card's place in turn (rules.junction_card).
    found += _needs(setup.scenarios, ("cost", "payout"), "scenario")
    seen: set[tuple[str, str]] = set()
    unique = []
    for entry in found:
        if (entry.key, entry.field) not in seen:
            seen.add((entry.key, entry.field))
            unique.append(entry)
    return unique
