"""Synthetic エンドブレイカー！SCG cards and set-ups for the game core's tests."""

from __future__ import annotations

from simulator.core import SimCard
from simulator.engines.endbreaker_game import (
    BIG_DARC,
    Game,
    Rules,
    Setup,
)


def card(key, kind, **fields):
    return SimCard(key, f"テスト{key}", kind, fields)


# Synthetic values only (none of them comes from a source).
TAVERN = card("EB1-001", "city", skill="", at=0)


KNIGHT = card("EB9-902", "job", skill="P", at=1, cost="P", attribute="P")


HUNTER = card("EB9-903", "job", skill="T", at=1, cost="T", attribute="T")


ASTROMANCER = card("EB9-904", "job", skill="S", at=1, cost="S", attribute="S")


JOBS = (
    card("EB9-905", "job", cost="PP", skill="PP", at=2, attribute="P"),
    card("EB9-906", "job", cost="TT", skill="TT", at=2, attribute="T"),
    card("EB9-907", "job", cost="SS", skill="SS", at=2, attribute="S"),
)


ABILITIES = (
    card("EB1-008", "ability", cost="PT", skill="B", at=1, attribute="P"),
    card("EB1-017", "ability", cost="PPT", skill="", at=1, attribute="T"),
    card("EB1-018", "ability", cost="PPPT", skill="", at=2, attribute="S"),
    card("EB1-021", "ability", cost="TS", skill="T", attribute="T"),  # its AT is its text's
    *(card(f"EB9-91{n}", "ability", cost="P" * n + "S", skill="●", at=n, attribute="PTS"[n % 3]) for n in range(5)),
)


SCENARIOS = tuple(card(f"EB9-93{n}", "scenario", cost="PT", payout="2") for n in range(10))


MASQUERADES = tuple(card(f"EB9-95{n}", "masquerade", payout="6-4-2-0", damage=3) for n in range(8))


THORN = card("EB1-059", "thorn", at=1, skill="")


def make_setup(**changes):
    values = dict(
        tavern=TAVERN,
        knight=KNIGHT,
        hunter=HUNTER,
        astromancer=ASTROMANCER,
        jobs=JOBS,
        abilities=ABILITIES,
        scenarios=SCENARIOS,
        masquerades=MASQUERADES,
        thorn=THORN,
    )
    values.update(changes)
    return Setup(**values)


def new_game(players=2, seed=1, strategies=None, **rules):
    return Game(make_setup(), strategies or [BIG_DARC] * players, seed, Rules(**rules))
