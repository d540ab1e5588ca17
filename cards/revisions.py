"""Revisions of cards, kept with django-reversion: every write of a card (import, seed, admin) is one revision
holding the card and all its texts, with who made it, when, and where it came from (``RevisionSource``).

A revision can be read back (``card_history``) and a card brought back to any of them (django-reversion's
``Version.revert``, which the admin offers); a deleted card can be recovered from its last revision.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any, NamedTuple

import reversion
from django.contrib.contenttypes.models import ContentType
from django.db.models import Max
from reversion.models import Revision, Version
from reversion.signals import post_revision_commit

from cardsite.types import SiteUser

from .gamedefs import get_game
from .models import Card, CardText, RevisionSource, TranslationTrack

# A card's revision holds its texts; a text's revision holds its card (and so the card's other texts). A text's
# pin (``pinned_revision``) is kept beside the revisions, not in them: it names one.
reversion.register(Card, follow=("texts",))
reversion.register(CardText, follow=("card",), exclude=("pinned_revision",))


@contextmanager
def card_revision(
    kind: str, detail: str = "", user: SiteUser | None = None, url: str = "", photo: Any = None
) -> Iterator[None]:
    """Make the card writes inside one revision, recorded with its source. Inside another revision (an admin
    save that imports, say), the writes join that one."""
    if reversion.is_active():
        yield
        return
    with reversion.create_revision():
        if user is not None and getattr(user, "is_authenticated", False):
            reversion.set_user(user)
        reversion.set_comment(detail[:300])
        reversion.add_meta(RevisionSource, kind=kind, detail=detail[:300], url=url[:200], photo=photo)
        yield


def card_history(card: Card) -> list[Version]:
    """The card's revisions, newest first, with their revision, user and source loaded."""
    return list(
        Version.objects.get_for_object(card).select_related(
            "revision", "revision__user", "revision__source", "revision__source__photo"
        )
    )


# --- reading a card's revisions -------------------------------------------------------------------------

TEXT_PARTS = ("name", "text", "notes", "source")


class Change(NamedTuple):
    """One value a revision changed: ``what`` is "number", "kind", "source", "fields.<field>" or
    "texts.<language>.<part>"; ``before`` or ``after`` is None where the value was not there. (A tuple: a bulk
    preview makes tens of thousands.)"""

    what: str
    before: Any
    after: Any


@dataclass(frozen=True)
class CardRevision:
    """One revision of a card as its history shows it: when, by whom, from where, and what it changed."""

    id: int
    date: datetime
    user: str  # the user's name, "" when no user made it (a seed load, an import from the command line)
    kind: str  # RevisionSource.Kind, "" for a revision recorded without a source
    detail: str
    url: str  # a page about the source (a contribution's change set), or ""
    changes: tuple[Change, ...]
    photo_url: str = ""  # the photo or scan of the card the change came from, or ""
    # A revert or restore names a revision by id in ``detail``: when and by whom that one was made (None, "":
    # not among the card's revisions), so that the history says what was reverted, not only a number.
    named_date: datetime | None = None
    named_user: str = ""


def _snapshot(versions: list[Version], card_id: int, tracks: dict[int, TranslationTrack]) -> dict[str, Any]:
    """The card's values in one revision, flattened to ``Change.what`` keys (empty texts left out)."""
    state: dict[str, Any] = {"fields": {}, "texts": {}, "translations": {}}
    for version in versions:
        data = version.field_dict
        if version.content_type.model_class() is Card:
            if str(version.object_id) == str(card_id):
                state.update({name: data.get(name) for name in ("number", "kind", "source")})
                state["fields"] = data.get("fields") or {}
        elif data.get("card") == card_id or data.get("card_id") == card_id:
            parts = {part: data.get(part) for part in TEXT_PARTS}
            track = tracks.get(data.get("track") or data.get("track_id") or 0)
            if track is None or track.main:
                state["texts"][data["language"]] = parts
            else:
                state["translations"].setdefault(data["language"], {})[track.name] = parts
    return flatten_state(state)


