"""A perceptual hash of a card picture, to recognise a photo of a card whose picture the site already has.

The card is found and straightened as for reading (``preprocess.find_card``; no outline found: the whole
picture), its printed border cut off (``INSET``), and hashed as pHash does: the grey image scaled to
64 × 64, its discrete cosine transform, and the 16 × 16 lowest frequencies each compared with their median
(256 bits, kept as 64 hexadecimal digits). Two pictures of one card differ in few bits whatever the turn,
perspective, blur, light and JPEG of the photo; pictures of different cards in about half.

Choice of library: OpenCV's primitives (``cv2.resize``, ``cv2.dct``), already a dependency for the reading.
``imagehash`` (PyPI) computes the same pHash but brings SciPy and PyWavelets for one cosine transform, and would
hash a picture that OpenCV straightened anyway.

``DUPLICATE_DISTANCE``: two hashes at most this many bits apart (Hamming distance, a quarter of the 256) are
taken for the same card. Measured on synthetic cards with pictures (coloured shapes, ``tests/test_reading_hash``):
a card's picture and its photos (turned up to 10°, perspective, blur up to 2 px, uneven light, JPEG) differed by
at most 50 bits; different cards by at least 96. Limit: the hash sees the picture, not the words: cards without
art that differ only in their text (synthetic text-only cards: 44 to 62 bits apart) can hash alike; the reading
of the text still matches each to its own card.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import cv2
import numpy as np
from PIL import Image

from .preprocess import Preprocessing, find_card, load

HASH_SIDE = 16  # bits a side: 16 × 16 = 256 bits
DUPLICATE_DISTANCE = 64
INSET = 0.05  # this share of the card's width is cut off each edge (its printed border, the table's rest)
MIN_DETAIL = 4.0  # a picture whose straightened grey varies less than this (standard deviation) has no hash
_CARD = (256, 358)  # the straightened card's size before hashing (a card's 63 × 88 proportions)


def straightened(photo: Image.Image, settings: Preprocessing | None = None) -> np.ndarray:
    """The card in ``photo`` as an upright grey image (the whole picture when no card outline is found)."""
    rgb = load(photo)
    height, width = rgb.shape[:2]
    corners = find_card(rgb, settings or Preprocessing())
    if corners is None:
        corners = np.array([[0, 0], [width, 0], [width, height], [0, height]], dtype=np.float32)
        inset = 0.0
    else:
        inset = INSET
    out_w, out_h = _CARD
    margin = inset * out_w
    target = np.array(
        [[-margin, -margin], [out_w + margin, -margin], [out_w + margin, out_h + margin], [-margin, out_h + margin]],
        dtype=np.float32,
    )
    matrix = cv2.getPerspectiveTransform(np.asarray(corners, dtype=np.float32), target)
    grey = cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY)
    return cv2.warpPerspective(grey, matrix, (out_w, out_h), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)


def perceptual_hash(photo: Image.Image, settings: Preprocessing | None = None) -> str | None:
    """The pHash of the card in ``photo``, as 64 hexadecimal digits; None for a picture without detail (one
    colour), which would be "the same" as any other such picture."""
    grey = straightened(photo, settings)
    if float(grey.std()) < MIN_DETAIL:
        return None
    small = cv2.resize(grey, (4 * HASH_SIDE, 4 * HASH_SIDE), interpolation=cv2.INTER_AREA).astype(np.float32)
    low = cv2.dct(small)[:HASH_SIDE, :HASH_SIDE].ravel()
    bits = low > np.median(low)
    return f"{int(''.join('1' if bit else '0' for bit in bits), 2):0{HASH_SIDE * HASH_SIDE // 4}x}"


def distance(first: str, second: str) -> int:
    """How many bits two hashes differ in (Hamming distance)."""
    return (int(first, 16) ^ int(second, 16)).bit_count()


def alike(first: str | None, second: str | None, threshold: int = DUPLICATE_DISTANCE) -> bool:
    return bool(first) and bool(second) and distance(first or "", second or "") <= threshold


def same_card_groups(
    hashes: Mapping[int, str | None],
    threshold: int = DUPLICATE_DISTANCE,
    compatible: Callable[[int, int], bool] | None = None,
) -> dict[int, int]:
    """For photos numbered by ``hashes``' keys: each photo that shows the same card as a photo numbered lower,
    mapped to the lowest-numbered photo of its group (photos alike are grouped, and so are photos alike to
    those: a chain of alike photos is one card). Photos alike to no lower one are left out. ``compatible``
    (first, second) may veto a pair that hashes alike (their texts say they are different cards)."""
    numbers = sorted(number for number, value in hashes.items() if value)
    parent = {number: number for number in numbers}

    def root(number: int) -> int:
        while parent[number] != number:
            parent[number] = parent[parent[number]]
            number = parent[number]
        return number

    for position, first in enumerate(numbers):
        for second in numbers[position + 1 :]:
            if alike(hashes[first], hashes[second], threshold) and (compatible is None or compatible(first, second)):
                low, high = sorted((root(first), root(second)))
                parent[high] = low
    return {number: root(number) for number in numbers if root(number) != number}
