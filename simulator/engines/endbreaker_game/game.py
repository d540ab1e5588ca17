"""The game of seed 000 (エンドブレイカー！SCG): state, set-up and phases, for 1 to 4 players played by strategies.

Each rule implemented quotes the seed's sentence beside it. Everything random goes through one seeded
generator, so the same seed, set-up and strategies play the same game.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Final, NamedTuple, Protocol, TypeVar

from ...core import SeededRandom, SimCard
from .declarations import QUESTIONS
from .effects import MASQUERADE_SCRIPTS, SCRIPTS, CardScript, Effect, MasqueradeScript, declined, worst_first
from .rules import (
    BATTLE_PLAYS,
    HAND_SIZE,
    MASQUERADES_IN_PLAY,
    MAX_PLAYERS,
    MIN_PLAYERS,
    PLAYS_PER_TURN,
    THORNS_PER_PLAYER,
    THORNS_TO_BATTLE,
    Rules,
)
from .setup import MissingCardValues, Setup, SetupError, missing_values
from .skills import COUNT_MAX, LARGEST, Counts, can_pay_counts, cost_counts, counted, counts_of, pay_counts, total
from .strategy import ANY_CARD, GainRule, Strategy

STOP: Final = "stop"  # a person's answer that ends playing or gaining
ACTS = ("resolve", "gain")  # 「選擇獲得卡片或是解決事件（二選一）」


class Decider(Protocol):
    """Who answers a seat's choices in place of its strategy (a person, through ``seated``). ``kind`` is
    ``play`` (a card key in hand, or ``STOP``), ``act`` (``ACTS``), ``gain`` (a pile's card key, or ``STOP``),
    ``thorn`` (a masquerade's place, 1 to 3) or ``may:<question>`` (``yes``/``no``); the answer is one of
    ``options``."""

    def decide(self, game: Game, player: Player, kind: str, options: tuple[str, ...]) -> str: ...


class LogEntry(NamedTuple):
    turn: int
    seat: int | None
    kind: str
    card: str | None = None  # a card key
    amount: int | None = None
    detail: str = ""


_LOOK_UP: Final = CardScript("")  # ``InPlay``'s default: find the card's script by its key


class InPlay:
    """A card on a player's field, with the skill and AT it has now (effects change them).

    A plain class, not a dataclass: one is made for every card played, and compiled (``native``) a plain class's
    ``__init__`` is compiled too, where a dataclass's is made at import time in Python. ``counts`` is ``skill``
    counted (``skills.counts_of``), kept in step with it, so a field's pool is a sum (``Game.skill_counts``)."""

    __slots__ = ("_skill", "at", "card", "counts", "script", "seat", "skill_played")
    card: SimCard
    _skill: str
    counts: Counts
    at: int
    script: CardScript | None  # the card's effects (``effects.SCRIPTS``), None for a card without any
    seat: int  # who played it (-1: not said), for the log
    skill_played: str  # the skill it came into play with, for the log

    def __init__(
        self,
        card: SimCard,
        skill: str,
        at: int,
        counts: Counts = -1,
        script: CardScript | None = _LOOK_UP,
        seat: int = -1,
    ) -> None:
        self.card = card
        self._skill = self.skill_played = skill
        self.seat = seat
        # The caller may know the counts and the script (``_PlayValues``).
        self.counts = counted(skill) if counts < 0 else counts
        self.script = SCRIPTS.get(card.key) if script is _LOOK_UP else script
        self.at = at

    @property
    def skill(self) -> str:
        return self._skill

    @skill.setter
    def skill(self, skill: str) -> None:
        self._skill = skill
        self.counts = counted(skill)

    def __repr__(self) -> str:
        return f"InPlay(card={self.card!r}, skill={self.skill!r}, at={self.at!r})"


class Player:
    """A seat's cards and counters. A plain class, not a dataclass, for ``InPlay``'s reason (two a game); compared
    by identity."""

    def __init__(
        self,
        seat: int,
        strategy: Strategy,
        *,
        deck: list[SimCard] | None = None,
        hand: list[SimCard] | None = None,
        discard: list[SimCard] | None = None,
        decider: Decider | None = None,
    ) -> None:
        self.seat = seat
        self.strategy = strategy
        self.deck: list[SimCard] = [] if deck is None else deck  # the top is the end of the list
        self.hand: list[SimCard] = [] if hand is None else hand
        self.discard: list[SimCard] = [] if discard is None else discard
        self.destroyed: list[SimCard] = []  # 「破壊」: out of the game
        self.field: list[InPlay] = []
        self.thorns = THORNS_PER_PLAYER  # in front of the player
        self.darc = 0  # in units of 1000ダルク
        self.plays = 0
        self.turns_taken = 0
        self.damage_reduction = 0
        self.incapacitated = False
        self.discord = False  # ディスコード played this turn
        self.to_deck_top_before_adjustment = 0  # 捕縛撃: up to this many hand cards may go on the deck
        # rules.battle_discards_field False: the battle's cards, in front of the player but no longer played
        # this turn (no skill, no AT) until the next hand adjustment or battle.
        self.left_from_battle: list[SimCard] = []
        # A person in this seat (``seated``): the game asks them each choice instead of reading the strategy.
        self.decider: Decider | None = decider

    def __repr__(self) -> str:
        return f"Player(seat={self.seat!r}, strategy={self.strategy.name!r}, darc={self.darc!r})"

    def owned(self) -> list[SimCard]:
        return [*self.deck, *self.hand, *self.discard, *(card.card for card in self.field), *self.left_from_battle]


class Masquerade:
    """A masquerade in play, masked: the thorns on it (their owners' seats) reveal it in three stages. A plain
    class (see ``Player``)."""

    def __init__(self, card: SimCard) -> None:
        self.card = card
        self.thorns: list[int] = []
        self.fought = False
        self.revealed = 0  # the highest stage reached (its thorns go back to their owners in its battle)

    def __repr__(self) -> str:
        return f"Masquerade(card={self.card.key!r}, thorns={self.thorns!r}, fought={self.fought!r})"

    @property
    def stage(self) -> int:
        """「(1) 顯示出戰勝後獲得的勝利點 (2) 顯示出其特殊能力 (3) 當第三張棘放上後，完全顯示出該假面的身份」"""
        return min(len(self.thorns), THORNS_TO_BATTLE)


_Card = TypeVar("_Card", SimCard, InPlay)  # a card in hand or on the deck, or one on the field


def _key_of(card: SimCard | InPlay) -> str:
    return card.card.key if isinstance(card, InPlay) else card.key


def _thorn_count(masquerade: Masquerade) -> int:
    # A module function, not a lambda: compiled, a lambda in a method makes an object at each call of the method.
    return len(masquerade.thorns)


def parse_payout(text: str) -> list[int]:
    """「例如フェルプール這張假面卡的勝利點為6-4-2-0」 (units of 1000ダルク)."""
    return [int(part) for part in str(text).split("-")]


def place_rewards(payout: Sequence[int], scores: Sequence[int]) -> list[int]:
    """「所有的玩家按照其打出的牌面上AT值的大小來排序，獲得假面上標記的獎賞 … 如有排名相同的玩家，則將可獲得的量
    平均後無條件捨棄至整數。」 Places past the payout's length pay nothing.

    A player's place is the number of players with more AT; the players tied with them share the rewards of as
    many places from there (at most four players: counting beats sorting)."""
    rewards = []
    for score in scores:
        place = 0
        tied = 0
        for other in scores:
            if other > score:
                place += 1
            elif other == score:
                tied += 1
        shares = 0
        for shared_place in range(place, min(place + tied, len(payout))):
            shares += payout[shared_place]
        rewards.append(shares // tied)
    return rewards


# A card as it comes into play: its skill, its AT, its script's daily and battle effects (None: none), its
# skill counted (``skills.counts_of``) and its script.
_PlayValues = tuple[str, int, Effect | None, Effect | None, Counts, CardScript | None]


class _PlayOrder:
    """A strategy's play order as each card's place (``rank``; unlisted cards after the listed ones), remembered
    per card as cards are met. A plain class: compiled, ``rank`` is a C call and its dictionary a plain one."""

    def __init__(self, order: tuple[str, ...]) -> None:
        self.by_key: dict[str, int] = {}
        for index, key in enumerate(order):
            self.by_key.setdefault(key, index)
        self.unranked = len(order)
        self.ranks: dict[SimCard, int] = {}

    def rank(self, card: SimCard) -> int:
        found = self.ranks.get(card)
        if found is None:
            found = self.ranks[card] = self.by_key.get(card.key, self.unranked)
        return found


class _Prepared:
    """What every game on one set-up and one set of rules reads again and again, worked out once for all of
    them (a simulation plays thousands of games on the same set-up; card values are read, never changed)."""

    def __init__(self, setup: Setup, rules: Rules) -> None:
        setup.check_counts()
        missing = missing_values(setup, rules)
        if missing:
            raise MissingCardValues(missing)
        # The piles in the order a gain looks at them: the most expensive first (the number of symbols of the
        # cost), ties to the pile set up first (``sorted`` is stable), so the first one the pool pays for and
        # that still has cards is the gain (``Game._choose``).
        self.gain_order: tuple[SimCard, ...] = tuple(
            sorted((*setup.jobs, *setup.abilities), key=lambda card: -len(str(card.fields["cost"])))
        )
        self.gain_needs: tuple[Counts, ...] = tuple(cost_counts(str(card.fields["cost"])) for card in self.gain_order)
        self.gain_index: dict[str, int] = {card.key: index for index, card in enumerate(self.gain_order)}
        self.gain_need: dict[SimCard, Counts] = dict(zip(self.gain_order, self.gain_needs, strict=True))
        # A pool's counts -> the places in ``gain_order`` of the cards it pays for (the same for every game).
        self.affordable: dict[Counts, tuple[int, ...]] = {}
        self.play_values: dict[SimCard, _PlayValues] = {}
        # A strategy (by identity, kept to tell a reused id apart) -> its own play values (``play_values_for``).
        self.by_strategy: dict[int, tuple[Strategy, dict[SimCard, _PlayValues]]] = {}
        self.play_orders: dict[tuple[str, ...], _PlayOrder] = {}
        self.starting_deck: tuple[SimCard, ...] = tuple(setup.starting_deck())
        # Each scenario's junction requirement and each printed payout, read once (a turn reads one of each).
        self.scenario_need: dict[SimCard, Counts] = {
            card: cost_counts(str(card.fields["cost"])) for card in setup.scenarios
        }
        self.masquerade_scripts: dict[SimCard, MasqueradeScript] = {
            card: MASQUERADE_SCRIPTS.get(card.key) or _unscripted_masquerade(card.key) for card in setup.masquerades
        }
        self.payouts: dict[SimCard, tuple[int, ...]] = {
            card: tuple(parse_payout(card.fields["payout"])) for card in (*setup.scenarios, *setup.masquerades)
        }

    def play_values_for(self, strategy: Strategy) -> dict[SimCard, _PlayValues]:
        """The play values of the cards ``strategy`` plays (filled in by ``Game._played_by``): ``play_values``
        less the effects that ask first and that the strategy says no to (``effects.declined``)."""
        entry = self.by_strategy.get(id(strategy))
        if entry is None or entry[0] is not strategy:
            if len(self.by_strategy) >= _MAX_STRATEGIES_REMEMBERED:
                self.by_strategy.clear()
            entry = self.by_strategy[id(strategy)] = (strategy, {})
        return entry[1]

    def payable(self, pool: Counts) -> tuple[int, ...]:
        """The places in ``gain_order`` of the cards ``pool`` pays for, remembered per pool."""
        found = self.affordable.get(pool)
        if found is None:
            if len(self.affordable) >= _MAX_POOLS_REMEMBERED:
                self.affordable.clear()
            needs = self.gain_needs
            found = self.affordable[pool] = tuple(i for i in range(len(needs)) if can_pay_counts(pool, needs[i]))
        return found


_MAX_STRATEGIES_REMEMBERED = 256  # a run plays the same few strategies; a page may make new ones
_MAX_POOLS_REMEMBERED = 100_000  # a bound, never reached in practice (a pool is a handful of cards' skills)
_PREPARED: dict[tuple[Setup, Rules], _Prepared] = {}
_MAX_PREPARED = 64  # set-ups kept at once (a page or a comparison uses one or two)


# The set-up, rules and facts of the last game made: a run plays game after game on the same objects, and
# checking them by identity skips hashing the whole set-up (its every card) once per game.
_last_prepared: tuple[Setup, Rules, _Prepared] | None = None


def _prepared(setup: Setup, rules: Rules) -> _Prepared:
    global _last_prepared
    last = _last_prepared
    if last is not None and last[0] is setup and last[1] is rules:
        return last[2]
    key = (setup, rules)
    found = _PREPARED.get(key)
    if found is None:
        found = _Prepared(setup, rules)  # raises, and so is not kept, when the set-up cannot be played
        if len(_PREPARED) >= _MAX_PREPARED:
            _PREPARED.clear()
        _PREPARED[key] = found
    _last_prepared = (setup, rules, found)
    return found


_DEFAULT_RULES = Rules()  # frozen: one object for every game given no rules (found again by identity)


@lru_cache(maxsize=256)
def _unscripted_masquerade(key: str) -> MasqueradeScript:
    return MasqueradeScript(key)


class Game:
    def __init__(
        self,
        setup: Setup,
        strategies: Sequence[Strategy],
        seed: int,
        rules: Rules | None = None,
        *,
        log_events: bool = True,
    ) -> None:
        self.rules: Rules = rules or _DEFAULT_RULES
        self.log_events = log_events  # False: nothing is logged (many games played for their results only)
        if not MIN_PLAYERS <= len(strategies) <= MAX_PLAYERS:
            raise SetupError(f"players: {MIN_PLAYERS} to {MAX_PLAYERS} players, {len(strategies)} given")
        self._prepared = _prepared(setup, self.rules)  # checks the set-up (counts, values) once per set-up
        self.setup = setup
        self.seed = seed
        self.rng = SeededRandom(seed)
        # The events, made into ``LogEntry`` only when ``log`` is read (an event for every card drawn, played and
        # gained): plain tuples of the seat, kind, card, amount and detail (compiled, a plain tuple is a C
        # allocation, a named tuple a Python call), a gained card kept as the card itself (its key read with the
        # log); a card played is its ``InPlay``, which remembers its seat and the skill it came in with, so playing
        # it logs nothing new. The turn of each is where ``_turn_starts`` says each turn's events begin.
        self._events: list[tuple[int | None, str, SimCard | str | None, int | None, str] | InPlay] = []
        self._turn_starts: list[int] = []
        self._entries: list[LogEntry] = []
        self.turn = 0  # turns played by all players together
        self.current = 0  # 6「決定回合開始玩家」: the first strategy given sits first
        self.resolved_this_turn = 0
        self.resolved_by_effect_this_turn = 0
        self.turn_ended = False  # a battle ends the turn it happens in
        self.in_battle = False
        self.fighting: Masquerade | None = None
        self.fighting_thorns: list[int] = []  # the seats whose thorns were on the masquerade fought
        self.battles = 0
        self.battle_scores: list[list[int]] = []  # each battle's AT by seat (what its places were decided on)
        self.over = False
        self.stopped = False  # rules.max_turns reached before the third battle
        self.winners: list[int] = []
        self.darc_left: int | None = self.rules.darc_pile
        # 1「將魔獸戰士、スカイランナー、デモニスタ三疊職業卡牌堆放在場中。」 2「特技卡牌堆任選９種放置在場中。」
        self.supply: dict[str, list[SimCard]] = {
            card.key: [card] * self.rules.pile_size for card in (*setup.jobs, *setup.abilities)
        }
        # The same pile lists in gain order (``_choose``): a pile is only ever changed in place, never replaced.
        self._gain_piles = [self.supply[card.key] for card in self._prepared.gain_order]
        self._play_values = self._prepared.play_values
        # 3「將所有的劇本卡洗牌後疊成一起，表面朝上放在場中，並翻開一張到牌庫右方。」
        self.scenario_pile = list(setup.scenarios)
        self.shuffle(self.scenario_pile)
        self.scenario_right: SimCard | None = self.scenario_pile.pop()
        self.scenarios_out: list[SimCard] = []
        # 4「將假面卡隨機選出３張，用面具蓋住以所有人都不知道的方式放進場中。」 The others are the pile damage
        # is drawn from (「由不在場上的假面牌堆中抽出１張」).
        masquerades = list(setup.masquerades)
        self.shuffle(masquerades)
        self.masquerades = [Masquerade(card) for card in masquerades[:MASQUERADES_IN_PLAY]]
        self.masquerade_pile = masquerades[MASQUERADES_IN_PLAY:]
        self.masquerades_out: list[SimCard] = []
        self.kept_masquerades: list[SimCard] = []
        # 5「所有玩家獲得以下卡片：城塞騎士、狩獵者、星靈術士各２張；旅人的酒場４張，洗牌後成為牌庫。並將棘７張放置在
        # 自己面前。」
        self.players = [Player(seat, strategy) for seat, strategy in enumerate(strategies)]
        # Each seat's play order as card -> its place (``next_to_play``), shared by the games on this set-up.
        play_orders = self._prepared.play_orders
        self._play_orders: list[_PlayOrder] = []
        for strategy in strategies:
            play_order = play_orders.get(strategy.play_order)
            if play_order is None:
                play_order = play_orders[strategy.play_order] = _PlayOrder(strategy.play_order)
            self._play_orders.append(play_order)
        # Each seat's play values: its strategy's, without the effects it always says no to (``play_cards``).
        self._seat_values = [self._prepared.play_values_for(strategy) for strategy in strategies]
        for player in self.players:
            player.deck = list(self._prepared.starting_deck)
            self.shuffle(player.deck)
            self.draw(player, self.rules.opening_hand)

    # Helpers the effects use ------------------------------------------------------------------------------

    @property
    def log(self) -> list[LogEntry]:
        """The events so far, in order (the same list each time, brought up to date when read)."""
        entries = self._entries
        events = self._events
        starts = self._turn_starts
        for index in range(len(entries), len(events)):
            turn = bisect_right(starts, index)  # the turns begun at or before this event
            event = events[index]
            if isinstance(event, InPlay):
                entries.append(LogEntry(turn, event.seat, "play", event.card.key, None, event.skill_played))
                continue
            seat, kind, card, amount, detail = event
            key = card if card is None or isinstance(card, str) else card.key
            entries.append(LogEntry(turn, seat, kind, key, amount, detail))
        return entries

    def note(
        self, player: Player | None, kind: str, card: str | None = None, amount: int | None = None, detail: str = ""
    ) -> None:
        if self.log_events:
            seat = None if player is None else player.seat
            # A plain tuple, made a ``LogEntry`` when the log is read (``log``).
            self._events.append((seat, kind, card, amount, detail))

    def may(self, player: Player, question: str) -> bool:
        """A card's 「してもよい」, answered by the player's strategy (``declarations.QUESTIONS`` holds them all)."""
        if player.decider is not None:
            return player.decider.decide(self, player, f"may:{question}", ("yes", "no")) == "yes"
        return player.strategy.answer(question, QUESTIONS[question].default)

    def shuffle(self, cards: list[SimCard]) -> None:
        """``self.rng.shuffle(cards)`` written out: the same algorithm drawing the same random numbers, so the same
        order from the same seed and the generator left in the same state (tested), without a Python call for
        each card. (Taking the draws' words at once with one ``getrandbits`` and reading its bytes was tried:
        compiled, it ran more instructions, not fewer.)"""
        getrandbits = self.rng.getrandbits
        for last in range(len(cards) - 1, 0, -1):
            choices = last + 1
            bits = choices.bit_length()  # compiled, a C function on the machine word
            chosen = getrandbits(bits)
            while chosen >= choices:
                chosen = getrandbits(bits)
            cards[last], cards[chosen] = cards[chosen], cards[last]

    def draw(self, player: Player, count: int) -> int:
        """Draws up to ``count``; 「不能抽就洗」: the discard pile is shuffled into the deck when it runs out."""
        deck = player.deck
        if len(deck) >= count > 0:  # the common case: the top cards in one go, in the order they come off
            player.hand += deck[: -count - 1 : -1]
            del deck[-count:]
            if self.log_events:
                self.note(player, "draw", amount=count)
            return count
        drawn = 0
        while drawn < count:
            if not player.deck:
                if not player.discard:
                    break
                player.deck, player.discard = player.discard, []
                self.shuffle(player.deck)
                if self.log_events:
                    self.note(player, "shuffle", amount=len(player.deck))
            # The top cards in one go, in the order they come off the deck (its top is the end of the list).
            deck = player.deck
            taken = min(count - drawn, len(deck))
            player.hand += deck[: -taken - 1 : -1]
            del deck[-taken:]
            drawn += taken
        if drawn and self.log_events:
            self.note(player, "draw", amount=drawn)
        return drawn

    def take_darc(self, player: Player, count: int) -> int:
        """Gives ``count`` 1000ダルク cards from the pile (``rules.darc_pile``: None, it never runs out); how many."""
        if self.darc_left is not None:
            count = min(count, self.darc_left)
            self.darc_left -= count
        player.darc += count
        return count

    def add_darc(self, player: Player, count: int, source: str | None = None) -> None:
        """「『１０００ダルク』N枚を獲得する」: darc is counted in units of 1000."""
        self.note(player, "darc", source, self.take_darc(player, count))

    def reveal_top(self, player: Player) -> SimCard | None:
        """The top card of the deck, taken off it (「山札を公開し」); ``rules.reveal_reshuffles`` says whether an empty
        deck is first made again from the discard pile."""
        if not player.deck and self.rules.reveal_reshuffles and player.discard:
            player.deck, player.discard = player.discard, []
            self.shuffle(player.deck)
            self.note(player, "shuffle", amount=len(player.deck))
        return player.deck.pop() if player.deck else None

    def destroy(self, player: Player, card: SimCard) -> None:
        """「破壊」 (「破壞就是除外的意思」): out of the game."""
        player.hand.remove(card)
        player.destroyed.append(card)
        self.note(player, "destroy", card.key)

    def discard_from_hand(self, player: Player, card: SimCard) -> None:
        player.hand.remove(card)
        player.discard.append(card)
        self.note(player, "discard", card.key)

    def keep_masquerade(self, player: Player, card: SimCard) -> None:
        """「そのプレイヤーはこのカードを捨て山に加える」: the masquerade does not leave the game."""
        player.discard.append(card)
        self.kept_masquerades.append(card)
        self.note(player, "gain", card.key)

    def skills(self, player: Player) -> Counter[str]:
        """「本回合打出的卡片上的技能值」: the skills of the cards on the field, as they are now."""
        pool: Counter[str] = Counter("".join([card.skill for card in player.field]))
        return pool

    def skill_counts(self, player: Player) -> Counts:
        """``skills`` counted by symbol (``skills.counts_of``), what the engine pays with."""
        field = player.field
        if len(field) * LARGEST[0] > COUNT_MAX:  # a sum of the cards' counts could carry: count the whole field
            return counts_of("".join([card.skill for card in field]))
        pool = 0
        for card in field:
            pool += card.counts
        return pool

    def at_of(self, player: Player, card: InPlay) -> int:
        script = card.script
        if script is not None and script.at is not None:
            return script.at(self, player, card) + card.at  # the text's AT, and what effects added to it
        return card.at

    def at_now(self, player: Player, card: InPlay) -> int:
        """A card's AT as it counts now: in battle, with the fought masquerade's change (never below 0)."""
        at = self.at_of(player, card)
        bonus = None if self.fighting is None else self.masquerade_script(self.fighting.card).at_bonus
        return at if bonus is None else max(0, at + bonus(self, player, card))

    def is_city_state(self, card: SimCard) -> bool:
        """「都市国家」 (ヘカトンケイル): a card whose stored kind says so, or one ``rules.city_states`` names."""
        return card.kind == "city" or card.key in self.rules.city_states

    def choose_cards(self, player: Player, question: str, candidates: Sequence[_Card], up_to: int) -> list[_Card]:
        """A person picks up to ``up_to`` of ``candidates`` one at a time (``pick:<question>``, by card key, or
        ``STOP``); the first not yet picked of the key answered is taken."""
        decider = player.decider
        assert decider is not None
        chosen: list[_Card] = []
        left = list(candidates)
        while left and len(chosen) < up_to:
            keys: tuple[str, ...] = tuple(dict.fromkeys([_key_of(card) for card in left]))
            answer = decider.decide(self, player, f"pick:{question}", (*keys, STOP))
            if answer == STOP:
                break
            card = next(card for card in left if _key_of(card) == answer)
            left.remove(card)
            chosen.append(card)
        return chosen

    def choose_place(self, player: Player, question: str, card: SimCard, places: tuple[str, ...]) -> str:
        """A person says where ``card`` goes (``place:<question>:<card key>``)."""
        decider = player.decider
        assert decider is not None
        return decider.decide(self, player, f"place:{question}:{card.key}", places)

    def total_at(self, player: Player) -> int:
        """The AT a player has played; in battle, with the fought masquerade's changes (none goes below 0:
        「０以下になった場合、０として扱う」)."""
        bonus = None if self.fighting is None else self.masquerade_script(self.fighting.card).at_bonus
        if bonus is None:  # ``at_of`` for each card, written out (every battle reads each field card)
            total = 0
            for card in player.field:
                script = card.script
                total += card.at if script is None or script.at is None else script.at(self, player, card) + card.at
            return total
        return sum(max(0, self.at_of(player, card) + bonus(self, player, card)) for card in player.field)

    def payout(self, card: SimCard) -> tuple[int, ...]:
        """A scenario's or masquerade's printed payout (``parse_payout``), read once per set-up."""
        found = self._prepared.payouts.get(card)
        return tuple(parse_payout(card.fields["payout"])) if found is None else found

    def masquerade_script(self, card: SimCard) -> MasqueradeScript:
        found = self._prepared.masquerade_scripts.get(card)
        if found is None:  # a masquerade from outside the set-up
            found = MASQUERADE_SCRIPTS.get(card.key) or _unscripted_masquerade(card.key)
        return found

    # Playing cards ----------------------------------------------------------------------------------------

    def next_to_play(self, player: Player) -> SimCard | None:
        """The first card of the strategy's play order in hand, else the first card drawn (a thorn only in battle)."""
        hand = player.hand
        if not hand:
            return None
        place = self._play_orders[player.seat].rank
        best = min(hand, key=place)  # the first of the lowest place: the first drawn
        thorn = self.setup.thorn
        if best is thorn and not self.in_battle:  # rare: a thorn is in hand only in battle
            others = [card for card in hand if card is not thorn]
            return min(others, key=place) if others else None
        return best

    def _played(self, card: SimCard) -> _PlayValues:
        """A card's printed skill and AT as it comes into play, and its script's daily and battle effects (read
        once per set-up)."""
        script = SCRIPTS.get(card.key)
        if script is not None and script.skill is not None:
            skill = script.skill  # the text gives it
        else:
            skill = "" if card is self.setup.thorn else str(card.fields.get("skill") or "")
        daily = None if script is None else script.daily
        battle = None if script is None else script.battle
        # A card whose text gives its AT (アローレイン) starts from 0: ``at`` then holds only what effects add.
        at = 0 if script is not None and script.at is not None else int(card.fields.get("at") or 0)
        found = self._prepared.play_values[card] = (skill, at, daily, battle, counted(skill), script)
        return found

    def _played_by(self, player: Player, card: SimCard) -> _PlayValues:
        """``_played`` for the player's strategy: an effect it says no to is left out (it would only have asked),
        read once per strategy and set-up."""

        def answer(question: str) -> bool:
            return self.may(player, question)

        skill, at, daily, battle, counts, script = self._play_values.get(card) or self._played(card)
        kept_daily = None if daily is None or declined(daily, answer) else daily
        kept_battle = None if battle is None or declined(battle, answer) else battle
        found = self._seat_values[player.seat][card] = (skill, at, kept_daily, kept_battle, counts, script)
        return found

    def play(self, player: Player, card: SimCard) -> None:
        """Spends a play and puts the card on the field; its effect for the phase happens."""
        player.plays -= 1
        player.hand.remove(card)
        skill, at, daily, battle, counts, script = self._play_values.get(card) or self._played(card)
        in_play = InPlay(card, skill, at, counts, script, player.seat)
        player.field.append(in_play)
        if self.log_events:
            self._events.append(in_play)  # ``note``: the card played, with its seat and skill
        effect = battle if self.in_battle else daily
        if effect is not None:
            effect(self, player, in_play)

    def play_cards(self, player: Player) -> None:
        if player.decider is not None:
            self._play_chosen(player, player.decider)
            return
        play_order = self._play_orders[player.seat]
        unranked = play_order.unranked
        thorn = self.setup.thorn
        play_values = self._seat_values[player.seat]
        while player.plays > 0 and not self.over and not self.turn_ended:
            # ``next_to_play`` and ``play``, written out: this loop runs for every card played, and a Python call
            # costs as much as the rest of a play. The hand is taken in play order at once, the strategy's order
            # with ties to the first drawn (a stable sort: the cards ``next_to_play`` would pick one by one), and
            # looked at again only after a card with an effect, which may change the hand, the plays or the phase
            # (a battle deals new hands and fields).
            hand = player.hand
            field = player.field
            in_battle = self.in_battle
            order = hand[:]  # most hands hold no card the play order names: then they are played as drawn
            for card in hand:
                if play_order.rank(card) < unranked:
                    order = sorted(hand, key=play_order.rank)
                    break
            for card in order:
                if card is thorn and not in_battle:
                    continue  # a thorn is in hand only in battle, and played only there
                player.plays -= 1
                hand.remove(card)
                skill, at, daily, battle, counts, script = play_values.get(card) or self._played_by(player, card)
                in_play = InPlay(card, skill, at, counts, script, player.seat)
                field.append(in_play)
                if self.log_events:  # ``note``: the card played, with its seat and skill
                    self._events.append(in_play)
                effect = battle if in_battle else daily
                if effect is not None:
                    effect(self, player, in_play)
                    break
                if player.plays <= 0:
                    return
            else:
                return  # the hand is played out (or holds only thorns, outside battle)

    # Gaining and scenarios ---------------------------------------------------------------------------------

    def gain(self, player: Player, key: str) -> SimCard:
        card = self.supply[key].pop()
        gain_to = self.rules.gain_to
        (player.discard if gain_to == "discard" else player.hand if gain_to == "hand" else player.deck).append(card)
        if self.log_events:  # ``note``, written out, with the card (``log`` reads its key)
            self._events.append((player.seat, "gain", card, None, ""))
        return card

    def _rule_allows(self, player: Player, rule: GainRule, card: SimCard) -> bool:
        if player.turns_taken < rule.min_turn or (rule.max_turn is not None and player.turns_taken > rule.max_turn):
            return False
        return rule.max_owned is None or sum(1 for owned in player.owned() if owned is card) < rule.max_owned

    def measure(self, player: Player, subject: str) -> int:
        """What a gain rule's ``Condition`` looks at (``strategy.SUBJECTS``)."""
        if subject == "deck":
            return len(player.deck) + len(player.hand) + len(player.discard) + len(player.field)
        if subject == "skills":
            return total(self.skill_counts(player))
        if subject == "darc":
            return player.darc
        others = [other.darc for other in self.players if other is not player]
        return player.darc - max(others, default=0)

    def _conditions_hold(self, player: Player, rule: GainRule) -> bool:
        return all(condition.holds(self.measure(player, condition.subject)) for condition in rule.conditions)

    def choose_gain(self, player: Player, pool: Counts) -> SimCard | None:
        """The first card of the strategy's gain priority that the pool pays for and the pile still has."""
        return self._choose(player, self._prepared.payable(pool))

    def choose_card(self, player: Player, allowed: Callable[[SimCard], bool]) -> SimCard | None:
        """The first card of the strategy's gain priority that ``allowed`` lets through and the pile still has."""
        order = self._prepared.gain_order
        return self._choose(player, tuple(i for i in range(len(order)) if allowed(order[i])))

    def _choose(self, player: Player, candidates: tuple[int, ...]) -> SimCard | None:
        """The first card of the strategy's gain priority among ``candidates`` (places in the prepared gain order,
        most expensive first) whose pile still has cards."""
        turns = player.turns_taken
        piles = self._gain_piles
        if player.decider is not None:
            order = self._prepared.gain_order
            options = tuple(order[index].key for index in candidates if piles[index])
            if not options:
                return None
            choice = player.decider.decide(self, player, "gain", (*options, STOP))
            return None if choice == STOP else self.supply[choice][-1]
        for rule in player.strategy.gain_priority:
            # The guards on the turn hold for every card of the rule (``_rule_allows``, checked once).
            if turns < rule.min_turn or (rule.max_turn is not None and turns > rule.max_turn):
                continue
            if rule.conditions and not self._conditions_hold(player, rule):
                continue
            if rule.card == ANY_CARD:
                # The most expensive; ties to the pile set up first (a stable, seed-free order): the gain order.
                for index in candidates:
                    pile = piles[index]
                    if pile and (rule.max_owned is None or self._rule_allows(player, rule, pile[-1])):
                        return pile[-1]
            else:
                named = self._prepared.gain_index.get(rule.card)
                if named is not None and named in candidates:
                    pile = piles[named]
                    if pile and self._rule_allows(player, rule, pile[-1]):
                        return pile[-1]
        return None

    def gain_one_within(self, player: Player, cost: str) -> SimCard | None:
        """「「コスト：{cost}以内」のカード１枚を獲得」: a card whose cost ``cost`` would pay."""
        card = self.choose_gain(player, counts_of(cost))
        return None if card is None else self.gain(player, card.key)

    def gain_one_costing_at_most(self, player: Player, count: int) -> SimCard | None:
        """「「コスト数＋１以下」のコスト数を持つカード１枚を獲得」: the cost's number of symbols."""
        card = self.choose_card(player, lambda card: len(str(card.fields["cost"])) <= count)
        return None if card is None else self.gain(player, card.key)

    def gain_job_to_deck_top(self, player: Player) -> SimCard | None:
        """「ジョブ１枚を獲得し、山札の上に置いてもよい」"""
        card = self.choose_card(player, lambda card: card.kind == "job")
        if card is None:
            return None
        self.supply[card.key].pop()
        player.deck.append(card)
        self.note(player, "gain", card.key, detail="deck_top")
        return card

    def _play_chosen(self, player: Player, decider: Decider) -> None:
        """A person plays one card at a time, as many as they like, until the plays run out."""
        thorn = self.setup.thorn
        while player.plays > 0 and not self.over and not self.turn_ended:
            playable = list(dict.fromkeys(c.key for c in player.hand if c is not thorn or self.in_battle))
            if not playable:
                return
            choice = decider.decide(self, player, "play", (*playable, STOP))
            if choice == STOP:
                return
            self.play(player, next(card for card in player.hand if card.key == choice))

    def gain_cards(self, player: Player, pool: Counts | None = None) -> int:
        """「消耗對應技能值就可獲得場中卡片。」 As many as the skills pay for (「獲得特技練刺棍(PPT)兩張」), or none
        (「當然也可以一張都不要」). ``pool``: the player's skills (``skill_counts``) when the caller has them."""
        if pool is None:
            pool = self.skill_counts(player)
        prepared = self._prepared
        needs = prepared.gain_need
        gained = 0
        while (card := self._choose(player, prepared.payable(pool))) is not None:  # ``choose_gain``
            left = pay_counts(pool, needs[card])
            assert left is not None
            pool = left
            self.gain(player, card.key)
            gained += 1
        return gained

    def junction(self) -> SimCard | None:
        """「劇本卡在看的時候以兩張一組的方式來看」: the pair is the top of the face-up pile (left) and the card to its
        right; ``rules.junction_card`` says which one carries the requirement and the reward. No pair, no junction."""
        if self.scenario_right is None or not self.scenario_pile:
            return None
        return self.scenario_right if self.rules.junction_card == "right" else self.scenario_pile[-1]

    def can_resolve(self, player: Player, pool: Counts | None = None, *, by_effect: bool = False) -> bool:
        card = self.junction()
        if card is None or self.in_battle or self.turn_ended:
            return False
        # 「一回合不能解決兩次以上的事件。」 (a resolution by an effect: rules.effect_resolution_limited)
        limited = not by_effect or self.rules.effect_resolution_limited
        if limited and self.resolved_this_turn:
            return False
        if not player.thorns and not self.rules.resolve_without_thorn:
            return False
        for masquerade in self.masquerades:  # a masquerade still open to a thorn
            if not masquerade.fought and len(masquerade.thorns) < THORNS_TO_BATTLE:
                break
        else:
            return False
        if by_effect:
            return True  # ランスインパクト: 「シナリオ１枚を解決してもよい」, no skills paid
        need = self._prepared.scenario_need.get(card)
        if need is None:  # a card put at the junction from outside the set-up
            need = cost_counts(str(card.fields["cost"]))
        return can_pay_counts(self.skill_counts(player) if pool is None else pool, need)

    def resolve_scenario(self, player: Player, pool: Counts | None = None, *, by_effect: bool = False) -> bool:
        """「本回合打出的卡片上的技能值，若其值能滿足兩張劇本卡連結處所標示的技能值即可宣告完成該劇本。完成後可獲得劇本卡上
        標示的勝利點數(錢幣)。完成的劇本卡右邊那張移出遊戲，將左邊的翻至右邊。」 Then a thorn goes on a masquerade."""
        if not self.can_resolve(player, pool, by_effect=by_effect):
            return False
        card = self.junction()
        assert card is not None and self.scenario_right is not None
        if by_effect and not self.rules.effect_resolution_limited:
            self.resolved_by_effect_this_turn += 1
        else:
            self.resolved_this_turn += 1
        reward = self.take_darc(player, self.payout(card)[0])
        self.note(player, "scenario", card.key, reward)
        self.scenarios_out.append(self.scenario_right)
        self.scenario_right = self.scenario_pile.pop()
        self.place_thorn(player)
        return True

    def update_scenario(self, player: Player) -> bool:
        """流水演舞「シナリオ1枚を更新してもよい」 (rules.scenario_update)."""
        if self.scenario_right is None or not self.scenario_pile:
            return False
        if self.rules.scenario_update == "replace_right":
            self.scenarios_out.append(self.scenario_right)
            self.scenario_right = self.scenario_pile.pop()
        else:
            self.scenarios_out.append(self.scenario_pile.pop())
        self.note(player, "scenario_updated", self.scenario_right.key)
        return True

    def place_thorn(self, player: Player) -> None:
        """「解決事件後，該玩家立刻將自己場上一張棘放置到場中一隻假面上。」"""
        if not player.thorns:
            return  # rules.resolve_without_thorn
        open_ = [m for m in self.masquerades if not m.fought and len(m.thorns) < THORNS_TO_BATTLE]
        if player.decider is not None:  # masked: a person chooses by place (1 to 3), not by the hidden card
            places = tuple(str(self.masquerades.index(m) + 1) for m in open_)
            target = self.masquerades[int(player.decider.decide(self, player, "thorn", places)) - 1]
        elif player.strategy.thorn_target == "most_thorns":
            target = max(open_, key=_thorn_count)
        else:
            target = min(open_, key=_thorn_count)
        player.thorns -= 1
        target.thorns.append(player.seat)
        stage = target.stage
        target.revealed = max(target.revealed, stage)
        if self.log_events:
            self.note(player, "thorn", target.card.key if stage >= THORNS_TO_BATTLE else None, stage)
        if stage == 2:
            # 「若該能力為日常，則在這瞬間開始就發生效果。若該能力為戰鬥，則至戰鬥開始時才發生效果。」
            revealed = self.masquerade_script(target.card).revealed
            if revealed is not None:
                revealed(self, player)
        if target.stage >= THORNS_TO_BATTLE:  # read again: a revealed ability may have moved thorns
            # 「(3) 當第三張棘放上後，完全顯示出該假面的身份，此時立刻進入戰鬥階段。」
            self.battle(target)

    # Phases -----------------------------------------------------------------------------------------------

    def play_turn(self) -> None:
        if self.over:
            return
        player = self.players[self.current]
        self.turn += 1
        if self.log_events:
            self._turn_starts.append(len(self._events))
        player.turns_taken += 1
        self.resolved_this_turn = 0
        self.resolved_by_effect_this_turn = 0
        self.turn_ended = False
        player.discord = False
        if not self.rules.capture_carries_over:
            player.to_deck_top_before_adjustment = 0
        # <開始階段>「玩家獲得使用五次卡片的權利 (行動+5）」
        player.plays = PLAYS_PER_TURN
        if self.log_events:
            self.note(player, "start", amount=player.plays)
        # <日常階段> 1「消耗行動來打出卡片。」
        self.play_cards(player)
        # 2「選擇獲得卡片或是解決事件（二選一）」
        if not self.turn_ended and not self.over:
            self.choose_and_act(player)
        if self.over:
            return
        if not self.turn_ended:
            # [手牌調整階段]「反正就手上場上全棄後再抽５張，不能抽就洗。」
            self.adjust_hand(player)
        # [戰鬥階段] 9「回合結束，輪到下一位玩家。」 (after a battle, its step 7 has already drawn the new hand)
        self.current = (self.current + 1) % len(self.players)
        if self.turn >= self.rules.max_turns and not self.over:
            self.stopped = True
            self.finish()

    def choose_and_act(self, player: Player) -> None:
        resolve = player.strategy.resolve
        pool = self.skill_counts(player)  # the field does not change until the player acts
        if player.decider is not None:
            if self.can_resolve(player, pool) and player.decider.decide(self, player, "act", ACTS) == "resolve":
                self.resolve_scenario(player, pool)
            else:
                self.gain_cards(player, pool)
            return
        # ``resolve_scenario`` checks ``can_resolve`` first and changes nothing when it cannot resolve.
        if resolve == "always" and self.resolve_scenario(player, pool):
            return
        if (
            resolve == "if_nothing_to_gain"
            and self.choose_gain(player, pool) is None
            and self.resolve_scenario(player, pool)
        ):
            return
        self.gain_cards(player, pool)

    def adjust_hand(self, player: Player) -> None:
        # 捕縛撃「次の手札調整フェイズ前に、手札２枚までを山札の上に置いてもよい。」
        up_to = player.to_deck_top_before_adjustment
        player.to_deck_top_before_adjustment = 0
        if up_to and player.decider is not None:
            for card in self.choose_cards(player, "EB1-015:top", list(player.hand), up_to):
                player.hand.remove(card)
                player.deck.append(card)
        elif up_to and self.may(player, "EB1-015:top"):
            best = worst_first(player.hand)
            for card in best[-up_to:]:
                player.hand.remove(card)
                player.deck.append(card)
        # Lasting daily abilities of revealed masquerades (リリィヘッド: 「手札調整フェイズ開始時に」).
        for masquerade in self.masquerades:
            if masquerade.revealed >= 2 and not masquerade.fought:
                hook = self.masquerade_script(masquerade.card).hand_adjustment
                if hook is not None:
                    hook(self, player)
        player.discard += player.hand + [card.card for card in player.field]
        player.hand = []
        player.field = []
        if player.left_from_battle:
            player.discard += player.left_from_battle
            player.left_from_battle = []
        # ディスコード「このターン、シナリオを解決しなければ、手札調整フェイズのドローを７枚にする。」
        resolved = self.resolved_this_turn + self.resolved_by_effect_this_turn
        self.draw(player, 7 if player.discord and not resolved else HAND_SIZE)

    def battle(self, masquerade: Masquerade) -> None:
        self.in_battle = True
        self.fighting = masquerade
        self.fighting_thorns = list(masquerade.thorns)
        script = self.masquerade_script(masquerade.card)
        log = self.log_events  # the notes below are not even called when the log is off
        if log:
            self.note(None, "battle", masquerade.card.key, self.battles + 1)
        thorn = self.setup.thorn
        for player in self.players:
            # 1「所有玩家立刻將手牌、場上的牌、棄牌堆洗牌成為新牌庫（不包括錢幣卡以及棘）。接著抽出５張卡並獲得５行動。」
            player.deck += player.hand + [card.card for card in player.field] + player.discard + player.left_from_battle
            player.hand, player.field, player.discard, player.left_from_battle = [], [], [], []
            self.shuffle(player.deck)
            if log:
                self.note(player, "shuffle", amount=len(player.deck))
            self.draw(player, HAND_SIZE)
            player.plays = BATTLE_PLAYS
            player.damage_reduction = 0
            player.incapacitated = False
            # 2「所有玩家將準備與其戰鬥的假面上，屬於自己的棘加入手牌。」
            own = masquerade.thorns.count(player.seat)
            player.hand += [thorn] * own
            # 「若該能力為戰鬥，則至戰鬥開始時才發生效果。」
            if script.battle_start is not None:
                script.battle_start(self, player)
        masquerade.thorns = []
        # 3「由回合玩家開始，按順序將自己想打出的卡片出完。」 (レッドバロック: from the left neighbour)
        count = len(self.players)
        step = 1 if self.rules.left_neighbour == "next" else -1
        first = self.current + step * script.first_offset
        for offset in range(count):
            self.play_cards(self.players[(first + offset) % count])
        # 4「所有玩家都打出卡片後，由不在場上的假面牌堆中抽出１張，所有玩家受到該卡造成的傷害。計算傷害的方式是由牌庫捨棄
        # 等同該卡上標示傷害數值的卡片。… 若有玩家的牌庫為０張時該玩家變為戰鬥不能的狀態。」
        damage_card = self.masquerade_pile.pop()
        damage = int(damage_card.fields["damage"])
        if log:
            self.note(None, "damage_card", damage_card.key, damage)
        for player in self.players:
            more = 0 if script.damage is None else script.damage(self, player, damage)
            taken = max(0, damage + more - player.damage_reduction)
            deck = player.deck
            discarded = min(taken, len(deck))
            if discarded:  # the top cards onto the discard pile in the order they come off the deck
                player.discard += deck[: -discarded - 1 : -1]
                del deck[-discarded:]
            if log:
                self.note(player, "damage", amount=taken)
            if not deck:
                player.incapacitated = True
                if log:
                    self.note(player, "incapacitated")
        if script.after_damage is not None:
            script.after_damage(self, masquerade.card)
        # 5 ranking by AT, shared places average their rewards (place_rewards);
        # 6「戰鬥不能的玩家，獲得的勝利點數減半，同樣無條件捨棄至整數。」
        scores = [self.total_at(player) for player in self.players]
        self.battle_scores.append(scores)
        rewards = place_rewards(self.payout(masquerade.card), scores)
        for player, score, reward in zip(self.players, scores, rewards, strict=True):
            if player.incapacitated:
                reward //= 2
            reward = self.take_darc(player, reward)
            if log:
                self.note(player, "reward", masquerade.card.key, reward, detail=f"AT {score}")
        # 「戦闘終了時」 effects of the cards played (シールドガード).
        for player in self.players:
            for card in list(player.field):
                card_script = card.script
                if card_script is not None and card_script.battle_end is not None:
                    card_script.battle_end(self, player, card)
        # 7「所有玩家將手牌中的棘回到場上，接著所有玩家將手牌全捨棄重抽５張」
        for player in self.players:
            back = [card for card in player.hand if card is thorn]
            played_thorns = [card for card in player.field if card.card is thorn]
            player.thorns += len(back) + (len(played_thorns) if self.rules.thorns_played_return else 0)
            player.hand = [card for card in player.hand if card is not thorn]
            player.field = [card for card in player.field if card.card is not thorn]
            player.discard += player.hand
            player.hand = []
            if self.rules.battle_discards_field:
                player.discard += [card.card for card in player.field]
            else:  # in front of the player, but not played in their next turn (``left_from_battle``)
                player.left_from_battle += [card.card for card in player.field]
            player.field = []
            self.draw(player, HAND_SIZE)
        # 8「將戰鬥結束的假面以及翻出的假面卡移出遊戲。」
        masquerade.fought = True
        self.masquerades_out += [card for card in (masquerade.card, damage_card) if card not in self.kept_masquerades]
        self.battles += 1
        self.in_battle = False
        self.fighting = None
        self.turn_ended = True
        # [遊戲結束]「和三隻假面都戰鬥過後遊戲立刻結束。」
        if self.battles >= MASQUERADES_IN_PLAY:
            self.finish()

    def tiebreak_count(self, player: Player) -> int:
        return len(player.deck) if self.rules.tiebreak_count == "draw_pile" else len(player.owned())

    def finish(self) -> None:
        """「獲得勝利點數最多的玩家為勝者。同分時則比較牌庫張數，較少者獲勝。兩者均相同的話則平手。」"""
        self.over = True
        best = max(player.darc for player in self.players)
        leaders = [player for player in self.players if player.darc == best]
        fewest = min(self.tiebreak_count(player) for player in leaders)
        self.winners = [player.seat for player in leaders if self.tiebreak_count(player) == fewest]
        if self.log_events:
            self.note(None, "end", amount=len(self.winners), detail=",".join(str(seat) for seat in self.winners))

    def play_to_end(self) -> None:
        while not self.over:
            self.play_turn()


def play_game(setup: Setup, strategies: Sequence[Strategy], seed: int, rules: Rules | None = None) -> Game:
    game = Game(setup, strategies, seed, rules)
    game.play_to_end()
    return game
