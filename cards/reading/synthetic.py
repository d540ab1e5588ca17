"""Clearly synthetic card pictures for the tests (and the benchmark to come): text on a card-like frame,
then "photographed": turned, seen in perspective, blurred, unevenly lit, JPEG-compressed.

Only Pillow and OpenCV draw and distort; nothing here is used to read a photo.
"""

from __future__ import annotations

import io
import random
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageFont

from .layout import DEFAULT_LAYOUT, CardLayout

CARD_SIZE = (630, 880)  # a 63 × 88 mm card at 10 pixels a millimetre
TABLE_GREY = 128


@lru_cache(maxsize=1)
def noto_cjk_path() -> str | None:
    """The Noto Sans CJK regular font collection, as fontconfig finds it (Debian's fonts-noto-cjk)."""
    try:
        listing = subprocess.run(["fc-list"], capture_output=True, text=True, check=False, timeout=20).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    paths = sorted({line.split(":", 1)[0] for line in listing.splitlines() if "NotoSansCJK-Regular" in line})
    return paths[0] if paths else None


# Index of each face in NotoSansCJK-Regular.ttc (JP, KR, SC, TC, HK; the Mono faces follow).
_FACE = {"ja": 0, "zh-hant": 3, "en": 0}


@dataclass(frozen=True)
class TextLine:
    text: str
    size: int = 40  # font size in pixels on the 630 × 880 card


def render_card(lines: Sequence[TextLine], *, language: str = "ja", font_path: str | None = None) -> Image.Image:
    """A white card with a black border, ``lines`` written from the top left, in ``language``'s face of Noto CJK."""
    path = font_path or noto_cjk_path()
    if path is None:
        raise RuntimeError("no Noto Sans CJK font found (install Debian's fonts-noto-cjk)")
    card = Image.new("RGB", CARD_SIZE, (TABLE_GREY,) * 3)  # what the rounded corners leave shows the table
    draw = ImageDraw.Draw(card)
    width, height = CARD_SIZE
    draw.rounded_rectangle((0, 0, width - 1, height - 1), radius=28, fill="white", outline="black", width=18)
    y = 70
    for line in lines:
        font = ImageFont.truetype(path, line.size, index=_FACE.get(language, 0))
        draw.text((60, y), line.text, fill="black", font=font)
        y += int(line.size * 1.6)
    return card


def render_art_card(seed: int) -> Image.Image:
    """A card of the same frame as ``render_card`` whose "art" is a few coloured rectangles and ellipses drawn
    from ``seed`` (no font needed): the picture a perceptual hash tells apart (``fingerprint``)."""
    chance = random.Random(seed)
    card = Image.new("RGB", CARD_SIZE, (TABLE_GREY,) * 3)
    draw = ImageDraw.Draw(card)
    width, height = CARD_SIZE
    draw.rounded_rectangle((0, 0, width - 1, height - 1), radius=28, fill="white", outline="black", width=18)
    for _ in range(6):
        left, top = chance.randint(40, 500), chance.randint(120, 520)
        right, bottom = min(left + chance.randint(40, 200), 590), min(top + chance.randint(40, 200), 560)
        colour = tuple(chance.randint(0, 255) for _ in range(3))
        shape = draw.ellipse if chance.random() < 0.5 else draw.rectangle
        shape((left, top, right, bottom), fill=colour)
    for row in range(4):  # grey bars where a card's text would stand
        draw.rectangle((60, 620 + 50 * row, 60 + chance.randint(200, 500), 640 + 50 * row), fill=(60, 60, 60))
    return card


