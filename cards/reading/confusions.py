"""What Tesseract reads in place of a printed character, and finding a card's name despite it.

``CONFUSIONS`` holds pairs seen on card photos (full-width signs, katakana told apart by a dakuten, Han
characters of like strokes). ``name_distance`` is an edit distance in which such a swap costs little, so that a
name read "澤闘ブーツ" is nearest to "戦闘ブーツ" and not to another name one character away.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Generic, TypeVar

Key = TypeVar("Key")

# Both ways: (printed, read). Kept short and measured: each pair was seen on the synthetic or real photos.
CONFUSIONS: tuple[tuple[str, str], ...] = (
    ("＋", "十"), ("＋", "土"), ("＋", "士"), ("＋", "二"), ("－", "一"), ("－", "ー"), ("ー", "一"),
    ("戦", "澤"), ("闘", "鬪"), ("ド", "ト"), ("ブ", "フ"), ("バ", "ハ"), ("パ", "ハ"), ("ガ", "カ"),
    ("ギ", "キ"), ("グ", "ク"), ("ゲ", "ケ"), ("ゴ", "コ"), ("ザ", "サ"), ("ジ", "シ"), ("ズ", "ス"),
    ("ゼ", "セ"), ("ゾ", "ソ"), ("ダ", "タ"), ("デ", "テ"), ("ボ", "ホ"), ("ベ", "ヘ"), ("ビ", "ヒ"),
    ("ペ", "ヘ"), ("ピ", "ヒ"), ("ポ", "ホ"), ("ロ", "口"), ("カ", "力"), ("エ", "工"), ("ニ", "二"),
    ("ハ", "八"), ("ト", "卜"), ("タ", "夕"), ("ン", "ソ"), ("シ", "ツ"), ("］", "]"), ("［", "["),
    ("。", "o"), ("。", "0"), ("・", "."), ("・", "‧"), ("・", "･"),
)  # fmt: skip
CONFUSION_COST = 0.25  # a confused character costs this much of an edit
_CONFUSED = {pair for printed, read in CONFUSIONS for pair in ((printed, read), (read, printed))}
# A name is taken when its distance is at most this share of its length, and clearly nearer than the runner-up.
NAME_MATCH_SHARE = 0.34
NAME_MARGIN = 0.5  # edits: the best must be this much nearer than the next name
# A Han character read as another Han character, in a name of as many characters as was read (see
# ``han_swap_distance``): such a swap costs this much, for at most ``MAX_HAN_SWAPS`` of them.
HAN_SWAP_COST = 0.5
MAX_HAN_SWAPS = 2
HAN_SWAP_MIN_LENGTH = 3  # names shorter than this (two Han characters) are not matched with a swapped one


def confused(first: str, second: str) -> bool:
    """Whether Tesseract is known to read one of the two characters for the other (``CONFUSIONS``)."""
    return (first, second) in _CONFUSED


def _plain(text: str) -> str:
    """``text`` as names are compared: without white space and middle dots, its width forms kept (＋ is not +)."""
    return "".join(char for char in text if not char.isspace() and char not in "・･·")


def _cost(first: str, second: str) -> float:
    if first == second:
        return 0.0
    if (first, second) in _CONFUSED:
        return CONFUSION_COST
    if unicodedata.normalize("NFKC", first).lower() == unicodedata.normalize("NFKC", second).lower():
        return 0.0
    return 1.0


def name_distance(read: str, name: str) -> float:
    """Edits from ``read`` to ``name``; a swap of ``CONFUSIONS`` costs ``CONFUSION_COST``."""
    first, second = _plain(read), _plain(name)
    previous = [float(index) for index in range(len(second) + 1)]
    for index, char in enumerate(first, 1):
        current = [float(index)]
        for other_index, other in enumerate(second, 1):
            current.append(
                min(previous[other_index] + 1, current[-1] + 1, previous[other_index - 1] + _cost(char, other))
            )
        previous = current
    return previous[-1]


def _is_han(char: str) -> bool:
    return "\u3400" <= char <= "\u9fff" or "\uf900" <= char <= "\ufaff"


def han_swap_distance(read: str, name: str) -> float | None:
    """Edits from ``read`` to ``name`` read character by character, where a Han character read as another Han
    character costs ``HAN_SWAP_COST``: None unless both are as long (``HAN_SWAP_MIN_LENGTH`` at least), one to
    ``MAX_HAN_SWAPS`` such swaps (and known ``CONFUSIONS``) tell them apart, nothing else, and more characters
    were read right than swapped.

    Why this holds on printed cards: Tesseract's jpn and chi_tra recognisers read a Han glyph they are unsure of
    as another Han glyph of the same cell, most often one of like strokes (練 as 便, 棍 as 梶, 刺 as 抽), and
    seldom as kana, a letter or nothing; so the name keeps its length and each of its Han characters is either
    right or another Han character. Which Han character comes out depends on the face, the print and the photo,
    so no table of pairs can list them all (``CONFUSIONS`` holds those seen often). A swap is weaker evidence
    of another name than an edit of kana or a length changed, yet still an edit: ``closest_name`` takes such a
    name only when it is the one name that near (no other is within ``NAME_MARGIN``). Most of the name must be
    read right: a card the database lacks often shares half its name with one it holds (a series' prefix and
    another word: 測試盾牌 beside 測試居合), and a count of characters cannot tell that from two misreadings.
    """
    first, second = _plain(read), _plain(name)
    if len(first) != len(second) or len(second) < HAN_SWAP_MIN_LENGTH:
        return None
    swaps = 0
    distance = 0.0
    right = 0
    for char, other in zip(first, second, strict=True):
        cost = _cost(char, other)
        if cost == 1.0:
            if not (_is_han(char) and _is_han(other)):
                return None  # another difference than a Han swap or a known confusion: an edit as any other
            swaps += 1
            cost = HAN_SWAP_COST
        right += cost == 0.0
        distance += cost
    if not 1 <= swaps <= MAX_HAN_SWAPS or right <= swaps:
        return None
    return distance


@dataclass(frozen=True)
class NameMatch(Generic[Key]):
    key: Key  # what the caller passed with the name (a card's id)
    name: str
    distance: float


def closest_name(read: str, names: Iterable[tuple[Key, str]]) -> NameMatch[Key] | None:
    """The name of ``names`` (pairs of a key and a name, in every script and track) that ``read`` is, allowing
    for misread characters (``CONFUSIONS``; one or two Han characters read as others, ``han_swap_distance``);
    None when none is near enough or two different keys are as near (within ``NAME_MARGIN``)."""
    wanted = _plain(read)
    if len(wanted) < 2:
        return None
    best: dict[Key, NameMatch[Key]] = {}
    for key, name in names:
        plain = _plain(name)
        if not plain or abs(len(plain) - len(wanted)) > NAME_MATCH_SHARE * len(plain) + 1:
            continue
        distance = name_distance(wanted, plain)
        swapped = han_swap_distance(wanted, plain)
        if swapped is not None:
            distance = min(distance, swapped)
        if distance <= NAME_MATCH_SHARE * len(plain) and (key not in best or distance < best[key].distance):
            best[key] = NameMatch(key, name, distance)
    ranked = sorted(best.values(), key=lambda match: match.distance)
    if not ranked:
        return None
    if len(ranked) > 1 and ranked[1].distance - ranked[0].distance < NAME_MARGIN:
        return None
    return ranked[0]
