"""エンドブレイカー！SCG, the whole game (seed 000): a plain-Python rules core, beside the starting-hand engine
(``simulator.engines.endbreaker``) that the pages use today. No Django here.

``compare`` (imported as ``simulator.engines.endbreaker_game.compare``) pits strategies against each other over
many games with common random numbers, Wilson intervals and a corrected sequential stop.
"""

from .declarations import EVENT_KINDS, LOGGED_KINDS
from .effects import MASQUERADE_SCRIPTS, SCRIPTS, CardScript, MasqueradeScript
from .game import Game, InPlay, LogEntry, Masquerade, Player, place_rewards, play_game
from .rules import ASSUMPTIONS, Rules
from .setup import MissingCardValues, MissingValue, Setup, SetupError, missing_values
from .strategy import BIG_DARC, DEFAULT_STRATEGY, STRATEGIES, GainRule, Strategy

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
    "missing_values",
    "place_rewards",
    "play_game",
]
