"""Odds tables (plain Python): exact hypergeometric odds per card and turn, and simulated ones beside them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from . import adapters, odds
from .core import Engine, SimDeck, cards_seen_by_turn
from .montecarlo import draw_odds


@dataclass
class OddsRow:
    card: adapters.DeckCard
    exact: list[Fraction]
    simulated: list[float] | None = None


@dataclass
class OddsTable:
    deck_size: int
    seen: list[int]  # cards seen by the end of each turn's draw
    rows: list[OddsRow]

    @property
    def turns(self) -> list[int]:
        return list(range(1, len(self.seen) + 1))


def exact_table(engine: Engine, deck: SimDeck, *, first_player: bool, turns: int) -> OddsTable:
    """P(at least one copy of each card of the main zone by each turn), exactly."""
    cards = adapters.main_zone_cards(deck)
    deck_size = len(deck.zone(adapters.main_zone(deck.game)))
    seen = cards_seen_by_turn(engine, turns, first_player)
    rows = [OddsRow(card, odds.at_least_one_by_turn(deck_size, card.copies, seen)) for card in cards]
    return OddsTable(deck_size, seen, rows)


def add_simulated(table: OddsTable, games: int, seed: int) -> None:
    """Fill in the simulated odds (``montecarlo.draw_odds``: ``games`` shuffles from ``seed``)."""
    if not table.rows or table.deck_size == 0:
        return
    simulated = draw_odds(
        {row.card.key: row.card.copies for row in table.rows}, table.deck_size, table.seen, games, seed
    )
    for row in table.rows:
        row.simulated = simulated[row.card.key]


def stored_odds(table: OddsTable, games: int, seed: int) -> dict[str, Any]:
    """The simulated odds of ``table``'s cards (``games`` shuffles from ``seed``) with what they were drawn for,
    as a run keeps them (``SimulationRun.odds``) to be shown by ``fill_simulated`` without shuffling again."""
    copies = {row.card.key: row.card.copies for row in table.rows}
    simulated = draw_odds(copies, table.deck_size, table.seen, games, seed) if copies and table.deck_size else {}
    return {"shuffles": games, "deck_size": table.deck_size, "seen": table.seen, "copies": copies, "odds": simulated}


def fill_simulated(table: OddsTable, stored: Mapping[str, Any]) -> None:
    """Fill in the simulated odds kept by ``stored_odds``, for the cards that are in the deck as they were then
    (a deck changed since keeps its new cards without simulated odds: they were not shuffled)."""
    if stored.get("deck_size") != table.deck_size or list(stored.get("seen") or []) != table.seen:
        return
    copies, simulated = stored.get("copies") or {}, stored.get("odds") or {}
    for row in table.rows:
        if copies.get(row.card.key) == row.card.copies and row.card.key in simulated:
            row.simulated = list(simulated[row.card.key])


def group_odds(deck_size: int, groups: Sequence[odds.Group], seen: int) -> Fraction:
    return odds.at_least(deck_size, [group for group in groups if group.copies or group.needed], seen)
