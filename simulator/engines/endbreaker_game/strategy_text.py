"""A strategy written as text: what a player types in the strategy editor, read into a
``Strategy`` with every problem named by its line, and a ``Strategy`` written back as the same text. Plain Python.

The syntax, one statement a line (``#`` starts a comment; blank lines are ignored; keywords in English)::

    # a skill engine: two 切り裂き early, then the most expensive card, scenarios when behind
    gain EB1-017 if turn <= 4 and owned < 2
    gain * if skills >= 4
    gain EB1-018 if darc_lead < 0
    resolve if nothing to gain
    play EB1-017, EB1-021
    answer EB1-012 yes
    thorn fewest

``gain CARD [if CONDITION and CONDITION …]``
    One rule of the gain priority, in order: the first rule whose card the turn's skills pay for (and whose
    conditions hold) is gained. ``CARD`` is a card key (``EB1-017``), a card's name in any language the site
    knows (the caller passes the spellings), or ``*`` (also ``any``): the most expensive card the skills pay for.
    A condition is ``SUBJECT OPERATOR NUMBER`` with an operator of ``< <= = >= >``; the subjects are ``turn``
    (the player's own turn, 1 first), ``owned`` (copies of this card the player owns; ``<`` and ``<=`` only),
    ``deck`` (cards the player owns), ``skills`` (skill symbols on the field this turn), ``darc`` (the player's
    ダルク in units of 1000) and ``darc_lead`` (the player's ダルク minus the most another player has).
``resolve always | never | if nothing to gain``
    When to resolve the scenario pair rather than gain (default ``always``).
``play CARD, CARD, …``
    Cards played first, in this order; the others follow as drawn.
``answer QUESTION yes | no``
    The answer to a card's 「してもよい」 (``declarations.QUESTIONS``: the card key, ``:part`` where a card asks
    twice); unanswered questions take the printed default.
``thorn most | fewest``
    Which masquerade takes the thorn after a scenario: the one with the most thorns (default) or the fewest.

Problems are ``StrategyProblem``s (a line, a code of ``MESSAGES`` and its parameters); the pages and the API
put them in the reader's language. Every problem of the text is reported at once, not only the first.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from cardsite.labels import N_

from .declarations import QUESTIONS
from .strategy import ANY_CARD, SUBJECTS, Condition, GainRule, Strategy

MAX_LINES = 200  # a strategy is read on every save and every comparison: a bound, not a limit a player meets
MAX_LINE_LENGTH = 300

MESSAGES: dict[str, str] = {
    "unknown_statement": N_("“%(word)s” is not a statement; use gain, resolve, play, answer or thorn."),
    "unknown_card": N_("“%(card)s” is not a card of this game."),
    "not_gainable": N_("“%(card)s” cannot be gained: it is not a job or an ability."),
    "bad_condition": N_("“%(condition)s” is not a condition; write for example “turn <= 4” or “darc_lead < 0”."),
    "unknown_subject": N_("“%(subject)s” is not something a condition can look at; use %(subjects)s."),
    "owned_operator": N_("“owned” takes < or <= only (at most so many copies)."),
    "empty_turns": N_("No turn satisfies these conditions on the turn."),
    "resolve_value": N_("“%(value)s”: write resolve always, resolve never or resolve if nothing to gain."),
    "unknown_question": N_("“%(question)s” is not a choice any card asks; the choices are listed beside the editor."),
    "answer_value": N_("“%(value)s”: an answer is yes or no."),
    "thorn_value": N_("“%(value)s”: write thorn most or thorn fewest."),
    "said_twice": N_("“%(word)s” is already given on line %(line)s."),
    "missing_value": N_("“%(word)s” needs a value after it."),
    "no_gain_rule": N_("A strategy needs at least one gain line."),
    "too_many_lines": N_("A strategy has at most %(limit)s lines."),
    "line_too_long": N_("A line has at most %(limit)s characters."),
}


@dataclass(frozen=True)
class StrategyProblem:
    line: int  # 1-based; 0 for the text as a whole
    code: str
    params: Mapping[str, Any] = field(default_factory=dict)

    @property
    def english(self) -> str:
        return f"line {self.line}: " + MESSAGES[self.code] % dict(self.params)


class StrategyTextError(ValueError):
    def __init__(self, problems: list[StrategyProblem]) -> None:
        self.problems = problems
        super().__init__("; ".join(problem.english for problem in problems))


_CONDITION = re.compile(r"^([a-z_]+)\s*(<=|>=|<|>|=)\s*(-?\d{1,4})$")
_RESOLVE = {"always": "always", "never": "never", "if nothing to gain": "if_nothing_to_gain"}
_THORN = {"most": "most_thorns", "fewest": "fewest_thorns"}
_ANSWER = {"yes": True, "no": False}
_QUESTIONS_FOLDED = {question.casefold(): question for question in QUESTIONS}


def parse_strategy(
    text: str,
    *,
    name: str,
    cards: Mapping[str, str] | None = None,
    gainable: frozenset[str] | None = None,
) -> Strategy:
    """The ``Strategy`` ``text`` describes, or ``StrategyTextError`` with every problem by line.

    ``cards``: every accepted spelling of a card (its key, its names, folded as the caller folds them, see
    ``fold``) to its key; None accepts any word as a key. ``gainable``: the keys a gain line may name (the
    game's jobs and abilities); None accepts every known card."""
    problems: list[StrategyProblem] = []
    lines = text.splitlines()
    if len(lines) > MAX_LINES:
        raise StrategyTextError([StrategyProblem(0, "too_many_lines", {"limit": MAX_LINES})])
    rules: list[GainRule] = []
    settings: dict[str, Any] = {}
    said_on: dict[str, int] = {}
    answers: dict[str, bool] = {}

    def card_key(number: int, word: str) -> str | None:
        if cards is None:
            return word
        key = cards.get(fold(word))
        if key is None:
            problems.append(StrategyProblem(number, "unknown_card", {"card": word}))
        return key

    def once(number: int, word: str) -> bool:
        if word in said_on:
            problems.append(StrategyProblem(number, "said_twice", {"word": word, "line": said_on[word]}))
            return False
        said_on[word] = number
        return True

    for number, raw in enumerate(lines, start=1):
        if len(raw) > MAX_LINE_LENGTH:
            problems.append(StrategyProblem(number, "line_too_long", {"limit": MAX_LINE_LENGTH}))
            continue
        line = " ".join(raw.split("#", 1)[0].split())
        if not line:
            continue
        word, _, rest = line.partition(" ")
        word = word.lower()
        if word not in ("gain", "resolve", "play", "answer", "thorn"):
            problems.append(StrategyProblem(number, "unknown_statement", {"word": word}))
            continue
        if not rest:
            problems.append(StrategyProblem(number, "missing_value", {"word": word}))
            continue
        if word == "gain":
            rule = _gain_rule(number, rest, card_key, gainable, problems)
            if rule is not None:
                rules.append(rule)
        elif word == "resolve":
            if rest.lower() not in _RESOLVE:
                problems.append(StrategyProblem(number, "resolve_value", {"value": rest}))
            elif once(number, word):
                settings["resolve"] = _RESOLVE[rest.lower()]
        elif word == "thorn":
            if rest.lower() not in _THORN:
                problems.append(StrategyProblem(number, "thorn_value", {"value": rest}))
            elif once(number, word):
                settings["thorn_target"] = _THORN[rest.lower()]
        elif word == "play":
            keys = [card_key(number, part.strip()) for part in rest.split(",") if part.strip()]
            if once(number, word):
                settings["play_order"] = tuple(key for key in keys if key is not None)
        else:
            written, _, value = rest.rpartition(" ")
            question = _QUESTIONS_FOLDED.get(written.strip().casefold(), "")
            if not written:
                problems.append(StrategyProblem(number, "missing_value", {"word": f"answer {rest}"}))
            elif not question:
                problems.append(StrategyProblem(number, "unknown_question", {"question": written}))
            elif value.lower() not in _ANSWER:
                problems.append(StrategyProblem(number, "answer_value", {"value": value or rest}))
            elif once(number, f"answer {question}"):
                answers[question] = _ANSWER[value.lower()]
    if not rules and not problems:
        problems.append(StrategyProblem(0, "no_gain_rule"))
    if problems:
        raise StrategyTextError(problems)
    return Strategy(name=name, gain_priority=tuple(rules), answers=answers, **settings)


def _gain_rule(
    number: int,
    rest: str,
    card_key: Any,
    gainable: frozenset[str] | None,
    problems: list[StrategyProblem],
) -> GainRule | None:
    card_part, condition_part = _split_if(rest)
    found = len(problems)
    if card_part.lower() in ("*", "any"):
        key: str | None = ANY_CARD
    else:
        key = card_key(number, card_part)
        if key is not None and gainable is not None and key not in gainable:
            problems.append(StrategyProblem(number, "not_gainable", {"card": card_part}))
    min_turn, max_turn, max_owned = 0, None, None
    conditions: list[Condition] = []
    for text in (part.strip() for part in re.split(r"\s+and\s+", condition_part) if part.strip()):
        match = _CONDITION.match("".join(text.split()).lower())
        if match is None:
            problems.append(StrategyProblem(number, "bad_condition", {"condition": text}))
            continue
        subject, operator, value = match.group(1), match.group(2), int(match.group(3))
        if subject == "turn":
            low, high = _bounds(operator, value)
            min_turn = max(min_turn, low if low is not None else 0)
            if high is not None:
                max_turn = high if max_turn is None else min(max_turn, high)
        elif subject == "owned":
            if operator not in ("<", "<="):
                problems.append(StrategyProblem(number, "owned_operator"))
                continue
            limit = value if operator == "<" else value + 1
            max_owned = limit if max_owned is None else min(max_owned, limit)
        elif subject in SUBJECTS:
            conditions.append(Condition(subject, operator, value))  # type: ignore[arg-type]
        else:
            problems.append(
                StrategyProblem(
                    number, "unknown_subject", {"subject": subject, "subjects": ("turn", "owned", *SUBJECTS)}
                )
            )
    if max_turn is not None and max_turn < max(min_turn, 1):
        problems.append(StrategyProblem(number, "empty_turns"))
    if len(problems) > found or key is None:
        return None
    return GainRule(key, min_turn=min_turn, max_turn=max_turn, max_owned=max_owned, conditions=tuple(conditions))


def _split_if(rest: str) -> tuple[str, str]:
    parts = re.split(r"\s+if\s+", rest, maxsplit=1)
    return (parts[0].strip(), parts[1] if len(parts) > 1 else "")


def _bounds(operator: str, value: int) -> tuple[int | None, int | None]:
    """The turns ``turn OPERATOR value`` allows, as (lowest, highest)."""
    return {
        "<": (None, value - 1),
        "<=": (None, value),
        "=": (value, value),
        ">=": (value, None),
        ">": (value + 1, None),
    }[operator]


def fold(word: str) -> str:
    """How card spellings are compared: case and surrounding spaces ignored (the caller may fold more)."""
    return word.strip().casefold()


def format_strategy(strategy: Strategy, names: Mapping[str, str] | None = None) -> str:
    """``strategy`` as text that ``parse_strategy`` reads back into an equal strategy (cards by key; ``names``:
    a card name written as a comment after a gain line)."""
    lines: list[str] = []
    for rule in strategy.gain_priority:
        guards = []
        if rule.min_turn > 0:
            guards.append(f"turn >= {rule.min_turn}")
        if rule.max_turn is not None:
            guards.append(f"turn <= {rule.max_turn}")
        if rule.max_owned is not None:
            guards.append(f"owned < {rule.max_owned}")
        guards += [f"{c.subject} {c.operator} {c.value}" for c in rule.conditions]
        line = f"gain {rule.card}" + (" if " + " and ".join(guards) if guards else "")
        if names and rule.card in names:
            line += f"  # {names[rule.card]}"
        lines.append(line)
    lines.append("resolve " + {v: k for k, v in _RESOLVE.items()}[strategy.resolve])
    if strategy.play_order:
        lines.append("play " + ", ".join(strategy.play_order))
    lines += [f"answer {question} {'yes' if value else 'no'}" for question, value in sorted(strategy.answers.items())]
    lines.append("thorn " + {v: k for k, v in _THORN.items()}[strategy.thorn_target])
    return "\n".join(lines) + "\n"
