"""水滸伝's editor API: the synthetic card it edits, and the requests that write and revert it."""

from __future__ import annotations

import json

from django.test import Client

from cards.models import Card
from contributions import services
from contributions.models import ChangeSet

KEY = "SYN-961"


def post(client: Client, url: str, body: dict | None = None):
    return client.post(url, json.dumps(body or {}), content_type="application/json")


def card_record(attack: int, key: str = KEY) -> dict:
    return {
        "key": key,
        "number": key.removeprefix("SYN-"),
        "kind": "character",
        "fields": {"attack": attack},
        "texts": {"ja": {"name": "テスト人物"}},
        "source": "synthetic test card",
    }


def write(editor, game, attack: int, key: str = KEY) -> None:
    """An editor's change set: it applies at once, as one revision of the card."""
    change_set = services.submit_change_set(
        author=editor, game=game, cards=[card_record(attack, key)], source_kind=ChangeSet.SourceKind.OWN_COPY
    )
    assert change_set.status == ChangeSet.Status.ACCEPTED


def attack() -> int:
    return Card.objects.get(key=KEY).fields["attack"]


HISTORY = f"/api/contributions/cards/suikoden/{KEY}/history/"


REVERT = f"/api/contributions/cards/suikoden/{KEY}/revert/"


DELETED = "/api/contributions/games/suikoden/deleted-cards/"