def photograph(
    card: Image.Image,
    *,
    angle: float = 3.0,
    perspective: float = 0.04,
    blur: float = 1.0,
    uneven_light: float = 0.25,
    jpeg_quality: int = 80,
    size: tuple[int, int] = (900, 1100),
    background: int = TABLE_GREY,
) -> Image.Image:
    """``card`` as a phone might see it: on a grey table, turned by ``angle`` degrees, its corners moved by up to
    ``perspective`` of its size, blurred with a Gaussian of ``blur`` pixels, darker by up to ``uneven_light`` towards
    one corner, and saved as a JPEG of ``jpeg_quality``. Deterministic: the same arguments give the same picture."""
    width, height = card.size
    out_w, out_h = size
    scale = 0.75 * min(out_w / width, out_h / height)
    corners = np.array([[0, 0], [width, 0], [width, height], [0, height]], dtype=np.float32)
    centre = np.array([out_w / 2, out_h / 2], dtype=np.float32)
    radians = np.deg2rad(angle)
    turn = np.array([[np.cos(radians), -np.sin(radians)], [np.sin(radians), np.cos(radians)]], dtype=np.float32)
    placed = (corners - [width / 2, height / 2]) * scale @ turn.T + centre
    # Perspective: the top edge narrower than the bottom one, as when the phone is held a little low.
    shift = perspective * width * scale
    placed += np.array([[shift, 0.5 * shift], [-shift, 0.5 * shift], [0, 0], [0, 0]], dtype=np.float32)
    matrix = cv2.getPerspectiveTransform(corners, placed.astype(np.float32))
    pixels = cv2.warpPerspective(
        np.asarray(card.convert("RGB")),
        matrix,
        (out_w, out_h),
        flags=cv2.INTER_AREA,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=(background, background, background),
    )
    if uneven_light:
        ramp = np.linspace(1.0, 1.0 - uneven_light, out_w, dtype=np.float32)[None, :]
        ramp = ramp * np.linspace(1.0, 1.0 - uneven_light / 2, out_h, dtype=np.float32)[:, None]
        pixels = np.clip(pixels.astype(np.float32) * ramp[:, :, None], 0, 255).astype(np.uint8)
    photo = Image.fromarray(pixels)
    if blur:
        photo = photo.filter(ImageFilter.GaussianBlur(blur))
    buffer = io.BytesIO()
    photo.save(buffer, "JPEG", quality=jpeg_quality)
    buffer.seek(0)
    return Image.open(buffer).convert("RGB")


# A card's name is printed a little taller than its text: 1.1–1.2× on the printed cards measured.
NAME_TO_TEXT = 1.15


def render_layout_card(
    name: str,
    text_lines: Sequence[str],
    *,
    number: str = "",
    language: str = "ja",
    text_size: int = 24,
    layout: CardLayout = DEFAULT_LAYOUT,
    font_path: str | None = None,
    seed: int = 0,
) -> Image.Image:
    """A card drawn as ``layout`` places things: ``name`` in the name band (``NAME_TO_TEXT`` times the text's
    height), ``number`` in the number corner (none when empty: printings without a number), a pale "art" panel,
    and ``text_lines`` in the text box, in ``language``'s face of Noto CJK."""
    path = font_path or noto_cjk_path()
    if path is None:
        raise RuntimeError("no Noto Sans CJK font found (install Debian's fonts-noto-cjk)")
    face = _FACE.get(language, 0)
    card = Image.new("RGB", CARD_SIZE, (TABLE_GREY,) * 3)
    draw = ImageDraw.Draw(card)
    width, height = CARD_SIZE
    draw.rounded_rectangle((0, 0, width - 1, height - 1), radius=28, fill="white", outline="black", width=18)
    name_font = ImageFont.truetype(path, round(text_size * NAME_TO_TEXT), index=face)
    left, top, _right, bottom = layout.name.pixels(width, height)
    draw.text((left + 12, (top + bottom) / 2), name, fill="black", font=name_font, anchor="lm")
    font = ImageFont.truetype(path, text_size, index=face)
    if number and layout.number is not None:
        left, top, _right, bottom = layout.number.pixels(width, height)
        draw.text((left + 12, (top + bottom) / 2), number, fill="black", font=font, anchor="lm")
    chance = random.Random(seed)
    art_top = round((layout.number or layout.name).bottom * height) + 10
    art_bottom = round(layout.text.top * height) - 10
    colour = tuple(chance.randint(200, 240) for _ in range(3))
    draw.rectangle((40, art_top, width - 40, art_bottom), fill=colour)
    left, top, _right, _bottom = layout.text.pixels(width, height)
    y = top + 8
    for line in text_lines:
        draw.text((left + 12, y), line, fill="black", font=font)
        y += round(text_size * 1.5)
    return card
