"""乙女遊戯 水滸伝 goldfish (seed 002, <遊戲流程>; ../shared/games.md).

The goldfish holds a number of lands (a parameter: no source says how many) and
never defends, so each battle destroys one of them (防禦方不選的話視為放棄土地，
直接進行破壞); destroying them all wins (占領). Special abilities are not simulated.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from ..core import GameState, Parameter, SimCard, SimDeck, TurnStats
from . import register

OPENING_HAND = 5  # games.md: draw an opening hand of 5, then turn over your first land.
HAND_LIMIT = 5  # 6. 終了階段: 手牌6張以上時，必須棄到剩5張。
COLOURS = ("仁", "義", "勇")
COST_PART = re.compile(r"([^\d\s]{1,2}?)(殺)?(\d+)")


@dataclass(frozen=True)
class CostPart:
    colour: str  # 白, 仁, 義, 勇 (or a colour no source maps, such as 藍)
    kill: bool  # 仁殺: the character is discarded, not sent wandering
    amount: int


def parse_cost(cost: str | None) -> list[CostPart] | None:
    """The seed's cost notation ("白1藍1", "仁殺1", "0"); None when unknown or unreadable."""
    if cost is None:
        return None
    cost = cost.translate(str.maketrans("０１２３４５６７８９", "0123456789"))
    if cost == "0":
        return []
    parts = [CostPart(colour, bool(kill), int(amount)) for colour, kill, amount in COST_PART.findall(cost)]
    return parts or None


@dataclass
class Character:
    card: SimCard
    ready: bool = False  # 人物剛登用成功的那回合狀態為行動準備中(斜放)，不能使用。
    hired_this_turn: bool = False


@dataclass(frozen=True)
class Policy:
    name: str
    hire_dearest_first: bool = True
    use_land_effects: bool = True


POLICIES: Mapping[str, Policy] = {
    "default": Policy("default"),
    "cheap-first": Policy("cheap-first", hire_dearest_first=False),
    "no-land-effects": Policy("no-land-effects", use_land_effects=False),
}


class SuikodenState(GameState):
    def __init__(self, seed: int, log_events: bool) -> None:
        super().__init__(seed, log_events)
        self.deck: list[SimCard] = []
        self.lands: list[SimCard] = []
        self.land: SimCard | None = None  # the land in front of the player
        self.hand: list[SimCard] = []
        self.field_characters: list[Character] = []
        self.wandering: list[SimCard] = []  # 放浪區
        self.discard: list[SimCard] = []
        self.opponent_lands = 0
        self.policy = "default"
        self.out_of_cards = False


def _colour(card: SimCard) -> str | None:
    return card.value("colour")


def _total(card: SimCard) -> int:
    parts = parse_cost(card.value("cost"))
    return sum(part.amount for part in parts) if parts else 0


