"""A person takes one seat and strategies play the others, one choice at a time. Plain Python.

The game is never kept between requests: it is the seed, the seats and the person's answers so far. ``advance``
sets the game up again from the seed and replays the answers (a game is a few milliseconds), then plays on until
the person's next choice (``Pending``: what kind of choice and its options) or the end. Because the game deals and
shuffles from the seed alone and every other seat is a strategy, the same answers always lead to the same game:
an answer can be taken back by replaying one fewer, and a game can be shared as its answers.

With no person at the table, ``advance`` plays the whole game; ``after_turns`` stops after so many turns, which is
how a game of strategies is watched turn by turn.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ...core import SimCard
from .declarations import QUESTIONS
from .effects import SCRIPTS
from .game import Game, Player
from .rules import Rules
from .setup import Setup
from .strategy import Strategy

# The strategy held by a person's seat: it is never asked (the person is), but the game reads a play order and
# plays every effect, so it says yes to every choice (an effect a strategy always declines is left out).
PERSON = Strategy(name="person", answers=dict.fromkeys(QUESTIONS, True))

MAX_ANSWERS = 5_000  # a whole game asks a person a few hundred choices; a bound on what is replayed


@dataclass(frozen=True)
class Pending:
    """The choice the person is asked: its ``kind`` (``game.Decider``) and ``options``."""

    seat: int
    kind: str
    options: tuple[str, ...]


class WrongAnswer(ValueError):
    """Answer ``index`` is not one of the options the game offered at that point."""

    def __init__(self, index: int, answer: str, options: tuple[str, ...]) -> None:
        self.index, self.answer, self.options = index, answer, options
        super().__init__(f"answer {index + 1}: “{answer}” is not one of {', '.join(options)}")


class _Asked(Exception):
    def __init__(self, pending: Pending) -> None:
        self.pending = pending


class _Replayed:
    """Answers from the recorded list; the first choice past its end stops the game there."""

    def __init__(self, answers: Sequence[str]) -> None:
        self.answers = answers
        self.used = 0

    def decide(self, game: Game, player: Player, kind: str, options: tuple[str, ...]) -> str:
        if self.used >= len(self.answers):
            raise _Asked(Pending(player.seat, kind, options))
        answer = self.answers[self.used]
        if answer not in options:
            raise WrongAnswer(self.used, answer, options)
        self.used += 1
        return answer


@dataclass
class Advanced:
    game: Game
    pending: Pending | None  # None: the game is over (or stopped after ``after_turns``)
    answered: int  # answers used


def advance(
    setup: Setup,
    strategies: Sequence[Strategy | None],
    seed: int,
    answers: Sequence[str] = (),
    *,
    rules: Rules | None = None,
    after_turns: int | None = None,
) -> Advanced:
    """The game with ``strategies`` in seat order (None: the person's seat, at most one), after the person's
    ``answers``: stopped at their next choice, at the end, or after ``after_turns`` turns. Raises ``WrongAnswer``
    for an answer the game did not offer, and ``ValueError`` for answers left over once the game is over."""
    people = [seat for seat, strategy in enumerate(strategies) if strategy is None]
    if len(people) > 1:
        raise ValueError("seats: at most one person plays")
    if len(answers) > MAX_ANSWERS:
        raise ValueError(f"answers: at most {MAX_ANSWERS}")
    game = Game(setup, [PERSON if strategy is None else strategy for strategy in strategies], seed, rules)
    replayed = _Replayed(answers)
    if people:
        game.players[people[0]].decider = replayed
    pending = None
    try:
        while not game.over and (after_turns is None or game.turn < after_turns):
            game.play_turn()
    except _Asked as asked:
        pending = asked.pending
    if pending is None and replayed.used < len(answers):
        raise ValueError(f"answers: the game ended after {replayed.used} of them")
    return Advanced(game, pending, replayed.used)


def table_view(game: Game, person: int | None, texts: Mapping[str, str] | None = None) -> dict[str, object]:
    """What a seat sees of the table, as plain data for the pages and the API. With a person at the table the
    others' hands are counts and a masked masquerade shows only what its thorns have revealed to every player
    (「(1) 顯示出戰勝後獲得的勝利點 (2) 顯示出其特殊能力 (3) … 完全顯示出該假面的身份」: stage 1 its reward, stage 2
    its ability (``ability_shown``: the page shows its text, not its name), stage 3 the card); with none,
    everything is shown (a game of strategies, watched). Each visible hand card, and each pile's top card
    (``supply_cards``), comes with its skill, cost and AT, and each player's ``pool`` is the skills their field offers now (what a gain or a scenario is paid with).
    ``texts``: card key -> its text in the reader's language, for a masquerade's ``ability`` once it is shown."""
    hidden = person is not None
    junction = game.junction()
    return {
        "turn": game.turn,
        "current": game.current,
        "over": game.over,
        "stopped": game.stopped,
        "winners": list(game.winners),
        "battles": game.battles,
        "players": [
            {
                "seat": player.seat,
                "darc": player.darc,
                "thorns": player.thorns,
                "plays": player.plays,
                "deck": len(player.deck),
                "discard": len(player.discard),
                "hand_count": len(player.hand),
                "hand": None if hidden and player.seat != person else [card.key for card in player.hand],
                "hand_cards": None
                if hidden and player.seat != person
                else [_hand_card(game, card) for card in player.hand],
                "pool": pool_text(game.skills(player)),
                "field": [{"key": c.card.key, "skill": c.skill, "at": game.at_of(player, c)} for c in player.field],
                "at": game.total_at(player),
                "owned": len(player.owned()),
            }
            for player in game.players
        ],
        "masquerades": [
            {
                "place": place,
                "thorns": list(masquerade.thorns),
                "stage": masquerade.revealed,
                "fought": masquerade.fought,
                "key": masquerade.card.key if not hidden or masquerade.revealed >= 3 or masquerade.fought else None,
                "ability_shown": (shown := not hidden or masquerade.revealed >= 2 or masquerade.fought),
                "ability": (texts or {}).get(masquerade.card.key, "") if shown else None,
                "payout": str(masquerade.card.fields.get("payout"))
                if not hidden or masquerade.revealed >= 1 or masquerade.fought
                else None,
            }
            for place, masquerade in enumerate(game.masquerades, start=1)
        ],
        "junction": None
        if junction is None
        else {
            "key": junction.key,
            "cost": str(junction.fields.get("cost")),
            "payout": str(junction.fields.get("payout")),
        },
        "scenarios_left": len(game.scenario_pile),
        "supply": {key: len(pile) for key, pile in game.supply.items()},
        # What a gain would bring: each pile's top card with its skill, cost and AT (as a hand card's).
        "supply_cards": {key: _hand_card(game, pile[-1]) for key, pile in game.supply.items() if pile},
    }


SKILL_ORDER = "PTSB●"  # the seed's order: 「技能有力量P、技術T、精神S、酒B、萬能五種」


def pool_text(pool: Mapping[str, int]) -> str:
    """A skill pool written out in the seed's order, e.g. ``PPT●``."""
    return "".join(symbol * pool.get(symbol, 0) for symbol in SKILL_ORDER)


def _hand_card(game: Game, card: SimCard) -> dict[str, object]:
    """A hand card as it would come into play: the skill its text or its values give, its cost and AT (None:
    unknown, never guessed)."""
    script = SCRIPTS.get(card.key)
    skill = script.skill if script is not None and script.skill is not None else card.fields.get("skill")
    if card is game.setup.thorn:
        skill = ""
    cost = card.fields.get("cost")
    return {
        "key": card.key,
        "skill": None if skill is None else str(skill),
        "cost": None if cost is None else str(cost),
        "at": card.fields.get("at"),
    }
