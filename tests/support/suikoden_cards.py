"""Synthetic 水滸伝 cards (45 characters, 8 lands, one of unknown kind) and a deck of them."""

from __future__ import annotations

import json

from cards.importing import parse_json
from cards.models import Card, Game
from cards.services import import_bundle
from decks import services
from decks.models import Deck

SPECIALTIES = ["陽動", "騎馬", "射擊", "水軍"]


def _character(index: int) -> dict:
    """テスト人物NN: every field of a 水滸伝 character; every third one costs nothing (cheap)."""
    name = f"テスト人物{index:02d}"
    return {
        "key": name,
        "number": None,
        "kind": "character",
        "fields": {
            "colour": ["白", "仁", "義", "勇"][index % 4],
            "cost": "0" if index % 3 == 0 else ("白1" if index % 3 == 1 else "仁2"),
            "attack": index % 7,
            "defense": index % 5,
            "intelligence": index % 4,
            "specialties": [SPECIALTIES[index % 4]],
        },
        "source": "synthetic test card",
        "texts": {
            "ja": {"name": name, "text": f"テスト用の人物{index}。", "source": "test"},
            "zh-hant": {"name": f"測試人物{index:02d}", "text": f"測試用人物{index}。", "source": "test"},
        },
    }


def _land(index: int) -> dict:
    """テスト土地NN: every field of a 水滸伝 land, value 1."""
    name = f"テスト土地{index:02d}"
    return {
        "key": name,
        "number": None,
        "kind": "land",
        "fields": {
            "value": 1,
            "leader": index,
            "land_defense": 1,
            "repair": 1,
            "commerce": 1,
            "hunting": 1,
            "land_type": "平地",
        },
        "source": "synthetic test card",
        "texts": {
            "ja": {"name": name, "text": "テスト用の土地。", "source": "test"},
            "zh-hant": {"name": f"測試土地{index:02d}", "text": "測試用土地。", "source": "test"},
        },
    }


def _import(document: dict) -> None:
    bundle, problems = parse_json(json.dumps(document, ensure_ascii=False), "test")
    assert not problems, problems
    import_bundle(bundle)


def import_test_cards() -> None:
    """45 characters, 8 lands and one card of unknown kind for 水滸伝; two Endbreaker cards."""
    suikoden = [_character(i) for i in range(1, 46)] + [_land(i) for i in range(1, 9)]
    suikoden.append(
        {
            "key": "テスト不明01",
            "number": None,
            "kind": None,
            "fields": {},
            "source": "synthetic test card",
            "texts": {"ja": {"name": "テスト不明01", "text": "種類不明のテストカード。", "source": "test"}},
        }
    )
    _import({"format": "cardsite-cards/1", "game": "suikoden", "cards": suikoden})
    _import(
        {
            "format": "cardsite-cards/1",
            "game": "endbreaker",
            "cards": [
                {
                    "key": "テスト特技01",
                    "number": None,
                    "kind": "ability",
                    "fields": {"cost": "PT", "skill": "PP", "at": 2, "attribute": "P"},
                    "source": "synthetic test card",
                    "texts": {"ja": {"name": "テスト特技01", "text": "テスト用の特技。", "source": "test"}},
                },
                {
                    "key": "テスト職業01",
                    "number": None,
                    "kind": "job",
                    "fields": {"cost": "P", "skill": "T", "at": 1, "attribute": "T"},
                    "source": "synthetic test card",
                    "texts": {"ja": {"name": "テスト職業01", "text": "テスト用の職業。", "source": "test"}},
                },
            ],
        }
    )


def card(key: str, game: str = "suikoden") -> Card:
    return Card.objects.get(game__slug=game, key=key)


def game(slug: str) -> Game:
    return Game.objects.get(slug=slug)


def make_deck(owner, visibility: str = Deck.Visibility.PRIVATE, **kwargs) -> Deck:
    entries = [("characters", card("テスト人物01"), 1), ("lands", card("テスト土地01"), 2)]
    return services.create_deck(
        owner=owner,
        game=game("suikoden"),
        name=kwargs.pop("name", f"テストデッキ {visibility}"),
        mode="construction",
        visibility=visibility,
        entries=kwargs.pop("entries", entries),
        **kwargs,
    )
