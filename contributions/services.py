"""Writes of contributions: submitting a change set, accepting or rejecting it, and telling its author.

Views, forms and the API call these; nothing else writes change sets or applies them. Each function is
one transaction: a change set is stored whole or not at all, and applied whole or not at all.

A proposed card is checked exactly as the importer checks a file's card (``cards.importing.check_cards``,
the game's declarations); a problem is refused with its place (``cards[2].fields.attack``) and what is
wrong, in the reader's language. A card changed by someone else after the contributor read it is never
overwritten: the change is refused (``CardChangedSince``) with the card's values as they are now.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from cards.gamedefs.messages import Problem
from cards.images.services import image_hash
from cards.importing import ImportProblem, TrackRecord, check_cards, check_tracks
from cards.models import (
    LANGUAGE_CHOICES,
    Card,
    CardImage,
    Game,
    RevisionSource,
    StoredImage,
    TranslationTrack,
)
from cards.presentation import ProblemText
from cards.services import (
    card_state,
    ensure_tracks,
    game_tracks,
    record_from_state,
    record_state,
    state_digest,
    unknown_tracks,
    write_cards,
)
from cardsite import pagecache
from cardsite.errors import AppError, Message
from cardsite.text import check_text
from cardsite.types import SignedInUser, SiteUser, signed_in
from notifications.services import notify

from . import selectors
from .merging import merge_record, record_key
from .models import CardChange, ChangeSet, ImageChange
from .notices import CHANGE_SET, Event

logger = logging.getLogger(__name__)

MAX_CARDS_PER_CHANGE_SET = 2000
MAX_IMAGES_PER_CHANGE_SET = 20


@dataclass(frozen=True)
class ImageProposal:
    """A picture to add to the card ``key`` (or put back, if it was removed): a stored upload's id."""

    key: str
    image: int
    side: str = CardImage.Side.FACE
    language: str = ""


class ContributionError(AppError):
    """A contribution or a review that cannot be made; nothing was written."""

    code = "contribution_refused"


class NotAllowed(ContributionError):
    code = "not_allowed"
    status = 403


class CardChangedSince(ContributionError):
    """A card was changed by someone else after the contributor (or the change set) read it."""

    code = "card_changed_since"
    status = 409

    def __init__(self, message: Any, *, cards: Mapping[str, dict[str, Any] | None], **kwargs: Any) -> None:
        super().__init__(message, **kwargs)
        self.cards = dict(cards)  # key -> the card's state now (None: no such card any more)

    def extra(self) -> dict[str, Any]:
        return {"cards": self.cards}


class TrackExists(ContributionError):
    """A change set would make a translation track its game already has."""

    code = "track_exists"
    status = 409


class AlreadyDone(ContributionError):
    """What is asked is already so: the cards are as proposed, or the change set was reviewed."""

    status = 409


class NoSuchItem(ContributionError):
    """The card, revision or seed conflict named is not there."""

    status = 404


class CannotUndo(ContributionError):
    """A revert that would lose another change, or undo a card's making."""

    status = 409


def contribution_refusal(user: SiteUser, game: Game) -> str | None:
    """Why the user may not contribute to the game's cards (``selectors.may_contribute``), in the reader's
    language; None when they may."""
    if selectors.may_contribute(user, game):
        return None
    if selectors.is_blocked(user, game):
        return str(_("An editor of this game has blocked your contributions to its cards."))
    return str(_("You may not contribute to this game's cards."))


def current_states(game: Game, keys: list[str], *, lock: bool) -> dict[str, dict[str, Any]]:
    """The cards of ``game`` named by ``keys`` as they are now (``card_state``), locked for the transaction
    when ``lock``: what a write compares with what its author saw."""
    cards = Card.objects.filter(game=game, key__in=keys).prefetch_related("texts")
    if lock:
        cards = cards.select_for_update(of=("self",))
    return {card.key: card_state(card) for card in cards}


def refuse_problems(problems: list[Any]) -> None:
    """Refuse a write whose cards the importer's checks found wrong, each problem under its place."""
    errors: dict[str, list[Any]] = {}
    for problem in problems:
        place = problem.where.split(" ", 1)[0]
        path = f"{place}.{problem.field}" if problem.field else place
        errors.setdefault(path, []).append(ProblemText(problem.problem) if problem.problem else problem.message)
    raise ContributionError(
        _("Some values are not right (each is named below): nothing was submitted."),
        code="invalid_cards",
        errors=errors,
    )


