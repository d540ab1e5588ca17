"""What the goldfish pages, the API and the command accept: limits, parameters and policies, checked alike.

A game's stated parameters (``Parameter``: slug, default, minimum, maximum, source) are given as
query or form values named by their slug (``?opponent_health=25``); an absent or empty value takes
the default, a value outside ``[minimum, maximum]`` or not a whole number is an error naming the
parameter and its range.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.translation import get_language
from django.utils.translation import gettext as _

from cardsite.labels import pick

from .core import Engine, Parameter, default_parameters
from .sample import HandSpec

PAGE_MAX_GAMES = 20_000  # the Monte Carlo page's cap (the API allows more; the command has none)
API_MAX_GAMES = 200_000
DEFAULT_GAMES = 10_000
DEFAULT_TURNS = 10
MAX_TURNS = 50  # turns of a Monte Carlo run or of a sample hand's replay
ODDS_TURNS = 10  # the odds tables cover turns 1..10
MAX_EXTRA_DRAWS = 100
MAX_SEED = 2**63 - 1


def new_seed() -> int:
    return secrets.randbelow(1_000_000_000)


def language() -> str:
    return get_language() or "ja"


def parameter_label(parameter: Parameter, language_code: str | None = None) -> str:
    return pick(parameter.labels, language_code or language())


def range_error(name: str, minimum: int, maximum: int) -> str:
    return _("%(name)s must be a whole number from %(minimum)s to %(maximum)s.") % {
        "name": name,
        "minimum": minimum,
        "maximum": maximum,
    }


def choice_label(parameter: Parameter, value: int, language_code: str | None = None) -> str:
    """The name of one of a parameter's declared choices, or the number itself."""
    for choice in parameter.choices:
        if choice.value == value:
            return pick(choice.labels, language_code or language())
    return str(value)


def choice_error(parameter: Parameter) -> str:
    return _("%(name)s must be one of: %(choices)s.") % {
        "name": parameter_label(parameter),
        "choices": join_names(
            [f"{choice.value} ({choice_label(parameter, choice.value)})" for choice in parameter.choices]
        ),
    }


def parse_int(raw: Any, name: str, minimum: int, maximum: int) -> tuple[int | None, str | None]:
    """``raw`` as an int within [minimum, maximum]: (value, None), or (None, an error naming ``name``)."""
    if isinstance(raw, bool):
        return None, range_error(name, minimum, maximum)
    try:
        value = int(str(raw).strip())
    except (TypeError, ValueError):
        return None, range_error(name, minimum, maximum)
    if not minimum <= value <= maximum:
        return None, range_error(name, minimum, maximum)
    return value, None


def parse_params(engine: Engine[Any], data: Mapping[str, Any]) -> tuple[dict[str, int], dict[str, str]]:
    """Every stated parameter of ``engine``: the given value or the default; errors by slug (defaults kept)."""
    params = default_parameters(engine)
    errors: dict[str, str] = {}
    for parameter in engine.parameters:
        raw = data.get(parameter.slug)
        if raw is None or str(raw).strip() == "":
            continue
        value, error = parse_int(raw, parameter_label(parameter), parameter.minimum, parameter.maximum)
        if parameter.choices and (error is not None or value is None or not parameter.allows(value)):
            error = choice_error(parameter)
        if error:
            errors[parameter.slug] = error
        elif value is not None:
            params[parameter.slug] = value
    return params, errors


def parse_policy(engine: Engine[Any], raw: Any) -> tuple[str, str | None]:
    if raw is None or str(raw).strip() == "":
        return "default", None
    policy = str(raw).strip()
    if policy not in engine.policies:
        return "default", _("There is no policy “%(policy)s”; the choices are: %(choices)s.") % {
            "policy": policy,
            "choices": ", ".join(engine.policies),
        }
    return policy, None


@dataclass(frozen=True)
class HandQuery:
    """A sample hand asked for in a query string (the page's address, the API's parameters)."""

    spec: HandSpec
    seed_given: bool  # False: no seed, or an unreadable one (a new random seed was chosen)
    errors: dict[str, str]  # by parameter; the spec holds the defaults in their place


def parse_hand(engine: Engine[Any], data: Mapping[str, Any], *, turn_key: str = "turn") -> HandQuery:
    """Seed, turn, policy, the game's parameters and the extra draws of a sample hand: one reading for the
    page and the API. Every value that cannot be used is an error naming it, and its default is used."""
    errors: dict[str, str] = {}
    seed, seed_error = parse_int(data.get("seed", ""), "seed", 0, MAX_SEED)
    seed_given = seed_error is None
    turn = 0
    if str(data.get(turn_key, "")).strip():
        parsed, error = parse_int(data[turn_key], _("The turn"), 0, MAX_TURNS)
        if error:
            errors[turn_key] = error
        else:
            turn = parsed or 0
    policy, error = parse_policy(engine, data.get("policy"))
    if error:
        errors["policy"] = error
    params, param_errors = parse_params(engine, data)
    errors.update(param_errors)
    draws, error = parse_draws(str(data.get("draws", "")), turn)
    if error:
        errors["draws"] = error
    spec = HandSpec(seed if seed is not None else new_seed(), turn, policy, params, draws)
    return HandQuery(spec, seed_given, errors)


def parse_draws(raw: str, turn: int) -> tuple[tuple[int, ...], str | None]:
    """``draws=0,0,2``: after which turn each extra draw was made; each from 0 to the turn, in order."""
    if not raw.strip():
        return (), None
    try:
        draws = tuple(int(part) for part in raw.split(","))
    except ValueError:
        draws = ()
    else:
        in_range = all(0 <= value <= turn for value in draws)
        if len(draws) <= MAX_EXTRA_DRAWS and in_range and list(draws) == sorted(draws):
            return draws, None
    return (), _(
        "The extra draws (“%(draws)s”) could not be read: give at most %(most)s turns from 0 to %(turn)s, "
        "in order, separated by commas. They were left out."
    ) % {"draws": raw[:40], "most": MAX_EXTRA_DRAWS, "turn": turn}


def join_names(names: list[str]) -> str:
    """Names as a list in the interface language (、 in Japanese and Chinese, a comma in English)."""
    return (", " if language().startswith("en") else "、").join(names)


def has_first_player(engine: Engine[Any]) -> bool:
    return any(parameter.slug == "first_player" for parameter in engine.parameters)
