"""A whole game's comparison as JSON, and back (plain Python, no Django): the set-up a run was started with (so
every chunk plays the same cards whatever the database says later), a chunk's ``compare.Result`` (whole numbers,
so chunks stored apart merge exactly), and the report the pages and the API show."""

from __future__ import annotations

import dataclasses
from collections import Counter
from typing import Any

from ..core import SimCard
from ..engines.endbreaker_game.compare import Comparison, GameRef, PairSums, Result, Tally, wilson

TALLY_FIELDS = ("games", "score", "wins", "draws", "stopped", "darc", "darc_squares", "turns")


def card_to_dict(card: SimCard) -> dict[str, Any]:
    return {"key": card.key, "name": card.name, "kind": card.kind, "fields": dict(card.fields)}


def setup_to_dict(setup: Any) -> dict[str, Any]:
    """A set-up (a dataclass whose fields are cards or tuples of cards) as JSON."""
    found: dict[str, Any] = {}
    for spec in dataclasses.fields(setup):
        value = getattr(setup, spec.name)
        found[spec.name] = [card_to_dict(c) for c in value] if isinstance(value, tuple) else card_to_dict(value)
    return found


def setup_from_dict(cls: type, data: dict[str, Any]) -> Any:
    """The set-up ``setup_to_dict`` stored; a card named twice is one object, as the engine expects."""
    cards: dict[str, SimCard] = {}

    def card(entry: dict[str, Any]) -> SimCard:
        if entry["key"] not in cards:
            cards[entry["key"]] = SimCard(entry["key"], entry["name"], entry["kind"], dict(entry["fields"]))
        return cards[entry["key"]]

    values = {
        name: tuple(card(entry) for entry in value) if isinstance(value, list) else card(value)
        for name, value in data.items()
    }
    return cls(**values)


def result_to_dict(result: Result) -> dict[str, Any]:
    return {
        "labels": list(result.labels),
        "blocks": [list(block) for block in result.blocks],
        "tallies": [
            {
                **{name: getattr(t, name) for name in TALLY_FIELDS},
                "placings": {str(k): v for k, v in t.placings.items()},
            }
            for t in result.tallies
        ],
        "pairs": [[a, b, s.blocks, s.total, s.squares] for (a, b), s in result.pairs.items()],
        "lengths": {str(k): v for k, v in result.lengths.items()},
        "first_of_length": {str(k): dataclasses.astuple(ref) for k, ref in result.first_of_length.items()},
    }


def result_from_dict(data: dict[str, Any]) -> Result:
    result = Result(tuple(data["labels"]), [tuple(block) for block in data["blocks"]])  # type: ignore[misc]
    result.tallies = [
        Tally(
            **{name: entry[name] for name in TALLY_FIELDS},
            placings=Counter({int(k): v for k, v in entry["placings"].items()}),
        )
        for entry in data["tallies"]
    ]
    result.pairs = {(a, b): PairSums(blocks, total, squares) for a, b, blocks, total, squares in data["pairs"]}
    result.lengths = Counter({int(k): v for k, v in data["lengths"].items()})
    result.first_of_length = {int(k): GameRef(*ref) for k, ref in data["first_of_length"].items()}
    return result


def empty_result(comparison: Comparison) -> Result:
    from ..engines.endbreaker_game.compare import play_blocks

    return play_blocks(comparison, 0, 0)


def report(
    result: Result, strategies: list[str], *, looks: int, alpha: float, stopped_early: bool = False
) -> dict[str, Any]:
    """What the pages and the API show: per strategy its win rate with the 95% Wilson interval, mean ダルク, mean
    game length and battle placings; and whether the two leaders differ at the level corrected for the looks
    and pairs (``compare.run``'s rule: ``alpha / (looks × pairs)``)."""
    k = len(result.labels)
    rows = []
    for index, (label, tally) in enumerate(zip(result.labels, result.tallies, strict=True)):
        low, high = wilson(tally.score / 12, tally.games)
        # Exactly 0 and 1 at the ends (the formula leaves rounding dust such as 1e-17 there).
        low = 0.0 if tally.score == 0 else low
        high = 1.0 if tally.score == 12 * tally.games else high
        battles = sum(tally.placings.values())
        rows.append(
            {
                "label": label,
                "strategy": strategies[index],
                "games": tally.games,
                "wins": tally.wins,
                "draws": tally.draws,
                "stopped": tally.stopped,
                "win_rate": tally.win_rate,
                "interval": [low, high],
                "mean_darc": tally.mean_darc,
                "mean_turns": tally.mean_turns,
                "placings": [
                    {"place": place, "battles": count, "share": count / battles if battles else 0.0}
                    for place, count in sorted(tally.placings.items())
                ],
            }
        )
    summary: dict[str, Any] = {
        "games": result.tallies[0].games if result.tallies else 0,
        "blocks": result.block_count,
        "strategies": rows,
        "stopped_early": stopped_early,
        "length_percentiles": {str(q): result.length_percentile(q) for q in (10, 50, 90)},
        "leaders": None,
    }
    if k >= 2 and result.block_count:
        first, second = result.leaders()
        p_value = result.difference(first, second).p_value()
        threshold = alpha / (max(1, looks) * (k * (k - 1) // 2))
        summary["leaders"] = {
            "first": result.labels[first],
            "second": result.labels[second],
            "p_value": p_value,
            "threshold": threshold,
            "significant": p_value < threshold,
        }
    return summary
