"""A synthetic seed file of 水滸伝, loaded, and its card's history as the admin shows it."""

from __future__ import annotations

import json
import re

from django.test import Client

from cards.models import Card
from cards.services import import_files


def seed_file(tmp_path, attack: int = 3, name: str = "合成人物甲", name_zh: str = "合成人物甲") -> str:
    path = tmp_path / "suikoden.json"
    path.write_text(
        json.dumps(
            {
                "format": "cardsite-cards/1",
                "game": "suikoden",
                "cards": [
                    {
                        "key": "SYN-901",
                        "number": "901",
                        "kind": "character",
                        "fields": {"attack": attack, "colour": "仁", "cost": "仁1"},
                        "source": "synthetic seed",
                        "texts": {"ja": {"name": name}, "zh-hant": {"name": name_zh, "text": "合成"}},
                    }
                ],
            },
            ensure_ascii=False,
        ),
        encoding="utf-8",
    )
    return str(path)


def load(path: str):
    (summary,) = import_files([path], seed=True)
    return summary


def the_card() -> Card:
    return Card.objects.get(key="SYN-901")


def admin_change_attack(editor, attack: int) -> None:
    """Change the card's attack in the admin, as an editor would (texts kept as they are)."""
    card = the_card()
    client = Client()
    client.force_login(editor)
    texts = list(card.texts.order_by("language"))
    form = {
        "game": card.game_id,
        "key": card.key,
        "number": card.number,
        "kind": card.kind,
        "fields": json.dumps({**card.fields, "attack": attack}, ensure_ascii=False),
        "source": card.source,
        "texts-TOTAL_FORMS": len(texts),
        "texts-INITIAL_FORMS": len(texts),
        "texts-MIN_NUM_FORMS": 0,
        "texts-MAX_NUM_FORMS": 1000,
    }
    for index, text in enumerate(texts):
        form.update(
            {
                f"texts-{index}-id": text.pk,
                f"texts-{index}-card": card.pk,
                f"texts-{index}-language": text.language,
                f"texts-{index}-name": text.name,
                f"texts-{index}-text": text.text,
                f"texts-{index}-notes": text.notes,
                f"texts-{index}-source": text.source,
            }
        )
    response = client.post(f"/admin/cards/card/{card.pk}/change/", form)
    assert response.status_code == 302, response.content.decode()[:2000]


def words(html: str) -> str:
    """What a reader sees of ``html``: its text without the tags."""
    return re.sub(r"<[^>]+>", "", html)
