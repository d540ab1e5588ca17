"""The numbers and choices of the rules: what seed 000 states, and what it does not (named assumptions).

Every field of ``Rules`` the seed does not state is listed in ``ASSUMPTIONS`` with why its default was
chosen, so a page can show it beside the results and a user can change it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

# Stated by seed 000. ``Final``: compiled, each use is the number itself, not a look-up in the module's globals.
HAND_SIZE: Final = 5  # [戰鬥階段] 1「抽出５張卡」, 7「重抽５張」; [手牌調整階段]「再抽５張」
PLAYS_PER_TURN: Final = 5  # <開始階段>「玩家獲得使用五次卡片的權利 (行動+5）」
BATTLE_PLAYS: Final = 5  # [戰鬥階段] 1「接著抽出５張卡並獲得５行動」
THORNS_PER_PLAYER: Final = 7  # 遊戲準備 5「並將棘７張放置在自己面前」
MASQUERADES_IN_PLAY: Final = 3  # 遊戲準備 4「將假面卡隨機選出３張」
ABILITY_PILES: Final = 9  # 遊戲準備 2「特技卡牌堆任選９種放置在場中」
JOB_PILES: Final = 3  # 遊戲準備 1「將魔獸戰士、スカイランナー、デモニスタ三疊職業卡牌堆放在場中」
THORNS_TO_BATTLE: Final = 3  # (3)「當第三張棘放上後，完全顯示出該假面的身份，此時立刻進入戰鬥階段」
MIN_PLAYERS: Final = 1  # games.md: 2–4 players; the official solo variant makes 1
MAX_PLAYERS: Final = 4  # games.md: 2–4 players


@dataclass(frozen=True)
class Rules:
    """What the seed leaves open, each with its default (see ``ASSUMPTIONS``)."""

    opening_hand: int = HAND_SIZE
    pile_size: int = 10
    gain_to: Literal["discard", "hand", "deck_top"] = "discard"
    # Which card of the pair at the junction carries the requirement and the reward.
    junction_card: Literal["right", "left"] = "right"
    resolve_without_thorn: bool = False
    tiebreak_count: Literal["draw_pile", "all_cards"] = "all_cards"
    battle_discards_field: bool = True
    thorns_played_return: bool = True
    reveal_reshuffles: bool = False
    effect_resolution_limited: bool = False
    scenario_update: Literal["replace_right", "replace_left"] = "replace_right"
    left_neighbour: Literal["next", "previous"] = "next"
    darc_pile: int | None = None
    max_turns: int = 200
    # The card keys taken as 都市国家 (ヘカトンケイル), besides a card whose stored kind is ``city``.
    city_states: tuple[str, ...] = ()
    prophet_without_jobs: Literal["nobody", "everyone"] = "nobody"
    capture_carries_over: bool = True

    def __post_init__(self) -> None:
        if not 1 <= self.opening_hand <= 10:
            raise ValueError("opening_hand must be 1 to 10")
        if self.pile_size < 1:
            raise ValueError("pile_size must be at least 1")
        if self.max_turns < 1:
            raise ValueError("max_turns must be at least 1")


ASSUMPTIONS: dict[str, str] = {
    "opening_hand": "遊戲準備 ends with shuffling the deck (「洗牌後成為牌庫」) and says nothing of a first draw; "
    "5, the hand every later phase draws, is assumed (the same parameter as the starting-hand engine).",
    "pile_size": "The seed does not say how many cards each job or ability pile holds (396 cards in 65 kinds, "
    "groupsne.co.jp product page); 10 is assumed.",
    "gain_to": "「消耗對應技能值就可獲得場中卡片」 does not say where a gained card goes; the discard pile is "
    "assumed (the seed points to Dominion: 「我可以說請參考dominion嗎」).",
    "junction_card": "The seed reads scenarios in pairs and 「只看兩張連結處的內容」 but gives no scenario card; "
    "the requirement (field `cost`) and the reward (field `payout`, ×1000ダルク) are assumed to be printed on "
    "the right-hand card, the one that leaves the game when resolved (「完成的劇本卡右邊那張移出遊戲」).",
    "resolve_without_thorn": "「解決事件後，該玩家立刻將自己場上一張棘放置到場中一隻假面上」 does not say what a "
    "player with no thorn left does; by default such a player cannot resolve a scenario.",
    "tiebreak_count": "「同分時則比較牌庫張數，較少者獲勝」: the seed's 牌庫 is first the whole deck a player owns "
    "(遊戲準備 5 「所有玩家獲得以下卡片…洗牌後成為牌庫」, and [戰鬥階段] 1 「手牌、場上的牌、棄牌堆洗牌成為新牌庫」), and a "
    "deck-building game's tie-break on the deck counts the cards a player owns (fewer cards: the leaner deck won). "
    "The draw pile at the end is nearly chance (what the last battle's damage discarded), so `all_cards` (deck, hand, "
    "discard and field; destroyed cards, ダルク and thorns are not cards of the deck) is the default; `draw_pile` "
    "counts only the draw pile.",
    "battle_discards_field": "[戰鬥階段] 7 「將手牌全捨棄重抽５張」 names only the hand; the cards played in "
    "battle are assumed discarded with it. With `false` they stay in front of the player until their next hand "
    "adjustment (or the next battle's reshuffle), but are no longer 「本回合打出的卡片」: they pay no skill and add no AT "
    "in the next turn.",
    "thorns_played_return": "[戰鬥階段] 7 「所有玩家將手牌中的棘回到場上」 names the thorns in hand; thorns played in "
    "battle are assumed to go back too (「不包括錢幣卡以及棘」: a thorn never joins the deck).",
    "reveal_reshuffles": "「山札を公開し」 (練刺棍, トンファーコンボ, 黒旋風, ゲットセット) does not say what happens when the "
    "deck runs out while revealing; by default the revealing stops (no reshuffle).",
    "effect_resolution_limited": "ランスインパクト resolves a scenario 「シナリオ解決は効果であり、日常フェイズの各行動は別に行える」; "
    "by default that resolution is outside the once-a-turn limit (「一回合不能解決兩次以上的事件」) and does not use it up.",
    "scenario_update": "流水演舞 「シナリオ1枚を更新してもよい」 does not say what updating is; by default the right-hand "
    "card of the pair leaves the game and the left one takes its place, with no reward and no thorn.",
    "left_neighbour": "レッドバロック's 「ターンプレイヤーの左隣のプレイヤー」: the seed does not say which way turns pass; "
    "the left neighbour is taken as the next player in turn order.",
    "darc_pile": "Rewards are 『１０００ダルク』 cards (「可獲得1000元2張」); the seed's 遊戲準備 places no ダルク pile and "
    "gives no count (the official solo rules page at broccoli.co.jp puts one in the supply). By default it never runs out; a "
    "number makes it a pile of that many cards, and gains stop when it is empty.",
    "city_states": "ヘカトンケイル 「場の都市国家すべてを「AT：＋３」する」: the seed's card table never says which cards are "
    "都市国家, and no stored card has that kind. By default the effect reaches only a card whose stored kind is "
    "`city` (none today, so the effect does not happen); the keys listed here (for example EB1-001 旅人の酒場) are "
    "taken as 都市国家 too. Results with ヘカトンケイル in play say which reach they were played with.",
    "prophet_without_jobs": "《予言者》 「プレイしたジョブの枚数がもっとも多いプレイヤーすべてが対象」: when no standing player "
    "played a job, no one 「プレイしたジョブ」 at all, so no one is the player who played the most of them and no one gets "
    "the 『１０００ダルク』２枚 (`nobody`, the default); `everyone` reads a tie at zero as every standing player being "
    "the most.",
    "capture_carries_over": "捕縛撃 「次の手札調整フェイズ前に、手札２枚までを山札の上に置いてもよい」 names the next hand "
    "adjustment phase: when a battle ends the turn (no hand adjustment that turn), the right carries over to the "
    "player's next hand adjustment phase (`false`: it is lost with the turn). Each 捕縛撃 played gives its own two cards.",
    "max_turns": "Not a rule: a safety stop for strategies that never resolve a scenario, and for a scenario deck "
    "that runs out before the third battle (the seed does not say what happens then); the game is then reported "
    "as stopped, not ended.",
}
