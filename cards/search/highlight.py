"""Marking what a search matched inside a card's text (plain Python).

Matching is done on folded text (see ``normalize``) and mapped back to the
original characters, so 职业 highlights 職業 and ＡＴ highlights ＡＴ as printed.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .normalize import fold, fold_with_positions, is_combining


@dataclass(frozen=True)
class Piece:
    text: str
    matched: bool = False


def highlight(text: str, terms: Iterable[str]) -> list[Piece]:
    """Split ``text`` into pieces, marking every occurrence of any of ``terms`` (compared folded)."""
    if not text:
        return []
    folded, origins = fold_with_positions(text)
    marked = [False] * len(text)
    for term in terms:
        needle = fold(term).strip()
        if not needle:
            continue
        start = folded.find(needle)
        while start != -1:
            end = start + len(needle)
            last = origins[end - 1]
            while last + 1 < len(text) and is_combining(text[last + 1]):
                last += 1  # the voicing marks folded into the last character
            for index in range(origins[start], last + 1):
                marked[index] = True
            start = folded.find(needle, end)
    pieces: list[Piece] = []
    for char, is_marked in zip(text, marked, strict=True):
        if pieces and pieces[-1].matched == is_marked:
            pieces[-1] = Piece(pieces[-1].text + char, is_marked)
        else:
            pieces.append(Piece(char, is_marked))
    return pieces
