"""Uploaded card pictures as production serves them: gunicorn, DEBUG off, WhiteNoise serving static files
only; the site streams the pictures from its storage (MEDIA_ROOT here) with their type and safe headers.

Starts real processes: one test.
"""

from __future__ import annotations

import io
import json

import pytest
from PIL import Image

from .servers import production_site

pytestmark = pytest.mark.django_db(transaction=True)

SETUP = """
import io, json
from django.contrib.auth.models import User
from cards.models import Card, CardImage, Game
from cards.services import sync_games
from cards.images.services import image_store
from PIL import Image

sync_games()
game = Game.objects.get(slug="shadowera")
card = Card.objects.create(game=game, key="TEST-PICTURE", kind="ally")
buffer = io.BytesIO()
Image.new("RGB", (300, 420), (40, 90, 160)).save(buffer, "JPEG")
buffer.seek(0)
stored = image_store(uploader=User.objects.create_user("uploader"), stream=buffer)
CardImage.objects.create(card=card, image=stored)
print(json.dumps({"url": stored.url, "thumbnail": stored.thumbnail_url}))
"""


def test_pictures_are_served_by_the_site_with_debug_off_with_their_type_and_safe_headers(tmp_path):
    with production_site(tmp_path, MEDIA_ROOT=str(tmp_path / "media")) as site:
        made = json.loads(site.django(SETUP))
        for url in (made["url"], made["thumbnail"]):
            response = site.get(url)
            assert response.status_code == 200, url
            assert response.headers["Content-Type"] == "image/webp"
            assert response.headers["X-Content-Type-Options"] == "nosniff"
            assert response.headers["Content-Security-Policy"].startswith("default-src 'none'")
            assert "immutable" in response.headers["Cache-Control"]
            assert Image.open(io.BytesIO(response.content)).format == "WEBP"
        page = site.get("/games/shadowera/cards/TEST-PICTURE/")
        assert page.status_code == 200, site.logs()[-1500:]
        assert made["thumbnail"] in page.text and 'loading="lazy"' in page.text
        assert "img-src 'self'" in page.headers["Content-Security-Policy"]
        assert site.get("/media/images/not-a-stored-name.webp").status_code == 404
