"""Epic Battles goldfish (seed 003: ターンの進行, エネルギーについて; ../shared/games.md).

Both players act in the same turn (the seed: no turn player). The goldfish draws
its 3 cards and passes; it never blocks, so every attack's damage makes it send
that many cards from its deck to its discard pile. A player who must draw or
discard from an empty deck loses the round; the first to win 2 rounds wins the match.
Event and block cards are not simulated (the goldfish never attacks); they wait in
hand and go at the end-of-turn discard.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from cards.search.normalize import fold

from ..core import GameState, Parameter, SimCard, SimDeck, TurnStats
from . import register

OPENING_HAND = 3  # 開始手札： 3枚。
DRAW_PER_TURN = 3  # ステップ 1: ドロー — それぞれ自分のデッキからカードを 3枚引き
HAND_LIMIT = 3  # 上限も 3枚 — ステップ 4: ディスカード
ROUNDS_TO_WIN = 2  # 先にゲーム（Round）で 2勝する。


def _cost(card: SimCard) -> int | None:
    return card.value("cost")


def _damage(card: SimCard) -> int:
    return card.value("damage", 0)


def _follows(previous: SimCard, card: SimCard) -> bool:
    """A combo continues only with a card of the kind the previous attack's follow-up names."""
    follow_up = previous.value("follow_up")
    if not follow_up:
        return False
    wanted = fold(follow_up).strip()
    traits = [fold(trait) for trait in card.value("trait", [])]
    return wanted == fold(card.value("position", "")) or wanted in traits


@dataclass(frozen=True)
class Policy:
    name: str
    strongest_first: bool = True  # attack with the most damaging affordable attack


POLICIES: Mapping[str, Policy] = {"default": Policy("default"), "cheapest": Policy("cheapest", strongest_first=False)}


class EpicBattlesState(GameState):
    def __init__(self, seed: int, log_events: bool) -> None:
        super().__init__(seed, log_events)
        self.cards: tuple[SimCard, ...] = ()
        self.deck: list[SimCard] = []
        self.hand: list[SimCard] = []
        self.energy: list[SimCard] = []
        self.discard: list[SimCard] = []
        self.opponent_deck = 0
        self.opponent_size = 59
        self.round = 1
        self.rounds_won = 0
        self.rounds_lost = 0
        self.policy = "default"


class EpicBattlesEngine:
    game = "epicbattles"
    main_zone = "deck"  # the zone it shuffles and draws from
    optional_zones: tuple[str, ...] = ()
    opening_hand = OPENING_HAND
    parameters = (
        Parameter(
            "opponent_deck",
            {"ja": "相手のデッキ枚数", "zh-hant": "對手牌組張數", "en": "Opponent's deck size"},
            default=59,
            minimum=1,
            maximum=200,
            source="seed 003: デッキ枚数 59枚ちょうど",
        ),
    )
    policies = POLICIES

    def new_game(self, deck: SimDeck, seed: int, params: Mapping[str, int], policy: str, log: bool = True):
        state = EpicBattlesState(seed, log)
        state.policy = policy if policy in POLICIES else "default"
        state.cards = deck.zone(self.main_zone)
        state.opponent_size = params["opponent_deck"]
        self._start_round(state)
        return state

    def _start_round(self, state: EpicBattlesState) -> None:
        state.deck = list(state.cards)
        state.hand, state.energy, state.discard = [], [], []
        state.shuffle(state.deck)
        # The goldfish draws its opening hand from its own deck too.
        state.opponent_deck = state.opponent_size - OPENING_HAND
        state.record("round", amount=state.round)
        self._draw(state, OPENING_HAND, "opening hand")

    def draw_schedule(self, turns: int, first_player: bool) -> list[int]:
        return [DRAW_PER_TURN] * turns  # ファーストドロー制限： 無し

    def is_over(self, state: EpicBattlesState) -> bool:
        return state.rounds_won >= ROUNDS_TO_WIN or state.rounds_lost >= ROUNDS_TO_WIN

    def _draw(self, state: EpicBattlesState, count: int, detail: str = "") -> bool:
        for _ in range(count):
            if not state.deck:
                return False
            card = state.deck.pop()
            state.hand.append(card)
            state.record("draw", card, detail=detail)
        return True

    def _end_round(self, state: EpicBattlesState, won: bool) -> None:
        if won:
            state.rounds_won += 1
            state.record("round won", amount=state.round)
            if state.rounds_won >= ROUNDS_TO_WIN:
                state.won_on_turn = state.turn
                state.record("win", amount=state.turn)
        else:
            state.rounds_lost += 1
            state.record("round lost", amount=state.round, detail="had to draw from an empty deck")
        state.round += 1
        if not self.is_over(state):
            self._start_round(state)

    def play_turn(self, state: EpicBattlesState) -> None:
        state.turn += 1
        stats = TurnStats(turn=state.turn)
        state.stats.append(stats)
        # Step 1: both draw 3. Whoever cannot loses the round (ライブラリアウト).
        if not self._draw(state, DRAW_PER_TURN):
            self._end_round(state, won=False)
            return
        if state.opponent_deck < DRAW_PER_TURN:
            state.opponent_deck = 0
            self._end_round(state, won=True)
            return
        state.opponent_deck -= DRAW_PER_TURN
        stats.resources = len(state.energy)
        # Step 3: attack while an attack can be paid for; the goldfish passes and never blocks.
        while self._attack_chain(state, stats):
            if state.opponent_deck < 0:
                state.opponent_deck = 0
                stats.hand_size = len(state.hand)
                self._end_round(state, won=True)
                return
        # Step 4: discard down to 3, keeping the strongest attacks.
        state.hand.sort(key=lambda card: (card.kind == "attack", _damage(card)), reverse=True)
        while len(state.hand) > HAND_LIMIT:
            card = state.hand.pop()
            state.discard.append(card)
            state.record("discard", card)
        stats.hand_size = len(state.hand)

    def _affordable(self, state: EpicBattlesState, previous: SimCard | None) -> list[SimCard]:
        return [
            card
            for card in state.hand
            if card.kind == "attack"
            and _cost(card) is not None
            and _cost(card) <= len(state.energy)
            and (previous is None or _follows(previous, card))
        ]

    def _attack_chain(self, state: EpicBattlesState, stats: TurnStats) -> bool:
        """One attack and its combo; False when no attack can be made."""
        previous: SimCard | None = None
        policy = POLICIES[state.policy]
        while True:
            candidates = self._affordable(state, previous)
            if not candidates:
                return previous is not None
            if policy.strongest_first:
                card = max(candidates, key=lambda c: (_damage(c), -(_cost(c) or 0)))
            else:
                card = min(candidates, key=lambda c: (_cost(c) or 0, -_damage(c)))
            state.hand.remove(card)
            # エネルギーは…1枚破棄することに 1コスト分が支払われる。
            for _ in range(_cost(card) or 0):
                state.discard.append(state.energy.pop(0))
            damage = _damage(card)
            state.record("attack", card, amount=damage, detail="combo" if previous else "")
            if card.value("damage") is None:
                state.record("note", card, detail="damage unknown: counted as 0")
            state.opponent_deck -= damage
            state.record("damage", amount=damage, detail=f"goldfish deck at {max(state.opponent_deck, 0)}")
            stats.damage += damage
            stats.cards_played += 1
            # 攻撃を行ったアタックカードは、使用後にエネルギー置き場に送られる。
            state.energy.append(card)
            if state.opponent_deck < 0:
                return True
            previous = card


ENGINE = register(EpicBattlesEngine())
