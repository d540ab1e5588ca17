"""Shadow Era goldfish (seed 001; ../shared/games.md, Turn_Structure, Resources and Category:Allies).

The opponent does nothing: no allies, no blocks, no abilities. The run ends when
its hero's health (a parameter: no source gives hero health) reaches 0.
Card effects other than attack values are not simulated; the log says so.

The deck is not shuffled: each draw takes a uniformly random card of those left, which is the
same game (no Shadow Era rule here looks at the deck's order) for fewer random numbers. So no
shuffle is logged, and the extra draw of the sample hand draws the same way.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import cast

from cards.gamedefs.documents import titled
from cards.gamedefs.shadowera import DOCUMENTS
from cardsite.labels import Labels

from .. import core
from ..core import (
    NO_PARAMS,
    CardNeed,
    Choice,
    CounterSpec,
    EventKind,
    GameState,
    Message,
    Parameter,
    PerDeck,
    SimCard,
    SimDeck,
    StatLabels,
    TurnStats,
    ZoneSpec,
)
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
        self.field_allies: list[Ally] = []
        self.unique_in_play: set[SimCard] = set()  # Unique allies in play: another copy cannot be played
        self.items: list[SimCard] = []
        self.discard: list[SimCard] = []
        self.resources = 0  # cards sacrificed so far; resources renew every turn
        self.shadow_energy = 0
        self.weapon_attack = 0
        self.weapon_durability = 0
        self.weapon_wear = 1  # durability an attack costs (a stated parameter: no source says)
        self.opponent_health = 0
        self.own_damage = 0
        self.first_player = True
        self.policy = "default"
        self.rules: Policy = POLICIES["default"]  # the policy's choices, looked up once
        # Shared by every game of a deck. One attribute rather than one a fact: past 30 attributes an object
        # no longer shares its class's table of names, and every attribute lookup of the game costs more.
        self.facts: DeckFacts = NO_FACTS
        # The goldfish never blocks or removes anything, so every ally that has waited a turn
        # attacks every turn: keep their total rather than walk them each turn.
        self.ready_attack = 0
        # And the cards of those that deal damage, for the attack event: a tuple, made anew only on the turns an
        # ally becomes ready, so the events of the turns between share it.
        self.attackers: tuple[SimCard, ...] = ()
        self.arriving: list[Ally] = []  # allies that entered play this turn


def _cost(card: SimCard) -> int | None:
    if card.kind == "location":
        return 0  # games.md: Locations cost nothing.
    return card.value("cost")


def _expendability(card: SimCard) -> tuple[bool, bool, int]:
    """Which card to sacrifice: one of unknown cost first, then a non-ally, then the dearest."""
    cost = _cost(card)
    return (cost is None, card.kind != "ally", cost or 0)


@dataclass(frozen=True)
class DeckFacts:
    costs: dict[SimCard, int | None]
    attacks: dict[SimCard, int | None]  # the printed attack of allies and weapons
    expendability: dict[SimCard, tuple[bool, bool, int]]
    unique: frozenset[SimCard]
    # Cards whose play needs more than their cost checked: Locations, weapons, Unique allies.
    special: frozenset[SimCard]
    # Cards the log may give a reason for keeping in hand: of unknown cost, Unique allies, weapons.
    noted: frozenset[SimCard]
    costs_known: bool = True  # every card's cost is known (so a hand's dearest card is found without a filter)


NO_FACTS = DeckFacts({}, {}, {}, frozenset(), frozenset(), frozenset())


def _work_out_facts(deck: SimDeck) -> DeckFacts:
    """Every card's cost, expendability and uniqueness, worked out once per deck rather than at each decision."""
    cards = set(deck.zone(ShadowEraEngine.main_zone))
    costs = {card: _cost(card) for card in cards}
    return DeckFacts(
        costs,
        {card: card.value("attack") for card in cards},
        {card: _expendability(card) for card in cards},
        frozenset(card for card in cards if card.kind == "ally" and card.value("unique") is True),
        frozenset(
            card
            for card in cards
            if card.kind in ("location", "weapon") or (card.kind == "ally" and card.value("unique") is True)
        ),
        frozenset(
            card
            for card in cards
            if _cost(card) is None or card.kind == "weapon" or (card.kind == "ally" and card.value("unique") is True)
        ),
        None not in costs.values(),
    )


