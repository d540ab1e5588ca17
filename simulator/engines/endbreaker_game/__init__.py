"""エンドブレイカー！SCG, the whole game (seed 000): a plain-Python rules core, beside the starting-hand engine
(``simulator.engines.endbreaker``) that the pages use today. No Django here.

``compare`` (imported as ``simulator.engines.endbreaker_game.compare``) pits strategies against each other over
many games with common random numbers, Wilson intervals and a corrected sequential stop.
"""

from . import native

# Before anything imports the compiled modules: an old build never shadows an edited source.
native.use_fresh_build_only(__name__)

from .declarations import EVENT_KINDS, LOGGED_KINDS
from .effects import MASQUERADE_SCRIPTS, SCRIPTS, CardScript, MasqueradeScript
from .game import Game, InPlay, LogEntry, Masquerade, Player, place_rewards, play_game
from .rules import ASSUMPTIONS, Rules
from .setup import MissingCardValues, MissingValue, Setup, SetupError, missing_values
from .shipped import STRATEGIES
from .strategy import BIG_DARC, DEFAULT_STRATEGY, Condition, GainRule, Strategy
from .strategy_text import StrategyProblem, StrategyTextError, format_strategy, parse_strategy

__all__ = [
    "ASSUMPTIONS",
    "BIG_DARC",
    "DEFAULT_STRATEGY",
    "EVENT_KINDS",
    "LOGGED_KINDS",
    "MASQUERADE_SCRIPTS",
    "SCRIPTS",
    "STRATEGIES",
    "CardScript",
    "Condition",
    "GainRule",
    "Game",
    "InPlay",
    "LogEntry",
    "Masquerade",
    "MasqueradeScript",
    "MissingCardValues",
    "MissingValue",
    "Player",
    "Rules",
    "Setup",
    "SetupError",
    "Strategy",
    "StrategyProblem",
    "StrategyTextError",
    "format_strategy",
    "missing_values",
    "parse_strategy",
    "place_rewards",
    "play_game",
]
