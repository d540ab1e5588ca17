"""エンドブレイカー！SCG's whole game on the site: the set-up built from the stored cards (refused, naming each
missing value with a link to fill it), comparisons of shipped strategies played by the task workers, the map of
what is missing, the page and the API.

Every value is synthetic (names テスト…, keys EB9-9xx). The starting cards, the job piles and the thorn keep the
keys the seed's 遊戲準備 names them by, with synthetic values, so the set-up finds them.
"""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from cards import services as card_services
from cards.importing import parse_json
from cards.models import Card, Game
from cards.selectors import missing_map
from simulator.models import ComparisonChunk, ComparisonRun

from .users import PASSWORD

IMMEDIATE = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"}}
DUMMY = {"default": {"BACKEND": "django_tasks.backends.dummy.DummyBackend"}}
URL = "/games/endbreaker/compare/"
API = "/api/games/endbreaker/comparisons/"


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
        _card("EB1-001", None, {"skill": "B", "at": 0, "cost": "B"}, "テスト酒場", "EB1-001"),
        _card("城塞騎士", "job", {"skill": "P", "at": 1, "cost": "P", "attribute": "P"}, "テスト騎士"),
        _card("狩猟者", "job", {"skill": "T", "at": 1, "cost": "T", "attribute": "T"}, "テスト狩人"),
        _card("星霊術士", "job", {"skill": "S", "at": 1, "cost": "S", "attribute": "S"}, "テスト術士"),
        _card("魔獣戦士", "job", {"skill": "PP", "at": 2, "cost": "PP", "attribute": "P"}, "テスト戦士"),
        _card("スカイランナー", "job", {"skill": "TT", "at": 2, "cost": "TT", "attribute": "T"}, "テスト走者"),
        _card("デモニスタ", "job", {"skill": "SS", "at": 2, "cost": "SS", "attribute": "S"}, "テスト魔人"),
        _card("EB1-059", "thorn", {"skill": "B", "at": 1}, "テスト棘", "EB1-059"),
    ]
    for n in range(10):
        fields = {"cost": "P" * (n % 4 + 1) + "S", "skill": "●", "at": n % 4, "attribute": "PTS"[n % 3]}
        cards.append(_card(f"EB9-91{n}", "ability", fields, f"テスト特技{n}", f"EB9-91{n}"))
    for n in range(8):
        cards.append(_card(f"EB9-95{n}", "masquerade", {"payout": "6-4-2-0", "damage": 3}, f"テスト仮面{n}", f"EB9-95{n}"))
    for n in range(10):
        cards.append(_card(f"EB9-93{n}", "scenario", {"cost": "PT", "payout": "2"}, f"テスト劇本{n}", f"EB9-93{n}"))
    for card in cards:
        if card["key"] in overrides:
            card["fields"] = overrides[card["key"]]
    bundle, problems = parse_json(json.dumps({"game": "endbreaker", "cards": cards}, ensure_ascii=False), "test")
    assert not problems, problems
    card_services.import_bundle(bundle)


@pytest.fixture
def pool(db):
    synthetic_pool()


@pytest.fixture
def tasks_now(settings):
    settings.TASKS = IMMEDIATE
    settings.COMPARISON_CHUNK_BLOCKS = 5


def login(client, user):
    client.login(username=user.username, password=PASSWORD)
    return client


def start_page(client, **data):
    body = {"strategies": ["big_darc", "build_then_resolve"], "games": 24, **data}
    return client.post(URL, body)


# --- the set-up from the database -------------------------------------------------------------------------


def test_a_complete_pool_makes_the_set_up_of_the_seed(pool):
    from simulator.fullgame_selectors import build_setup, fullgame_or_404

    game, fullgame = fullgame_or_404("endbreaker")
    setup = build_setup(game, fullgame, [], "ja")
    assert setup.knight.key == "城塞騎士" and setup.knight.fields["skill"] == "P"
    assert [card.key for card in setup.jobs] == ["魔獣戦士", "スカイランナー", "デモニスタ"]
    assert [card.key for card in setup.abilities] == [f"EB9-91{n}" for n in range(9)]  # the first 9 by number
    assert len(setup.scenarios) == 10 and len(setup.masquerades) == 8


def test_missing_values_refuse_naming_each_card_and_value(db):
    from simulator.fullgame_selectors import build_setup, fullgame_or_404, refusal_rows
    from simulator.fullgames import SetupRefused

    synthetic_pool(**{"EB9-930": {"payout": "2"}, "EB9-951": {"payout": "6-4-2-0"}})
    game, fullgame = fullgame_or_404("endbreaker")
    with pytest.raises(SetupRefused) as refused:
        build_setup(game, fullgame, [], "en")
    found = {(entry.key, entry.field) for entry in refused.value.refused}
    assert found == {("EB9-930", "cost"), ("EB9-951", "damage")}
    rows = refusal_rows(game, fullgame, refused.value, "en")
    urls = {row.url for row in rows}
    assert reverse("contributions:card_edit", args=["endbreaker", "EB9-930"]) + "#id_field_cost" in urls
    assert reverse("contributions:card_edit", args=["endbreaker", "EB9-951"]) + "#id_field_damage" in urls
