"""What a collection may hold, stated once for every write path (pages, API, imports, admin)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from cardsite.errors import AppError, Message

from .models import MAX_OWNED

__all__ = ["MAX_OWNED", "CollectionError", "check_count", "count_problem"]


class CollectionError(AppError, ValueError):
    """A change of a collection that cannot be made; nothing was written."""

    code = "collection_change_refused"


def count_problem(count: Any) -> Message | None:
    """What is wrong with ``count`` as a number of copies owned, or None: a whole number from 0 to MAX_OWNED."""
    if isinstance(count, bool) or not isinstance(count, int):
        return Message(_("A number of copies must be a whole number (not “%(count)s”)."), {"count": count})
    if count < 0:
        return Message(_("A collection cannot hold fewer than 0 copies of a card (here %(count)s)."), {"count": count})
    if count > MAX_OWNED:
        return Message(
            _("A collection holds at most %(maximum)s copies of a card (here %(count)s)."),
            {"maximum": MAX_OWNED, "count": count},
        )
    return None


def check_count(count: Any, field: str = "count") -> int:
    problem = count_problem(count)
    if problem is not None:
        raise CollectionError(problem, errors={field: [problem]})
    return count
