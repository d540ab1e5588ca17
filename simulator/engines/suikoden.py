"""乙女遊戯 水滸伝 goldfish (seed 002, <遊戲流程>; ../shared/games.md).

The goldfish holds a number of lands (a parameter: no source says how many) and
never defends, so each battle destroys one of them (防禦方不選的話視為放棄土地，
直接進行破壞); destroying them all wins (占領). Special abilities are not simulated.

Decisions the seed leaves open, each stated in the log where it applies:
- whether a character back from wandering returns ready to act is the stated parameter ``returns_ready``
  (the seed says only that it comes back; ready by default, an assumption);
- a land whose 頭領 is unknown lets every ready character attack;
- a 藍 cost is paid by characters whose 属性 is 藍, as the seed's example pays 丁得孫's 白1藍1 (讓一隻藍色人物放浪);
  no source says whether 藍 is another name of 仁, 義 or 勇, so their characters do not pay it;
- a cost in a colour no source names (neither 白, 仁, 義, 勇 nor 藍) cannot be paid;
- the draws the seed makes optional (the second income draw, 商業, 狩獵, 調達's 可) are not taken
  from an empty deck, nor 調達's when it would take the card the income draw needs; only the
  income draw a player must make loses the game when it cannot.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from operator import attrgetter, itemgetter
from types import MappingProxyType
from typing import Any

from cards.gamedefs.documents import titled
from cards.gamedefs.suikoden import COLOURS as CARD_COLOURS
from cards.gamedefs.suikoden import DOCUMENTS
from cardsite.labels import Labels

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

# The seed by its own title.
_SEED = DOCUMENTS.seed.shown
OPENING_HAND = 5  # games.md: draw an opening hand of 5, then turn over your first land.
HAND_LIMIT = 5  # 6. 終了階段: 手牌6張以上時，必須棄到剩5張。
WHITE = "白"
# The colours paid with characters in play (仁、義、勇 and 藍: seed 002, 4. 內政階段, (1) 登用); 白 is paid from hand.
COLOURS = tuple(colour for colour in CARD_COLOURS if colour != WHITE)
BLUE = "藍"  # paid only by 藍 characters (see the module's docstring)
COST_PART = re.compile(r"([^\d\s]{1,2}?)(殺)?(\d+)")
PROCUREMENT = "調達"  # 人物有[調達]能力時，回場的話可抽一張手牌。


@dataclass(frozen=True)
class CostPart:
    colour: str  # 白, 仁, 義, 勇, 藍 (or a colour no source names, which cannot be paid)
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


@dataclass(frozen=True)
class Policy:
    name: str
    labels: Labels
    hire_dearest_first: bool = True
    use_land_effects: bool = True


POLICIES: Mapping[str, Policy] = {
    "default": Policy(
        "default",
        {
            "ja": "標準（高い人物から登用）",
            "zh-hant": "預設（先登用高代價的人物）",
            "en": "default (dearest character first)",
        },
    ),
    "cheap-first": Policy(
        "cheap-first",
        {"ja": "安い人物から登用", "zh-hant": "先登用便宜的人物", "en": "cheapest character first"},
        hire_dearest_first=False,
    ),
    "no-land-effects": Policy(
        "no-land-effects",
        {"ja": "土地効果を使わない", "zh-hant": "不使用土地效果", "en": "no land effects"},
        use_land_effects=False,
    ),
}


@dataclass(frozen=True)
class CardFacts:
    """What the engine reads of a character, worked out once per card."""

    parts: list[CostPart] | None
    total: int
    colour: str | None
    attack: int
    intelligence: int | None
    procurement: bool
    unmapped: str | None  # a cost colour no source names, if any
    white: int  # cards to discard from hand
    colours: tuple[tuple[str, int], ...]  # characters of each colour to send off (仁 and 仁殺 together)
    rank: tuple[int, int, str]  # which of two hireable cards a policy prefers: cost, attack, then key
    payable: bool  # its cost is known and names only colours that can be paid
    paid_by_characters: tuple[CostPart, ...]  # the parts of its cost other than 白, in order
    # No colour named twice (仁1仁殺1): each part's payers are chosen without minding another part's.
    colours_apart: bool
    # The parameters of the events of paying for this card, made once: the log of a game holds many.
    pays_white: Mapping[str, Any]
    pays_colour: Mapping[str, Mapping[str, Any]]  # by the paying colour
    kept_note: str | None  # the note logged while it stays in hand after hiring (None: nothing to say)


_facts: dict[SimCard, CardFacts] = {}


def facts(card: SimCard) -> CardFacts:
    found = _facts.get(card)
    if found is None:
        if len(_facts) > 4096:
            _facts.clear()
        parts = parse_cost(card.value("cost"))
        unmapped = next((p.colour for p in parts or () if p.colour != WHITE and p.colour not in COLOURS), None)
        needs: dict[str, int] = {}
        for part in parts or ():
            if part.colour != WHITE:
                needs[part.colour] = needs.get(part.colour, 0) + part.amount
        found = CardFacts(
            parts=parts,
            total=sum(part.amount for part in parts) if parts else 0,
            colour=card.value("colour"),
            attack=card.value("attack", 0),
            intelligence=card.value("intelligence"),
            procurement=PROCUREMENT in (card.value("abilities") or ()),
            unmapped=unmapped,
            white=sum(part.amount for part in parts or () if part.colour == WHITE),
            colours=tuple(needs.items()),
            rank=(sum(part.amount for part in parts) if parts else 0, card.value("attack", 0), card.key),
            payable=parts is not None and unmapped is None,
            paid_by_characters=tuple(part for part in parts or () if part.colour != WHITE),
            colours_apart=len(needs) == sum(1 for part in parts or () if part.colour != WHITE),
            pays_white=MappingProxyType({"target": card.name}),
            pays_colour=MappingProxyType(
                {colour: MappingProxyType({"colour": colour, "target": card.name}) for colour in needs}
            ),
            kept_note=(
                "cost_unknown"
                if parts is None
                else "colour_unmapped"
                if unmapped
                else "blue_unpaid"
                if BLUE in needs
                else None
            ),
        )
        _facts[card] = found
    return found


class KnownFacts(dict[SimCard, CardFacts]):
    """A deck's cards' facts; a card that enters from elsewhere (a test, a new zone) is read on first sight.

    ``notes`` says whether any card read so far has a note to log while kept in hand: most decks have none, and
    their games then never look through the hand for one."""

    def __init__(self, cards: Iterable[SimCard] = ()) -> None:
        super().__init__((card, facts(card)) for card in cards)
        self.notes = any(found.kept_note is not None for found in self.values())
        self.totals = _Totals(self)  # each card's total cost, a sort key read in C

    def __missing__(self, card: SimCard) -> CardFacts:
        found = self[card] = facts(card)
        if found.kept_note is not None:
            self.notes = True
        return found


class _Totals(dict[SimCard, int]):
    """Each card's total cost, read from its facts on first sight."""

    def __init__(self, known: KnownFacts) -> None:
        super().__init__((card, found.total) for card, found in known.items())
        self.known = known

    def __missing__(self, card: SimCard) -> int:
        total = self[card] = self.known[card].total
        return total


