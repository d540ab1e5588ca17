"""What changed between two states of a deck's cards: plain Python, no Django.

An entry list is any iterable of ``(zone, card key, count)``; copies of one card in one zone add up.
``diff(a, b)`` says, per zone, how many copies of each card ``b`` has more (added) or fewer (removed)
than ``a``; ``as_text`` writes it as lines such as ``+2 EB1-017`` under a ``zone:`` heading.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

Entry = tuple[str, str, int]


@dataclass(frozen=True)
class ZoneDiff:
    zone: str
    added: tuple[tuple[str, int], ...] = ()  # (card key, copies added), by key
    removed: tuple[tuple[str, int], ...] = ()  # (card key, copies removed), by key


@dataclass(frozen=True)
class DeckDiff:
    zones: tuple[ZoneDiff, ...] = field(default_factory=tuple)  # only zones that changed, in order

    @property
    def empty(self) -> bool:
        return not self.zones

    @property
    def added(self) -> int:
        return sum(n for zone in self.zones for _key, n in zone.added)

    @property
    def removed(self) -> int:
        return sum(n for zone in self.zones for _key, n in zone.removed)


def totals(entries: Iterable[Entry]) -> dict[tuple[str, str], int]:
    result: dict[tuple[str, str], int] = {}
    for zone, key, count in entries:
        result[(zone, key)] = result.get((zone, key), 0) + count
    return result


def diff(before: Iterable[Entry], after: Iterable[Entry], zone_order: Iterable[str] = ()) -> DeckDiff:
    """Per zone, the copies added and removed going from ``before`` to ``after``; zones in
    ``zone_order`` first (as the game declares them), any others after them by name."""
    old, new = totals(before), totals(after)
    changes: dict[str, tuple[list[tuple[str, int]], list[tuple[str, int]]]] = {}
    for zone, key in sorted(old.keys() | new.keys()):
        delta = new.get((zone, key), 0) - old.get((zone, key), 0)
        if delta:
            added, removed = changes.setdefault(zone, ([], []))
            (added if delta > 0 else removed).append((key, abs(delta)))
    order = [z for z in zone_order if z in changes] + sorted(z for z in changes if z not in set(zone_order))
    return DeckDiff(tuple(ZoneDiff(z, tuple(changes[z][0]), tuple(changes[z][1])) for z in order))


def as_text(result: DeckDiff, label: Callable[[str], str] = str, name: Callable[[str], str] | None = None) -> str:
    """``zone:`` then one ``+n key`` / ``-n key`` line per card (``name``: text after the key), per zone."""
    lines: list[str] = []
    for zone in result.zones:
        lines.append(f"{label(zone.zone)}:")
        for sign, rows in (("+", zone.added), ("-", zone.removed)):
            for key, n in rows:
                extra = name(key) if name is not None else ""
                lines.append(f"{sign}{n} {key}" + (f" {extra}" if extra and extra != key else ""))
    return "\n".join(lines) + ("\n" if lines else "")
