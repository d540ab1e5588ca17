"""エンドブレイカー！SCG: the starting deck's hands (seed 000, 遊戲準備 and 遊戲流程; games.md).

Each player starts with 旅人の酒場 ×4, 城塞騎士 ×2, 狩猟者 ×2 and 星霊術士 ×2, draws an opening
hand (the stated parameter ``opening_hand``: the seed's 遊戲準備 only shuffles the deck, so 5, the hand
every later phase draws, is an assumption), and may play 5 cards a turn (<開始階段> 行動+5); at the end every card in hand and on
the field is discarded and 5 are drawn, shuffling the discard pile when the deck runs
out ([手牌調整階段]). Buying from the supply, scenarios and battles come with the full
deck-building engine; this one reports what each hand can pay: the skills it produces.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

from cards.gamedefs.documents import titled
from cards.gamedefs.endbreaker import DOCUMENTS
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

HAND_SIZE = 5  # [戰鬥階段] 1 and 7, [手牌調整階段]: 抽出５張卡, 重抽５張, 再抽５張
PLAYS_PER_TURN = 5
SKILLS = ("P", "T", "S", "B", "●")

# The rules document the seed is, by its own title.
_SEED = DOCUMENTS.seed.shown


@dataclass(frozen=True)
class Policy:
    name: str
    labels: Labels


POLICIES: Mapping[str, Policy] = {
    "default": Policy(
        "default",
        {"ja": "全部プレイする（5枚まで）", "zh-hant": "全部打出（最多5張）", "en": "play every card (up to 5)"},
    )
}


class EndbreakerState(GameState):
    def __init__(self, seed: int, log_events: bool) -> None:
        super().__init__(seed, log_events)
        self.discard: list[SimCard] = []
        self.skills_by_turn: list[Counter[str]] = []
        self.unknown_skill_plays = 0


class EndbreakerEngine:
    game = "endbreaker"
    main_zone = "starting"  # the zone it shuffles and draws from
    optional_zones: tuple[str, ...] = ()
    in_play_zone: str | None = None  # no card of the deck is in play before the deal
    opening_hand = HAND_SIZE  # the default of the parameter below
    parameters = (
        Parameter(
            "opening_hand",
            {"ja": "最初の手札の枚数", "zh-hant": "起手手牌張數", "en": "Opening hand"},
            default=HAND_SIZE,
            minimum=1,
            maximum=10,  # the starting deck
            source=titled(
                {
                    "ja": "{seed}の遊戲準備は山札を作るところまでで、最初に何枚引くかは書いていません。"
                    "5枚（以後の各フェイズで引く枚数）は仮定です。",
                    "zh-hant": "{seed}的遊戲準備只到洗牌成為牌庫，沒有寫開局抽幾張；5張（之後各階段抽的張數）是假設。",
                    "en": "{seed}'s 遊戲準備 ends with shuffling the deck and does not say how many cards are drawn "
                    "first; 5, the hand every later phase draws, is an assumption.",
                },
                seed=_SEED,
            ),
        ),
    )
    card_needs = (
        CardNeed(
            "skill",
            ("job", "ability", "masquerade", "thorn"),  # every card it plays: the starting deck may hold them all
            {
                "ja": "一人回しはそのカードのスキルを数えられません",
                "zh-hant": "單人試轉無法計算這些卡的技能",
                "en": "the goldfish counts no skills for them",
            },
        ),
    )
    policies = POLICIES
    zones = (
        ZoneSpec("hand", {"ja": "手札", "zh-hant": "手牌", "en": "Hand"}, "hand"),
        ZoneSpec("discard", {"ja": "捨て札", "zh-hant": "棄牌堆", "en": "Discard pile"}, "discard"),
        ZoneSpec("deck", {"ja": "デッキ", "zh-hant": "牌庫", "en": "Deck"}, "deck", hidden=True),
    )
    counters = (
        CounterSpec(
            "unknown_skill_plays",
            {
                "ja": "スキル不明でプレイしたカード",
                "zh-hant": "技能不明的打出卡",
                "en": "Cards played with unknown skill",
            },
            "unknown_skill_plays",
        ),
    )
    event_kinds = (EventKind("skills", {"ja": "スキル", "zh-hant": "技能", "en": "skills"}),)
    messages = (
        Message("skill_unknown", {"ja": "スキル不明", "zh-hant": "技能不明", "en": "skill unknown"}),
        Message("skill", {"ja": "スキル {skill}", "zh-hant": "技能 {skill}", "en": "skill {skill}"}),
        Message("skills", {"ja": "{skills}", "zh-hant": "{skills}", "en": "{skills}"}),
    )
    turn_stats = StatLabels(
        resources={
            "ja": "スキル（手札が出す数）",
            "zh-hant": "技能（手牌產生的數量）",
            "en": "Skills the hand produced",
        },
        cards_played={"ja": "プレイしたカード", "zh-hant": "打出的卡", "en": "Cards played"},
        damage={
            "ja": "ダメージ（まだ再現していません）",
            "zh-hant": "傷害（尚未重現）",
            "en": "Damage (not simulated yet)",
        },
    )

    def new_game(
        self, deck: SimDeck, seed: int, params: Mapping[str, int], policy: str, log: bool = True
    ) -> EndbreakerState:
        state = EndbreakerState(seed, log)
        state.deck = list(deck.zone(self.main_zone))
        state.shuffle(state.deck)
        self._draw(state, params["opening_hand"], "opening_hand")
        return state

    def draw_schedule(self, turns: int, first_player: bool) -> list[int]:
        return [0] + [HAND_SIZE] * (turns - 1)  # a new hand of 5 after every turn

    def is_over(self, state: EndbreakerState) -> bool:
        return False  # nothing to win against a goldfish until buying and battles are simulated

    def extra_draw(self, state: EndbreakerState) -> SimCard | None:
        card = state.draw_top()
        if card is not None:
            state.hand.append(card)
        return card

    def _draw(self, state: EndbreakerState, count: int, message: str = "") -> None:
        for _ in range(count):
            if not state.deck:
                if not state.discard:
                    return
                state.deck, state.discard = state.discard, []
                state.shuffle(state.deck)
            card = state.deck.pop()
            state.hand.append(card)
            if state.log_events:
                state.record("draw", card, message=message)

    def play_turn(self, state: EndbreakerState) -> None:
        state.turn += 1
        stats = TurnStats(turn=state.turn)
        skills: Counter[str] = Counter()
        played = state.hand[:PLAYS_PER_TURN]
        for card in played:
            skill = card.fields.get("skill")
            if skill is None:
                state.unknown_skill_plays += 1
                state.record("play", card, message="skill_unknown")
            else:
                skills.update(skill)
                state.record("play", card, message="skill", skill=skill)
        stats.cards_played = len(played)
        stats.resources = sum(skills.values())
        state.skills_by_turn.append(skills)
        state.record("skills", amount=stats.resources, message="skills", skills="".join(sorted(skills.elements())))
        state.discard += state.hand
        state.hand = []
        self._draw(state, HAND_SIZE)
        stats.hand_size = len(state.hand)
        state.stats.append(stats)


ENGINE = register(EndbreakerEngine())
