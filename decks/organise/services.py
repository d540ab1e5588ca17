"""Writes to a player's organisation of their own decks: folders, tags and the archive.

Decided where the issue is silent:
- Folders are one level deep and a deck is in at most one folder (ArkhamDB and NetrunnerDB have none, Moxfield
  nests them; one level covers "my tournament decks" and "ideas" without a tree to manage). Deleting a folder
  keeps its decks, out of any folder.
- Tags are the owner's own words: ``DeckTag`` rows per owner, at most ``MAX_TAGS_PER_DECK`` on a deck; a tag
  that no deck carries any more is removed, so the list of tags to filter by never holds dead ones.
- Archiving hides a deck from "My decks" (a filter shows the archive); the deck itself keeps working and keeps
  its visibility, so a shared or public link still opens it.
- Organising is not a change of the deck: its last change (``updated_at``), versions and verdict stay as they
  are. So these services write with ``QuerySet.update`` and the many-to-many table, never ``Deck.save``.
- Names are compared after Unicode NFKC (full-width Latin letters and half-width kana are the same name) and
  with runs of spaces made one; they are stored that way.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from cardsite.errors import Message
from cardsite.text import check_name
from cardsite.types import SiteUser, signed_in

from ..models import Deck, DeckFolder, DeckTag
from ..services import DeckError

MAX_FOLDER_NAME = 60
MAX_TAG_NAME = 40
MAX_FOLDERS = 200  # per player
MAX_TAGS_PER_DECK = 20


class _Keep:
    """The folder argument's "leave it as it is" (None means "out of any folder")."""


KEEP = _Keep()


def clean_name(name: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", name).split())


def _refuse(message: Message, code: str) -> DeckError:
    error = DeckError(message)
    error.code = code
    return error


_NAME_NEEDED = {"folder": _("A folder needs a name."), "tag": _("A tag cannot be empty.")}
_NAME_TOO_LONG = {
    "folder": _("A folder's name may have at most %(limit)s characters (“%(name)s” has %(length)s)."),
    "tag": _("A tag may have at most %(limit)s characters (“%(name)s” has %(length)s)."),
}
_NAME_LIMITS = {"folder": MAX_FOLDER_NAME, "tag": MAX_TAG_NAME}
_NAME_LABELS = {"folder": _("folder's name"), "tag": _("tag")}


def _check_name(name: str, what: str) -> str:
    cleaned = clean_name(name)
    if not cleaned:
        raise _refuse(Message(_NAME_NEEDED[what]), "name_required")
    check_name(cleaned, "name", _NAME_LABELS[what], DeckError)  # before the message that quotes it
    limit = _NAME_LIMITS[what]
    if len(cleaned) > limit:
        raise _refuse(
            Message(_NAME_TOO_LONG[what], {"limit": limit, "name": cleaned[:limit] + "…", "length": len(cleaned)}),
            "name_too_long",
        )
    return cleaned


def _folder_name(name: str) -> str:
    return _check_name(name, "folder")


def _folder_exists(name: str) -> DeckError:
    error = _refuse(Message(_("You already have a folder named “%(name)s”."), {"name": name}), "folder_exists")
    error.status = 409  # a conflict with what exists: the same request may succeed once that folder is renamed
    return error


@transaction.atomic
def create_folder(owner: SiteUser, name: str) -> DeckFolder:
    owner = signed_in(owner)
    cleaned = _folder_name(name)
    # The owner's row, locked: two requests making folders at once both see the other's count.
    get_user_model().objects.select_for_update().filter(pk=owner.pk).first()
    if DeckFolder.objects.filter(owner=owner).count() >= MAX_FOLDERS:
        raise _refuse(Message(_("You may have at most %(limit)s folders."), {"limit": MAX_FOLDERS}), "too_many_folders")
    if DeckFolder.objects.filter(owner=owner, name=cleaned).exists():
        raise _folder_exists(cleaned)
    try:
        with transaction.atomic():
            return DeckFolder.objects.create(owner=owner, name=cleaned)
    except IntegrityError:  # made by another request since the check
        raise _folder_exists(cleaned) from None


@transaction.atomic
def rename_folder(folder: DeckFolder, name: str) -> DeckFolder:
    cleaned = _folder_name(name)
    if DeckFolder.objects.filter(owner_id=folder.owner_id, name=cleaned).exclude(pk=folder.pk).exists():
        raise _folder_exists(cleaned)
    try:
        with transaction.atomic():
            DeckFolder.objects.filter(pk=folder.pk).update(name=cleaned)
    except IntegrityError:
        raise _folder_exists(cleaned) from None
    folder.name = cleaned
    return folder


def delete_folder(folder: DeckFolder) -> None:
    """Its decks stay, out of any folder (the foreign key is set to null)."""
    folder.delete()


def _check_folder(deck: Deck, folder: DeckFolder | None) -> None:
    if folder is not None and folder.owner_id != deck.owner_id:
        raise _refuse(Message(_("That folder is not one of yours.")), "unknown_folder")


def move_to_folder(deck: Deck, folder: DeckFolder | None) -> None:
    _check_folder(deck, folder)
    Deck.objects.filter(pk=deck.pk).update(folder=folder)
    deck.folder = folder


def parse_tags(text: str) -> list[str]:
    """Tags as typed in one line: separated by commas (``,`` ``、`` ``，``), in order, each once."""
    for separator in ("、", "，", "､"):
        text = text.replace(separator, ",")
    return list(dict.fromkeys(name for name in (clean_name(part) for part in text.split(",")) if name))


@transaction.atomic
def set_tags(deck: Deck, names: Iterable[str]) -> list[DeckTag]:
    """The deck's tags become ``names`` (made for its owner when new); tags left on no deck are removed."""
    cleaned = list(dict.fromkeys(_check_name(name, "tag") for name in names))
    if len(cleaned) > MAX_TAGS_PER_DECK:
        raise _refuse(
            Message(
                _("A deck may have at most %(limit)s tags (%(count)s given)."),
                {"limit": MAX_TAGS_PER_DECK, "count": len(cleaned)},
            ),
            "too_many_tags",
        )
    locked = Deck.objects.select_for_update().get(pk=deck.pk)
    existing = {tag.name: tag for tag in DeckTag.objects.filter(owner_id=locked.owner_id, name__in=cleaned)}
    tags = []
    for name in cleaned:
        tag = existing.get(name)
        if tag is None:
            tag, _made = DeckTag.objects.get_or_create(owner_id=locked.owner_id, name=name)
        tags.append(tag)
    locked.tags.set(tags)
    DeckTag.objects.filter(owner_id=locked.owner_id, decks__isnull=True).delete()
    return tags


def set_archived(deck: Deck, archived: bool) -> None:
    """Archived keeps the first time it was archived; unarchived clears it."""
    if archived:
        Deck.objects.filter(pk=deck.pk, archived_at__isnull=True).update(archived_at=timezone.now())
    else:
        Deck.objects.filter(pk=deck.pk).update(archived_at=None)
    deck.archived_at = Deck.objects.values_list("archived_at", flat=True).get(pk=deck.pk)


@transaction.atomic
def organise(
    deck: Deck,
    *,
    folder: DeckFolder | _Keep | None = KEEP,
    tags: Iterable[str] | None = None,
    archived: bool | None = None,
) -> None:
    """Every organisation change of one request, all or nothing (``KEEP``/None: that part unchanged)."""
    if not isinstance(folder, _Keep):
        move_to_folder(deck, folder)
    if tags is not None:
        set_tags(deck, tags)
    if archived is not None:
        set_archived(deck, archived)
