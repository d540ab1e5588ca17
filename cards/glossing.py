"""Marking glossary terms inside a card's text (plain Python).

``gloss(text, glosses)`` splits ``text`` into segments; a segment that is a
glossary term carries its counterpart in the other languages, which the card
page shows as a tooltip. Longer terms win over shorter ones they contain
(「プレイ可能枚数」 before 「プレイ」), and matching is left to right.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class Segment:
    text: str
    gloss: str | None = None  # the term's counterparts, e.g. "職業 / Job"


def gloss(text: str, glosses: Mapping[str, str]) -> list[Segment]:
    """Split ``text`` at every occurrence of a key of ``glosses`` (surface form -> counterpart)."""
    if not text or not glosses:
        return [Segment(text)] if text else []
    surfaces = sorted((surface for surface in glosses if surface), key=len, reverse=True)
    segments: list[Segment] = []
    plain_start = 0
    position = 0
    while position < len(text):
        match = next((surface for surface in surfaces if _matches_at(text, surface, position)), None)
        if match is None:
            position += 1
            continue
        if plain_start < position:
            segments.append(Segment(text[plain_start:position]))
        segments.append(Segment(match, glosses[match]))
        position += len(match)
        plain_start = position
    if plain_start < len(text):
        segments.append(Segment(text[plain_start:]))
    return segments


def _is_latin(char: str) -> bool:
    return char.isascii() and char.isalnum()


def _matches_at(text: str, surface: str, position: int) -> bool:
    """Latin terms match whole words only, so the symbol T is not found inside "AT"."""
    if not text.startswith(surface, position):
        return False
    if not _is_latin(surface[0]):
        return True
    end = position + len(surface)
    before_ok = position == 0 or not _is_latin(text[position - 1])
    after_ok = end == len(text) or not _is_latin(text[end])
    return before_ok and after_ok
