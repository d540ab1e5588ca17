"""Searching synthetic cards through the search's one entry point."""

from __future__ import annotations

import json

from cards import selectors
from cards.importing import parse_json
from cards.search.selectors import prepare_search
from cards.services import import_bundle


def search(query: str, **options) -> selectors.SearchOutcome:
    outcome = prepare_search(query, "ja", **options)
    assert outcome.error is None, f"{query!r} gave the error {outcome.error!r}"
    return outcome


def keys(query: str, **options) -> list[str]:
    """The keys of the cards ``query`` finds, in the search's order."""
    return [card.key for card in search(query, **options).cards]


def found(query: str) -> set[str]:
    return set(keys(query))


def import_cards(*cards: dict, game: str = "endbreaker") -> None:
    """Import a small synthetic card file through the importer, as `importcards` would."""
    document = {"format": "cardsite-cards/1", "game": game, "cards": list(cards)}
    bundle, problems = parse_json(json.dumps(document, ensure_ascii=False), "synthetic.json")
    assert not problems, [str(problem) for problem in problems]
    import_bundle(bundle)


def synthetic_card(text_ja: str, at: int = 3, text_zh: str | None = None, key: str = "EB9-001") -> dict:
    texts = {"ja": {"name": "テスト札", "text": text_ja, "source": "test"}}
    if text_zh is not None:
        texts["zh-hant"] = {"text": text_zh, "source": "test"}
    return {
        "key": key,
        "number": key,
        "kind": "ability",
        "fields": {"at": at, "cost": "PT"},
        "source": "test",
        "texts": texts,
    }
