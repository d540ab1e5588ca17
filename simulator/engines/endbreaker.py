"""エンドブレイカー！SCG: the starting deck's hands (seed 000, 遊戲準備 and 遊戲流程; games.md).

Each player starts with 旅人の酒場 ×4, 城塞騎士 ×2, 狩猟者 ×2 and 星霊術士 ×2, draws 5,
and may play 5 cards a turn (<開始階段> 行動+5); at the end every card in hand and on
the field is discarded and 5 are drawn, shuffling the discard pile when the deck runs
out ([手牌調整階段]). Buying from the supply, scenarios and battles come with the full
deck-building engine; this one reports what each hand can pay: the skills it produces.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from ..core import GameState, SimCard, SimDeck, TurnStats
from . import register

HAND_SIZE = 5
PLAYS_PER_TURN = 5
SKILLS = ("P", "T", "S", "B", "●")


class EndbreakerState(GameState):
    def __init__(self, seed: int, log_events: bool) -> None:
        super().__init__(seed, log_events)
        self.deck: list[SimCard] = []
        self.hand: list[SimCard] = []
        self.discard: list[SimCard] = []
        self.skills_by_turn: list[Counter[str]] = []
        self.unknown_skill_plays = 0


class EndbreakerEngine:
    game = "endbreaker"
    main_zone = "starting"  # the zone it shuffles and draws from
    optional_zones: tuple[str, ...] = ()
    opening_hand = HAND_SIZE
    parameters = ()
    policies: Mapping[str, object] = {"default": "play every card (up to 5)"}

    def new_game(self, deck: SimDeck, seed: int, params: Mapping[str, int], policy: str, log: bool = True):
        state = EndbreakerState(seed, log)
        state.deck = list(deck.zone(self.main_zone))
        state.shuffle(state.deck)
        self._draw(state, HAND_SIZE, "opening hand")
        return state

    def draw_schedule(self, turns: int, first_player: bool) -> list[int]:
        return [0] + [HAND_SIZE] * (turns - 1)  # a new hand of 5 after every turn

    def is_over(self, state: EndbreakerState) -> bool:
        return False  # nothing to win against a goldfish until buying and battles are simulated

    def _draw(self, state: EndbreakerState, count: int, detail: str = "") -> None:
        for _ in range(count):
            if not state.deck:
                if not state.discard:
                    return
                state.deck, state.discard = state.discard, []
                state.shuffle(state.deck)
            card = state.deck.pop()
            state.hand.append(card)
            state.record("draw", card, detail=detail)

    def play_turn(self, state: EndbreakerState) -> None:
        state.turn += 1
        stats = TurnStats(turn=state.turn)
        skills: Counter[str] = Counter()
        played = state.hand[:PLAYS_PER_TURN]
        for card in played:
            skill = card.value("skill")
            if skill is None:
                state.unknown_skill_plays += 1
                state.record("play", card, detail="skill unknown")
            else:
                skills.update(skill)
                state.record("play", card, detail=f"skill {skill}")
        stats.cards_played = len(played)
        stats.resources = sum(skills.values())
        state.skills_by_turn.append(skills)
        state.record("skills", amount=stats.resources, detail="".join(sorted(skills.elements())))
        state.discard += state.hand
        state.hand = []
        self._draw(state, HAND_SIZE)
        stats.hand_size = len(state.hand)
        state.stats.append(stats)


ENGINE = register(EndbreakerEngine())
