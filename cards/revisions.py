"""Revisions of cards, kept with django-reversion: every write of a card (import, seed, admin) is one revision
holding the card and all its texts, with who made it, when, and where it came from (``RevisionSource``).

A revision can be read back (``card_history``) and a card brought back to any of them (django-reversion's
``Version.revert``, which the admin offers); a deleted card can be recovered from its last revision.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import reversion
from reversion.models import Version

from .models import Card, CardText, RevisionSource

# A card's revision holds its texts; a text's revision holds its card (and so the card's other texts).
reversion.register(Card, follow=("texts",))
reversion.register(CardText, follow=("card",))


@contextmanager
def card_revision(kind: str, detail: str = "", user: Any = None) -> Iterator[None]:
    """Make the card writes inside one revision, recorded with its source. Inside another revision (an admin
    save that imports, say), the writes join that one."""
    if reversion.is_active():
        yield
        return
    with reversion.create_revision():
        if user is not None and getattr(user, "is_authenticated", False):
            reversion.set_user(user)
        reversion.set_comment(detail[:300])
        reversion.add_meta(RevisionSource, kind=kind, detail=detail[:300])
        yield


def card_history(card: Card) -> list[Version]:
    """The card's revisions, newest first, with their revision, user and source loaded."""
    return list(Version.objects.get_for_object(card).select_related("revision", "revision__user", "revision__source"))
