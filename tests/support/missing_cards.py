"""Synthetic cards of any game with every value of their kind, and storing them: for the tests of what is
missing and of a game's addresses."""

from __future__ import annotations

import json

from cards import gamedefs
from cards.importing import parse_json
from cards.services import import_bundle

SYNTHETIC_VALUES = {
    "endbreaker": ("ability", {"cost": "PT", "skill": "P", "at": 1, "attribute": "P"}),
    "shadowera": (
        "hero",
        {"faction": "human", "class": ["warrior"], "health": 30, "ability_cost": 2, "set": "Test", "rarity": "common"},
    ),
    "suikoden": (
        "land",
        {"value": 2, "leader": 1, "land_defense": 1, "repair": 1, "commerce": 1, "hunting": 0, "land_type": "山"},
    ),
    "epicbattles": ("character", {"franchise": "tekken"}),
}


def import_cards(game: str, *cards: dict) -> None:
    document = {"format": "cardsite-cards/1", "game": game, "cards": list(cards)}
    bundle, problems = parse_json(json.dumps(document, ensure_ascii=False), "synthetic.json")
    assert not problems, [str(problem) for problem in problems]
    import_bundle(bundle)


def synthetic(game: str, key: str, *, drop: tuple[str, ...] = (), languages=None, number=None, kind=None) -> dict:
    """A card with every value of its kind and a text in every language of its game, less ``drop``."""
    definition = gamedefs.get_game(game)
    default_kind, values = SYNTHETIC_VALUES[game]
    languages = definition.text_languages if languages is None else languages
    return {
        "key": key,
        "number": number,
        "kind": kind or default_kind,
        "fields": {name: value for name, value in values.items() if name not in drop},
        "source": "test",
        "texts": {language: {"name": f"テスト{key}", "source": "test"} for language in languages},
    }
