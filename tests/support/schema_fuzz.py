"""The API schema fuzzer's helpers that fit generated data to a game: a reproducible choice, and a change set's
tracks and card records made to fit the game's declarations."""

from __future__ import annotations

import zlib
from typing import Any

from cards.gamedefs import get_game


def pick(options: list[Any], seed: Any) -> Any:
    """One of ``options``, chosen by the generated value (reproducibly: not Python's salted hash)."""
    return options[zlib.crc32(repr(seed).encode()) % len(options)]


def align_tracks(tracks: list[Any], slug: str) -> list[Any]:
    """A change set's new translation tracks made to fit the game: in a language it is translated into, each
    name once (the cards' ``translations`` are left out by ``align_cards``: they would name other tracks)."""
    languages = list(get_game(slug).translation_languages)
    aligned, names = [], set()
    for track in tracks:
        if not isinstance(track, dict) or not isinstance(track.get("language"), str) or not languages:
            continue
        track = {**track, "language": track["language"] if track["language"] in languages else languages[0]}
        if (track["language"], track.get("name")) not in names:
            names.add((track["language"], track.get("name")))
            aligned.append(track)
    return aligned


def align_cards(cards: list[Any], slug: str) -> list[Any]:
    """A change set's card records made to fit the game: its kinds, its form of number, values its fields take,
    a name in some language, and each key once."""
    definition = get_game(slug)
    aligned, keys = [], set()
    for card in cards:
        if not isinstance(card, dict) or not isinstance(card.get("key"), str):
            aligned.append(card)
            continue
        if card["key"].strip() in keys:
            continue
        keys.add(card["key"].strip())
        card = dict(card)
        card.pop("translations", None)
        if card.get("kind") and definition.kind(card["kind"]) is None:
            card["kind"] = pick([kind.slug for kind in definition.kinds], card["kind"])
        if isinstance(card.get("number"), str) and definition.check_number(card["number"], 32) is not None:
            card["number"] = None
        if isinstance(card.get("fields"), dict):
            kind = card.get("kind") or None
            card["fields"] = {
                name: value
                for name, value in card["fields"].items()
                if not definition.check_values(kind, {name: value}).problems
            }
        texts = card.get("texts")
        if texts is None:  # a record names what it changes; a card it adds needs a name all the same
            texts = {}
        if isinstance(texts, dict) and not any(
            isinstance(parts, dict) and parts.get("name") for parts in texts.values()
        ):
            card["texts"] = {**texts, "en": {**(texts.get("en") or {}), "name": "Test Card"}}
        aligned.append(card)
    return aligned