_facts_of = PerDeck(_work_out_facts)


@dataclass(frozen=True)
class Policy:
    name: str
    labels: Labels
    sacrifice_while_short: bool = True  # sacrifice only while resources < the dearest card in hand
    always_sacrifice: bool = False
    play_dearest_first: bool = True
    # A weapon is played only when none is equipped or it attacks harder (the new one replaces the old:
    # the sources do not say whether two can be equipped); False plays every weapon as it comes.
    keep_stronger_weapon: bool = True


POLICIES: Mapping[str, Policy] = {
    "default": Policy(
        "default",
        {
            "ja": "標準（足りない間だけ生贄、高いカードから、強い武器は手放さない）",
            "zh-hant": "預設（資源不足時才獻祭，先打高費卡，不換掉較強的武器）",
            "en": "default (sacrifice while short, dearest first, keep a stronger weapon)",
        },
    ),
    "ramp": Policy(
        "ramp",
        {
            "ja": "ランプ（毎ターン生贄）",
            "zh-hant": "加速（每回合獻祭）",
            "en": "ramp (sacrifice every turn)",
        },
        sacrifice_while_short=False,
        always_sacrifice=True,
    ),
    "curve": Policy(
        "curve",
        {"ja": "カーブ（安いカードから）", "zh-hant": "曲線（先打低費卡）", "en": "curve (cheapest first)"},
        play_dearest_first=False,
    ),
    "every-weapon": Policy(
        "every-weapon",
        {
            "ja": "武器は出すたびに付け替える",
            "zh-hant": "每把武器都換上",
            "en": "every weapon replaces the one equipped",
        },
        keep_stronger_weapon=False,
    ),
}


# The sources by the names a reader can look up: the seed by its title, the wiki the notes on the games cite.
_SEED = DOCUMENTS.seed.shown
_WIKI = DOCUMENTS["shadowera.com wiki"].title

# No public source found gives it, so the citation names the ones searched.
HERO_HEALTH_SOURCE = titled(
    {
        "ja": "ヒーローの体力を示す資料はありません（{seed}、{wiki}、その他の公開情報）。30は仮定です。",
        "zh-hant": "沒有資料給出英雄生命值（{seed}、{wiki}及其他公開資料）；30 是假設。",
        "en": "No source gives hero health ({seed}, {wiki} or any other public source); 30 is an assumption.",
    },
    seed=_SEED,
    wiki=_WIKI,
)


WEAPON_WEAR_SOURCE = titled(
    {
        "ja": "武器の耐久度がどう減るかを示す資料はありません（{wiki} の Category:Card_Symbols は耐久度という項目があることだけを"
        "記します）。"
        "攻撃するたびに1減るのは仮定です。0にすると武器は壊れません。",
        "zh-hant": "沒有資料說明武器耐久度如何減少（{wiki} 的 Category:Card_Symbols 只記載有耐久度這一項）；每次攻擊減1是假設。"
        "設為0則武器不會損壞。",
        "en": "No source says how a weapon loses durability ({wiki}, Category:Card_Symbols, names only the field); "
        "1 for each attack is an "
        "assumption. At 0 the weapon never wears out.",
    },
    wiki=_WIKI,
)


