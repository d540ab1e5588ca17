"""A synthetic seed file with named translation tracks, loaded."""

from __future__ import annotations

import json

from cards.services import import_files

SEED_TRACK = "synthetic seed 9"


SEED_CREDITS = "テスト: a synthetic seed document"


SECOND = "テスト第二譯本"


def seed_file(tmp_path, *, original: str = "テスト原文：ドロー＋１", at: int = 1) -> str:
    path = tmp_path / "endbreaker.json"
    path.write_text(
        json.dumps(
            {
                "format": "cardsite-cards/1",
                "game": "endbreaker",
                "tracks": [
                    {
                        "language": "zh-hant",
                        "name": SEED_TRACK,
                        "credits": SEED_CREDITS,
                        "status": "reviewed",
                        "main": True,
                    }
                ],
                "cards": [
                    {
                        "key": "EB9-901",
                        "kind": "ability",
                        "fields": {"cost": "PT", "skill": "P", "at": at, "attribute": "P"},
                        "source": "synthetic seed",
                        "texts": {
                            "ja": {"name": "テスト技", "text": original, "source": "synthetic seed"},
                            "zh-hant": {"name": "測試技", "text": "測試譯文：抽牌＋１", "source": "synthetic seed"},
                        },
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