@transaction.atomic
def submit_change_set(
    *,
    author: SiteUser,
    game: Game,
    cards: list[Any],
    source_kind: str,
    source_detail: str = "",
    comment: str = "",
    seen: Mapping[str, str] | None = None,
    source_photo: StoredImage | None = None,
    images: Sequence[ImageProposal] = (),
    remove_images: Sequence[int] = (),
    tracks: list[Any] | None = None,
    partial: bool = False,
) -> ChangeSet:
    """Store a change set of ``cards`` (records in the project's card format) and apply it at once if the
    author's role says so (``selectors.applies_at_once``); otherwise it waits for an editor.

    ``partial``: each record changes only what it names (``merging.merge_record``, ``null`` removes a value),
    merged with the card as it is under the lock, as the API and the bulk page send them; otherwise each
    record is the whole card (a form that shows every value).

    ``source_photo``: a stored upload (``cards.images.services.image_store``), the photo or scan the values
    come from. ``images``: pictures to add to cards (of the game, or added by this change set);
    ``remove_images``: ids of card images to take off their card (kept, and put back by proposing them again).
    ``tracks``: the translation tracks it makes (``[{"language", "name", "credits"}]``), which its cards'
    ``translations`` may name beside the game's own. A contributor's track is never a language's main track,
    and starts as a draft unless its author reviews the game's changes.

    ``seen``: for each card key, ``state_digest`` of the card as the contributor saw it ("" for a card they
    add). A card whose state differs now is refused. Without ``seen`` (a bulk upload), cards are compared
    with their state now, and an editor's acceptance checks that nobody changed them since.
    """
    author = signed_in(author)
    refusal = contribution_refusal(author, game)
    if refusal is not None:
        raise NotAllowed(refusal)
    if source_photo is not None and source_photo.pk not in selectors.attachable_uploads(author, [source_photo.pk]):
        message = Message(_("There is no upload #%(id)s."), {"id": source_photo.pk})
        raise ContributionError(message, code="no_such_upload", errors={"source_photo": [message]})
    if source_kind not in ChangeSet.SourceKind.values:
        raise ContributionError(
            _("Say where these values come from."), code="invalid_source", errors={"source_kind": [_("Choose one.")]}
        )
    check_text(comment, "comment", _("comment"), ContributionError)
    check_text(source_detail, "source_detail", _("source"), ContributionError)
    if not isinstance(cards, list) or not (cards or images or remove_images):
        raise ContributionError(_("There is no card in this change set."), code="empty_change_set")
    if len(cards) > MAX_CARDS_PER_CHANGE_SET:
        raise ContributionError(
            Message(_("A change set may hold at most %(limit)s cards."), {"limit": MAX_CARDS_PER_CHANGE_SET}),
            code="too_many_cards",
        )
    current: dict[str, dict[str, Any]] | None = None
    if partial:
        current = current_states(game, [key for card in cards if (key := record_key(card))], lock=True)
        cards = [merge_record(current.get(record_key(card) or ""), card) for card in cards]
    records, problems = check_cards(game.definition, cards) if cards else ([], [])
    declared, track_problems = _declared_tracks(author, game, tracks)
    problems += track_problems
    if not problems:
        problems = unknown_tracks(game, records, declared)
    if problems:
        refuse_problems(problems)
    _refuse_existing_tracks(game, declared)
    image_changes = _image_changes(author, game, {record.key for record in records}, images, remove_images)
    if current is None:
        current = current_states(game, [record.key for record in records], lock=True)
    if seen is not None:
        stale = {
            record.key: current.get(record.key)
            for record in records
            if state_digest(current.get(record.key)) != seen.get(record.key, "")
        }
        if stale:
            raise CardChangedSince(
                Message(
                    _("Someone changed %(cards)s after you opened it: nothing was submitted. Here it is as it is now."),
                    {"cards": sorted(stale)},
                ),
                cards=stale,
            )
    changes = [
        CardChange(key=record.key, base=current.get(record.key), proposed=record_state(record))
        for record in records
        if current.get(record.key) != record_state(record)
    ]
    if not changes and not image_changes:
        raise AlreadyDone(_("These cards are already as you propose: nothing to change."), code="no_change")
    change_set = ChangeSet.objects.create(
        game=game,
        author=author,
        source_kind=source_kind,
        source_detail=source_detail.strip()[:300],
        comment=comment.strip()[:2000],
        source_photo=source_photo,
        tracks=[dataclasses.asdict(track) for track in declared],
    )
    for position, change in enumerate(changes):
        change.change_set, change.position = change_set, position
    CardChange.objects.bulk_create(changes)
    for position, image_change in enumerate(image_changes):
        image_change.change_set, image_change.position = change_set, position
    ImageChange.objects.bulk_create(image_changes)
    if selectors.applies_at_once(author, game):
        _apply(change_set, decided_by=author, event=Event.APPLIED)
    return change_set


