"""Reads of contributions, and who may do what with a game's cards: the one place that says it.

Every page, form and API endpoint asks these functions; none checks a role itself.
- Anyone may read change sets, as anyone may read a card's history (MusicBrainz's open edits).
- A signed-in, active user may contribute to a game unless an editor blocked them for it.
- An editor of the game (or a superuser) reviews its change sets; an editor's or a trusted contributor's
  change set applies at once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Count, OuterRef, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce

from cards.models import Card, CardImage, Game, SeedConflict, StoredImage
from cardsite.types import SiteUser, signed_in

from .models import CardChange, ChangeSet, GameRole, ImageChange


def role_of(user: SiteUser, game: Game) -> str | None:
    """The user's role for the game (``GameRole.Role``), or None."""
    if user is None or not user.is_authenticated:
        return None
    return GameRole.objects.filter(user=user, game=game).values_list("role", flat=True).first()


def is_blocked(user: SiteUser, game: Game) -> bool:
    """Whether an editor blocked the user's contributions to the game."""
    return role_of(user, game) == GameRole.Role.BLOCKED


def may_contribute(user: SiteUser, game: Game) -> bool:
    return bool(user is not None and user.is_authenticated and user.is_active) and (not is_blocked(user, game))


def may_review(user: SiteUser, game: Game) -> bool:
    if user is None or not user.is_authenticated or not user.is_active:
        return False
    return user.is_superuser or role_of(user, game) == GameRole.Role.EDITOR


def applies_at_once(user: SiteUser, game: Game) -> bool:
    """Whether the user's change sets skip the queue (editors and trusted contributors)."""
    return may_review(user, game) or role_of(user, game) == GameRole.Role.TRUSTED


def user_to_block(editor: SiteUser, game: Game, user_id: int) -> Any:
    """The user the editor may block (or unblock) in the game, or None: an editor of the game may block any
    contributor but themselves and the game's other reviewers (editors, superusers), which is the admin's."""
    if not may_review(editor, game) or user_id == editor.pk:
        return None
    target = get_user_model().objects.filter(pk=user_id).first()
    if target is None or may_review(target, game):
        return None
    return target


def reviewed_games(user: SiteUser) -> QuerySet[Game]:
    """The games whose change sets the user reviews."""
    if user is None or not user.is_authenticated or not user.is_active:
        return Game.objects.none()
    if user.is_superuser:
        return Game.objects.all()
    return Game.objects.filter(roles__user=user, roles__role=GameRole.Role.EDITOR)


def reviews(user: SiteUser, game: Game | None = None) -> bool:
    """Whether the user reviews ``game``'s change sets (None: any game's)."""
    games = reviewed_games(user)
    return (games.filter(pk=game.pk) if game is not None else games).exists()


def _with_counts(change_sets: QuerySet[ChangeSet]) -> QuerySet[ChangeSet]:
    # Pictures counted in a subquery: a second Count over another relation would multiply the first.
    pictures = ImageChange.objects.filter(change_set=OuterRef("pk")).values("change_set").annotate(n=Count("pk"))
    return change_sets.select_related("game", "author", "decided_by").annotate(
        card_count=Count("changes"), image_count=Coalesce(Subquery(pictures.values("n")), 0)
    )


def review_queue(user: SiteUser, game: Game | None = None) -> QuerySet[ChangeSet]:
    """Change sets waiting for review in the games the user reviews, oldest first."""
    games = reviewed_games(user)
    if game is not None:
        games = games.filter(pk=game.pk)
    pending = ChangeSet.objects.filter(status=ChangeSet.Status.PENDING, game__in=games)
    return _with_counts(pending).order_by("created_at", "pk")


def seed_conflicts(user: SiteUser, game: Game | None = None) -> QuerySet[SeedConflict]:
    """Seed conflicts (a seed file changed a card someone had changed since) in the games the user reviews,
    oldest first: they wait for an editor as change sets do."""
    games = reviewed_games(user)
    if game is not None:
        games = games.filter(pk=game.pk)
    return (
        SeedConflict.objects.filter(card__game__in=games)
        .select_related("card", "card__game")
        .prefetch_related("card__texts")
        .order_by("found_at", "pk")
    )


def change_sets_of(user: SiteUser) -> QuerySet[ChangeSet]:
    """The user's own change sets, newest first (given again: a GROUP BY drops Meta.ordering)."""
    user = signed_in(user)
    return _with_counts(ChangeSet.objects.filter(author=user)).order_by("-created_at", "-pk")


def change_set_detail(pk: int) -> ChangeSet | None:
    return (
        _with_counts(ChangeSet.objects.filter(pk=pk))
        .select_related("source_photo")
        .prefetch_related("changes", "image_changes__image")
        .first()
    )


def image_changes_of(change_set: ChangeSet) -> list[ImageChange]:
    """The pictures a change set adds to or removes from its cards, with their files."""
    return list(change_set.image_changes.all())


def cards_in_database(change_set: ChangeSet) -> set[str]:
    """The keys of the change set's cards that are in the database now."""
    keys = [change.key for change in change_set.changes.all()]
    return set(Card.objects.filter(game=change_set.game, key__in=keys).values_list("key", flat=True))


def pending_changes_of_cards(game: Game, keys: list[str]) -> dict[str, list[int]]:
    """For each key, the change sets waiting for review that touch that card (a bulk preview's conflicts).

    The game's waiting changes are read whole and matched here: they are few, and a thousand-key filter
    would cost more."""
    wanted = set(keys)
    found: dict[str, list[int]] = {}
    rows = (
        CardChange.objects.filter(change_set__game=game, change_set__status=ChangeSet.Status.PENDING)
        .values_list("key", "change_set_id")
        .order_by("change_set_id")
    )
    for key, pk in rows:
        if key in wanted:
            found.setdefault(key, []).append(pk)
    return found


def stored_image(pk: int) -> StoredImage | None:
    """An uploaded picture by its id, or None."""
    return StoredImage.objects.filter(pk=pk).first()


# Uploads a user holds through an app above this one (the photos of their own reading batches), by a function
# of the user that gives a query of upload ids: registered in that app's AppConfig.ready().
_upload_holders: list[Callable[[Any], QuerySet]] = []


def register_upload_holder(held: Callable[[Any], QuerySet]) -> None:
    """Let ``held(user)`` (a query of ``StoredImage`` ids) name more uploads that ``user`` may attach."""
    if held not in _upload_holders:
        _upload_holders.append(held)


def attachable_uploads(user: SiteUser, ids: Iterable[int]) -> dict[int, StoredImage]:
    """Those of the uploads ``ids`` that ``user`` may attach to a change set (as its source photo or a card's
    picture), by id: their own uploads (and those a registered holder gives them), and uploads already public
    (shown on a card, now or before, or named by a change set, which anyone may read). Another user's upload
    that was never published (a photo of a reading batch, a picture not yet proposed) is not among them,
    whoever knows its id: every path that attaches an upload (the API, the forms, the bulk page, the photo
    reader) comes through here."""
    wanted = {pk for pk in ids if isinstance(pk, int)}
    if not wanted or not getattr(user, "is_authenticated", False):
        return {}
    allowed = (
        Q(uploaded_by=user)
        | Q(pk__in=CardImage.objects.filter(image__in=wanted).values("image"))
        | Q(pk__in=ChangeSet.objects.filter(source_photo__in=wanted).values("source_photo"))
        | Q(pk__in=ImageChange.objects.filter(image__in=wanted).values("image"))
    )
    for held in _upload_holders:
        allowed |= Q(pk__in=held(user))
    return StoredImage.objects.filter(allowed, pk__in=wanted).in_bulk()
