"""Search normalisation, the same for stored text and for queries (plain Python).

Each character is folded on its own, so a character folds the same way
wherever it stands and the folded text keeps a position map to the original
(used to highlight matches):

1. NFKC: full-width letters and digits become ASCII (ＡＴ：＋３ is AT:+3), half-width kana full-width;
2. case folding;
3. hiragana to katakana (どろー finds ドロー);
4. Han characters to one Traditional form with OpenCC: Simplified to Traditional (职业 finds 職業),
   and Japanese shinjitai to Traditional (戦 finds 戰). Variants OpenCC keeps apart after
   that (闘/鬭/鬥) are folded by a round trip through Simplified, character by character,
   so the same character always folds alike whatever its neighbours; a few variants no
   OpenCC dictionary joins are listed in ``_EXTRA_VARIANTS``.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

import opencc

_SIMPLIFIED_TO_TRADITIONAL = opencc.OpenCC("s2t")
_JAPANESE_TO_TRADITIONAL = opencc.OpenCC("jp2t")
_TRADITIONAL_TO_SIMPLIFIED = opencc.OpenCC("t2s")

# Variants none of OpenCC's dictionaries joins: Japanese 闘 becomes 鬭 under jp2t, while
# Chinese writes 鬥 (戦闘 / 戰鬥).
_EXTRA_VARIANTS = {"鬭": "鬥", "鬪": "鬥", "鬬": "鬥"}

_HIRAGANA_START, _HIRAGANA_END = 0x3041, 0x3096
_KANA_OFFSET = 0x60


def _is_han(char: str) -> bool:
    code = ord(char)
    return 0x3400 <= code <= 0x9FFF or 0xF900 <= code <= 0xFAFF or 0x20000 <= code <= 0x3134F


def _fold_han(char: str) -> str:
    candidate = _JAPANESE_TO_TRADITIONAL.convert(_SIMPLIFIED_TO_TRADITIONAL.convert(char))
    candidate = _SIMPLIFIED_TO_TRADITIONAL.convert(_TRADITIONAL_TO_SIMPLIFIED.convert(candidate))
    candidate = _EXTRA_VARIANTS.get(candidate, candidate)
    return candidate if len(candidate) == 1 else char


@lru_cache(maxsize=65536)
def fold_char(char: str) -> str:
    """The folded form of one character (may be several characters after NFKC, or none)."""
    folded = []
    for part in unicodedata.normalize("NFKC", char).casefold():
        code = ord(part)
        if _HIRAGANA_START <= code <= _HIRAGANA_END:
            part = chr(code + _KANA_OFFSET)
        elif _is_han(part):
            part = _fold_han(part)
        folded.append(part)
    return "".join(folded)


def _clusters(text: str):
    """(start, end) of each character with the combining marks that follow it.

    A voicing mark typed apart (half-width ﾞ ﾟ, or U+3099/U+309A after a kana) must be
    folded with the kana before it, or ﾄﾞ would fold to ト + U+3099 instead of ド.
    """
    start = 0
    for index in range(1, len(text) + 1):
        if index == len(text) or not is_combining(text[index]):
            yield start, index
            start = index


@lru_cache(maxsize=4096)
def is_combining(char: str) -> bool:
    normalized = unicodedata.normalize("NFKC", char)
    return bool(normalized) and unicodedata.combining(normalized[0]) != 0


def _fold_cluster(cluster: str) -> str:
    if len(cluster) == 1:
        return fold_char(cluster)
    return "".join(fold_char(char) for char in unicodedata.normalize("NFKC", cluster))


def fold(text: str) -> str:
    """The folded form of ``text``."""
    return "".join(_fold_cluster(text[start:end]) for start, end in _clusters(text))


def fold_with_positions(text: str) -> tuple[str, list[int]]:
    """The folded text and, for each folded character, the index of the original it came from."""
    folded: list[str] = []
    origins: list[int] = []
    for start, end in _clusters(text):
        part = _fold_cluster(text[start:end])
        folded.append(part)
        origins.extend([start] * len(part))
    return "".join(folded), origins
