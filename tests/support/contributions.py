"""A Shadow Era hero record, as a contribution proposes one."""

from __future__ import annotations


def _hero(key: str = "SE9-HERO", health: int | None = 30, name: str = "テスト英雄") -> dict:
    fields = {"faction": "human", "class": ["warrior"], "ability_cost": 2}
    if health is not None:
        fields["health"] = health
    return {"key": key, "kind": "hero", "fields": fields, "texts": {"en": {"name": name}}, "source": "test"}
