"""Reads of a player's organisation of their own decks: "My decks" filtered and sorted, and the folders and tags
to filter by. The one place the page and the API (``?mine=1``) read them from."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from django.db.models import Count, Q, QuerySet

from cardsite.types import SiteUser, signed_in

from ..models import Deck, DeckFolder, DeckTag
from ..selectors import decks_of, verdicts

# Sort names -> the order; ties always by id, so a page's order is stable.
SORTS: dict[str, tuple[str, ...]] = {
    "changed": ("-updated_at", "-id"),
    "oldest_change": ("updated_at", "id"),
    "name": ("name", "id"),
    "created": ("-created_at", "-id"),
}
ARCHIVE_CHOICES = ("active", "archived", "all")
LEGALITY_CHOICES = ("legal", "illegal")
NO_FOLDER = "none"


@dataclass(frozen=True)
class DeckFilter:
    """What "My decks" shows: ``game`` a slug, ``folder`` a folder id or ``NO_FOLDER``, ``tag`` a tag's name,
    ``legality`` one of ``LEGALITY_CHOICES``, ``archive`` one of ``ARCHIVE_CHOICES`` (default: not archived) and
    ``sort`` one of ``SORTS``; empty: no filter."""

    game: str = ""
    folder: str = ""
    tag: str = ""
    legality: str = ""
    archive: str = "active"
    sort: str = "changed"

    @classmethod
    def from_query(cls, query: Mapping[str, str]) -> DeckFilter:
        """From a page's query string: a value the page does not offer is read as no filter (the page shows what it
        used, so a stale bookmark still opens)."""
        folder = query.get("folder", "")
        return cls(
            game=query.get("game", "")[:64],
            folder=folder if folder == NO_FOLDER or (folder.isascii() and folder.isdigit()) else "",
            tag=query.get("tag", "")[:80],
            legality=query.get("legality", "") if query.get("legality") in LEGALITY_CHOICES else "",
            archive=query.get("archive", "") if query.get("archive") in ARCHIVE_CHOICES else "active",
            sort=query.get("sort", "") if query.get("sort") in SORTS else "changed",
        )

    @property
    def narrowed(self) -> bool:
        """Whether anything is filtered beyond the default (the page then offers to clear the filters)."""
        return bool(self.game or self.folder or self.tag or self.legality or self.archive != "active")


def filtered_decks(user: SiteUser, chosen: DeckFilter, language: str) -> QuerySet[Deck]:
    """The user's own decks that ``chosen`` lets through, in its order, with their folder and tags read."""
    decks = decks_of(user).select_related("folder").prefetch_related("tags")
    if chosen.game:
        decks = decks.filter(game__slug=chosen.game)
    if chosen.folder == NO_FOLDER:
        decks = decks.filter(folder__isnull=True)
    elif chosen.folder:
        decks = decks.filter(folder_id=int(chosen.folder))
    if chosen.tag:
        decks = decks.filter(tags__name=chosen.tag)
    if chosen.archive == "active":
        decks = decks.filter(archived_at__isnull=True)
    elif chosen.archive == "archived":
        decks = decks.filter(archived_at__isnull=False)
    if chosen.legality:
        # Legality is the rules' verdict, worked out in Python: only for the user's own decks, a bounded few.
        wanted = chosen.legality == "legal"
        found = verdicts(list(decks.select_related("game")), language)
        decks = decks.filter(pk__in=[pk for pk, verdict in found.items() if verdict.legal == wanted])
    return decks.order_by(*SORTS[chosen.sort])


def folders_of(user: SiteUser) -> QuerySet[DeckFolder]:
    """The user's folders, each with ``deck_count`` (its decks that are not archived)."""
    user = signed_in(user)
    return DeckFolder.objects.filter(owner=user).annotate(
        deck_count=Count("decks", filter=Q(decks__archived_at__isnull=True))
    )


def tags_of(user: SiteUser) -> QuerySet[DeckTag]:
    """The user's tags, each with ``deck_count`` (the decks carrying it that are not archived)."""
    user = signed_in(user)
    return DeckTag.objects.filter(owner=user).annotate(
        deck_count=Count("decks", filter=Q(decks__archived_at__isnull=True))
    )


def folder_named(user: SiteUser, name: str) -> DeckFolder | None:
    """The user's folder of this name, or None."""
    return DeckFolder.objects.filter(owner=signed_in(user), name=name).first() if name else None


def folder_of(user: SiteUser, pk: int) -> DeckFolder | None:
    """One of the user's folders (None for another's or an unknown one: the same answer, nothing revealed)."""
    user = signed_in(user)
    return DeckFolder.objects.filter(owner=user, pk=pk).first()