def _work_out_facts(deck: SimDeck) -> KnownFacts:
    """The facts of a deck's characters, shared by all its games."""
    return KnownFacts(set(deck.zone(SuikodenEngine.main_zone)))


_facts_of = PerDeck(_work_out_facts)
# The facts of a state not yet given a deck's: made once, not a game (facts are the same for every game, so a state
# set up by hand may share it).
UNREAD = KnownFacts()


class Character:
    """A character in play. Told apart by identity (a payer leaves play itself), which is cheaper than comparing
    field by field and removes the same ones: the payers of one card are taken in the order they came into play.

    A plain class rather than a dataclass: one is made for every character hired or back from wandering, and its
    facts come from the deck's (``known``) without a second call to look them up."""

    __slots__ = ("card", "facts", "hired_this_turn", "ready")

    def __init__(
        self, card: SimCard, ready: bool = False, hired_this_turn: bool = False, known: CardFacts | None = None
    ) -> None:
        self.card = card
        self.ready = ready  # 人物剛登用成功的那回合狀態為行動準備中(斜放)，不能使用。
        self.hired_this_turn = hired_this_turn
        self.facts = facts(card) if known is None else known  # the card's facts, looked up once as it enters play

    def __repr__(self) -> str:
        return f"Character(card={self.card!r}, ready={self.ready!r}, hired_this_turn={self.hired_this_turn!r})"


