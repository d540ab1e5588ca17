"""An evolutionary search over strategies for one set-up and number of players. Plain Python.

The genome
    A ``Strategy``: its gain priority (an ordered tuple of ``GainRule`` over the set-up's gainable cards, the 3 jobs
    and 9 abilities, and ``ANY_CARD``, each with ``min_turn`` / ``max_turn`` / ``max_owned`` guards), its
    ``resolve`` mode, its ``play_order`` (card keys of the set-up, played first in that order) and its
    ``thorn_target``. ``answers`` are kept as the starting strategy has them and are not searched.

The algorithm: a (1 + λ) evolution strategy with a significance test for replacement
    The champion starts as ``config.start`` (a shipped strategy's name from ``STRATEGIES``, or ``"random"``). Each
    generation makes ``config.offspring`` (λ) candidates. With ``config.proposal == "mutation"`` (the evolution)
    a candidate is the champion with 1 + k mutations (k geometric: another one with probability ``more_mutations``)
    drawn from: insert a random rule, remove a rule, swap two rules, change one guard of a rule (``min_turn``,
    ``max_turn`` or ``max_owned``: set, move by ±1..2, or clear), change the resolve mode, insert / remove / swap a
    card of the play order, change the thorn target. With probability ``crossover`` the child first takes the
    champion's gain priority up to a random point and the rest from a former champion (the history), so parts
    that once won come back. With probability ``immigrants`` a candidate is instead a random strategy drawn
    from scratch (``random_strategy``), so that the search can leave the champion's neighbourhood. With ``config.proposal == "random"`` (the baseline) each candidate is a random
    strategy drawn from scratch (``random_strategy``), and the rest is the same.

Fitness: head to head against the champion, common random numbers, in two stages
    A candidate plays at one table with ``players - 1`` copies of the champion, in whole blocks of ``players``
    games with rotated seats (``compare.Comparison``); its win rate is its score (a shared win counts as a share)
    over its games, and the fair share is ``1 / players``. Stage 1 (screening): every candidate plays
    ``config.games`` games on the generation's screening seed (the same seeds for all: common random numbers).
    The ``config.finalists`` best by win rate (ties: the first), among those above the fair share, go on to
    stage 2 (confirmation): ``config.confirm_games`` games on a second, fresh seed, so that the test below is not
    biased by the selection in stage 1. ``evaluate`` plays either stage for any list of candidates; each
    candidate's result is independent of the others, so a caller may split a stage's candidates across workers
    (``plan``, ``finalists_of``, ``evaluate`` and ``advance`` are the pieces ``step`` is made of).

The replacement rule (what "significant" means)
    A finalist is significant when the lower end of the Wilson score interval of its stage-2 win rate, at the
    two-sided level ``alpha / F`` (Bonferroni over the ``F = config.finalists`` tests a generation may make,
    ``z = Φ⁻¹(1 - alpha / (2 F))``: 2.24 for alpha 0.05 and F 2), lies above the fair share (head to head with 2
    players: above 0.5). Among the significant finalists the one with the highest lower end (ties: the first)
    becomes the champion; when none is significant the champion stays. So in a generation where no candidate is
    better than the champion, the chance that the champion changes anyway is at most ``alpha / 2``. Over many
    generations such chance changes add up (the test is not corrected over generations), but each one still
    needed a significant result on games of its own.

Reproducibility and chunks
    All randomness of generation ``g`` comes from ``random.Random(f"evolve:{seed}:{g}")`` (string seeds are
    hashed with SHA-512: the same in every process), and the games from the seeds it draws, so the whole run is
    a function of ``seed``, the set-up and the config. ``EvolutionState`` is JSON-serialisable (``to_dict`` /
    ``from_dict``); ``step(state, setup, generations)`` advances it, and 4 generations at once equal 2 + 2.

The result
    ``final_report`` gives the champion simplified (``simplify``: rules that can never fire are dropped), its
    gain priority as text (``describe``), and its win rate against each shipped strategy with the 95% Wilson
    interval, on seeds the search never played.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, replace
from statistics import NormalDist
from typing import Any, Literal

from .compare import SCORE_UNIT, Comparison, Entrant, play_blocks, wilson
from .rules import Rules
from .setup import Setup, SetupError
from .shipped import STRATEGIES
from .strategy import ANY_CARD, GainRule, Strategy
from .strategy_text import format_strategy, parse_strategy

RESOLVE_MODES: tuple[Literal["always", "never", "if_nothing_to_gain"], ...] = ("always", "never", "if_nothing_to_gain")
THORN_TARGETS: tuple[Literal["most_thorns", "fewest_thorns"], ...] = ("most_thorns", "fewest_thorns")


@dataclass(frozen=True)
class EvolutionConfig:
    """The search's parameters (kept in the state, so that a resumed run goes on with the same ones).

    offspring: λ, candidates a generation. games: stage-1 games each candidate plays against the champion (per
    entrant, rounded up to whole blocks). finalists: F, candidates a generation that go on to stage 2.
    confirm_games: their stage-2 games. alpha: the level of the replacement test, Bonferroni-corrected over F.
    start: the first champion, a name in ``STRATEGIES`` or ``"random"``. proposal: ``"mutation"`` (the
    evolution) or ``"random"`` (random search, the baseline). more_mutations: the chance of each further mutation. crossover: the chance that a child first mixes the champion with a former one.
    max_rules: the longest gain priority. horizon: the last turn a guard names (a player's own turns).
    max_copies: the largest ``max_owned`` a guard names. immigrants: the chance that a candidate of the
    evolution is drawn from scratch instead."""

    offspring: int = 8
    games: int = 100
    finalists: int = 2
    confirm_games: int = 1000
    alpha: float = 0.05
    start: str = "big_darc"
    proposal: Literal["mutation", "random"] = "mutation"
    more_mutations: float = 0.5
    crossover: float = 0.1
    max_rules: int = 8
    horizon: int = 15
    max_copies: int = 4
    immigrants: float = 0.25

    def __post_init__(self) -> None:
        if min(self.finalists, self.confirm_games) < 1:
            raise SetupError("finalists, confirm_games: must be at least 1")
        if self.offspring < 1 or self.games < 1 or self.max_rules < 1 or self.horizon < 1 or self.max_copies < 1:
            raise SetupError("offspring, games, max_rules, horizon, max_copies: must be at least 1")
        if not 0 < self.alpha < 1:
            raise SetupError("alpha: must be between 0 and 1")
        if self.start != "random" and self.start not in STRATEGIES:
            raise SetupError(f"start: {self.start!r} is not a shipped strategy nor 'random'")


def strategy_to_dict(strategy: Strategy) -> dict[str, Any]:
    """The strategy as JSON-ready data: its name and its text in the strategy syntax (``strategy_text``), which
    keeps every field, conditions and answers included."""
    return {"name": strategy.name, "text": format_strategy(strategy)}


def strategy_from_dict(data: dict[str, Any]) -> Strategy:
    return parse_strategy(data["text"], name=data["name"])


@dataclass
class EvolutionState:
    """A search under way: everything ``step`` needs besides the set-up (JSON via ``to_dict`` / ``from_dict``).

    history: the champions so far, oldest first, each ``{"generation", "strategy", "win_rate", "low", "high",
    "games"}`` (the figures of the evaluation that made it champion; None for the starting one)."""

    seed: int
    players: int
    config: EvolutionConfig
    champion: Strategy
    generation: int = 0
    evaluations: int = 0  # candidates evaluated
    games: int = 0  # games played (each game counted once, whatever the number of seats)
    history: list[dict[str, Any]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "seed": self.seed,
            "players": self.players,
            "config": asdict(self.config),
            "champion": strategy_to_dict(self.champion),
            "generation": self.generation,
            "evaluations": self.evaluations,
            "games": self.games,
            "history": [dict(entry) for entry in self.history],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> EvolutionState:
        return cls(
            seed=data["seed"],
            players=data["players"],
            config=EvolutionConfig(**data["config"]),
            champion=strategy_from_dict(data["champion"]),
            generation=data["generation"],
            evaluations=data["evaluations"],
            games=data["games"],
            history=[dict(entry) for entry in data["history"]],
        )


def gain_cards(setup: Setup) -> tuple[str, ...]:
    """What a gain rule may name: the set-up's job and ability piles, and ``ANY_CARD``."""
    return (*(card.key for card in (*setup.jobs, *setup.abilities)), ANY_CARD)


def play_cards(setup: Setup) -> tuple[str, ...]:
    """What a play order may name: every card a player can own."""
    starting = (setup.tavern, setup.knight, setup.hunter, setup.astromancer)
    return tuple(dict.fromkeys(card.key for card in (*starting, *setup.jobs, *setup.abilities)))


def start_state(seed: int, setup: Setup, players: int = 2, config: EvolutionConfig | None = None) -> EvolutionState:
    """A new search: generation 0, the starting champion."""
    config = config or EvolutionConfig()
    if not 2 <= players <= 4:
        raise SetupError("players: 2 to 4 play head to head")
    if config.start == "random":
        champion = random_strategy(random.Random(f"evolve:{seed}:start"), setup, config, name=f"evolve-{seed}-start")
    else:
        champion = STRATEGIES[config.start]
    state = EvolutionState(seed=seed, players=players, config=config, champion=champion)
    state.history.append(
        {"generation": 0, "strategy": strategy_to_dict(champion), "win_rate": None, "low": None, "high": None}
    )
    return state


# Proposals ------------------------------------------------------------------------------------------------------


def random_rule(rng: random.Random, cards: Sequence[str], config: EvolutionConfig) -> GainRule:
    card = rng.choice(cards)
    min_turn = rng.randint(0, config.horizon) if rng.random() < 0.3 else 0
    max_turn = rng.randint(max(min_turn, 1), config.horizon) if rng.random() < 0.3 else None
    max_owned = rng.randint(1, config.max_copies) if rng.random() < 0.4 else None
    return GainRule(card=card, min_turn=min_turn, max_turn=max_turn, max_owned=max_owned)


def random_strategy(rng: random.Random, setup: Setup, config: EvolutionConfig, name: str) -> Strategy:
    """A strategy drawn from scratch: 1 to ``max_rules`` random rules, a random resolve mode, play order and
    thorn target (the random-search baseline's proposal)."""
    cards, playable = gain_cards(setup), play_cards(setup)
    rules = tuple(random_rule(rng, cards, config) for _ in range(rng.randint(1, config.max_rules)))
    return Strategy(
        name=name,
        gain_priority=rules,
        resolve=rng.choice(RESOLVE_MODES),
        play_order=tuple(rng.sample(playable, rng.randint(0, 3))),
        thorn_target=rng.choice(THORN_TARGETS),
    )


def _nudge(rng: random.Random, value: int | None, low: int, high: int) -> int | None:
    """A guard's new value: cleared, set anew, or moved by 1 or 2 (within ``low..high``)."""
    roll = rng.random()
    if roll < 0.25:
        return None
    if value is None or roll < 0.5:
        return rng.randint(low, high)
    return min(high, max(low, value + rng.choice((-2, -1, 1, 2))))


def _change_guard(rng: random.Random, rule: GainRule, config: EvolutionConfig) -> GainRule:
    which = rng.randrange(3)
    if which == 0:
        changed = replace(rule, min_turn=_nudge(rng, rule.min_turn, 0, config.horizon) or 0)
    elif which == 1:
        changed = replace(rule, max_turn=_nudge(rng, rule.max_turn, 1, config.horizon))
    else:
        changed = replace(rule, max_owned=_nudge(rng, rule.max_owned, 1, config.max_copies))
    if changed.max_turn is not None and changed.max_turn < max(changed.min_turn, 1):
        # No turn left: the rule could never fire (the strategy text refuses such a rule); the turns swap.
        changed = replace(changed, min_turn=changed.max_turn, max_turn=max(changed.min_turn, 1))
    return changed


def mutate(strategy: Strategy, rng: random.Random, setup: Setup, config: EvolutionConfig) -> Strategy:
    """One mutation of ``strategy`` (see the module docstring); the name is kept."""
    cards, playable = gain_cards(setup), play_cards(setup)
    rules, order = list(strategy.gain_priority), list(strategy.play_order)
    kind = rng.choice(("insert", "remove", "swap", "guard", "guard", "resolve", "play", "thorn"))
    if (kind == "insert" and len(rules) < config.max_rules) or not rules:
        rules.insert(rng.randint(0, len(rules)), random_rule(rng, cards, config))
    elif kind == "remove" and len(rules) > 1:
        del rules[rng.randrange(len(rules))]
    elif kind == "swap" and len(rules) > 1:
        i, j = rng.sample(range(len(rules)), 2)
        rules[i], rules[j] = rules[j], rules[i]
    elif kind in ("guard", "insert", "remove", "swap"):
        index = rng.randrange(len(rules))
        rules[index] = _change_guard(rng, rules[index], config)
    elif kind == "resolve":
        return replace(strategy, resolve=rng.choice([m for m in RESOLVE_MODES if m != strategy.resolve]))
    elif kind == "thorn":
        return replace(strategy, thorn_target=rng.choice([t for t in THORN_TARGETS if t != strategy.thorn_target]))
    else:  # the play order: insert a card not in it, remove one, or swap two
        missing = [key for key in playable if key not in order]
        roll = rng.random()
        if missing and (roll < 0.4 or not order):
            order.insert(rng.randint(0, len(order)), rng.choice(missing))
        elif roll < 0.7 or len(order) < 2:
            del order[rng.randrange(len(order))]
        else:
            i, j = rng.sample(range(len(order)), 2)
            order[i], order[j] = order[j], order[i]
    return replace(strategy, gain_priority=tuple(rules), play_order=tuple(order))


def propose(state: EvolutionState, setup: Setup, rng: random.Random) -> list[Strategy]:
    """The generation's λ candidates, each playing differently from the champion and from the others (as far as
    ``simplify`` tells; 100 tries each)."""
    config, champion = state.config, state.champion
    former = [strategy_from_dict(entry["strategy"]) for entry in state.history[:-1]]
    candidates: list[Strategy] = []
    seen = {_behaviour(champion, setup)}
    for index in range(config.offspring):
        name = f"evolve-{state.seed}-g{state.generation + 1}-{index}"
        for _ in range(100):
            if config.proposal == "random" or rng.random() < config.immigrants:
                child = random_strategy(rng, setup, config, name)
            else:
                child = champion
                if former and rng.random() < config.crossover:
                    other = rng.choice(former).gain_priority
                    cut = rng.randint(0, len(child.gain_priority))
                    mixed = (*child.gain_priority[:cut], *other[min(cut, len(other)) :])[: config.max_rules]
                    child = replace(child, gain_priority=mixed or child.gain_priority)
                child = mutate(child, rng, setup, config)
                while rng.random() < config.more_mutations:
                    child = mutate(child, rng, setup, config)
                child = replace(child, name=name)
            if _behaviour(child, setup) not in seen:
                break
        seen.add(_behaviour(child, setup))
        candidates.append(child)
    return candidates


def _behaviour(strategy: Strategy, setup: Setup) -> tuple[Any, ...]:
    """What tells two strategies' play apart (after ``simplify``: rules that never fire do not count)."""
    strategy = simplify(strategy, setup)
    return (strategy.gain_priority, strategy.resolve, strategy.play_order, strategy.thorn_target)


# Fitness ----------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Evaluation:
    """A candidate's games at a table with ``players - 1`` copies of its opponent: games, and score in twelfths
    of a win (``compare.SCORE_UNIT``)."""

    games: int
    score: int
    table_games: int  # games played (each game once)

    @property
    def win_rate(self) -> float:
        return self.score / SCORE_UNIT / self.games if self.games else 0.0

    def interval(self, z: float = NormalDist().inv_cdf(0.975)) -> tuple[float, float]:
        return wilson(self.score / SCORE_UNIT, self.games, z)


def head_to_head(
    candidate: Strategy,
    opponent: Strategy,
    setup: Setup,
    *,
    players: int,
    seed: int,
    games: int,
    rules: Rules | None = None,
) -> Evaluation:
    """``candidate`` against ``players - 1`` copies of ``opponent``, ``games`` games (whole blocks, rotated seats)."""
    entrants = (
        Entrant(label="candidate", strategy=candidate),
        *(Entrant(label=f"opponent#{n}", strategy=opponent) for n in range(1, players)),
    )
    comparison = Comparison(entrants=entrants, setup=setup, seed=seed, games=games, rules=rules, sequential=False)
    result = play_blocks(comparison, 0, comparison.max_blocks)
    tally = result.tallies[0]
    return Evaluation(games=tally.games, score=tally.score, table_games=sum(result.lengths.values()))


def evaluate(
    candidates: Sequence[Strategy],
    champion: Strategy,
    setup: Setup,
    *,
    players: int,
    seed: int,
    games: int,
    rules: Rules | None = None,
) -> list[Evaluation]:
    """Each candidate against the champion on the same seeds; independent, so the list may be split."""
    return [
        head_to_head(candidate, champion, setup, players=players, seed=seed, games=games, rules=rules)
        for candidate in candidates
    ]


def replacement_z(config: EvolutionConfig) -> float:
    """The replacement test's z: two-sided level ``alpha / finalists``."""
    return NormalDist().inv_cdf(1 - config.alpha / (2 * config.finalists))


def finalists_of(screening: Sequence[Evaluation], *, players: int, finalists: int) -> list[int]:
    """Stage 1 -> stage 2: the indices of the ``finalists`` best win rates above the fair share (ties: the first)."""
    above = [index for index, evaluation in enumerate(screening) if evaluation.win_rate > 1 / players]
    return sorted(sorted(above, key=lambda index: -screening[index].score)[:finalists])


def select(evaluations: Sequence[Evaluation], *, players: int, z: float) -> int | None:
    """The finalist that replaces the champion (its index), or None: the replacement rule of the docstring."""
    best, best_low = None, 1 / players
    for index, evaluation in enumerate(evaluations):
        low = evaluation.interval(z)[0]
        if low > best_low:
            best, best_low = index, low
    return best


# Generations ------------------------------------------------------------------------------------------------------


def plan(state: EvolutionState, setup: Setup) -> tuple[list[Strategy], int, int]:
    """The next generation's candidates, its screening seed and its confirmation seed."""
    rng = random.Random(f"evolve:{state.seed}:{state.generation + 1}")
    seed, confirm_seed = rng.randrange(2**31), rng.randrange(2**31)
    return propose(state, setup, rng), seed, confirm_seed


def advance(
    state: EvolutionState,
    candidates: Sequence[Strategy],
    screening: Sequence[Evaluation],
    finalists: Sequence[int],
    confirmation: Sequence[Evaluation],
) -> EvolutionState:
    """The state after one generation: its candidates, their stage-1 results, the finalists (indices into the
    candidates) and their stage-2 results (from ``evaluate``, here or by workers). The state given is unchanged."""
    z = replacement_z(state.config)
    winner = select(confirmation, players=state.players, z=z)
    new = replace(state, history=list(state.history))
    new.generation += 1
    new.evaluations += len(screening) + len(confirmation)
    new.games += sum(evaluation.table_games for evaluation in (*screening, *confirmation))
    if winner is not None:
        evaluation = confirmation[winner]
        low, high = evaluation.interval(z)
        new.champion = candidates[finalists[winner]]
        new.history.append(
            {
                "generation": new.generation,
                "strategy": strategy_to_dict(new.champion),
                "win_rate": evaluation.win_rate,
                "low": low,
                "high": high,
                "games": evaluation.games,
            }
        )
    return new


def step(state: EvolutionState, setup: Setup, generations: int = 1, rules: Rules | None = None) -> EvolutionState:
    """Advances ``generations`` generations (a chunk a task worker can run); the state given is not changed."""
    config, players = state.config, state.players
    for _ in range(generations):
        candidates, seed, confirm_seed = plan(state, setup)
        screening = evaluate(
            candidates, state.champion, setup, players=players, seed=seed, games=config.games, rules=rules
        )
        finalists = finalists_of(screening, players=players, finalists=config.finalists)
        confirmation = evaluate(
            [candidates[index] for index in finalists],
            state.champion,
            setup,
            players=players,
            seed=confirm_seed,
            games=config.confirm_games,
            rules=rules,
        )
        state = advance(state, candidates, screening, finalists, confirmation)
    return state


# The result -------------------------------------------------------------------------------------------------------


def _covers(earlier: GainRule, later: GainRule) -> bool:
    """Whenever ``later`` would gain a card, ``earlier`` (above it) already gains one: ``later`` never fires."""
    inf = float("inf")
    return (
        earlier.card in (later.card, ANY_CARD)
        and earlier.min_turn <= later.min_turn
        and (inf if earlier.max_turn is None else earlier.max_turn)
        >= (inf if later.max_turn is None else later.max_turn)
        and (inf if earlier.max_owned is None else earlier.max_owned)
        >= (inf if later.max_owned is None else later.max_owned)
    )


def simplify(strategy: Strategy, setup: Setup) -> Strategy:
    """The same strategy without the gain rules that can never fire: a card not in the set-up, ``max_owned`` 0,
    ``min_turn`` after ``max_turn``, or a rule covered by one above it (same card or ``ANY_CARD``, guards at least
    as loose); and without play-order cards listed twice. Play is unchanged."""
    known = set(gain_cards(setup))
    kept: list[GainRule] = []
    for rule in strategy.gain_priority:
        if rule.card not in known or rule.max_owned == 0:
            continue
        if rule.max_turn is not None and rule.min_turn > rule.max_turn:
            continue
        if any(_covers(earlier, rule) for earlier in kept):
            continue
        kept.append(rule)
    # A play order naming a card no player can own in this set-up (a shipped order, kept by the search) is dead.
    playable = set(play_cards(setup))
    order = tuple(key for key in dict.fromkeys(strategy.play_order) if key in playable)
    return replace(strategy, gain_priority=tuple(kept), play_order=order)


def describe(strategy: Strategy, setup: Setup) -> str:
    """The strategy as text in the strategy syntax, each named card's name as a comment: what a player reads,
    saves as a written strategy, edits and compares."""
    cards = (*setup.jobs, *setup.abilities, setup.tavern, setup.knight, setup.hunter, setup.astromancer)
    return format_strategy(strategy, names={card.key: card.name for card in cards})


@dataclass(frozen=True)
class Report:
    """The searched strategy (simplified), its text, and per shipped strategy its win rate and 95% interval."""

    strategy: Strategy
    text: str
    against: dict[str, tuple[float, float, float, int]]  # name -> (win rate, low, high, games)

    def beats_all(self, players: int = 2) -> bool:
        return all(low > 1 / players for _, low, _, _ in self.against.values())


def final_report(state: EvolutionState, setup: Setup, games: int, rules: Rules | None = None) -> Report:
    """The champion simplified, against each shipped strategy over ``games`` games on seeds the search never used."""
    strategy = simplify(state.champion, setup)
    seed = random.Random(f"report:{state.seed}:{state.generation}").randrange(2**31)
    against = {}
    for name, shipped in STRATEGIES.items():
        result = head_to_head(strategy, shipped, setup, players=state.players, seed=seed, games=games, rules=rules)
        low, high = result.interval()
        against[name] = (result.win_rate, low, high, result.games)
    return Report(strategy=strategy, text=describe(strategy, setup), against=against)
