"""Writes of the public deck space. Views, the API and the admin call these; nothing else writes these models.

Every write is one transaction; counters (likes, favourites, copies, comments) change with ``F()`` in the same
transaction as the row they count, so two requests at once both count. Who may see a publication or a comment
is ``community.selectors``'s to say; these functions check what only a writer can break (ownership, blocks,
sizes) and raise ``CommunityError`` (400), ``Blocked`` (403) or Django's ``PermissionDenied``.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from cardsite import pagecache
from cardsite.errors import AppError, Message
from cardsite.sharing import Visibility
from cardsite.text import check_name
from cardsite.text import check_text as text_check
from cardsite.types import SignedInUser, SiteUser, signed_in
from decks import extensions as deck_extensions
from decks import services as deck_services
from decks.models import Deck, DeckEntry
from notifications.services import notify

from . import notices
from .models import (
    MAX_TITLE_LENGTH,
    Block,
    Comment,
    Favourite,
    Like,
    ModerationAction,
    Publication,
    PublicationCard,
    Report,
)

MAX_DESCRIPTION_LENGTH = 10_000  # characters of Markdown, as a deck's own description
MAX_COMMENT_LENGTH = 5_000
MAX_REASON_LENGTH = 500


class CommunityError(AppError, ValueError):
    """A change to the public deck space that cannot be made; nothing was written."""

    code = "community_change_refused"


class EmptyDeck(CommunityError):
    """The deck has no cards yet: add some and publish again (409: the request is well formed)."""

    code = "empty_deck"
    status = 409


class Blocked(CommunityError):
    """A blocked user tried to publish or comment."""

    code = "blocked"
    status = 403


def _too_long(what: Any, limit: int, code: str, field: str) -> CommunityError:
    message = Message(what, {"limit": limit})
    return CommunityError(message, code=code, errors={field: [message]})


_TEXT_LABELS = {"description": _("description"), "body": _("comment"), "note": _("note"), "reason": _("reason")}


def _check_text(text: str, limit: int, message: Any, code: str, field: str) -> None:
    if len(text) > limit:
        raise _too_long(message, limit, code, field)
    if "\x00" in text:
        raise CommunityError(
            _("The text holds a NUL character."),
            code="nul_character",
            errors={field: [_("The text holds a NUL character.")]},
        )
    text_check(text, field, _TEXT_LABELS.get(field, _("text")), CommunityError)


def is_blocked(user: SiteUser) -> bool:
    return user.is_authenticated and Block.objects.filter(user=user).exists()


def _check_not_blocked(user: SiteUser) -> None:
    if is_blocked(user):
        raise Blocked(_("A moderator has blocked you from publishing and commenting."))


def _changed() -> None:
    pagecache.bump("decks")  # the public list and the publication pages are cached for anonymous readers


# --- publishing -------------------------------------------------------------------------------------


def clean_title(title: str) -> str:
    title = (title or "").strip()
    if not title:
        raise CommunityError(
            _("A published deck needs a title."), code="title_required", errors={"title": [_("A title is required.")]}
        )
    if len(title) > MAX_TITLE_LENGTH:
        raise _too_long(
            _("A title may have at most %(limit)s characters."), MAX_TITLE_LENGTH, "title_too_long", "title"
        )
    check_name(title, "title", _("title"), CommunityError)
    return title


@transaction.atomic
def publish(
    deck: Deck,
    *,
    user: SiteUser,
    title: str,
    description: str = "",
    published_at: datetime | None = None,
    from_public_deck: bool = False,
) -> Publication:
    """A snapshot of ``deck`` (its owner's) for everyone; earlier snapshots of the deck stop being current.

    The deck's own visibility is not changed: what is published is the snapshot, and the deck stays as its
    owner set it (a private deck's later changes stay private until it is published again). ``published_at``
    and ``from_public_deck`` are for ``publish_public_decks``, which dates a former public deck's snapshot by the
    deck's last change."""
    if deck.owner_id != user.pk:
        raise PermissionDenied
    _check_not_blocked(user)
    title = clean_title(title)
    _check_text(
        description,
        MAX_DESCRIPTION_LENGTH,
        _("A description may have at most %(limit)s characters."),
        "description_too_long",
        "description",
    )
    locked = Deck.objects.select_for_update().select_related("game").get(pk=deck.pk)
    rows = list(DeckEntry.objects.filter(deck=locked).select_related("card").order_by("zone", "card__sort_key"))
    if not rows:
        raise EmptyDeck(_("An empty deck cannot be published: add cards first."))
    Publication.objects.filter(deck=locked, is_current=True).update(is_current=False)
    publication = Publication.objects.create(
        deck=locked,
        author=user,
        game=locked.game,
        title=title,
        description=description,
        mode=locked.mode,
        options=dict(locked.options),
        entries=[{"zone": row.zone, "card": row.card.key, "count": row.count} for row in rows],
        placeholders=deck_services.placeholder_rows(locked),
        published_at=published_at or timezone.now(),
        from_public_deck=from_public_deck,
    )
    PublicationCard.objects.bulk_create(
        PublicationCard(publication=publication, card_id=card_id, published_at=publication.published_at)
        for card_id in sorted({row.card_id for row in rows})
    )
    _changed()
    return publication


def publish_public_decks() -> tuple[int, int]:
    """Moves the decks that are public (a visibility decks no longer have) into the public deck space: each is
    published as it is (its name, description and author, dated by its last change) and becomes shared by link,
    so that its owner can still hand out the live deck; its old page leads others to the snapshot. A deck that
    cannot be published (no cards, an author blocked from publishing, a name or description the publication
    refuses) just becomes shared by link. Each deck in its own transaction. Returns (published, only shared)."""
    published = shared = 0
    for pk in Deck.objects.filter(visibility=Visibility.PUBLIC).order_by("pk").values_list("pk", flat=True):
        with transaction.atomic():
            deck = Deck.objects.select_for_update().select_related("owner").filter(pk=pk).first()
            if deck is None or deck.visibility != Visibility.PUBLIC:
                continue
            try:
                with transaction.atomic():
                    publish(
                        deck,
                        user=deck.owner,
                        title=deck.name,
                        description=deck.description,
                        published_at=deck.updated_at,
                        from_public_deck=True,
                    )
                published += 1
            except CommunityError:
                shared += 1
            # Not through ``decks.services.update_deck``: that refuses "public" and would date the deck anew.
            Deck.objects.filter(pk=pk).update(visibility=Deck.Visibility.LINK)
    if published or shared:
        pagecache.bump("decks")
    return published, shared


@transaction.atomic
def withdraw(publication: Publication, *, user: SiteUser) -> int:
    """The author takes the published deck back: every snapshot of it (of the same deck, or this one when the deck
    was deleted) is then seen by its author and staff only, and none is current. Likes, favourites and comments
    are kept with them; publishing the deck again makes a new snapshot for everyone. Returns how many snapshots
    were withdrawn now (0: they already were)."""
    if publication.author_id != user.pk:
        raise PermissionDenied
    snapshots = Publication.objects.filter(author=user)
    snapshots = (
        snapshots.filter(deck_id=publication.deck_id) if publication.deck_id else snapshots.filter(pk=publication.pk)
    )
    withdrawn = snapshots.filter(withdrawn_at__isnull=True).update(withdrawn_at=timezone.now(), is_current=False)
    if withdrawn:
        _changed()
    return withdrawn


@transaction.atomic
def copy_publication(publication: Publication, *, owner: SiteUser) -> Deck:
    """A private deck for ``owner`` with the snapshot's cards, recording the published deck as its source."""
    from cards.models import Card

    cards = {
        card.key: card
        for card in Card.objects.filter(game=publication.game, key__in=[entry["card"] for entry in publication.entries])
    }
    entries = [(e["zone"], cards[e["card"]], e["count"]) for e in publication.entries if e["card"] in cards]
    deck = deck_services.create_deck(
        owner=owner,
        game=publication.game,
        name=str(Message(_("%(name)s (copy)"), {"name": publication.title}))[:120],
        description=publication.description,
        mode=publication.mode,
        options=publication.options,
        entries=entries,
        placeholders=publication.placeholders,
    )
    if publication.deck_id is not None:
        Deck.objects.filter(pk=deck.pk).update(forked_from=publication.deck_id)
        deck.forked_from_id = publication.deck_id
        deck_extensions.deck_copied(publication.deck, deck)  # what the apps above keep with the deck goes along
    Publication.objects.filter(pk=publication.pk).update(copy_count=F("copy_count") + 1)
    _changed()
    return deck


# --- likes and favourites ---------------------------------------------------------------------------


def _set_mark(
    model: type[Like | Favourite], counter: str, publication: Publication, user: SignedInUser, on: bool
) -> bool:
    """Like or favourite (``on``) or take it back; the counter follows in the same transaction. Idempotent:
    liking twice is one like. Returns whether the mark is now there."""
    with transaction.atomic():
        if not on:
            deleted, _ = model.objects.filter(publication=publication, user=user).delete()
            if deleted:
                Publication.objects.filter(pk=publication.pk).update(**{counter: F(counter) - 1})
                _changed()
            return False
        try:
            with transaction.atomic():
                model.objects.create(publication=publication, user=user)
        except IntegrityError:
            return True  # already there (perhaps by a request at the same moment): counted once
        Publication.objects.filter(pk=publication.pk).update(**{counter: F(counter) + 1})
        _changed()
        return True


def set_like(publication: Publication, user: SiteUser, on: bool) -> bool:
    return _set_mark(Like, "like_count", publication, signed_in(user), on)


def set_favourite(publication: Publication, user: SiteUser, on: bool) -> bool:
    return _set_mark(Favourite, "favourite_count", publication, signed_in(user), on)


def toggle_like(publication: Publication, user: SiteUser) -> bool:
    user = signed_in(user)
    return set_like(publication, user, not Like.objects.filter(publication=publication, user=user).exists())


def toggle_favourite(publication: Publication, user: SiteUser) -> bool:
    user = signed_in(user)
    return set_favourite(publication, user, not Favourite.objects.filter(publication=publication, user=user).exists())


# --- comments and notifications ---------------------------------------------------------------------


@transaction.atomic
def add_comment(publication: Publication, *, author: SiteUser, body: str, parent: Comment | None = None) -> Comment:
    """A comment (a reply when ``parent`` is given, a comment of the same publication); the publication's author
    and the replied-to comment's author are notified (never of their own words)."""
    author = signed_in(author)
    _check_not_blocked(author)
    body = (body or "").strip()
    if not body:
        raise CommunityError(
            _("A comment cannot be empty."), code="comment_required", errors={"body": [_("Write something.")]}
        )
    _check_text(
        body, MAX_COMMENT_LENGTH, _("A comment may have at most %(limit)s characters."), "comment_too_long", "body"
    )
    if parent is not None and parent.publication_id != publication.pk:
        raise CommunityError(
            _("That comment is not on this deck."),
            code="parent_elsewhere",
            errors={"parent": [_("That comment is not on this deck.")]},
        )
    comment = Comment.objects.create(publication=publication, author=author, body=body, parent=parent)
    Publication.objects.filter(pk=publication.pk).update(comment_count=F("comment_count") + 1)
    recipients: dict[int, str] = {}
    if parent is not None and parent.author_id != author.pk:
        recipients[parent.author_id] = notices.REPLY
    if publication.author_id != author.pk:
        recipients.setdefault(publication.author_id, notices.COMMENT)
    for user_id, kind in recipients.items():
        notify([user_id], kind=kind, verb=kind, target=publication, actor=author, action_object=comment)
    _changed()
    return comment


# --- reports and moderation -------------------------------------------------------------------------


@transaction.atomic
def report(
    publication: Publication, *, reporter: Any, reason: str, note: str = "", comment: Comment | None = None
) -> Report:
    if reason not in Report.Reason.values:
        raise CommunityError(
            Message(_("A reason must be one of %(choices)s."), {"choices": list(Report.Reason.values)}),
            code="unknown_reason",
            errors={
                "reason": [Message(_("A reason must be one of %(choices)s."), {"choices": list(Report.Reason.values)})]
            },
        )
    note = (note or "").strip()
    _check_text(note, MAX_REASON_LENGTH, _("A note may have at most %(limit)s characters."), "note_too_long", "note")
    if comment is not None and comment.publication_id != publication.pk:
        raise CommunityError(_("That comment is not on this deck."), code="parent_elsewhere")
    return Report.objects.create(publication=publication, comment=comment, reporter=reporter, reason=reason, note=note)


class Outranked(CommunityError):
    """A moderator acted on a user (or what they wrote) whom their rank does not reach."""

    code = "outranked"
    status = 403


def _check_staff(moderator: Any) -> None:
    if not (moderator.is_authenticated and moderator.is_staff):
        raise PermissionDenied


def may_moderate(moderator: Any, target: Any) -> bool:
    """Whether ``moderator`` may act on ``target`` and what they wrote: a superuser on anyone, staff only on
    users who are not staff. Moderation is no way to silence someone of the same or a higher rank."""
    if target is None or target.pk == moderator.pk or moderator.is_superuser:
        return True
    return not (target.is_staff or target.is_superuser)


def _check_outranks(moderator: Any, target: Any) -> None:
    if not may_moderate(moderator, target):
        raise Outranked(
            _("Only a superuser may moderate a member of staff or a superuser, or what they wrote."),
            errors={"user": [_("This user is staff or a superuser.")]},
        )


def _clean_reason(reason: str) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise CommunityError(
            _("Say why: every moderation action is logged with its reason."),
            code="reason_required",
            errors={"reason": [_("A reason is required.")]},
        )
    _check_text(
        reason, MAX_REASON_LENGTH, _("A reason may have at most %(limit)s characters."), "reason_too_long", "reason"
    )
    return reason


def _resolve(reports: Any, moderator: Any) -> None:
    reports.filter(resolved_at__isnull=True).update(resolved_at=timezone.now(), resolved_by=moderator)


@transaction.atomic
def moderate(
    *,
    moderator: Any,
    action: str,
    reason: str,
    publication: Publication | None = None,
    comment: Comment | None = None,
    user: SignedInUser | None = None,
    report: Report | None = None,
) -> ModerationAction:
    """One moderation action by staff, logged: hide or restore a publication or a comment, block or unblock a
    user, dismiss a report. Acting on what a report names resolves the open reports of it. Staff act only on
    users who are not staff (and what they wrote); a superuser on anyone (``may_moderate``)."""
    _check_staff(moderator)
    reason = _clean_reason(reason)
    Action = ModerationAction.Action
    if action not in Action.values:
        raise CommunityError(
            Message(_("An action must be one of %(choices)s."), {"choices": list(Action.values)}),
            code="unknown_action",
        )
    if report is not None:
        publication = publication or (report.publication if report.comment_id is None else None)
        comment = comment or report.comment
    if action in (Action.HIDE, Action.RESTORE):
        hidden = action == Action.HIDE
        _check_outranks(moderator, comment.author if comment is not None else getattr(publication, "author", None))
        if comment is not None:
            Comment.objects.filter(pk=comment.pk).update(hidden=hidden)
            _resolve(Report.objects.filter(comment=comment), moderator)
        elif publication is not None:
            Publication.objects.filter(pk=publication.pk).update(hidden=hidden)
            _resolve(Report.objects.filter(publication=publication, comment__isnull=True), moderator)
        else:
            raise CommunityError(_("Name a published deck or a comment to hide or restore."), code="no_target")
    elif action in (Action.BLOCK, Action.UNBLOCK):
        target = user or (comment.author if comment else publication.author if publication else None)
        if target is None:
            raise CommunityError(_("Name a user to block or unblock."), code="no_target")
        if target.pk == moderator.pk:
            raise CommunityError(_("You cannot block yourself."), code="block_self")
        _check_outranks(moderator, target)
        user = target
        if action == Action.BLOCK:
            Block.objects.update_or_create(user=target, defaults={"moderator": moderator, "reason": reason})
        else:
            Block.objects.filter(user=target).delete()
    else:  # dismiss
        if report is None:
            raise CommunityError(_("Name the report to dismiss."), code="no_target")
    if report is not None:
        _resolve(Report.objects.filter(pk=report.pk), moderator)
    logged = ModerationAction.objects.create(
        moderator=moderator,
        action=action,
        publication=publication,
        comment=comment,
        user=user,
        report=report,
        reason=reason,
    )
    _changed()
    return logged
