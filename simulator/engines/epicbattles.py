"""Epic Battles goldfish (seed 003: ターンの進行, エネルギーについて; ../shared/games.md).

Both players act in the same turn (the seed: no turn player). The goldfish draws
its 3 cards and passes; it never blocks, so every attack's damage makes it send
that many cards from its deck to its discard pile. A player who must draw or
discard from an empty deck loses the round (an assumption the log states: the seed says only that
running out decides a round; both decks running out at once is a stated parameter); the first to
win 2 rounds wins the match.
Event and block cards are not simulated (the goldfish never attacks); they wait in
hand and go at the end-of-turn discard.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from cards.gamedefs.documents import titled
from cards.gamedefs.epicbattles import DOCUMENTS
from cards.search.normalize import fold
from cardsite.labels import Labels

from ..core import (
    CardNeed,
    CounterSpec,
    EventKind,
    GameState,
    Message,
    Parameter,
    SimCard,
    SimDeck,
    StatLabels,
    TurnStats,
    ZoneSpec,
)
from . import register

OPENING_HAND = 3  # 開始手札： 3枚。
DRAW_PER_TURN = 3  # ステップ 1: ドロー — それぞれ自分のデッキからカードを 3枚引き
HAND_LIMIT = 3  # 上限も 3枚 — ステップ 4: ディスカード
ROUNDS_TO_WIN = 2  # 先にゲーム（Round）で 2勝する。


def _cost(card: SimCard) -> int | None:
    return card.value("cost")


def _damage(card: SimCard) -> int:
    return card.value("damage", 0)


@dataclass(frozen=True)
class AttackFacts:
    """What a combo looks at, folded once per card (the search's folding: Kick, ｋｉｃｋ and kick agree)."""

    follow_up: str  # "" when the attack names no follow-up
    kinds: frozenset[str]  # its position and traits


_attack_facts: dict[SimCard, AttackFacts] = {}


def attack_facts(card: SimCard) -> AttackFacts:
    found = _attack_facts.get(card)
    if found is None:
        if len(_attack_facts) > 4096:
            _attack_facts.clear()
        kinds = {fold(trait) for trait in card.value("trait", [])}
        if card.value("position"):
            kinds.add(fold(card.value("position")))
        found = AttackFacts(fold(card.value("follow_up") or "").strip(), frozenset(kinds))
        _attack_facts[card] = found
    return found


def _follows(previous: SimCard, card: SimCard) -> bool:
    """A combo continues only with a card of the kind the previous attack's follow-up names."""
    wanted = attack_facts(previous).follow_up
    return bool(wanted) and wanted in attack_facts(card).kinds


@dataclass(frozen=True)
class Policy:
    name: str
    labels: Labels
    strongest_first: bool = True  # attack with the most damaging affordable attack


POLICIES: Mapping[str, Policy] = {
    "default": Policy(
        "default",
        {
            "ja": "標準（一番強い攻撃から）",
            "zh-hant": "預設（先用最強的攻擊）",
            "en": "default (strongest attack first)",
        },
    ),
    "cheapest": Policy(
        "cheapest",
        {"ja": "安い攻撃から", "zh-hant": "先用最便宜的攻擊", "en": "cheapest attack first"},
        strongest_first=False,
    ),
}


class EpicBattlesState(GameState):
    def __init__(self, seed: int, log_events: bool) -> None:
        super().__init__(seed, log_events)
        self.cards: tuple[SimCard, ...] = ()
        self.energy: list[SimCard] = []
        self.discard: list[SimCard] = []
        self.opponent_deck = 0
        self.opponent_size = 59
        self.both_out_wins = False
        self.round = 1
        self.rounds_won = 0
        self.rounds_lost = 0
        self.policy = "default"


# The rules site the seed is, by its own title.
_SEED = DOCUMENTS.seed.shown

ROUND_LOSS = titled(
    {
        "ja": "山札切れでラウンドを失う（{seed}は「ライブラリアウト：有り（勝利条件に関係）」とだけ記す。仮定）",
        "zh-hant": "牌庫用盡即輸掉該局（{seed}只寫「ライブラリアウト：有り（勝利条件に関係）」；此為假設）",
        "en": "running out of cards loses the round ({seed} says only that library-out decides a round: an assumption)",
    },
    seed=_SEED,
)


class EpicBattlesEngine:
    game = "epicbattles"
    main_zone = "deck"  # the zone it shuffles and draws from
    optional_zones: tuple[str, ...] = ()
    in_play_zone = "character"  # 開始準備: それぞれ自分のキャラクターを表向きに場に配置する。
    opening_hand = OPENING_HAND
    card_needs = (
        CardNeed(
            "damage",
            ("attack",),
            {
                "ja": "一人回しはそのアタックでダメージを与えません",
                "zh-hant": "單人試轉用這些攻擊卡造成不了傷害",
                "en": "the goldfish deals no damage with them",
            },
        ),
        CardNeed(
            "cost",
            ("attack",),
            {
                "ja": "一人回しはそのアタックをプレイしません",
                "zh-hant": "單人試轉不會打出這些攻擊卡",
                "en": "the goldfish never plays them",
            },
        ),
        CardNeed(
            "follow_up",
            ("attack",),
            {
                "ja": "そのアタックからコンボがつながりません",
                "zh-hant": "這些攻擊卡之後接不上連續技",
                "en": "no combo follows them",
            },
        ),
        CardNeed(
            "position",
            ("attack",),
            {
                "ja": "位置ではコンボがそのアタックにつながりません",
                "zh-hant": "連續技無法依位置接到這些攻擊卡",
                "en": "no combo continues into them by their position",
            },
        ),
        CardNeed(
            "trait",
            ("attack",),
            {
                "ja": "特徴ではコンボがそのアタックにつながりません",
                "zh-hant": "連續技無法依特徵接到這些攻擊卡",
                "en": "no combo continues into them by a trait",
            },
        ),
    )
    parameters = (
        Parameter(
            "opponent_deck",
            {"ja": "相手のデッキ枚数", "zh-hant": "對手牌組張數", "en": "Opponent's deck size"},
            default=59,
            minimum=1,
            maximum=200,
            source=titled(
                {
                    "ja": "{seed}：デッキ枚数 59枚ちょうど。",
                    "zh-hant": "{seed}：牌組正好59張。",
                    "en": "{seed}: a deck is exactly 59 cards.",
                },
                seed=_SEED,
            ),
        ),
        Parameter(
            "both_out_wins",
            {
                "ja": "両者同時に山札切れ：勝ち（1）/負け（0）",
                "zh-hant": "雙方同時牌庫用盡：勝（1）/負（0）",
                "en": "Both decks run out at once: a win (1) or a loss (0)",
            },
            default=0,
            minimum=0,
            maximum=1,
            source={
                "ja": "どの資料も定めていません。負けとして数えるのが仮定です。",
                "zh-hant": "沒有資料規定；預設視為輸，是假設。",
                "en": "No source says; counting it as a loss is an assumption.",
            },
        ),
    )
    policies = POLICIES
    zones = (
        ZoneSpec("hand", {"ja": "手札", "zh-hant": "手牌", "en": "Hand"}, "hand"),
        ZoneSpec("energy", {"ja": "エネルギー置き場", "zh-hant": "能量區", "en": "Energy pile"}, "energy"),
        ZoneSpec("discard", {"ja": "捨て札", "zh-hant": "棄牌堆", "en": "Discard pile"}, "discard"),
        ZoneSpec("deck", {"ja": "デッキ", "zh-hant": "牌庫", "en": "Deck"}, "deck", hidden=True),
    )
    counters = (
        CounterSpec(
            "opponent_deck", {"ja": "相手のデッキ", "zh-hant": "對手牌庫", "en": "Goldfish's deck"}, "opponent_deck"
        ),
        CounterSpec("round", {"ja": "ラウンド", "zh-hant": "局數", "en": "Round"}, "round"),
        CounterSpec("rounds_won", {"ja": "勝ったラウンド", "zh-hant": "勝局", "en": "Rounds won"}, "rounds_won"),
        CounterSpec("rounds_lost", {"ja": "負けたラウンド", "zh-hant": "敗局", "en": "Rounds lost"}, "rounds_lost"),
    )
    event_kinds = (
        EventKind("round", {"ja": "ラウンド開始", "zh-hant": "新的一局", "en": "round"}),
        EventKind("round_won", {"ja": "ラウンド勝利", "zh-hant": "贏得一局", "en": "round won"}),
        EventKind("round_lost", {"ja": "ラウンド敗北", "zh-hant": "輸掉一局", "en": "round lost"}),
    )
    messages = (
        Message("combo", {"ja": "コンボ", "zh-hant": "連段", "en": "combo"}),
        Message(
            "goldfish_at",
            {"ja": "相手のデッキ 残り{cards}枚", "zh-hant": "對手牌庫剩{cards}張", "en": "goldfish deck at {cards}"},
        ),
        Message(
            "damage_unknown",
            {"ja": "ダメージ不明のため0として扱う", "zh-hant": "傷害不明：視為0", "en": "damage unknown: counted as 0"},
        ),
        Message("out_of_cards", ROUND_LOSS),
        Message(
            "both_out",
            {
                "ja": "両者同時に山札切れ（設定により{outcome}）",
                "zh-hant": "雙方同時牌庫用盡（依設定：{outcome}）",
                "en": "both decks ran out at once ({outcome}, as set)",
            },
        ),
    )
    turn_stats = StatLabels(
        resources={
            "ja": "エネルギー（ターン開始時）",
            "zh-hant": "能量（回合開始時）",
            "en": "Energy (at the start of the turn)",
        },
        cards_played={"ja": "攻撃の回数", "zh-hant": "攻擊次數", "en": "Attacks made"},
        damage={
            "ja": "ダメージ（相手が捨てた枚数）",
            "zh-hant": "傷害（對手棄掉的張數）",
            "en": "Damage (cards the goldfish discarded)",
        },
    )

    def new_game(
        self, deck: SimDeck, seed: int, params: Mapping[str, int], policy: str, log: bool = True
    ) -> EpicBattlesState:
        state = EpicBattlesState(seed, log)
        state.policy = policy if policy in POLICIES else "default"
        state.cards = deck.zone(self.main_zone)
        state.opponent_size = params["opponent_deck"]
        state.both_out_wins = bool(params["both_out_wins"])
        self._start_round(state)
        return state

    def _start_round(self, state: EpicBattlesState) -> None:
        state.deck = list(state.cards)
        state.hand, state.energy, state.discard = [], [], []
        state.shuffle(state.deck)
        # The goldfish draws its opening hand from its own deck too.
        state.opponent_deck = state.opponent_size - OPENING_HAND
        state.record("round", amount=state.round)
        if not self._draw(state, OPENING_HAND, "opening_hand"):
            # A deck smaller than the opening hand runs out at once.
            self._end_round(state, won=False)

    def draw_schedule(self, turns: int, first_player: bool) -> list[int]:
        return [DRAW_PER_TURN] * turns  # ファーストドロー制限： 無し

    def is_over(self, state: EpicBattlesState) -> bool:
        return state.rounds_won >= ROUNDS_TO_WIN or state.rounds_lost >= ROUNDS_TO_WIN

    def extra_draw(self, state: EpicBattlesState) -> SimCard | None:
        card = state.draw_top()
        if card is not None:
            state.hand.append(card)
        return card

    def _draw(self, state: EpicBattlesState, count: int, message: str = "") -> bool:
        deck, hand = state.deck, state.hand
        for _ in range(count):
            if not deck:
                return False
            card = deck.pop()
            hand.append(card)
            if state.log_events:
                state.record("draw", card, message=message)
        return True

    def _end_round(self, state: EpicBattlesState, won: bool, message: str = "") -> None:
        if won:
            state.rounds_won += 1
            state.record("round_won", amount=state.round, message=message)
            if state.rounds_won >= ROUNDS_TO_WIN:
                state.won_on_turn = state.turn
                state.record("win", amount=state.turn)
        else:
            state.rounds_lost += 1
            state.record("round_lost", amount=state.round, message=message or "out_of_cards")
        state.round += 1
        if not self.is_over(state):
            self._start_round(state)

    def play_turn(self, state: EpicBattlesState) -> None:
        state.turn += 1
        stats = TurnStats(turn=state.turn)
        state.stats.append(stats)
        # Step 1: both draw 3. Whoever cannot loses the round (ライブラリアウト); both at once: as the parameter says.
        drew = self._draw(state, DRAW_PER_TURN)
        goldfish_drew = state.opponent_deck >= DRAW_PER_TURN
        if not drew or not goldfish_drew:
            if not drew and not goldfish_drew:
                state.opponent_deck = 0
                outcome = "win" if state.both_out_wins else "loss"
                state.record("note", message="both_out", outcome=outcome)
                self._end_round(state, won=state.both_out_wins, message="both_out")
            elif not drew:
                self._end_round(state, won=False)
            else:
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
        hand = state.hand
        if len(hand) > HAND_LIMIT:
            hand.sort(key=_keep_order, reverse=True)
            while len(hand) > HAND_LIMIT:
                card = hand.pop()
                state.discard.append(card)
                if state.log_events:
                    state.record("discard", card)
        stats.hand_size = len(hand)

    def _attack_chain(self, state: EpicBattlesState, stats: TurnStats) -> bool:
        """One attack and its combo; False when no attack can be made."""
        previous: SimCard | None = None
        strongest_first = POLICIES[state.policy].strongest_first
        energy = state.energy
        while True:
            available = len(energy)
            candidates = [
                card
                for card in state.hand
                if card.kind == "attack"
                and (cost := card.fields.get("cost")) is not None
                and cost <= available
                and (previous is None or _follows(previous, card))
            ]
            if not candidates:
                return previous is not None
            card = max(candidates, key=_strongest) if strongest_first else min(candidates, key=_cheapest)
            state.hand.remove(card)
            # エネルギーは…1枚破棄することに 1コスト分が支払われる。
            cost = _cost(card) or 0
            if cost:
                state.discard.extend(energy[:cost])
                del energy[:cost]
            damage = _damage(card)
            state.opponent_deck -= damage
            if state.log_events:
                state.record("attack", card, amount=damage, message="combo" if previous else "")
                if card.value("damage") is None:
                    state.record("note", card, message="damage_unknown")
                state.record("damage", amount=damage, message="goldfish_at", cards=max(state.opponent_deck, 0))
            stats.damage += damage
            stats.cards_played += 1
            # 攻撃を行ったアタックカードは、使用後にエネルギー置き場に送られる。
            energy.append(card)
            if state.opponent_deck < 0:
                return True
            previous = card


def _keep_order(card: SimCard) -> tuple[bool, int]:
    return (card.kind == "attack", _damage(card))


def _strongest(card: SimCard) -> tuple[int, int]:
    return (_damage(card), -(_cost(card) or 0))


def _cheapest(card: SimCard) -> tuple[int, int]:
    return (_cost(card) or 0, -_damage(card))


ENGINE = register(EpicBattlesEngine())
