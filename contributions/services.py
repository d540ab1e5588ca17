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
from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext_lazy as _

from cards.gamedefs.messages import Problem
from cards.importing import ImportProblem, TrackRecord, check_cards, check_tracks
from cards.models import Card, Game, RevisionSource, TranslationTrack
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
from cardsite.errors import AppError, Message

from . import selectors
from .models import CardChange, ChangeSet, Notice

logger = logging.getLogger(__name__)

MAX_CARDS_PER_CHANGE_SET = 2000


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


def _current_states(game: Game, keys: list[str], *, lock: bool) -> dict[str, dict[str, Any]]:
    cards = Card.objects.filter(game=game, key__in=keys).prefetch_related("texts")
    if lock:
        cards = cards.select_for_update(of=("self",))
    return {card.key: card_state(card) for card in cards}


def _refuse_problems(problems: list[Any]) -> None:
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
    author: Any,
    game: Game,
    cards: list[Any],
    source_kind: str,
    source_detail: str = "",
    comment: str = "",
    seen: Mapping[str, str] | None = None,
    tracks: list[Any] | None = None,
) -> ChangeSet:
    """Store a change set of ``cards`` (records in the project's card format) and apply it at once if the
    author's role says so (``selectors.applies_at_once``); otherwise it waits for an editor.

    ``tracks``: the translation tracks it makes (``[{"language", "name", "credits"}]``), which its cards'
    ``translations`` may name beside the game's own. A contributor's track is never a language's main track,
    and starts as a draft unless its author reviews the game's changes.

    ``seen``: for each card key, ``state_digest`` of the card as the contributor saw it ("" for a card they
    add). A card whose state differs now is refused. Without ``seen`` (a bulk upload), cards are compared
    with their state now, and an editor's acceptance checks that nobody changed them since.
    """
    if not selectors.may_contribute(author, game):
        raise NotAllowed(_("You may not contribute to this game's cards."))
    if source_kind not in ChangeSet.SourceKind.values:
        raise ContributionError(
            _("Say where these values come from."), code="invalid_source", errors={"source_kind": [_("Choose one.")]}
        )
    if not isinstance(cards, list) or not cards:
        raise ContributionError(_("There is no card in this change set."), code="empty_change_set")
    if len(cards) > MAX_CARDS_PER_CHANGE_SET:
        raise ContributionError(
            Message(_("A change set may hold at most %(limit)s cards."), {"limit": MAX_CARDS_PER_CHANGE_SET}),
            code="too_many_cards",
        )
    records, problems = check_cards(game.definition, cards)
    declared, track_problems = _declared_tracks(author, game, tracks)
    problems += track_problems
    if not problems:
        problems = unknown_tracks(game, records, declared)
    if problems:
        _refuse_problems(problems)
    _refuse_existing_tracks(game, declared)
    current = _current_states(game, [record.key for record in records], lock=True)
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
    if not changes:
        raise AlreadyDone(_("These cards are already as you propose: nothing to change."), code="no_change")
    change_set = ChangeSet.objects.create(
        game=game,
        author=author,
        source_kind=source_kind,
        source_detail=source_detail.strip()[:300],
        comment=comment.strip()[:2000],
        tracks=[dataclasses.asdict(track) for track in declared],
    )
    for position, change in enumerate(changes):
        change.change_set, change.position = change_set, position
    CardChange.objects.bulk_create(changes)
    if selectors.applies_at_once(author, game):
        _apply(change_set, decided_by=author, event=Notice.Event.APPLIED)
    return change_set


def _declared_tracks(author: Any, game: Game, tracks: Any) -> tuple[list[TrackRecord], list[ImportProblem]]:
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


def _apply(change_set: ChangeSet, *, decided_by: Any, event: str, reason: str = "") -> None:
    changes = list(change_set.changes.all())
    current = _current_states(change_set.game, [change.key for change in changes], lock=True)
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
    change_set.revision = write_cards(
        change_set.game,
        [record_from_state(change.key, change.proposed) for change in changes],
        kind=RevisionSource.Kind.CONTRIBUTION,
        detail=_source_detail(change_set),
        user=change_set.author,
        url=reverse("contributions:change_set", args=[change_set.pk]),
    )
    _decide(change_set, ChangeSet.Status.ACCEPTED, decided_by, reason)
    _notify(change_set, event)


def _decide(change_set: ChangeSet, status: str, decided_by: Any, reason: str) -> None:
    change_set.status = status
    change_set.decided_by = decided_by
    change_set.decided_at = timezone.now()
    change_set.reason = reason.strip()[:2000]
    change_set.save(update_fields=["status", "decided_by", "decided_at", "reason", "revision"])


def _pending_for_review(editor: Any, change_set_id: int) -> ChangeSet:
    change_set = ChangeSet.objects.select_for_update().select_related("game").filter(pk=change_set_id).first()
    if change_set is None or not selectors.may_review(editor, change_set.game):
        raise NotAllowed(_("Only an editor of this game may review its change sets."))
    if change_set.status != ChangeSet.Status.PENDING:
        raise AlreadyDone(_("This change set has already been reviewed."), code="already_reviewed")
    return change_set


@transaction.atomic
def accept_change_set(*, editor: Any, change_set_id: int, reason: str = "") -> ChangeSet:
    """Apply a waiting change set as one revision of its cards, and tell its author."""
    change_set = _pending_for_review(editor, change_set_id)
    _apply(change_set, decided_by=editor, event=Notice.Event.ACCEPTED, reason=reason)
    return change_set


@transaction.atomic
def reject_change_set(*, editor: Any, change_set_id: int, reason: str) -> ChangeSet:
    """Turn a waiting change set down, with the reason its author reads."""
    if not reason.strip():
        raise ContributionError(
            _("Say why this change set is rejected."), code="reason_required", errors={"reason": [_("Required.")]}
        )
    change_set = _pending_for_review(editor, change_set_id)
    _decide(change_set, ChangeSet.Status.REJECTED, editor, reason)
    _notify(change_set, Notice.Event.REJECTED)
    return change_set


@transaction.atomic
def mark_notices_read(user: Any) -> int:
    return Notice.objects.filter(user=user, read=False).update(read=True)


_MAIL_SUBJECTS = {
    Notice.Event.APPLIED: _("Your change set #%(number)s of %(game)s is applied"),
    Notice.Event.ACCEPTED: _("Your change set #%(number)s of %(game)s was accepted"),
    Notice.Event.REJECTED: _("Your change set #%(number)s of %(game)s was rejected"),
}


def _notify(change_set: ChangeSet, event: str) -> None:
    """A notice in the author's inbox, and an e-mail once the transaction commits (a failed mail loses nothing)."""
    Notice.objects.create(user=change_set.author, change_set=change_set, event=event)
    address = change_set.author.email
    if not address:
        return

    def send() -> None:
        with translation.override(settings.LANGUAGE_CODE):
            subject = str(
                Message(_MAIL_SUBJECTS[event], {"number": change_set.pk, "game": change_set.game.definition.names})
            )
            body = subject
            if change_set.reason:
                body += "\n\n" + change_set.reason
            body += "\n\n" + reverse("contributions:change_set", args=[change_set.pk])
        try:
            send_mail(subject, body, None, [address])
        except OSError:
            logger.exception("could not send the notice of change set %s", change_set.pk)

    transaction.on_commit(send)