def flatten_state(state: dict[str, Any] | None) -> dict[str, Any]:
    """A card's state (``cards.services.card_state``) flattened to ``Change.what`` keys, as a revision's values."""
    values: dict[str, Any] = {}
    if not state:
        return values
    for name in ("number", "kind", "source"):
        if state.get(name) not in (None, ""):
            values[name] = state[name]
    for name, value in (state.get("fields") or {}).items():
        if value is not None:
            values[f"fields.{name}"] = value
    for language, parts in (state.get("texts") or {}).items():
        for part in TEXT_PARTS:
            if parts.get(part):
                values[f"texts.{language}.{part}"] = parts[part]
    for language, by_track in (state.get("translations") or {}).items():
        for name, parts in by_track.items():
            for part in TEXT_PARTS:
                if parts.get(part):
                    values[f"translations.{language}.{name}.{part}"] = parts[part]
    return values


def unflatten_state(values: dict[str, Any]) -> dict[str, Any]:
    """The card state (``cards.services.card_state``'s shape) that flattened ``values`` describe."""
    state: dict[str, Any] = {"number": None, "kind": None, "fields": {}, "source": "", "texts": {}}
    for what, value in values.items():
        head, _dot, rest = what.partition(".")
        if head == "fields":
            state["fields"][rest] = value
        elif head == "texts":
            language, _dot, part = rest.partition(".")
            state["texts"].setdefault(language, {})[part] = value
        elif head == "translations":
            language, name, part = translation_place(what)
            state.setdefault("translations", {}).setdefault(language, {}).setdefault(name, {})[part] = value
        else:
            state[head] = value
    return state


def revision_values(revision_id: int, card_id: int) -> dict[str, Any]:
    """A card's flattened values as one revision kept them (a deleted card's too)."""
    versions = list(Version.objects.filter(revision_id=revision_id).select_related("content_type"))
    tracks = {track.pk: track for track in TranslationTrack.objects.all()}
    return _snapshot(versions, card_id, tracks)


def translation_place(what: str) -> tuple[str, str, str]:
    """(language, track name, part) of a ``translations.<language>.<track>.<part>`` value (a track's name may
    hold dots)."""
    _head, language, rest = what.split(".", 2)
    name, _dot, part = rest.rpartition(".")
    return language, name, part


def diff_values(before: dict[str, Any], after: dict[str, Any]) -> tuple[Change, ...]:
    """The values that differ between two flattened states, in the order a card shows them."""
    changed = [what for what in before.keys() | after.keys() if before.get(what) != after.get(what)]
    return tuple(Change(what, before.get(what), after.get(what)) for what in sorted(changed, key=_change_order))


def card_revisions(card: Card) -> list[CardRevision]:
    """The card's revisions, newest first, each with the values it changed against the one before."""
    revisions = [version.revision for version in reversed(card_history(card))]  # oldest first
    versions_of: dict[int, list[Version]] = {}
    if revisions:
        for version in Version.objects.filter(revision__in=revisions).select_related("content_type"):
            versions_of.setdefault(version.revision_id, []).append(version)
    tracks = {track.pk: track for track in TranslationTrack.objects.filter(game_id=card.game_id)}
    read: list[CardRevision] = []
    before: dict[str, Any] = {}
    for revision in revisions:
        after = _snapshot(versions_of.get(revision.pk, []), card.pk, tracks)
        changes = diff_values(before, after)
        source = getattr(revision, "source", None)
        read.append(
            CardRevision(
                id=revision.pk,
                date=revision.date_created,
                user=revision.user.get_username() if revision.user else "",
                kind=source.kind if source else "",
                detail=source.detail if source else revision.comment,
                url=source.url if source else "",
                changes=changes,
                photo_url=source.photo.url if source and source.photo_id else "",
            )
        )
        before = after
    return _with_named_revisions(read)[::-1]


