"""Shadow Era goldfish (seed 001; ../shared/games.md, Turn_Structure and Resources).

The opponent does nothing: no allies, no blocks, no abilities. The run ends when
its hero's health (a parameter: no source gives hero health) reaches 0.
Card effects other than attack values are not simulated; the log says so.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .. import core
from ..core import GameState, Parameter, SimCard, SimDeck, TurnStats
from . import register

OPENING_HAND = 6  # 対戦開始時、お互いのプレイヤーは自身のデッキの上から６枚カードをドローする。
HAND_LIMIT = 7  # もし手札がすでに最大枚数(初期値は7枚)に達している場合、ドローできない。
SHADOW_ENERGY_CAP = 10  # シャドーエネルギー１ポイント分が毎ターン自動的に発生し…10ポイントまで蓄積される。


@dataclass(slots=True)
class Ally:
    card: SimCard
    attack: int
    # 召喚されたアリーは行動済み…の状態で場に出て、次の自身のターンに行動前状態になる: it attacks from its next turn on.
    ready: bool = False


class ShadowEraState(GameState):
    def __init__(self, seed: int, log_events: bool) -> None:
        super().__init__(seed, log_events)
        self.deck: list[SimCard] = []
        self.hand: list[SimCard] = []
        self.field_allies: list[Ally] = []
        self.items: list[SimCard] = []
        self.discard: list[SimCard] = []
        self.resources = 0  # cards sacrificed so far; resources renew every turn
        self.shadow_energy = 0
        self.weapon_attack = 0
        self.weapon_durability = 0
        self.opponent_health = 0
        self.own_damage = 0
        self.first_player = True
        self.policy = "default"
        self.costs: dict[SimCard, int | None] = {}  # shared by every game of a deck
        self.expendability: dict[SimCard, tuple[bool, bool, int]] = {}
        # The goldfish never blocks or removes anything, so every ally that has waited a turn
        # attacks every turn: keep their total rather than walk them each turn.
        self.ready_attack = 0
        self.arriving: list[Ally] = []  # allies that entered play this turn


def _cost(card: SimCard) -> int | None:
    if card.kind == "location":
        return 0  # games.md: Locations cost nothing.
    return card.value("cost")


def _expendability(card: SimCard) -> tuple[bool, bool, int]:
    """Which card to sacrifice: one of unknown cost first, then a non-ally, then the dearest."""
    cost = _cost(card)
    return (cost is None, card.kind != "ally", cost or 0)


_prepared: dict[int, tuple[SimDeck, dict[SimCard, int | None], dict[SimCard, tuple[bool, bool, int]]]] = {}


def _facts_of(deck: SimDeck) -> tuple[dict[SimCard, int | None], dict[SimCard, tuple[bool, bool, int]]]:
    """Every card's cost and expendability, worked out once per deck rather than at each decision."""
    cached = _prepared.get(id(deck))
    if cached is None or cached[0] is not deck:
        if len(_prepared) > 32:
            _prepared.clear()
        cards = set(deck.zone(ShadowEraEngine.main_zone))
        cached = (deck, {card: _cost(card) for card in cards}, {card: _expendability(card) for card in cards})
        _prepared[id(deck)] = cached
    return cached[1], cached[2]


@dataclass(frozen=True)
class Policy:
    name: str
    sacrifice_while_short: bool = True  # sacrifice only while resources < the dearest card in hand
    always_sacrifice: bool = False
    play_dearest_first: bool = True


POLICIES: Mapping[str, Policy] = {
    "default": Policy("default"),
    "ramp": Policy("ramp", sacrifice_while_short=False, always_sacrifice=True),
    "curve": Policy("curve", play_dearest_first=False),
}


