"""Synthetic cards for the decklist and deck API tests: one small set per game, clearly not real cards.

Each card has every field its kind declares, names in several languages, and printed numbers
where the game has them (Endbreaker EB9-…, Suikoden 9xx, one Shadow Era card). Loaded with
``cards.services.import_bundle`` exactly as a card file would be.
"""

from __future__ import annotations

import json

from cards import services
from cards.importing import parse_json
from cards.models import Card, Game
from simulator.core import SimCard, SimDeck
from simulator.engines import all_engines


def _card(key, kind, fields, names, number=None, text="テスト用の架空のカード。"):
    texts = {language: {"name": name, "text": text, "source": "test"} for language, name in names.items()}
    return {"key": key, "number": number, "kind": kind, "fields": fields, "source": "test", "texts": texts}


SUIKODEN_CHARACTER = {
    "colour": "白",
    "cost": "白1",
    "attack": 3,
    "defense": 2,
    "intelligence": 1,
    "specialties": ["騎馬"],
    "abilities": ["情報"],  # one the goldfish does not act on (it acts on 調達 alone)
}
SUIKODEN_LAND = {
    "value": 2,
    "leader": 1,
    "land_defense": 1,
    "repair": 1,
    "commerce": 1,
    "hunting": 0,
    "land_type": "山",
}
ENDBREAKER_ABILITY = {"cost": "PT", "skill": "P", "at": 1, "attribute": "P"}
SHADOWERA_HERO = {
    "faction": "human",
    "class": ["warrior"],
    "health": 30,
    "ability_cost": 2,
    "set": "Test",
    "rarity": "common",
}
SHADOWERA_ALLY = {
    "cost": 2,
    "faction": "human",
    "class": ["warrior"],
    "unique": False,
    "attack": 2,
    "damage_type": "melee",
    "health": 3,
    "set": "Test",
    "rarity": "common",
}
EPIC_ATTACK = {
    "position": "high",
    "trait": ["punch"],
    "damage": 2,
    "follow_up": "none",
    "cost": 1,
    "character": "none",
    "side_deck_only": False,
}

CARDS = {
    "suikoden": [
        _card("901", "character", SUIKODEN_CHARACTER, {"ja": "テスト林沖", "zh-hant": "測試林沖"}, "901"),
        _card("902", "character", SUIKODEN_CHARACTER, {"ja": "テストラビシャン", "zh-hant": "測試拉比香"}, "902"),
        _card("テスト人物03", "character", SUIKODEN_CHARACTER, {"ja": "テスト人物03"}),
        _card("テスト双子A", "character", SUIKODEN_CHARACTER, {"ja": "テスト双子"}),
        _card("テスト双子B", "character", SUIKODEN_CHARACTER, {"ja": "テスト双子"}),
        _card("903", "land", SUIKODEN_LAND, {"ja": "テスト土地01", "zh-hant": "測試土地01"}, "903"),
        _card("テスト土地02", "land", SUIKODEN_LAND, {"ja": "テスト土地02", "en": "Test Land 02"}),
    ],
    "endbreaker": [
        _card("EB9-001", "ability", ENDBREAKER_ABILITY, {"ja": "テスト居合い", "zh-hant": "測試居合"}, "EB9-001"),
        _card("EB9-002", "ability", ENDBREAKER_ABILITY, {"ja": "テストシールド"}, "EB9-002"),
        _card("EB9-003", "job", ENDBREAKER_ABILITY, {"ja": "テストジョブ"}, "EB9-003"),
        _card(
            "EB9-004",
            "masquerade",
            {"payout": "6-4-2-0", "damage": 2, "skill": "S"},
            {"ja": "テスト仮面", "zh-hant": "測試假面"},
            "EB9-004",
        ),
        _card("EB9-005", "thorn", {"skill": "B", "at": 0}, {"ja": "テストソーン"}, "EB9-005"),
        _card("EB9-006", None, {}, {"ja": "テスト種類不明"}, "EB9-006"),
    ],
    "shadowera": [
        _card("Test Hero 01", "hero", SHADOWERA_HERO, {"en": "Test Hero 01", "ja": "テストヒーロー01"}),
        _card("Test Ally 01", "ally", SHADOWERA_ALLY, {"en": "Test Ally 01", "ja": "テストアリー01"}, "TST-001"),
        _card("Test Ally 02", "ally", SHADOWERA_ALLY, {"en": "Test Ally 02", "zh-hant": "測試盟友02"}),
    ],
    "epicbattles": [
        _card("Test-Zero", "character", {"franchise": "mortal-kombat"}, {"en": "Test-Zero"}),
        _card("Test Punch", "attack", EPIC_ATTACK, {"en": "Test Punch", "ja": "テストパンチ"}),
        _card("Test Kick", "attack", {**EPIC_ATTACK, "trait": ["kick"]}, {"en": "Test Kick"}),
        _card(
            "Test Side Guard",
            "block",
            {"position": "low", "cost": 0, "character": "none", "side_deck_only": True},
            {"en": "Test Side Guard"},
        ),
    ],
}


def load_synthetic_cards() -> None:
    for game, cards in CARDS.items():
        bundle, problems = parse_json(json.dumps({"game": game, "cards": cards}, ensure_ascii=False), "test")
        assert not problems, problems
        services.import_bundle(bundle)


def card(game: str, key: str) -> Card:
    return Card.objects.get(game__slug=game, key=key)


def game(slug: str) -> Game:
    return Game.objects.get(slug=slug)


# --- the same cards for the plain-Python simulator ---------------------------------------------------

ENGINE_SLUGS: tuple[str, ...] = tuple(sorted(engine.game for engine in all_engines()))

SIM_DECKS = {
    "shadowera": {"deck": [("Test Ally 01", 20), ("Test Ally 02", 20)]},
    "epicbattles": {"deck": [("Test Punch", 30), ("Test Kick", 29)]},
    "suikoden": {
        "characters": [("901", 10), ("902", 10), ("テスト人物03", 20)],
        "lands": [("903", 2), ("テスト土地02", 2)],
    },
    "endbreaker": {"starting": [("EB9-001", 4), ("EB9-002", 2), ("EB9-004", 2), ("EB9-005", 2)]},
}


def sim_card(game: str, key: str) -> SimCard:
    record = next(record for record in CARDS[game] if record["key"] == key)
    name = next(iter(text["name"] for text in record["texts"].values()))
    return SimCard(key, name, record["kind"], dict(record["fields"]))


def synthetic_sim_deck(game: str) -> SimDeck:
    """A deck of the synthetic cards for ``game``'s engine, the zone it draws from filled."""
    zones = {
        zone: [(sim_card(game, key), count) for key, count in entries] for zone, entries in SIM_DECKS[game].items()
    }
    return SimDeck.from_counts(game, zones)
