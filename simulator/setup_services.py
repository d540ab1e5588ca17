"""The whole game's verdict on a choice of piles. A set-up is no longer saved on its own: a table's choice of
piles is a deck (``simulator.setup_decks``), built in the deck builder; its verdict here names every missing card
and value (with where to fill it) and every pile choice that does not add up."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cards.models import Game

from . import fullgame_selectors
from .fullgames import FullGame


@dataclass
class SetupVerdict:
    """What a set-up's choices make: ``setup`` (None when refused), the missing values and the problems."""

    setup: Any
    missing: list[Any] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    @property
    def ready(self) -> bool:
        return self.setup is not None


def verdict(game: Game, fullgame: FullGame, choices: list[str], language: str) -> SetupVerdict:
    setup, missing, problems = fullgame_selectors.setup_or_refusal(game, fullgame, language, choices)
    return SetupVerdict(setup, missing, problems)
