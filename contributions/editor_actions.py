"""Writes of an editor's other work on a game's cards: settling seed conflicts, reverting a revision,
restoring a deleted card, and blocking or unblocking a contributor.

Each function is one transaction, refused whole (``services.ContributionError`` and its kinds) when the editor
may not do it or the card changed since they looked at it.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from cards import selectors as card_selectors
from cards.history_presentation import value_name
from cards.importing import check_cards
from cards.models import Card, Game, RevisionSource, SeedConflict, SeedState
from cards.revisions import card_revisions, flatten_state, revision_values, unflatten_state
from cards.services import card_state, record_from_state, state_digest, write_cards
from cardsite.errors import Message
from cardsite.text import check_text
from cardsite.types import SiteUser, signed_in

from . import selectors
from .models import GameRole
from .services import (
    AlreadyDone,
    CannotUndo,
    CardChangedSince,
    ContributionError,
    NoSuchItem,
    NotAllowed,
    current_states,
    refuse_problems,
)


def _refuse_stale(key: str, current: dict[str, Any] | None, seen: str) -> None:
    if state_digest(current) != seen:
        raise CardChangedSince(
            Message(
                _("Someone changed %(cards)s after you opened it: nothing was changed. Here it is as it is now."),
                {"cards": [key]},
            ),
            cards={key: current},
        )


def _editor_of(editor: SiteUser, game: Game) -> None:
    if not selectors.may_review(editor, game):
        raise NotAllowed(_("Only an editor of this game may do this."))


def _checked_record(game: Game, key: str, state: dict[str, Any]) -> Any:
    """The card a revert or a restore writes, checked with the importer's rules as every write is (the game's
    declarations may have changed since the revision was made)."""
    record = record_from_state(key, state)
    raw = {
        "key": key,
        "number": record.number,
        "kind": record.kind,
        "fields": record.fields,
        "texts": record.texts,
        "source": record.source,
    }
    if record.translations:
        raw["translations"] = record.translations
    records, problems = check_cards(game.definition, [raw])
    if problems:
        refuse_problems(problems)
    return records[0]


class SeedChoice:
    CURRENT = "current"
    SEED = "seed"


@transaction.atomic
def seed_conflict_resolve(*, editor: SiteUser, conflict_id: int, take: str, seen: str, seed_seen: str) -> SeedConflict:
    """Settle a seed conflict (a seed file changed a card someone had changed since): keep the card as it is
    (``take="current"``), or take the seed's values as a new revision whose source is the seed, made by the
    editor (``take="seed"``). Either way the seed, as it now stands, counts as loaded: the next start of the
    site does not raise the conflict again.

    ``seen`` and ``seed_seen``: ``state_digest`` of the card and of the seed's card as the editor saw them; if
    either changed meanwhile (someone edited the card, a new seed was loaded), nothing is done.
    """
    conflict = SeedConflict.objects.select_for_update().select_related("card__game").filter(pk=conflict_id).first()
    if conflict is None:
        raise AlreadyDone(_("This seed conflict has already been settled."), code="already_settled")
    card = conflict.card
    _editor_of(editor, card.game)
    if take not in (SeedChoice.CURRENT, SeedChoice.SEED):
        raise ContributionError(
            _("Choose the current values or the seed's."), code="invalid_choice", errors={"take": [_("Choose one.")]}
        )
    current = current_states(card.game, [card.key], lock=True).get(card.key)
    _refuse_stale(card.key, current, seen)
    if state_digest(conflict.seed) != seed_seen:
        raise CannotUndo(
            _("The seed files changed this card again after you opened it: nothing was changed. Look again."),
            code="seed_changed_since",
        )
    if take == SeedChoice.SEED and current != conflict.seed:
        write_cards(
            card.game,
            [_checked_record(card.game, card.key, conflict.seed)],
            kind=RevisionSource.Kind.SEED,
            detail="",
            user=editor,
        )
    SeedState.objects.update_or_create(card=card, defaults={"record": conflict.seed})
    conflict.delete()
    return conflict


@transaction.atomic
def card_revert(*, editor: SiteUser, game: Game, key: str, revision_id: int, seen: str) -> Card:
    """Undo what one revision of a card changed, as a new revision by the editor ("revert of revision N").

    Each value the revision set goes back to what it was before it. A value changed again by a later revision
    is not silently undone with it: the revert is refused, naming it (revert the later one first). A card's
    first revision made it and is not reverted (nothing on the site deletes a card). ``seen``: the card's
    ``state_digest`` as the editor saw it; if it changed meanwhile, nothing is done.
    """
    _editor_of(editor, game)
    card = Card.objects.select_for_update().filter(game=game, key=key).first()
    if card is None:
        raise NoSuchItem(_("There is no such card."), code="no_such_card")
    current = card_state(card)
    _refuse_stale(key, current, seen)
    revisions = card_revisions(card)
    position = next((index for index, revision in enumerate(revisions) if revision.id == revision_id), None)
    if position is None:
        raise NoSuchItem(_("This card has no such revision."), code="no_such_revision")
    if position == len(revisions) - 1:
        raise CannotUndo(_("The first revision of a card made it: it cannot be reverted."), code="first_revision")
    values = flatten_state(current)
    changed_since = [change.what for change in revisions[position].changes if values.get(change.what) != change.after]
    if changed_since:
        raise CannotUndo(
            Message(
                _("A later revision changed %(values)s again: revert that one first. Nothing was changed."),
                {"values": [value_name(game.definition, what, translation.get_language()) for what in changed_since]},
            ),
            code="changed_by_later_revision",
        )
    for change in revisions[position].changes:
        if change.before is None:
            values.pop(change.what, None)
        else:
            values[change.what] = change.before
    if values == flatten_state(current):
        raise AlreadyDone(_("This revision changed nothing that could be undone."), code="no_change")
    write_cards(
        game,
        [_checked_record(game, key, unflatten_state(values))],
        kind=RevisionSource.Kind.REVERT,
        detail=str(revision_id),
        user=editor,
    )
    return card


@transaction.atomic
def card_restore(*, editor: SiteUser, game: Game, version_id: int) -> Card:
    """Bring back a deleted card as its last revision kept it, as a new revision by the editor. The card gets
    its old id again, so its history goes on where it stopped."""
    _editor_of(editor, game)
    deleted = card_selectors.deleted_card(game, version_id)
    if deleted is None:  # restored already, or its key taken by a new card
        raise AlreadyDone(_("This card is not deleted (any more)."), code="not_deleted")
    record = _checked_record(game, deleted.key, unflatten_state(revision_values(deleted.revision_id, deleted.card_id)))
    Card.objects.create(pk=deleted.card_id, game=game, key=deleted.key, fields={})
    write_cards(game, [record], kind=RevisionSource.Kind.RESTORE, detail=str(deleted.revision_id), user=editor)
    return Card.objects.get(pk=deleted.card_id)


@transaction.atomic
def user_block(*, editor: SiteUser, game: Game, user_id: int, note: str = "") -> tuple[GameRole, bool]:
    """Block a user's contributions to a game: they may not submit change sets (``selectors.may_contribute``)
    until an editor unblocks them. A trusted contributor loses that role (a user holds one role per game);
    an editor of the game cannot be blocked by another (that is the admin's). Also answers whether the user
    was not blocked before (the block is new; blocking again only replaces the note)."""
    editor = signed_in(editor)
    target = selectors.user_to_block(editor, game, user_id)
    if target is None:
        raise NotAllowed(_("Only an editor of this game may block a contributor, and not another editor."))
    check_text(note, "note", _("note"), ContributionError)
    before = GameRole.objects.select_for_update().filter(user=target, game=game).values_list("role", flat=True)
    was_blocked = GameRole.Role.BLOCKED in list(before)
    role, _created = GameRole.objects.select_for_update().update_or_create(
        user=target, game=game, defaults={"role": GameRole.Role.BLOCKED, "granted_by": editor, "note": note[:300]}
    )
    return role, not was_blocked


@transaction.atomic
def user_unblock(*, editor: SiteUser, game: Game, user_id: int) -> None:
    """Let a blocked user contribute again (as anyone: a trusted role is not given back)."""
    if selectors.user_to_block(editor, game, user_id) is None:
        raise NotAllowed(_("Only an editor of this game may block a contributor, and not another editor."))
    GameRole.objects.filter(user_id=user_id, game=game, role=GameRole.Role.BLOCKED).delete()