class ShadowEraEngine:
    game = "shadowera"
    main_zone = "deck"  # the zone it shuffles and draws from
    optional_zones: tuple[str, ...] = ()
    opening_hand = OPENING_HAND
    parameters = (
        Parameter(
            "opponent_health",
            {"ja": "相手ヒーローの体力", "zh-hant": "對手英雄生命值", "en": "Opponent hero's health"},
            default=30,
            minimum=1,
            maximum=200,
            source="no source gives hero health (games.md); 30 is an assumption",
        ),
        Parameter(
            "first_player",
            {"ja": "先攻（1）/後攻（0）", "zh-hant": "先攻（1）/後攻（0）", "en": "Going first (1) or second (0)"},
            default=1,
            minimum=0,
            maximum=1,
        ),
    )
    policies = POLICIES

    def new_game(self, deck: SimDeck, seed: int, params: Mapping[str, int], policy: str, log: bool = True):
        state = ShadowEraState(seed, log)
        state.policy = policy if policy in POLICIES else "default"
        state.deck = list(deck.zone(self.main_zone))
        state.costs, state.expendability = _facts_of(deck)
        # Each draw takes a uniformly random card of those left: the same game as shuffling first
        # and drawing from the top (no Shadow Era rule here looks at the deck's order), for fewer
        # random numbers.
        state.record("shuffle", amount=len(state.deck))
        state.opponent_health = params["opponent_health"]
        state.first_player = bool(params["first_player"])
        self._draw(state, OPENING_HAND, opening=True)
        return state

    def is_over(self, state: ShadowEraState) -> bool:
        return state.won_on_turn is not None

    def draw_schedule(self, turns: int, first_player: bool) -> list[int]:
        """Cards drawn each turn when the hand is below the limit; the first player skips turn 1."""
        return [0 if (turn == 1 and first_player) else 1 for turn in range(1, turns + 1)]

    def _draw(self, state: ShadowEraState, count: int, opening: bool = False) -> None:
        for _ in range(count):
            if not state.deck:
                # もし、ドローする必要がある時にデッキに１枚もカードがない場合、自身のヒーローは１ダメージだけ受ける。
                state.own_damage += 1
                state.record("damage", amount=1, detail="empty deck: own hero takes 1")
                continue
            # random() * n rather than randrange(n): the same uniform choice for a deck of under
            # 2**53 cards, at a fraction of the cost.
            card = state.deck.pop(int(state.rng.random() * len(state.deck)))
            state.hand.append(card)
            if state.log_events:  # checked here too: Monte Carlo runs make millions of these calls
                state.record("draw", card, detail="opening hand" if opening else "")

    def play_turn(self, state: ShadowEraState) -> None:
        state.turn += 1
        turn = state.turn
        policy = POLICIES[state.policy]
        # Start of turn: last turn's allies are ready; Shadow Energy (not the first player's first turn), up to 10.
        if state.arriving:
            for ally in state.arriving:
                ally.ready = True
                state.ready_attack += ally.attack
            state.arriving.clear()
        if turn > 1 or not state.first_player:
            if state.shadow_energy < SHADOW_ENERGY_CAP:
                state.shadow_energy += 1
            # Draw phase: the first player skips the turn-1 draw; no draw at 7 or more cards in hand.
            if len(state.hand) < HAND_LIMIT:
                self._draw(state, 1)
            else:
                state.record("draw", detail="hand full: no draw")
        # Sacrifice phase: at most one card a turn for +1 resource, usable at once.
        self._sacrifice(state, policy)
        resources = state.resources
        # Action phase.
        played = self._play_cards(state, policy)
        damage = self._attack(state)
        state.stats.append(TurnStats(turn, resources, played, damage, len(state.hand)))
        if state.opponent_health <= 0 and state.won_on_turn is None:
            state.won_on_turn = state.turn
            state.record("win", amount=state.turn)

    def _sacrifice(self, state: ShadowEraState, policy: Policy) -> None:
        if len(state.hand) < 2 and not policy.always_sacrifice:
            return
        if not state.hand:
            return
        costs = state.costs
        dearest = max([cost for cost in map(costs.__getitem__, state.hand) if cost is not None], default=0)
        if policy.sacrifice_while_short and state.resources >= dearest:
            return
        # Give up the card least likely to be played: no known cost first, then the dearest non-ally.
        victim = max(state.hand, key=state.expendability.__getitem__)
        state.hand.remove(victim)
        state.resources += 1
        if state.log_events:
            state.record("sacrifice", victim, amount=state.resources)

    def _play_cards(self, state: ShadowEraState, policy: Policy) -> int:
        available = state.resources
        played = 0
        location_played = False
        costs = state.costs
        choose = max if policy.play_dearest_first else min
        while True:
            playable = []
            for card in state.hand:
                cost = costs[card]
                if cost is None or cost > available:
                    continue
                if card.kind == "location" and (location_played or state.turn < card.value("min_turn", 10**6)):
                    continue  # games.md: a minimum turn, and at most one Location a turn
                playable.append((cost, card))
            if not playable:
                break
            cost, card = choose(playable, key=lambda pair: pair[0])
            state.hand.remove(card)
            available -= cost
            played += 1
            location_played |= card.kind == "location"
            self._enter_play(state, card, cost)
        if state.log_events:
            for card in state.hand:
                if costs[card] is None:
                    state.record("note", card, detail="cost unknown: not played")
        return played

    def _enter_play(self, state: ShadowEraState, card: SimCard, cost: int) -> None:
        if state.log_events:
            state.record("play", card, amount=cost)
        if card.kind == "ally":
            attack = card.value("attack")
            if attack is None:
                state.record("note", card, detail="attack unknown: counted as 0")
            ally = Ally(card, attack or 0)
            state.field_allies.append(ally)
            state.arriving.append(ally)
        elif card.kind == "weapon":
            attack, durability = card.value("attack"), card.value("durability")
            if attack is None or durability is None:
                state.record("note", card, detail="attack or durability unknown: not used")
            else:
                state.weapon_attack, state.weapon_durability = attack, durability
            state.items.append(card)
        elif card.kind in ("artifact", "armor", "item", "location"):
            state.items.append(card)
            state.record("note", card, detail="effect not simulated")
        else:
            state.discard.append(card)
            state.record("note", card, detail="effect not simulated")

    def _attack(self, state: ShadowEraState) -> int:
        """Every ready ally attacks the goldfish's hero, which has nothing to block with."""
        damage = state.ready_attack
        if state.log_events:
            for ally in state.field_allies:
                if ally.ready and ally.attack > 0:
                    state.record("attack", ally.card, amount=ally.attack)
        if state.weapon_attack and state.weapon_durability:
            damage += state.weapon_attack
            state.weapon_durability -= 1
            state.record("attack", detail="hero with weapon", amount=state.weapon_attack)
        if damage:
            state.opponent_health -= damage
            if state.log_events:
                state.record("damage", amount=damage, detail=f"opponent hero at {state.opponent_health}")
        return damage


ENGINE = register(ShadowEraEngine())

__all__ = ["ENGINE", "POLICIES", "core"]