class SuikodenEngine:
    game = "suikoden"
    main_zone = "characters"  # the zone it shuffles and draws from
    optional_zones = ("lands",)  # zones it plays without, mentioned when empty
    opening_hand = OPENING_HAND
    parameters = (
        Parameter(
            "opponent_lands",
            {"ja": "相手の土地の数", "zh-hant": "對手土地數", "en": "Opponent's lands"},
            default=4,
            minimum=1,
            maximum=10,
            source="no source says how many lands the goldfish holds; 4 is the construction minimum",
        ),
    )
    policies = POLICIES

    def new_game(self, deck: SimDeck, seed: int, params: Mapping[str, int], policy: str, log: bool = True):
        state = SuikodenState(seed, log)
        state.policy = policy if policy in POLICIES else "default"
        state.deck = list(deck.zone(self.main_zone))
        state.lands = list(deck.zone("lands"))
        state.shuffle(state.deck)
        state.rng.shuffle(state.lands)
        state.opponent_lands = params["opponent_lands"]
        self._draw(state, OPENING_HAND, "opening hand")
        if state.lands:
            state.land = state.lands.pop()
            state.record("land", state.land, detail="first land turned over")
        return state

    def draw_schedule(self, turns: int, first_player: bool) -> list[int]:
        return [1] * turns  # 3. 收入階段: 從牌庫中抽一張到手牌 (the optional second draw is a choice)

    def is_over(self, state: SuikodenState) -> bool:
        return state.won_on_turn is not None or state.out_of_cards

    def _draw(self, state: SuikodenState, count: int, detail: str = "") -> None:
        for _ in range(count):
            if not state.deck:
                # 勝利方式 (3) 對方牌庫用完: a player who cannot draw loses.
                state.out_of_cards = True
                state.record("lose", detail="cannot draw")
                return
            card = state.deck.pop()
            state.hand.append(card)
            state.record("draw", card, detail=detail)

    def play_turn(self, state: SuikodenState) -> None:
        state.turn += 1
        policy = POLICIES[state.policy]
        stats = TurnStats(turn=state.turn)
        state.stats.append(stats)
        # 1. 開始階段: every character stands up.
        for character in state.field_characters:
            character.ready = True
        # 2. 歸還階段: one wandering character may come back; with [調達] it draws a card.
        if state.wandering:
            returning = max(state.wandering, key=lambda card: card.value("attack", 0))
            state.wandering.remove(returning)
            state.field_characters.append(Character(returning, ready=True))
            state.record("return", returning)
            if "調達" in (returning.value("specialties") or []):
                self._draw(state, 1, "調達")
        # 3. 收入階段: draw one, and one more by discarding a wandering character.
        self._draw(state, 1)
        if state.wandering and len(state.hand) < HAND_LIMIT and not state.out_of_cards:
            dropped = state.wandering.pop()
            state.discard.append(dropped)
            state.record("discard", dropped, detail="wandering character for a second draw")
            self._draw(state, 1)
        if state.out_of_cards:
            return
        # 4. 內政階段: hire, then land effects.
        stats.cards_played = self._hire(state, policy)
        stats.resources = len(state.hand)
        if policy.use_land_effects:
            self._land_effects(state)
        # 5. 戰鬥階段: not on a player's first turn; the goldfish never defends, so the land falls.
        if state.turn > 1:
            stats.damage = self._battle(state)
        # 6. 終了階段: discard down to 5; characters hired this turn stand up.
        state.hand.sort(key=_total)
        while len(state.hand) > HAND_LIMIT:
            card = state.hand.pop()
            state.discard.append(card)
            state.record("discard", card, detail="end of turn")
        # 行動準備中的角色在自己回合結束時恢復成縱置; those that acted stay tapped until the start phase.
        for character in state.field_characters:
            if character.hired_this_turn:
                character.ready, character.hired_this_turn = True, False
        stats.hand_size = len(state.hand)
        if state.opponent_lands <= 0 and state.won_on_turn is None:
            state.won_on_turn = state.turn
            state.record("win", amount=state.turn, detail="every land destroyed")

    def _can_pay(self, state: SuikodenState, card: SimCard, parts: list[CostPart]) -> bool:
        white = sum(part.amount for part in parts if part.colour == "白")
        if white > len(state.hand) - 1:  # the card being hired is not discarded to pay for itself
            return False
        for part in parts:
            if part.colour == "白":
                continue
            if part.colour not in COLOURS:
                return False  # a colour no source maps to 仁/義/勇 (e.g. 藍): cannot be paid
            if sum(1 for c in state.field_characters if _colour(c.card) == part.colour) < part.amount:
                return False
        return True

    def _pay(self, state: SuikodenState, card: SimCard, parts: list[CostPart]) -> None:
        for part in parts:
            if part.colour == "白":
                # 白色屬性意思則是從手牌捨棄相當張數來支付: discard the cheapest cards.
                for _ in range(part.amount):
                    # The hired card has already left the hand (_hire removes it first); its copies may pay.
                    payment = min(state.hand, key=_total)
                    state.hand.remove(payment)
                    state.discard.append(payment)
                    state.record("discard", payment, detail=f"pays 白 for {card.name}")
                continue
            for _ in range(part.amount):
                payer = min(
                    (c for c in state.field_characters if _colour(c.card) == part.colour),
                    key=lambda c: c.card.value("attack", 0),
                )
                state.field_characters.remove(payer)
                if part.kill:
                    state.discard.append(payer.card)  # 仁殺: the character is discarded
                    state.record("discard", payer.card, detail=f"pays {part.colour}殺 for {card.name}")
                else:
                    state.wandering.append(payer.card)  # 仁: the character goes wandering
                    state.record("wander", payer.card, detail=f"pays {part.colour} for {card.name}")

    def _hire(self, state: SuikodenState, policy: Policy) -> int:
        hired = 0
        while True:
            options = []
            for card in state.hand:
                parts = parse_cost(card.value("cost"))
                if parts is not None and self._can_pay(state, card, parts):
                    options.append((card, parts))
            if not options:
                break
            chooser = max if policy.hire_dearest_first else min
            card, parts = chooser(options, key=lambda option: (_total(option[0]), option[0].value("attack", 0)))
            state.hand.remove(card)
            self._pay(state, card, parts)
            state.field_characters.append(Character(card, ready=False, hired_this_turn=True))
            state.record("play", card, amount=_total(card), detail="hired")
            hired += 1
        for card in state.hand:
            if parse_cost(card.value("cost")) is None:
                state.record("note", card, detail="cost unknown or unpayable colour: not hired")
        return hired

    def _land_effects(self, state: SuikodenState) -> None:
        """商業 and 狩獵: tap ready characters whose 智力 / 攻擊力 reach the land's value, draw one (once each)."""
        if state.land is None:
            return
        keep = max(state.field_characters, key=lambda c: c.card.value("attack", 0), default=None)
        for effect, stat in (("commerce", "intelligence"), ("hunting", "attack")):
            needed = state.land.value(effect)
            if needed is None:
                continue
            helpers = sorted(
                (c for c in state.field_characters if c.ready and c is not keep and c.card.value(stat) is not None),
                key=lambda c: c.card.value(stat),
                reverse=True,
            )
            chosen, total = [], 0
            for character in helpers:
                if total >= needed:
                    break
                chosen.append(character)
                total += character.card.value(stat)
            if total >= needed and chosen:
                for character in chosen:
                    character.ready = False
                state.record(effect, amount=total)
                self._draw(state, 1, effect)

    def _battle(self, state: SuikodenState) -> int:
        leaders = state.land.value("leader") if state.land is not None else None
        attackers = [c for c in state.field_characters if c.ready]
        if not attackers or state.opponent_lands <= 0:
            return 0
        if leaders is not None:
            attackers = attackers[:leaders]  # 一次能出場的人數由己方面前的土地[頭領]值決定
        for character in attackers:
            character.ready = False
            state.record("attack", character.card)
        # No defender: the land is given up and destroyed; a destroyed land ends the battle.
        state.opponent_lands -= 1
        state.record("damage", amount=1, detail=f"land destroyed; {state.opponent_lands} left")
        return 1


ENGINE = register(SuikodenEngine())
