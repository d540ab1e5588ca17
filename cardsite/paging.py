"""Pages of a list read one row ahead: the next page is known without counting the whole list (the inbox,
the published decks), for lists where a count would cost more than the page."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar

if TYPE_CHECKING:
    from django.db.models import QuerySet

T = TypeVar("T")

# The highest page number taken: past it a reader pages by search, not by walking.
MAX_PAGE = 10_000


@dataclass
class Page(Generic[T]):
    items: list[T]
    number: int
    has_next: bool

    @property
    def has_previous(self) -> bool:
        return self.number > 1

    @property
    def next_page_number(self) -> int:
        return self.number + 1

    @property
    def previous_page_number(self) -> int:
        return self.number - 1


def page_of(rows: Sequence[T] | QuerySet[Any, T], number: Any, size: int) -> Page[T]:
    """Page ``number`` of ``rows`` (a queryset or list; from 1, anything that is not a page number is page 1),
    reading one row more than the page to learn whether another follows."""
    try:
        number = max(1, min(int(number), MAX_PAGE))
    except (TypeError, ValueError):
        number = 1
    offset = (number - 1) * size
    read = list(rows[offset : offset + size + 1])
    return Page(items=read[:size], number=number, has_next=len(read) > size)
