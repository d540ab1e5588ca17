"""A deck changed: pages that show decks are rendered afresh (``cardsite.pagecache``).

``decks.services`` bumps the version when it changes a deck's entries in bulk; these catch every
other save and delete of a deck or an entry, whatever wrote it (the admin, a cascade).
"""

from __future__ import annotations

from typing import Any

from django.db.models.signals import post_delete, post_save

from cardsite import pagecache

from .models import Deck, DeckEntry


def _changed(sender: Any, **kwargs: Any) -> None:
    pagecache.bump("decks")


for model in (Deck, DeckEntry):
    post_save.connect(_changed, sender=model, dispatch_uid=f"pagecache.decks.save.{model.__name__}")
    post_delete.connect(_changed, sender=model, dispatch_uid=f"pagecache.decks.delete.{model.__name__}")
