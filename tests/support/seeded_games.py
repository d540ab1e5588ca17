"""Clearly synthetic decks for every goldfish engine and the digest of a game's log, so a seeded play-out's outcome
and log text can be pinned while its engine is made faster."""

from __future__ import annotations

import hashlib

from simulator.core import GameResult, SimCard, SimDeck
from simulator.presentation import event_views


def _card(key: str, kind: str, **fields: object) -> SimCard:
    return SimCard(f"seeded-{key}", f"合成{key}", kind, fields)


def seeded_decks() -> dict[str, SimDeck]:
    """One synthetic deck a game, using the values each engine reads (and a few it lacks, so notes are logged)."""
    shadowera = [_card(f"ally{i}", "ally", cost=i % 5 + 1, attack=i % 3 + 1) for i in range(9)]
    shadowera += [_card("ability", "ability", cost=2), _card("weapon", "weapon", cost=3, attack=2, durability=2)]
    epicbattles = [
        _card(f"attack{i}", "attack", cost=i % 3, damage=i % 4 + 1, position=("high", "low")[i % 2]) for i in range(10)
    ]
    epicbattles.append(_card("block", "block", cost=0, position="low"))
    suikoden_costs = ("0", "白1", "仁1", "義1白1", "藍1", None, "黄1", "勇殺1")
    suikoden = [
        _card(f"person{i}", "character", cost=suikoden_costs[i % 8], colour="仁義勇藍"[i % 4], attack=i % 6 + 1)
        for i in range(40)
    ]
    land = _card("land", "land", leader=2, commerce=5, hunting=7)
    return {
        "shadowera": SimDeck("shadowera", {"deck": tuple(card for card in shadowera for _ in range(4))}),
        "epicbattles": SimDeck("epicbattles", {"deck": tuple(card for card in epicbattles for _ in range(4))}),
        "suikoden": SimDeck("suikoden", {"characters": tuple(suikoden), "lands": (land,) * 4}),
        "endbreaker": SimDeck(
            "endbreaker",
            {"starting": (_card("tavern", "", skill="B"),) * 4 + (_card("knight", "job", skill="P"),) * 6},
        ),
    }


def log_text(engine, result: GameResult, language: str) -> list[str]:
    """The log as the sample hand's page words it."""
    return [
        f"{view.turn} {view.kind_label} {view.card} {view.amount} {view.text}"
        for view in event_views(engine, result.log, language)
    ]


def digest(lines: list[str]) -> str:
    return hashlib.sha256("\n".join(lines).encode()).hexdigest()[:16]
