"""The system checks' findings, and a game's engine swapped for one with a fault."""

from __future__ import annotations

from simulator import engines


def ids(found) -> set[str]:
    return {message.id for message in found}


class _Renamed:
    """An engine as registered, with some of its declarations replaced."""

    def __init__(self, engine, **changes) -> None:
        self._engine = engine
        self._changes = changes

    def __getattr__(self, name):
        return self._changes.get(name, getattr(self._engine, name))


def with_engine(monkeypatch, slug: str, **changes) -> None:
    replaced = [_Renamed(e, **changes) if e.game == slug else e for e in engines.all_engines()]
    monkeypatch.setattr(engines, "all_engines", lambda: replaced)
