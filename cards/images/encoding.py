"""Checking and re-encoding an uploaded card image: plain Python with Pillow, nothing of Django.

An upload is read only as far as needed to refuse it: its size in bytes first, then its header (format and
dimensions, before a single pixel is decoded, so a decompression bomb — a small file that claims a huge
image — is refused without its pixels being made). An accepted image is decoded, turned the way its EXIF
orientation says, and re-encoded from its pixels alone: no EXIF (camera, time, GPS), no XMP, no ICC
profile, no comment survives. Every image comes out as WebP (universal in browsers, smaller than JPEG for
photos and than PNG for scans, with transparency where the original had it), the image at most
``MAX_SIDE`` pixels on its long side and a thumbnail at most ``THUMBNAIL_SIDE``.

The limits are the caller's (the site's settings); a refusal is an ``ImageRefused`` whose ``code`` says
which limit and whose ``params`` hold the numbers, so the caller words it in the reader's language.
"""

from __future__ import annotations

import hashlib
import io
import warnings
from dataclasses import dataclass
from typing import BinaryIO

from PIL import Image, ImageOps, UnidentifiedImageError

ACCEPTED_FORMATS = ("JPEG", "PNG", "WEBP")
OUTPUT_FORMAT = "WEBP"
CONTENT_TYPES = {"webp": "image/webp", "png": "image/png", "jpeg": "image/jpeg"}
MAX_SIDE = 2000  # a card scan needs no more to be read; larger originals are scaled down
THUMBNAIL_SIDE = 320
QUALITY = 88
THUMBNAIL_QUALITY = 80


@dataclass(frozen=True)
class ImageLimits:
    max_bytes: int = 10_000_000
    max_pixels: int = 40_000_000  # width × height as the file claims it
    min_side: int = 16


class ImageRefused(Exception):
    """An upload that is not an image this site takes; ``code`` names the check, ``params`` its numbers."""

    def __init__(self, code: str, **params: object) -> None:
        super().__init__(code)
        self.code = code
        self.params = params


@dataclass(frozen=True)
class Encoded:
    data: bytes
    width: int
    height: int


@dataclass(frozen=True)
class CheckedImage:
    """An accepted upload, re-encoded: the image and its thumbnail, and what they were made from."""

    image: Encoded
    thumbnail: Encoded
    format: str  # of both, lower case: "webp"
    original_format: str  # "jpeg", "png" or "webp"
    original_width: int
    original_height: int
    sha256: str  # of the re-encoded image: the same picture uploaded twice is stored once


def _read_bounded(stream: BinaryIO, limit: int) -> bytes:
    data = stream.read(limit + 1)
    if len(data) > limit:
        raise ImageRefused("too_large", limit=limit)
    return data


def _encode(image: Image.Image, quality: int) -> Encoded:
    buffer = io.BytesIO()
    # Saved from the pixels alone: no exif=, icc_profile= or xmp= is passed, so none is written.
    image.save(buffer, OUTPUT_FORMAT, quality=quality, method=4)
    return Encoded(buffer.getvalue(), image.width, image.height)


def _scaled(image: Image.Image, side: int) -> Image.Image:
    if max(image.size) <= side:
        return image
    copy = image.copy()
    copy.thumbnail((side, side), Image.Resampling.LANCZOS)
    return copy


def check_image(stream: BinaryIO, limits: ImageLimits) -> CheckedImage:
    """Check an upload against ``limits`` and re-encode it without metadata; ``ImageRefused`` if it cannot be."""
    data = _read_bounded(stream, limits.max_bytes)
    if not data:
        raise ImageRefused("empty")
    with warnings.catch_warnings():
        # Pillow warns (and past twice its own limit, raises) on images larger than MAX_IMAGE_PIXELS; the
        # claimed size is checked below before decoding, and any such warning is taken as a refusal.
        warnings.simplefilter("error", Image.DecompressionBombWarning)
        try:
            with Image.open(io.BytesIO(data), formats=ACCEPTED_FORMATS) as opened:
                width, height = opened.size
                original_format = (opened.format or "").lower()
                if width * height > limits.max_pixels:
                    raise ImageRefused("too_many_pixels", limit=limits.max_pixels, width=width, height=height)
                if min(width, height) < limits.min_side:
                    raise ImageRefused("too_small", limit=limits.min_side, width=width, height=height)
                opened.load()  # the pixels: a truncated or corrupt file fails here
                image = ImageOps.exif_transpose(opened)
            has_alpha = image.mode in ("RGBA", "LA", "PA") or (image.mode == "P" and "transparency" in image.info)
            image = image.convert("RGBA" if has_alpha else "RGB")
            full = _encode(_scaled(image, MAX_SIDE), QUALITY)
            thumbnail = _encode(_scaled(image, THUMBNAIL_SIDE), THUMBNAIL_QUALITY)
        except ImageRefused:
            raise
        except (Image.DecompressionBombError, Image.DecompressionBombWarning):
            raise ImageRefused("too_many_pixels", limit=limits.max_pixels) from None
        except UnidentifiedImageError:
            raise ImageRefused("not_an_image", formats=", ".join(ACCEPTED_FORMATS)) from None
        except Exception:  # a hostile file can make a decoder fail in any way: then it is unreadable
            raise ImageRefused("unreadable") from None
    return CheckedImage(
        image=full,
        thumbnail=thumbnail,
        format=OUTPUT_FORMAT.lower(),
        original_format=original_format,
        original_width=width,
        original_height=height,
        sha256=hashlib.sha256(full.data).hexdigest(),
    )


def content_type(image_format: str) -> str:
    """The Content-Type of a stored format ("webp" → image/webp); octet-stream for anything else."""
    return CONTENT_TYPES.get(image_format.lower(), "application/octet-stream")