def _image_refused(path: str, message: Any) -> ContributionError:
    return ContributionError(
        _("Some pictures cannot be changed as proposed (each is named below): nothing was submitted."),
        code="invalid_images",
        errors={path: [message]},
    )


def _image_changes(
    author: SiteUser, game: Game, new_keys: set[str], images: Sequence[ImageProposal], remove_images: Sequence[int]
) -> list[ImageChange]:
    """The image changes proposed, checked: a picture of a card of the game (or of this change set) with a
    known side and language; a removal of a picture the game's card shows. Pictures already as proposed are
    left out (none left and no card changed: "nothing to change")."""
    if len(images) + len(remove_images) > MAX_IMAGES_PER_CHANGE_SET:
        raise ContributionError(
            Message(_("A change set may hold at most %(limit)s pictures."), {"limit": MAX_IMAGES_PER_CHANGE_SET}),
            code="too_many_images",
        )
    languages = {"", *(code for code, _name in LANGUAGE_CHOICES)}
    keys = {proposal.key for proposal in images}
    existing = set(Card.objects.filter(game=game, key__in=keys).values_list("key", flat=True))
    stored = selectors.attachable_uploads(author, [proposal.image for proposal in images])
    shown = {
        (key, image_id): removed is None
        for key, image_id, removed in CardImage.objects.filter(card__game=game, card__key__in=keys).values_list(
            "card__key", "image_id", "removed_at"
        )
    }
    changes = []
    for index, proposal in enumerate(images):
        place = f"images[{index}]"
        if proposal.key not in existing and proposal.key not in new_keys:
            raise _image_refused(f"{place}.card", Message(_("There is no card %(key)s."), {"key": proposal.key}))
        if proposal.image not in stored:
            raise _image_refused(f"{place}.image", Message(_("There is no upload #%(id)s."), {"id": proposal.image}))
        if proposal.side not in CardImage.Side.values:
            raise _image_refused(f"{place}.side", _("Choose the face, the back or other."))
        if proposal.language not in languages:
            raise _image_refused(f"{place}.language", _("Choose one of the site's languages, or none."))
        if not shown.get((proposal.key, proposal.image)):
            changes.append(
                ImageChange(
                    key=proposal.key,
                    action=ImageChange.Action.ADD,
                    image=stored[proposal.image],
                    side=proposal.side,
                    language=proposal.language,
                )
            )
    targets = CardImage.objects.filter(card__game=game, pk__in=remove_images, removed_at__isnull=True)
    found = {target.pk: target for target in targets.select_related("card", "image")}
    for index, pk in enumerate(remove_images):
        target = found.get(pk)
        if target is None:
            raise _image_refused(
                f"remove_images[{index}]", Message(_("This game's cards show no picture #%(id)s."), {"id": pk})
            )
        changes.append(
            ImageChange(
                key=target.card.key,
                action=ImageChange.Action.REMOVE,
                image=target.image,
                side=target.side,
                language=target.language,
            )
        )
    return changes


def _apply_images(change_set: ChangeSet) -> None:
    """Show the change set's pictures on their cards, and take off those it removes (kept, hidden)."""
    image_changes = list(change_set.image_changes.all())
    if not image_changes:
        return
    cards = {
        card.key: card
        for card in Card.objects.select_for_update().filter(
            game=change_set.game, key__in={change.key for change in image_changes}
        )
    }
    now = timezone.now()
    for change in image_changes:
        card = cards[change.key]
        current = CardImage.objects.filter(card=card, image=change.image).first()
        if change.action == ImageChange.Action.REMOVE:
            if current is not None and current.removed_at is None:
                current.removed_at = now
                current.save(update_fields=["removed_at"])
            continue
        if current is None:
            last = CardImage.objects.filter(card=card).order_by("-position").values_list("position", flat=True).first()
            current = CardImage(card=card, image=change.image, position=(last or 0) + 1)
        current.side, current.language, current.removed_at = change.side, change.language, None
        current.save()
        image_hash(change.image)  # so that a photo of this card is recognised as a picture it already has
    pagecache.bump("cards")


def _declared_tracks(author: SiteUser, game: Game, tracks: Any) -> tuple[list[TrackRecord], list[ImportProblem]]:
    """The new translation tracks of a change set, checked as a file's are: never a main track, and a draft
    unless their author reviews the game's changes."""
    declared, problems = check_tracks(game.definition, tracks)
    status_allowed = selectors.may_review(author, game)
    return [
        dataclasses.replace(track, main=False, status=track.status if status_allowed else TranslationTrack.Status.DRAFT)
        for track in declared
    ], problems


