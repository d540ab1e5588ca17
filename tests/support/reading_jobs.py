"""Sending a batch of photos to the reading API."""

from __future__ import annotations

from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

URL = "/api/readings/"


def upload(data: bytes, name: str = "photo.jpg") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, data, content_type="image/jpeg")


def post_batch(client: Client, photos: list[bytes], game_slug: str = "endbreaker"):
    return client.post(URL, {"game": game_slug, "photo": [upload(data, f"p{i}.jpg") for i, data in enumerate(photos)]})