def _with_named_revisions(read: list[CardRevision]) -> list[CardRevision]:
    """Each revert's and restore's revision, with the date and author of the revision its ``detail`` names."""
    by_id = {revision.id: revision for revision in read}
    named_kinds = (RevisionSource.Kind.REVERT, RevisionSource.Kind.RESTORE)
    out = []
    for revision in read:
        named = by_id.get(int(revision.detail)) if revision.kind in named_kinds and revision.detail.isdigit() else None
        if named is not None:
            revision = dataclasses.replace(revision, named_date=named.date, named_user=named.user)
        out.append(revision)
    return out


_ORDER = {"number": 0, "kind": 1, "fields": 2, "source": 3, "texts": 4, "translations": 5}


def _change_order(what: str) -> tuple[int, str]:
    return (_ORDER.get(what.partition(".")[0], 6), what)


def value_origins(revisions: list[CardRevision]) -> dict[str, CardRevision]:
    """For each value of the card (``Change.what``), the revision that last set it (``revisions`` newest first)."""
    origins: dict[str, CardRevision] = {}
    for revision in reversed(revisions):
        for change in revision.changes:
            if change.after is not None:
                origins[change.what] = revision
            else:
                origins.pop(change.what, None)
    return origins


# --- what each translation translates ------------------------------------------------------------------

_CONTENT = ("name", "text")  # what a translation translates: a change of the original's source or notes is not one


def is_stale(translation: CardText, original: CardText | None) -> bool:
    """Whether ``original`` changed since ``translation`` was made: its pin is not the original's.

    A translation made while the card had no original text, or of a card that has none now, is not stale: it
    translates nothing that changed."""
    if original is None or translation.pinned_revision_id is None or original.pk == translation.pk:
        return False
    return translation.pinned_revision_id != original.pinned_revision_id


def _pin_texts(sender: Any, revision: Revision, versions: list[Version], **kwargs: Any) -> None:
    """After every revision, whatever made it (a seed load, an import, a contribution, the admin, a revert): an
    original text whose name or rules text changed is pinned to this revision, and a translation that changed
    (or is new) is pinned to its original's revision, as it stands now. A translation that did not change
    keeps its pin, and so becomes stale when its original changed."""
    text_type = ContentType.objects.get_for_model(CardText)
    ids = [int(version.object_id) for version in versions if version.content_type_id == text_type.pk]
    if not ids:
        return
    latest = (
        Version.objects.filter(content_type=text_type, object_id__in=[str(pk) for pk in ids])
        .filter(revision_id__lt=revision.pk)
        .order_by()
        .values("object_id")
        .annotate(last=Max("pk"))
        .values_list("last", flat=True)
    )
    before = {int(version.object_id): version.field_dict for version in Version.objects.filter(pk__in=list(latest))}
    texts = list(CardText.objects.filter(pk__in=ids).select_related("card__game"))
    changed = {
        text.pk
        for text in texts
        if text.pk not in before or any(before[text.pk].get(part) != getattr(text, part) for part in _CONTENT)
    }
    cards = {text.card_id: text.card for text in texts}
    originals: dict[int, CardText] = {}
    for original in CardText.objects.filter(card_id__in=cards, track__isnull=True).select_related("card__game"):
        if original.language == get_game(original.card.game.slug).original_language:
            originals[original.card_id] = original
    moved = [original.pk for original in originals.values() if original.pk in changed]
    CardText.objects.filter(pk__in=moved).update(pinned_revision=revision)
    for original in originals.values():
        if original.pk in changed:
            original.pinned_revision_id = revision.pk
    pins: dict[int | None, list[int]] = {}
    for text in texts:
        original = originals.get(text.card_id)
        if text.pk in changed and original is not None and original.pk != text.pk:
            pins.setdefault(original.pinned_revision_id, []).append(text.pk)
    for pin, pks in pins.items():
        CardText.objects.filter(pk__in=pks).update(pinned_revision_id=pin)


post_revision_commit.connect(_pin_texts, dispatch_uid="cards.revisions.pin_texts")