# Sort and max keys read by C code rather than a lambda.
_attack_of = attrgetter("facts.attack")
_first = itemgetter(0)


class Payment:
    """Who pays a cost: cards discarded from hand (白), characters sent wandering, characters discarded (殺).

    A plain class: one is made for every character hired, and a dataclass's default lists cost a call each."""

    __slots__ = ("discards", "killed", "wanderers")

    def __init__(
        self,
        discards: list[SimCard] | None = None,
        wanderers: list[tuple[Character, str]] | None = None,
        killed: list[tuple[Character, str]] | None = None,
    ) -> None:
        self.discards = [] if discards is None else discards
        self.wanderers = [] if wanderers is None else wanderers
        self.killed = [] if killed is None else killed

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Payment):
            return NotImplemented
        return (self.discards, self.wanderers, self.killed) == (other.discards, other.wanderers, other.killed)

    def __repr__(self) -> str:
        return f"Payment(discards={self.discards!r}, wanderers={self.wanderers!r}, killed={self.killed!r})"


class SuikodenState(GameState):
    def __init__(self, seed: int, log_events: bool) -> None:
        super().__init__(seed, log_events)
        self.lands: list[SimCard] = []
        self.land: SimCard | None = None  # the land in front of the player
        self.field_characters: list[Character] = []
        self.wandering: list[SimCard] = []  # 放浪區
        self.discard: list[SimCard] = []
        self.opponent_lands = 0
        self.policy = "default"
        self.rules: Policy = POLICIES["default"]  # the policy's choices, looked up once
        self.out_of_cards = False
        self.returns_ready = True  # a stated parameter: the seed does not say
        # Every card's facts, read once (shared by a deck's games; ``new_game`` gives the deck's).
        self.facts: KnownFacts = UNREAD


def _message(slug: str, ja: str, zh: str, en: str) -> Message:
    return Message(slug, titled({"ja": ja, "zh-hant": zh, "en": en}, seed=_SEED))


