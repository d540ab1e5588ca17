"""Synthetic card pictures, and proposing one through the site."""

from __future__ import annotations

import io

from django.test import Client
from django.urls import reverse
from PIL import Image

CARD = "Test Ally 01"


def picture(
    size: tuple[int, int] = (600, 840), color: tuple[int, int, int] = (180, 40, 40), fmt: str = "JPEG", **save
) -> bytes:
    """A synthetic card picture: a coloured card with a lighter frame."""
    image = Image.new("RGB", size, color)
    image.paste((240, 230, 200), (20, 20, size[0] - 20, 60))
    buffer = io.BytesIO()
    image.save(buffer, fmt, **save)
    return buffer.getvalue()


def upload(name: str, data: bytes, content_type: str = "image/jpeg"):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile(name, data, content_type=content_type)


def propose_picture(client: Client, data: bytes, name: str = "card.jpg", **fields):
    url = reverse("contributions:card_images", args=["shadowera", CARD])
    body = {"action": "add", "side": "face", "language": "ja", "source_kind": "photo", **fields}
    return client.post(url, {**body, "picture": upload(name, data)})
