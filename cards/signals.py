"""The card database changed: pages that show it are rendered afresh (``cardsite.pagecache``).

Every write of cards goes through ``cards.services``, but the admin also edits glossary terms and rules
in place; the model signals catch both, whatever wrote the row. A term text's change also drops this
process's copy of the search glossary (``cards.search.glossary``).
"""

from __future__ import annotations

from typing import Any

from django.db.models.signals import post_delete, post_save

from cardsite import pagecache

from .models import Card, CardText, Game, RuleSection, RuleText, Term, TermText
from .search import glossary


def _changed(sender: Any, **kwargs: Any) -> None:
    pagecache.bump("cards")


def _glossary_changed(sender: Any, **kwargs: Any) -> None:
    # At once, not on commit: a search later in the same transaction sees the change.
    glossary.forget()


for model in (Game, Card, CardText, Term, TermText, RuleSection, RuleText):
    post_save.connect(_changed, sender=model, dispatch_uid=f"pagecache.cards.save.{model.__name__}")
    post_delete.connect(_changed, sender=model, dispatch_uid=f"pagecache.cards.delete.{model.__name__}")
post_save.connect(_glossary_changed, sender=TermText, dispatch_uid="search.glossary.save")
post_delete.connect(_glossary_changed, sender=TermText, dispatch_uid="search.glossary.delete")