class SuikodenEngine:
    game = "suikoden"
    main_zone = "characters"  # the zone it shuffles and draws from
    optional_zones = ("lands",)  # zones it plays without, mentioned when empty
    in_play_zone: str | None = None  # no card of the deck is in play before the deal
    opening_hand = OPENING_HAND
    card_needs = (
        CardNeed(
            "cost",
            ("character",),
            {
                "ja": "一人回しはその人物を登用しません",
                "zh-hant": "單人試轉不會登用這些人物",
                "en": "the goldfish never hires those characters",
            },
        ),
        CardNeed(
            "attack",
            ("character",),
            {
                "ja": "狩猟ではその人物の攻撃力を0と数えます",
                "zh-hant": "狩獵時這些人物的攻擊力算作0",
                "en": "Hunting (狩猟) counts those characters' attack as 0",
            },
        ),
        CardNeed(
            "intelligence",
            ("character",),
            {
                "ja": "商業ではその人物を数えません",
                "zh-hant": "商業時不計算這些人物",
                "en": "Commerce (商業) does not count those characters",
            },
        ),
        CardNeed(
            "leader",
            ("land",),
            {
                "ja": "その土地では待機中の人物が全員攻撃します（仮定）",
                "zh-hant": "在這些土地上所有未行動人物都出擊（假設）",
                "en": "every ready character attacks from those lands (an assumption)",
            },
        ),
        CardNeed(
            "commerce",
            ("land",),
            {
                "ja": "その土地では商業でカードを引きません",
                "zh-hant": "這些土地不會因商業抽牌",
                "en": "those lands draw no card by Commerce (商業)",
            },
        ),
        CardNeed(
            "hunting",
            ("land",),
            {
                "ja": "その土地では狩猟でカードを引きません",
                "zh-hant": "這些土地不會因狩獵抽牌",
                "en": "those lands draw no card by Hunting (狩猟)",
            },
        ),
        CardNeed(
            "colour",
            ("character",),
            {
                "ja": "その人物は他の人物の登用で属性のコストを支払えません",
                "zh-hant": "這些人物無法支付其他人物登用時的屬性代價",
                "en": "those characters never pay the colour cost of another character's hiring",
            },
        ),
        CardNeed(
            "abilities",
            ("character",),
            {
                "ja": "その人物は［調達］を持たないものとして扱います",
                "zh-hant": "這些人物視為沒有［調達］",
                "en": "those characters are taken to have no special ability [調達]",
            },
        ),
    )
    parameters = (
        Parameter(
            "opponent_lands",
            {"ja": "相手の土地の数", "zh-hant": "對手土地數", "en": "Opponent's lands"},
            default=4,
            minimum=1,
            maximum=10,
            source={
                "ja": "相手が何枚の土地を持つかはどの資料にもありません。4は構築の最低枚数です。",
                "zh-hant": "沒有資料說明對手有幾張土地；4 是構築的最低張數。",
                "en": "No source says how many lands the goldfish holds; 4 is the construction minimum.",
            },
        ),
        Parameter(
            "returns_ready",
            {
                "ja": "放浪から戻った人物の状態",
                "zh-hant": "從放浪區回場的人物狀態",
                "en": "A character back from wandering returns",
            },
            default=1,
            minimum=0,
            maximum=1,
            choices=(
                Choice(1, {"ja": "未行動（縦置き）", "zh-hant": "未行動（縱置）", "en": "ready to act"}),
                Choice(0, {"ja": "行動済み（横置き）", "zh-hant": "已行動（橫置）", "en": "having acted"}),
            ),
            source=titled(
                {
                    "ja": "{seed}の歸還階段は「可選擇放浪區的角色一名回場」とだけ記します。未行動で戻るのは仮定です。",
                    "zh-hant": "{seed}的歸還階段只寫「可選擇放浪區的角色一名回場」；以未行動狀態回場是假設。",
                    "en": "{seed}'s 歸還階段 says only that one wandering character may come back; "
                    "coming back ready to act is an assumption.",
                },
                seed=_SEED,
            ),
        ),
    )
    policies = POLICIES
    zones = (
        ZoneSpec("hand", {"ja": "手札", "zh-hant": "手牌", "en": "Hand"}, "hand"),
        ZoneSpec(
            "field_characters",
            {"ja": "場の人物", "zh-hant": "場上的人物", "en": "Characters in play"},
            "field_characters",
        ),
        ZoneSpec("land", {"ja": "自分の前の土地", "zh-hant": "面前的土地", "en": "Land in front of you"}, "land"),
        ZoneSpec("wandering", {"ja": "放浪区", "zh-hant": "放浪區", "en": "Wandering"}, "wandering"),
        ZoneSpec("discard", {"ja": "捨て札", "zh-hant": "棄牌堆", "en": "Discard pile"}, "discard"),
        ZoneSpec("deck", {"ja": "デッキ", "zh-hant": "牌庫", "en": "Deck"}, "deck", hidden=True),
        ZoneSpec(
            "lands",
            {"ja": "伏せたままの土地", "zh-hant": "尚未翻開的土地", "en": "Lands still face down"},
            "lands",
            hidden=True,
        ),
    )
    counters = (
        CounterSpec(
            "opponent_lands", {"ja": "相手の土地", "zh-hant": "對手的土地", "en": "Opponent's lands"}, "opponent_lands"
        ),
        CounterSpec("out_of_cards", {"ja": "山札切れ", "zh-hant": "牌庫用盡", "en": "Out of cards"}, "out_of_cards"),
    )
    event_kinds = (
        EventKind("land", {"ja": "土地", "zh-hant": "土地", "en": "land"}),
        EventKind("return", {"ja": "帰還", "zh-hant": "歸還", "en": "return"}),
        EventKind("wander", {"ja": "放浪", "zh-hant": "放浪", "en": "wander"}),
        EventKind("commerce", {"ja": "商業", "zh-hant": "商業", "en": "commerce"}),
        EventKind("hunting", {"ja": "狩猟", "zh-hant": "狩獵", "en": "hunting"}),
    )
    messages = (
        _message("first_land", "最初の土地を表にする", "翻開第一張土地", "first land turned over"),
        _message("hired", "登用", "登用", "hired"),
        _message("pays_white", "{target}の白を支払う", "支付{target}的白", "pays 白 for {target}"),
        _message("pays_colour", "{target}の{colour}を支払う", "支付{target}的{colour}", "pays {colour} for {target}"),
        _message(
            "pays_kill", "{target}の{colour}殺を支払う", "支付{target}的{colour}殺", "pays {colour}殺 for {target}"
        ),
        _message(
            "second_draw",
            "放浪中の人物を捨ててもう1枚引く",
            "捨棄放浪區人物以多抽一張",
            "wandering character for a second draw",
        ),
        _message("cannot_draw", "引けない（山札切れ）", "無法抽牌（牌庫用盡）", "cannot draw"),
        _message("cost_unknown", "コスト不明のため登用しない", "代價不明：不登用", "cost unknown: not hired"),
        _message(
            "colour_unmapped",
            "属性「{colour}」はどの資料にもないため支払えない",
            "沒有資料提到「{colour}」這個屬性：無法支付",
            "no source names the colour {colour}: it cannot be paid",
        ),
        _message(
            "blue_unpaid",
            "藍は藍の人物でしか支払わない（{seed}の例：一隻藍色人物を放浪させる。藍が仁・義・勇のどれかは資料にない）",
            "藍只以藍色人物支付（{seed}之例：讓一隻藍色人物放浪；沒有資料說明藍是否為仁、義、勇之一）",
            "藍 is paid only by 藍 characters ({seed}'s example sends 一隻藍色人物 wandering; no source says whether "
            "藍 is one of 仁, 義, 勇)",
        ),
        _message(
            "leader_unknown",
            "土地の頭領が不明のため、行動できる人物全員で攻撃（仮定）",
            "土地頭領不明：所有可行動人物都出陣（假設）",
            "the land's 頭領 is unknown: every ready character attacks (an assumption)",
        ),
        _message(
            "no_leaders",
            "土地の頭領が0のため出陣できない",
            "土地頭領為0：無人可出陣",
            "the land's 頭領 is 0: nobody can attack",
        ),
        _message("land_destroyed", "土地を破壊（残り{left}）", "破壞土地（剩{left}）", "land destroyed; {left} left"),
        _message("every_land", "すべての土地を破壊", "破壞所有土地", "every land destroyed"),
        _message(
            "optional_draw_skipped",
            "山札が空なので任意のドローはしない",
            "牌庫已空：不進行可選的抽牌",
            "the deck is empty: the optional draw is not taken",
        ),
        _message(
            "returned_ready",
            "行動できる状態で戻る（資料に記載なし：仮定）",
            "以可行動狀態回場（資料未說明：假設）",
            "comes back ready to act (no source says otherwise: an assumption)",
        ),
        _message(
            "returned_acted",
            "行動済みの状態で戻る（資料に記載なし：設定による）",
            "以已行動狀態回場（資料未說明：依設定）",
            "comes back having acted (no source says: as set)",
        ),
        _message("procurement", "調達：1枚引く", "調達：抽一張", "調達: draws one"),
    )
    turn_stats = StatLabels(
        resources={"ja": "手札（登用の後）", "zh-hant": "手牌（登用後）", "en": "Cards in hand (after hiring)"},
        cards_played={"ja": "登用した人物", "zh-hant": "登用的人物", "en": "Characters hired"},
        damage={"ja": "破壊した土地", "zh-hant": "破壞的土地", "en": "Lands destroyed"},
    )

    def new_game(
        self, deck: SimDeck, seed: int, params: Mapping[str, int], policy: str, log: bool = True
    ) -> SuikodenState:
        state = SuikodenState(seed, log)
        state.policy = policy if policy in POLICIES else "default"
        state.rules = POLICIES[state.policy]
        state.deck = list(deck.zone(self.main_zone))
        state.lands = list(deck.zone("lands"))
        state.facts = _facts_of(deck)
        state.shuffle(state.deck)
        state.rng.shuffle(state.lands)
        state.opponent_lands = params["opponent_lands"]
        state.returns_ready = bool(params["returns_ready"])
        self._draw(state, OPENING_HAND, "opening_hand")
        if state.lands:
            state.land = state.lands.pop()
            state.record("land", state.land, message="first_land")
        return state

    def draw_schedule(self, turns: int, first_player: bool) -> list[int]:
        return [1] * turns  # 3. 收入階段: 從牌庫中抽一張到手牌 (the optional second draw is a choice)

    def is_over(self, state: SuikodenState) -> bool:
        return state.won_on_turn is not None or state.out_of_cards

    def extra_draw(self, state: SuikodenState) -> SimCard | None:
        card = state.draw_top()
        if card is not None:
            state.hand.append(card)
        return card

    def _draw(self, state: SuikodenState, count: int, message: str = "") -> None:
        """Draws a player must make: one that cannot be made loses the game (勝利方式 (3))."""
        for _ in range(count):
            if not state.deck:
                state.out_of_cards = True
                state.record("lose", message="cannot_draw")
                return
            card = state.deck.pop()
            state.hand.append(card)
            if state.log_events:  # appended as record() would: the commonest event
                state.events.append((state.turn, "draw", card, None, message, NO_PARAMS))

    def _may_draw(self, state: SuikodenState, message: str, keep: int = 0) -> bool:
        """A draw the seed makes optional: not taken when it would leave fewer than ``keep`` cards for the
        draws the player must still make this turn (none from an empty deck)."""
        if len(state.deck) <= keep:
            state.record("note", message="optional_draw_skipped")
            return False
        self._draw(state, 1, message)
        return True

    def play_turn(self, state: SuikodenState) -> None:
        state.turn += 1
        policy = state.rules
        stats = TurnStats(state.turn)
        state.stats.append(stats)
        field_characters, hand = state.field_characters, state.hand
        # 1. 開始階段: every character stands up.
        for character in field_characters:
            character.ready = True
        # 2. 歸還階段: one wandering character may come back; with [調達] it may draw a card.
        if state.wandering:
            known = state.facts
            returning = max(state.wandering, key=lambda card: known[card].attack)
            state.wandering.remove(returning)
            field_characters.append(Character(returning, state.returns_ready, False, known[returning]))
            if state.log_events:  # as record() would, without its keywords
                message = "returned_ready" if state.returns_ready else "returned_acted"
                state.events.append((state.turn, "return", returning, None, message, NO_PARAMS))
            if known[returning].procurement:
                self._may_draw(state, "procurement", keep=1)  # the income draw still to come
        # 3. 收入階段: draw one, and one more by discarding a wandering character (``_draw``, written out for the
        # draw of every turn).
        if not state.deck:
            self._draw(state, 1)  # it cannot be made: the game is lost
            return
        card = state.deck.pop()
        hand.append(card)
        if state.log_events:
            state.events.append((state.turn, "draw", card, None, "", NO_PARAMS))
        if state.wandering and len(hand) < HAND_LIMIT and state.deck:
            dropped = state.wandering.pop()
            state.discard.append(dropped)
            state.record("discard", dropped, message="second_draw")
            self._draw(state, 1)
        # 4. 內政階段: hire, then land effects.
        stats.cards_played = self._hire(state, policy)
        stats.resources = len(hand)
        if policy.use_land_effects:
            self._land_effects(state)
        # 5. 戰鬥階段: not on a player's first turn; the goldfish never defends, so the land falls.
        if state.turn > 1:
            stats.damage = self._battle(state)
        # 6. 終了階段: discard down to 5; characters hired this turn stand up.
        if len(hand) > HAND_LIMIT:
            known = state.facts
            hand.sort(key=lambda card: known[card].total)
            while len(hand) > HAND_LIMIT:
                card = hand.pop()
                state.discard.append(card)
                state.record("discard", card, message="end_of_turn")
        # 行動準備中的角色在自己回合結束時恢復成縱置; those that acted stay tapped until the start phase.
        for character in field_characters:
            if character.hired_this_turn:
                character.ready, character.hired_this_turn = True, False
        stats.hand_size = len(hand)
        if state.opponent_lands <= 0 and state.won_on_turn is None:
            state.won_on_turn = state.turn
            state.record("win", amount=state.turn, message="every_land")

    @staticmethod
    def colours_in_play(state: SuikodenState) -> dict[str | None, int]:
        counts: dict[str | None, int] = {}
        for character in state.field_characters:
            colour = character.facts.colour
            counts[colour] = counts.get(colour, 0) + 1
        return counts

    @staticmethod
    def affordable(state: SuikodenState, card: SimCard, colours_in_play: Mapping[str | None, int]) -> bool:
        """Whether ``card`` can be hired now: the same counts ``payment`` spends (each colour's parts together,
        so a cost naming a colour twice — 仁1仁殺1 — needs two different characters)."""
        found = state.facts[card]
        if not found.payable or found.white > len(state.hand) - 1:
            return False
        return all(colours_in_play.get(colour, 0) >= amount for colour, amount in found.colours)

    def payment(
        self, state: SuikodenState, card: SimCard, colours_in_play: Mapping[str | None, int] | None = None
    ) -> Payment | None:
        """Who pays for hiring ``card`` now, or None if it cannot be paid."""
        if colours_in_play is None and not self.affordable(state, card, self.colours_in_play(state)):
            return None
        known = state.facts
        found = known[card]
        plan = Payment([], [], [])
        if found.white:
            # 白色屬性意思則是從手牌捨棄相當張數來支付: the cheapest other cards in hand (copies of the card may pay).
            hand = state.hand
            others = [other for other in hand if other is not card]
            copies = len(hand) - 1 - len(others)  # the other copies of the card, after the other cards
            if copies:
                others += [card] * copies
            if found.white == 1:  # min() picks the first of equals, as the stable sort below puts it first
                plan.discards = [min(others, key=known.totals.__getitem__)]
            else:
                plan.discards = sorted(others, key=known.totals.__getitem__)[: found.white]
        if found.paid_by_characters:
            used: set[int] = set()
            apart = found.colours_apart
            for part in found.paid_by_characters:
                colour = part.colour
                if apart:  # no other part can have taken one of these payers
                    payers = [c for c in state.field_characters if c.facts.colour == colour]
                else:
                    payers = [c for c in state.field_characters if c.facts.colour == colour and id(c) not in used]
                # the weakest first, the first of equals (min() picks it, as the stable sort does)
                chosen = (
                    [min(payers, key=_attack_of)] if part.amount == 1 and payers else sorted(payers, key=_attack_of)
                )
                for payer in chosen[: part.amount]:
                    used.add(id(payer))
                    (plan.killed if part.kill else plan.wanderers).append((payer, colour))
        return plan

    def _hire(self, state: SuikodenState, policy: Policy) -> int:
        hired = 0
        dearest_first = policy.hire_dearest_first
        known, hand = state.facts, state.hand
        log, events = state.log_events, state.events
        counts = self.colours_in_play(state)
        while True:
            spare = len(hand) - 1  # the card hired is not one of its own payments
            best: SimCard | None = None
            best_rank: tuple[int, int, str] = (0, 0, "")
            for card in hand:
                found = known[card]
                if not found.payable or found.white > spare:
                    continue
                for colour, amount in found.colours:
                    if counts.get(colour, 0) < amount:
                        break  # too few characters of a colour in play (a loop: all() costs more here)
                else:
                    if best is None or (found.rank > best_rank if dearest_first else found.rank < best_rank):
                        best, best_rank = card, found.rank
            if best is None:
                break
            plan = self.payment(state, best, counts)  # affordable: the loop above counted as affordable() does
            assert plan is not None
            hand.remove(best)
            # Paid (events appended as record() would: no parameters put together for nothing).
            found = known[best]
            for payment in plan.discards:
                hand.remove(payment)
                state.discard.append(payment)
                if log:
                    events.append((state.turn, "discard", payment, None, "pays_white", found.pays_white))
            for payer, colour in plan.wanderers:
                state.field_characters.remove(payer)
                state.wandering.append(payer.card)  # 仁: the character goes wandering
                counts[colour] -= 1
                if log:
                    events.append((state.turn, "wander", payer.card, None, "pays_colour", found.pays_colour[colour]))
            for payer, colour in plan.killed:
                state.field_characters.remove(payer)
                state.discard.append(payer.card)  # 仁殺: the character is discarded
                counts[colour] -= 1
                if log:
                    events.append((state.turn, "discard", payer.card, None, "pays_kill", found.pays_colour[colour]))
            character = Character(best, False, True, found)
            counts[found.colour] = counts.get(found.colour, 0) + 1
            state.field_characters.append(character)
            if log:
                events.append((state.turn, "play", best, found.total, "hired", NO_PARAMS))
            hired += 1
        if state.log_events and known.notes:
            for card in state.hand:
                found = known[card]
                note = found.kept_note  # worked out once per card: most cards have nothing to say
                if note is None:
                    continue
                if note == "colour_unmapped":
                    state.record("note", card, message=note, colour=found.unmapped)
                else:
                    state.record("note", card, message=note)  # cost_unknown; blue_unpaid: say how 藍 is paid
        return hired

    def _land_effects(self, state: SuikodenState) -> None:
        """商業 and 狩獵: tap ready characters whose 智力 / 攻擊力 reach the land's value, draw one (once each)."""
        land = state.land
        if land is None or not state.deck:
            return
        fields = land.fields
        commerce, hunting = fields.get("commerce"), fields.get("hunting")
        if not (commerce or hunting):
            return
        field_characters = state.field_characters
        ready = [c for c in field_characters if c.ready]
        if not ready:
            return
        # The strongest character stays back (the first of equals, as max() picks; a loop: max(key=) costs more
        # to call than it saves here).
        keep = field_characters[0]
        for character in field_characters:
            if character.facts.attack > keep.facts.attack:
                keep = character
        for effect, needed in (("commerce", commerce), ("hunting", hunting)):
            if not needed:
                continue
            if not state.deck:
                break  # the draw is the effect's point: not from an empty deck
            # 商業 counts 智力 (which a card may not give), 狩獵 攻擊力 (0 when not given).
            if effect == "commerce":  # the first effect: every character of ``ready`` is still ready
                valued = [
                    (intelligence, c)
                    for c in ready
                    if c is not keep and (intelligence := c.facts.intelligence) is not None
                ]
            else:
                valued = [(c.facts.attack, c) for c in ready if c.ready and c is not keep]
            if sum(map(_first, valued)) < needed:
                continue
            valued.sort(key=_first, reverse=True)  # stable: equals stay in the order they came into play
            total = 0
            for value, character in valued:
                if total >= needed:
                    break
                character.ready = False
                total += value
            # The effect's draw (``_may_draw``, written out: the deck is not empty, so it is taken).
            card = state.deck.pop()
            state.hand.append(card)
            if state.log_events:
                state.events.append((state.turn, effect, None, total, "", NO_PARAMS))
                state.events.append((state.turn, "draw", card, None, "", NO_PARAMS))

    def _battle(self, state: SuikodenState) -> int:
        if state.opponent_lands <= 0:
            return 0
        attackers = [c for c in state.field_characters if c.ready]
        leaders = state.land.fields.get("leader") if state.land is not None else None  # value(), without the call
        if leaders is None:
            if attackers:
                state.record("note", message="leader_unknown")
        else:
            if leaders == 0 and attackers:
                state.record("note", message="no_leaders")
            attackers = attackers[:leaders]  # 一次能出場的人數由己方面前的土地[頭領]值決定
        if not attackers:
            return 0
        for character in attackers:
            character.ready = False
        if state.log_events:
            turn = state.turn
            state.events.extend([(turn, "attack", character.card, None, "", NO_PARAMS) for character in attackers])
        # No defender: the land is given up and destroyed; a destroyed land ends the battle.
        state.opponent_lands -= 1
        if state.log_events:
            state.events.append((state.turn, "damage", None, 1, "land_destroyed", {"left": state.opponent_lands}))
        return 1


ENGINE = register(SuikodenEngine())
