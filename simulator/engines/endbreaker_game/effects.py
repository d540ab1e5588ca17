"""Card effects, registered by card key (XMage style: each card composes shared effects; no if-chains on names).

A card's script has an effect for the daily phase (「[日常]」), one for battle (「[戦闘]」), and, when its text
gives its AT, a function for it. Every 「〜してもよい」 ("may") asks the player's strategy (``Game.may``), with
the answer a strategy gives when it says nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .game import Game, InPlay, Player

Effect = Callable[["Game", "Player", "InPlay"], None]
AtRule = Callable[["Game", "Player", "InPlay"], int]


@dataclass(frozen=True)
class CardScript:
    key: str
    daily: Effect | None = None
    battle: Effect | None = None
    at: AtRule | None = None  # the AT the text gives, instead of the card's `at` value


SCRIPTS: dict[str, CardScript] = {}


def script(key: str, *, daily: Effect | None = None, battle: Effect | None = None, at: AtRule | None = None) -> None:
    if key in SCRIPTS:
        raise ValueError(f"{key}: scripted twice")
    SCRIPTS[key] = CardScript(key, daily, battle, at)


# Shared effects ---------------------------------------------------------------------------------------------


def may(question: str, effect: Effect, *, default: bool = True) -> Effect:
    """「〜してもよい」: the effect happens if the strategy says yes to ``question``."""

    def run(game: Game, player: Player, played: InPlay) -> None:
        if game.may(player, question, default=default):
            effect(game, player, played)

    return run


def both(*effects: Effect) -> Effect:
    def run(game: Game, player: Player, played: InPlay) -> None:
        for effect in effects:
            effect(game, player, played)

    return run


def draw(count: int) -> Effect:
    """「ドロー：＋N」"""

    def run(game: Game, player: Player, played: InPlay) -> None:
        game.draw(player, count)

    return run


def plays(count: int) -> Effect:
    """「プレイ可能枚数：＋N」"""

    def run(game: Game, player: Player, played: InPlay) -> None:
        player.plays += count
        game.note(player, "plays", played.card.key, count)

    return run


def change_skills(question: str, *, up_to: int, symbols: str, into: str) -> Effect:
    """「場のカード{up_to}枚までを選び、「スキル：{symbols}」すべてを「スキル：{into}」に変更してもよい」.

    The strategy says whether (``question``); the cards changed are those with the most of ``symbols``.
    """

    def run(game: Game, player: Player, played: InPlay) -> None:
        candidates = [card for card in player.field if any(symbol in card.skill for symbol in symbols)]
        if not candidates or not game.may(player, question, default=False):
            return
        candidates.sort(key=lambda card: -sum(card.skill.count(symbol) for symbol in symbols))
        for card in candidates[:up_to]:
            card.skill = "".join(into if symbol in symbols else symbol for symbol in card.skill)
            game.note(player, "skill_changed", card.card.key, detail=card.skill)

    return run


def abilities_played(game: Game, player: Player, played: InPlay) -> int:
    """「ＡＴ：プレイしているアビリティ枚数」"""
    return sum(1 for card in player.field if card.card.kind == "ability")


# The cards --------------------------------------------------------------------------------------------------

# EB1-001 旅人の酒場「[日常]場のカード２枚までを選び、「スキル：P・T・S」すべてを「スキル：B」に変更してもよい。」
script("EB1-001", daily=change_skills("EB1-001", up_to=2, symbols="PTS", into="B"))

# EB1-008 居合い斬り「[日常]場のカード２枚までを選び、「スキル：B」すべてを「スキル：●」に変更してもよい。」
script("EB1-008", daily=change_skills("EB1-008", up_to=2, symbols="B", into="●"))

# EB1-017 切り裂き「[日常・戦闘]「プレイ可能枚数：＋２」してもよい。」
script("EB1-017", daily=may("EB1-017", plays(2)), battle=may("EB1-017", plays(2)))

# EB1-018 ヴォイドスクラッチ「[日常・戦闘]「ドロー：＋３」してもよい。」
script("EB1-018", daily=may("EB1-018", draw(3)), battle=may("EB1-018", draw(3)))

# EB1-021 アローレイン「ＡＴ：プレイしているアビリティ枚数」
# 「[日常・戦闘]「ドロー：＋１＆プレイ可能枚数：＋１」してもよい。」
script(
    "EB1-021",
    daily=may("EB1-021", both(draw(1), plays(1))),
    battle=may("EB1-021", both(draw(1), plays(1))),
    at=abilities_played,
)
