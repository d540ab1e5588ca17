"""エンドブレイカー！SCG's complete synthetic card pool: every value its whole game reads.

Every value is synthetic (names テスト…, keys EB9-9xx). The starting cards, the job piles and the thorn keep the
keys the seed's 遊戲準備 names them by, with synthetic values, so the set-up finds them.
"""

from __future__ import annotations

import json

from cards import services as card_services
from cards.importing import parse_json


def _card(key, kind, fields, name, number=None):
    return {
        "key": key,
        "number": number,
        "kind": kind,
        "fields": fields,
        "source": "test",
        "texts": {"ja": {"name": name, "text": "テスト用の架空のカード。", "source": "test"}},
    }


def synthetic_pool(**overrides):
    """A complete synthetic pool: every value the whole game reads. ``overrides``: key -> fields to use instead."""
    cards = [
        # The tavern and the thorn printed without a skill: "none", a value, not an unknown.
        _card("EB1-001", None, {"skill": "none", "at": 0, "cost": "B"}, "テスト酒場", "EB1-001"),
        _card("城塞騎士", "job", {"skill": "P", "at": 1, "cost": "P", "attribute": "P"}, "テスト騎士"),
        _card("狩猟者", "job", {"skill": "T", "at": 1, "cost": "T", "attribute": "T"}, "テスト狩人"),
        _card("星霊術士", "job", {"skill": "S", "at": 1, "cost": "S", "attribute": "S"}, "テスト術士"),
        _card("魔獣戦士", "job", {"skill": "PP", "at": 2, "cost": "PP", "attribute": "P"}, "テスト戦士"),
        _card("スカイランナー", "job", {"skill": "TT", "at": 2, "cost": "TT", "attribute": "T"}, "テスト走者"),
        _card("デモニスタ", "job", {"skill": "SS", "at": 2, "cost": "SS", "attribute": "S"}, "テスト魔人"),
        _card("EB1-059", "thorn", {"skill": "none", "at": 1}, "テスト棘", "EB1-059"),
    ]
    for n in range(10):
        fields = {"cost": "P" * (n % 4 + 1) + "S", "skill": "●", "at": n % 4, "attribute": "PTS"[n % 3]}
        cards.append(_card(f"EB9-91{n}", "ability", fields, f"テスト特技{n}", f"EB9-91{n}"))
    for n in range(8):
        cards.append(
            _card(f"EB9-95{n}", "masquerade", {"payout": "6-4-2-0", "damage": 3}, f"テスト仮面{n}", f"EB9-95{n}")
        )
    for n in range(10):
        cards.append(_card(f"EB9-93{n}", "scenario", {"cost": "PT", "payout": "2"}, f"テスト劇本{n}", f"EB9-93{n}"))
    for card in cards:
        if card["key"] in overrides:
            card["fields"] = overrides[card["key"]]
    bundle, problems = parse_json(json.dumps({"game": "endbreaker", "cards": cards}, ensure_ascii=False), "test")
    assert not problems, problems
    card_services.import_bundle(bundle)