class ShadowEraEngine:
    game = "shadowera"
    main_zone = "deck"  # the zone it draws from
    optional_zones: tuple[str, ...] = ()
    in_play_zone = "hero"  # games.md, Category:Heroes: the hero starts in play
    opening_hand = OPENING_HAND
    card_needs = (
        CardNeed(
            "cost",
            ("ally", "ability", "artifact", "weapon", "armor", "trap", "item"),
            {
                "ja": "一人回しはそのカードをプレイせず、先にサクリファイスします",
                "zh-hant": "單人試轉不會打出這些卡，會先拿去獻祭",
                "en": "the goldfish never plays them and sacrifices them first",
            },
        ),
        CardNeed(
            "attack",
            ("ally",),
            {
                "ja": "そのアリーは攻撃してもダメージを与えません",
                "zh-hant": "這些盟友攻擊不造成傷害",
                "en": "those allies deal no damage",
            },
        ),
        CardNeed(
            "attack",
            ("weapon",),
            {
                "ja": "一人回しはその武器を装備しません",
                "zh-hant": "單人試轉不會裝備這些武器",
                "en": "the goldfish never equips those weapons",
            },
        ),
        CardNeed(
            "durability",
            ("weapon",),
            {
                "ja": "一人回しはその武器を装備しません",
                "zh-hant": "單人試轉不會裝備這些武器",
                "en": "the goldfish never equips those weapons",
            },
        ),
        CardNeed(
            "min_turn",
            ("location",),
            {
                "ja": "一人回しはそのロケーションをプレイしません",
                "zh-hant": "單人試轉不會打出這些場地",
                "en": "the goldfish never plays those locations",
            },
        ),
        CardNeed(
            "unique",
            ("ally",),
            {
                "ja": "一人回しはそのアリーをユニークでないとみなし、何枚でも場に出します",
                "zh-hant": "單人試轉把這些盟友當作非唯一，可同時在場多張",
                "en": "the goldfish takes those allies as not unique and plays any number of them",
            },
        ),
    )
    parameters = (
        Parameter(
            "opponent_health",
            {"ja": "相手ヒーローの体力", "zh-hant": "對手英雄生命值", "en": "Opponent hero's health"},
            default=30,
            minimum=1,
            maximum=200,
            source=HERO_HEALTH_SOURCE,
        ),
        Parameter(
            "weapon_wear",
            {
                "ja": "攻撃1回で武器が失う耐久度",
                "zh-hant": "每次攻擊武器失去的耐久度",
                "en": "Durability a weapon loses per attack",
            },
            default=1,
            minimum=0,
            maximum=10,
            source=WEAPON_WEAR_SOURCE,
        ),
        Parameter(
            "first_player",
            {"ja": "先攻・後攻", "zh-hant": "先攻或後攻", "en": "Going first or second"},
            default=1,
            minimum=0,
            maximum=1,
            choices=(
                Choice(1, {"ja": "先攻", "zh-hant": "先攻", "en": "Going first"}),
                Choice(0, {"ja": "後攻", "zh-hant": "後攻", "en": "Going second"}),
            ),
        ),
    )
    policies = POLICIES
    zones = (
        ZoneSpec("hand", {"ja": "手札", "zh-hant": "手牌", "en": "Hand"}, "hand"),
        ZoneSpec("field_allies", {"ja": "場のアリー", "zh-hant": "場上的盟友", "en": "Allies in play"}, "field_allies"),
        ZoneSpec(
            "items",
            {"ja": "場のアイテムとロケーション", "zh-hant": "場上的道具與場所", "en": "Items and locations in play"},
            "items",
        ),
        ZoneSpec("discard", {"ja": "捨て札", "zh-hant": "棄牌堆", "en": "Discard pile"}, "discard"),
        ZoneSpec("deck", {"ja": "デッキ", "zh-hant": "牌庫", "en": "Deck"}, "deck", hidden=True),
    )
    counters = (
        CounterSpec(
            "resources",
            {"ja": "リソース（生贄にしたカード）", "zh-hant": "資源（獻祭的卡）", "en": "Resources (cards sacrificed)"},
            "resources",
        ),
        CounterSpec(
            "shadow_energy", {"ja": "シャドーエネルギー", "zh-hant": "暗影能量", "en": "Shadow energy"}, "shadow_energy"
        ),
        CounterSpec(
            "weapon_attack", {"ja": "武器の攻撃力", "zh-hant": "武器攻擊力", "en": "Weapon attack"}, "weapon_attack"
        ),
        CounterSpec(
            "weapon_durability",
            {"ja": "武器の耐久度", "zh-hant": "武器耐久度", "en": "Weapon durability"},
            "weapon_durability",
        ),
        CounterSpec(
            "opponent_health",
            {"ja": "相手ヒーローの体力", "zh-hant": "對手英雄生命值", "en": "Opponent hero's health"},
            "opponent_health",
        ),
        CounterSpec(
            "own_damage",
            {"ja": "自分のヒーローへのダメージ", "zh-hant": "己方英雄所受傷害", "en": "Damage to your hero"},
            "own_damage",
        ),
    )
    event_kinds = (EventKind("sacrifice", {"ja": "生贄", "zh-hant": "獻祭", "en": "sacrifice"}),)
    messages = (
        Message(
            "hand_full", {"ja": "手札が上限なのでドローなし", "zh-hant": "手牌已滿：不抽牌", "en": "hand full: no draw"}
        ),
        Message(
            "empty_deck",
            {
                "ja": "デッキが空：自分のヒーローが1ダメージ",
                "zh-hant": "牌庫已空：己方英雄受到1點傷害",
                "en": "empty deck: own hero takes 1",
            },
        ),
        Message(
            "cost_unknown",
            {"ja": "コスト不明のためプレイしない", "zh-hant": "費用不明：不打出", "en": "cost unknown: not played"},
        ),
        Message(
            "attack_unknown",
            {"ja": "攻撃力不明のため0として扱う", "zh-hant": "攻擊力不明：視為0", "en": "attack unknown: counted as 0"},
        ),
        Message(
            "weapon_unknown",
            {
                "ja": "攻撃力か耐久度が不明のため使わない",
                "zh-hant": "攻擊力或耐久度不明：不使用",
                "en": "attack or durability unknown: not used",
            },
        ),
        Message(
            "weapon_kept",
            {
                "ja": "装備中の武器のほうが強いので手札に残す",
                "zh-hant": "已裝備的武器較強：留在手牌",
                "en": "the equipped weapon attacks harder: kept in hand",
            },
        ),
        Message(
            "unique_in_play",
            {
                "ja": "ユニーク：同じカードがすでに場にあるのでプレイできない",
                "zh-hant": "唯一：場上已有同名卡，不能打出",
                "en": "Unique: a copy is already in play, so it cannot be played",
            },
        ),
        Message(
            "attack",
            {
                "ja": "{allies}が攻撃、相手ヒーローの体力 残り{health}",
                "zh-hant": "{allies}攻擊，對手英雄剩餘生命 {health}",
                "en": "{allies} attack; opponent hero at {health}",
            },
        ),
        Message(
            "attack_with_weapon",
            {
                "ja": "ヒーロー（武器）と{allies}が攻撃、相手ヒーローの体力 残り{health}",
                "zh-hant": "英雄（武器）與{allies}攻擊，對手英雄剩餘生命 {health}",
                "en": "the hero with a weapon and {allies} attack; opponent hero at {health}",
            },
        ),
    )
    turn_stats = StatLabels(
        resources={
            "ja": "リソース（生贄にしたカード）",
            "zh-hant": "資源（獻祭的卡）",
            "en": "Resources (cards sacrificed)",
        },
        cards_played={"ja": "プレイしたカード", "zh-hant": "打出的卡", "en": "Cards played"},
        damage={"ja": "相手ヒーローへのダメージ", "zh-hant": "對對手英雄的傷害", "en": "Damage to the opponent's hero"},
    )

    def new_game(
        self, deck: SimDeck, seed: int, params: Mapping[str, int], policy: str, log: bool = True
    ) -> ShadowEraState:
        state = ShadowEraState(seed, log)
        state.policy = policy if policy in POLICIES else "default"
        state.rules = POLICIES[state.policy]
        state.deck = list(deck.zone(self.main_zone))
        state.facts = _facts_of(deck)
        state.opponent_health = params["opponent_health"]
        state.first_player = bool(params["first_player"])
        state.weapon_wear = params["weapon_wear"]
        self._draw(state, OPENING_HAND, opening=True)
        return state

    def is_over(self, state: ShadowEraState) -> bool:
        return state.won_on_turn is not None

    def draw_schedule(self, turns: int, first_player: bool) -> list[int]:
        """Cards drawn each turn when the hand is below the limit; the first player skips turn 1."""
        return [0 if (turn == 1 and first_player) else 1 for turn in range(1, turns + 1)]

    def _take(self, state: ShadowEraState) -> SimCard:
        # random() * n rather than randrange(n): the same uniform choice for a deck of under
        # 2**53 cards, at a fraction of the cost.
        return state.deck.pop(int(state.rng.random() * len(state.deck)))

    def extra_draw(self, state: ShadowEraState) -> SimCard | None:
        if not state.deck:
            return None
        card = self._take(state)
        state.hand.append(card)
        return card

    def _draw(self, state: ShadowEraState, count: int, opening: bool = False) -> None:
        deck, random = state.deck, state.rng.random
        for _ in range(count):
            if not deck:
                # もし、ドローする必要がある時にデッキに１枚もカードがない場合、自身のヒーローは１ダメージだけ受ける。
                state.own_damage += 1
                state.record("damage", amount=1, message="empty_deck")
                continue
            card = deck.pop(int(random() * len(deck)))  # as _take() does, without the call
            state.hand.append(card)
            if state.log_events:  # appended as record() would: Monte Carlo runs make millions of these calls
                state.events.append((state.turn, "draw", card, None, "opening_hand" if opening else "", NO_PARAMS))

    def play_turn(self, state: ShadowEraState) -> None:
        state.turn += 1
        turn = state.turn
        policy = state.rules
        # Start of turn: last turn's allies are ready; Shadow Energy (not the first player's first turn), up to 10.
        if state.arriving:
            for ally in state.arriving:
                ally.ready = True
                state.ready_attack += ally.attack
                if ally.attack > 0:
                    state.attackers += (ally.card,)
            state.arriving.clear()
        if turn > 1 or not state.first_player:
            if state.shadow_energy < SHADOW_ENERGY_CAP:
                state.shadow_energy += 1
            # Draw phase: the first player skips the turn-1 draw; no draw at 7 or more cards in hand.
            hand, deck = state.hand, state.deck
            if len(hand) >= HAND_LIMIT:
                state.record("draw", message="hand_full")
            elif deck:
                # _draw(state, 1) written out: the one draw of every turn, where the call and its loop cost
                # a tenth of the turn.
                card = deck.pop(int(state.rng.random() * len(deck)))
                hand.append(card)
                if state.log_events:
                    state.events.append((turn, "draw", card, None, "", NO_PARAMS))
            else:
                self._draw(state, 1)
        # Sacrifice phase: at most one card a turn for +1 resource, usable at once.
        self._sacrifice(state, policy)
        resources = state.resources
        # Action phase.
        played = self._play_cards(state, policy)
        # Nothing attacks in the first turns of most games: the call is skipped then.
        damage = self._attack(state) if state.ready_attack or state.weapon_durability else 0
        state.stats.append(TurnStats(turn, resources, played, damage, len(state.hand)))
        if state.opponent_health <= 0 and state.won_on_turn is None:
            state.won_on_turn = state.turn
            state.record("win", amount=state.turn)

    def _sacrifice(self, state: ShadowEraState, policy: Policy) -> None:
        if len(state.hand) < 2 and not policy.always_sacrifice:
            return
        if not state.hand:
            return
        hand = state.hand
        facts = state.facts
        if facts.costs_known:
            dearest = max(map(cast("dict[SimCard, int]", facts.costs).__getitem__, hand))
        else:
            # max() given no keyword (default=, key=): reading keywords costs it more than the work on a few cards.
            known_costs = [cost for cost in map(facts.costs.__getitem__, hand) if cost is not None]
            dearest = max(known_costs) if known_costs else 0
        if policy.sacrifice_while_short and state.resources >= dearest:
            return
        # Give up the card least likely to be played: a Unique ally already in play, then no known cost,
        # then the dearest non-ally; the first of equals, as max() picks.
        expendability, blocked = facts.expendability, state.unique_in_play
        if not blocked:  # no Unique ally in play (most games): the rank is the card's expendability alone
            victim = max(hand, key=expendability.__getitem__)
        else:
            victim, most = hand[0], (hand[0] in blocked, expendability[hand[0]])
            for card in hand:
                rank = (card in blocked, expendability[card])
                if rank > most:
                    victim, most = card, rank
        hand.remove(victim)
        state.resources += 1
        if state.log_events:
            state.events.append((state.turn, "sacrifice", victim, state.resources, "", NO_PARAMS))

    def _play_cards(self, state: ShadowEraState, policy: Policy) -> int:
        available = state.resources
        played = 0
        location_played = False
        costs, special, hand = state.facts.costs, state.facts.special, state.hand
        dearest_first = policy.play_dearest_first
        while True:
            # The dearest (or cheapest) card that can be paid; the first of equals, as max() and min() pick.
            best: SimCard | None = None
            best_cost = 0
            for card in hand:
                cost = costs[card]
                if cost is None or cost > available:
                    continue
                if card in special and not self._may_play(state, card, policy, location_played):
                    continue
                if best is None or (cost > best_cost if dearest_first else cost < best_cost):
                    best, best_cost = card, cost
            if best is None:
                break
            hand.remove(best)
            available -= best_cost
            played += 1
            location_played |= best.kind == "location"
            self._enter_play(state, best, best_cost)
        noted = state.facts.noted
        # Most hands hold no card the log may give a reason for keeping: isdisjoint() says so without a Python loop.
        if state.log_events and hand and not noted.isdisjoint(hand):
            for card in hand:
                if card not in noted:
                    continue
                if costs[card] is None:
                    state.record("note", card, message="cost_unknown")
                elif card in state.unique_in_play:
                    state.record("note", card, message="unique_in_play")
                elif card.kind == "weapon" and policy.keep_stronger_weapon and not self._weapon_helps(state, card):
                    state.record("note", card, message="weapon_kept")
        return played

    def _may_play(self, state: ShadowEraState, card: SimCard, policy: Policy, location_played: bool) -> bool:
        """What besides its cost may keep a card in hand."""
        if card.kind == "location":
            # games.md: a minimum turn, and at most one Location a turn
            return not location_played and state.turn >= card.value("min_turn", 10**6)
        if card.kind == "weapon":
            return not policy.keep_stronger_weapon or self._weapon_helps(state, card)
        # Category:Allies: a Unique ally only while no other instance is in play
        return card not in state.unique_in_play

    @staticmethod
    def _weapon_helps(state: ShadowEraState, card: SimCard) -> bool:
        """No weapon equipped, or this one attacks harder than the one equipped."""
        attack = card.value("attack")
        return not (state.weapon_attack and state.weapon_durability) or (
            attack is not None and attack > state.weapon_attack
        )

    def _enter_play(self, state: ShadowEraState, card: SimCard, cost: int) -> None:
        if state.log_events:
            state.events.append((state.turn, "play", card, cost, "", NO_PARAMS))
        kind = card.kind
        if kind == "ally":
            facts = state.facts
            attack = facts.attacks[card]
            if attack is None:
                state.record("note", card, message="attack_unknown")
            ally = Ally(card, attack or 0)
            state.field_allies.append(ally)
            state.arriving.append(ally)
            if card in facts.unique:
                state.unique_in_play.add(card)
        elif kind == "weapon":
            attack, durability = card.value("attack"), card.value("durability")
            if attack is None or durability is None:
                state.record("note", card, message="weapon_unknown")
            else:
                state.weapon_attack, state.weapon_durability = attack, durability
            state.items.append(card)
        elif kind in ("artifact", "armor", "item", "location"):
            state.items.append(card)
            state.record("note", card, message="not_simulated")
        else:
            state.discard.append(card)
            state.record("note", card, message="not_simulated")

    def _attack(self, state: ShadowEraState) -> int:
        """Every ready ally (and the hero with a weapon) attacks the goldfish's hero, which cannot block.

        One event for the whole attack, naming the allies and the hero's health after it, rather than
        one an ally and one for the damage: allies pile up, and those events were most of a long game's
        log and of its cost.
        """
        damage = state.ready_attack
        weapon = bool(state.weapon_attack and state.weapon_durability)
        if weapon:
            damage += state.weapon_attack
            # How durability is spent is the stated parameter weapon_wear (1 an attack by default: an assumption).
            state.weapon_durability = max(0, state.weapon_durability - state.weapon_wear)
        if damage:
            state.opponent_health -= damage
            if state.log_events:
                message = "attack_with_weapon" if weapon else "attack"
                params = {"allies": state.attackers, "health": state.opponent_health}
                state.events.append((state.turn, "attack", None, damage, message, params))
        return damage


ENGINE = register(ShadowEraEngine())

__all__ = ["ENGINE", "POLICIES", "core"]