def _refuse_existing_tracks(game: Game, declared: list[TrackRecord]) -> None:
    """A new track the game already has (someone made it meanwhile, or the contributor did not see it) is
    refused as a conflict with the database's state, naming the track, rather than silently joined."""
    existing = game_tracks(game)
    errors = {
        f"tracks[{index}].name": [
            ProblemText(Problem("track_exists", {"game": game.definition.names, "track": track.name}))
        ]
        for index, track in enumerate(declared)
        if (track.language, track.name) in existing
    }
    if errors:
        raise TrackExists(
            _("A translation of this name already exists: choose it, or name yours otherwise."), errors=errors
        )


def _source_detail(change_set: ChangeSet) -> str:
    """What a revision's source says of a change set: its number and the details of its source (the kind of
    source is on the change set's page, in the reader's language)."""
    detail = f"#{change_set.pk}"
    return f"{detail} · {change_set.source_detail}" if change_set.source_detail else detail


def _apply(change_set: ChangeSet, *, decided_by: SignedInUser, event: str, reason: str = "") -> None:
    changes = list(change_set.changes.all())
    current = current_states(change_set.game, [change.key for change in changes], lock=True)
    stale = {change.key: current.get(change.key) for change in changes if current.get(change.key) != change.base}
    if stale:
        raise CardChangedSince(
            Message(
                _("%(cards)s changed after this change set was made: it cannot be applied as it is."),
                {"cards": sorted(stale)},
            ),
            cards=stale,
        )
    # Tracks it makes that someone else made meanwhile are taken as they are (``ensure_tracks``).
    ensure_tracks(change_set.game, [TrackRecord(**track) for track in change_set.tracks or []])
    if changes:
        change_set.revision = write_cards(
            change_set.game,
            [record_from_state(change.key, change.proposed) for change in changes],
            kind=RevisionSource.Kind.CONTRIBUTION,
            detail=_source_detail(change_set),
            user=change_set.author,
            url=reverse("contributions:change_set", args=[change_set.pk]),
            photo=change_set.source_photo,
        )
    _apply_images(change_set)
    _decide(change_set, ChangeSet.Status.ACCEPTED, decided_by, reason)
    _notify(change_set, event)


def _decide(change_set: ChangeSet, status: str, decided_by: SignedInUser, reason: str) -> None:
    change_set.status = status
    change_set.decided_by = decided_by
    change_set.decided_at = timezone.now()
    change_set.reason = reason.strip()[:2000]
    change_set.save(update_fields=["status", "decided_by", "decided_at", "reason", "revision"])


def _pending_for_review(editor: SiteUser, change_set_id: int) -> ChangeSet:
    change_set = ChangeSet.objects.select_for_update().select_related("game").filter(pk=change_set_id).first()
    if change_set is None or not selectors.may_review(editor, change_set.game):
        raise NotAllowed(_("Only an editor of this game may review its change sets."))
    if change_set.status != ChangeSet.Status.PENDING:
        raise AlreadyDone(_("This change set has already been reviewed."), code="already_reviewed")
    return change_set


@transaction.atomic
def accept_change_set(*, editor: SiteUser, change_set_id: int, reason: str = "") -> ChangeSet:
    """Apply a waiting change set as one revision of its cards, and tell its author."""
    editor = signed_in(editor)
    change_set = _pending_for_review(editor, change_set_id)
    _apply(change_set, decided_by=editor, event=Event.ACCEPTED, reason=reason)
    return change_set


@transaction.atomic
def reject_change_set(*, editor: SiteUser, change_set_id: int, reason: str) -> ChangeSet:
    """Turn a waiting change set down, with the reason its author reads."""
    editor = signed_in(editor)
    if not reason.strip():
        raise ContributionError(
            _("Say why this change set is rejected."), code="reason_required", errors={"reason": [_("Required.")]}
        )
    change_set = _pending_for_review(editor, change_set_id)
    _decide(change_set, ChangeSet.Status.REJECTED, editor, reason)
    _notify(change_set, Event.REJECTED)
    return change_set


def _notify(change_set: ChangeSet, event: str) -> None:
    """A notification in the author's inbox (e-mailed as they chose, ``contributions.notices``)."""
    notify([change_set.author], kind=CHANGE_SET, verb=event, target=change_set, actor=change_set.decided_by)
