"""The card database changed: pages that show it are rendered afresh (``cardsite.pagecache``).

Every write of cards goes through ``cards.services``, but the admin also edits glossary terms and rules
in place; the model signals catch both, whatever wrote the row.
"""

from __future__ import annotations

from typing import Any

from django.db.models.signals import post_delete, post_save

from cardsite import pagecache

from .models import Card, CardText, Game, RuleSection, RuleText, Term, TermText


def _changed(sender: Any, **kwargs: Any) -> None:
    pagecache.bump("cards")


for model in (Game, Card, CardText, Term, TermText, RuleSection, RuleText):
    post_save.connect(_changed, sender=model, dispatch_uid=f"pagecache.cards.save.{model.__name__}")
    post_delete.connect(_changed, sender=model, dispatch_uid=f"pagecache.cards.delete.{model.__name__}")
