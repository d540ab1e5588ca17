"""Reads of the public deck space. Who may see what is stated here once, for every page and API view:

- a publication that is neither hidden nor withdrawn is seen by everyone; a hidden or withdrawn one by its author
  and by staff only;
- a comment likewise (not hidden: whoever sees its publication; hidden: its author and staff);
- the moderation queue and log are staff's alone.

The public list of a game is sorted by newest, most liked or most copied and filtered by cards included or
excluded, each written in the site's search language: the query's matching cards are found by the search
(``cards.search.selectors.card_ids``), then the snapshots that contain (or not) any of them are found through the
indexed (publication, card) rows. Pages are read with one row more than they show (no count over a filtered
list of 100,000 snapshots: "next" is offered when that row exists).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied
from django.db.models import Exists, OuterRef, Q, QuerySet, Subquery
from django.http import Http404
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from cards.models import Card, Game
from cards.search.selectors import QueryError, card_id_query, card_ids
from cardsite import pagecache, paging
from cardsite.errors import Message
from cardsite.paging import Page
from cardsite.types import SiteUser, signed_in

from .models import Comment, Favourite, Like, ModerationAction, Publication, PublicationCard, Report
from .services import CommunityError

PAGE_SIZE = 25
MAX_QUERY_LENGTH = 500  # characters of a card filter (include, exclude)
MAX_FILTER_CARDS = 5_000  # cards one filter query may name (a game has far fewer)


class Sort:
    NEWEST = "newest"
    LIKED = "liked"
    COPIED = "copied"
    CHOICES = (NEWEST, LIKED, COPIED)
    LABELS = {NEWEST: _("newest"), LIKED: _("most liked"), COPIED: _("most copied")}
    ORDERING = {
        NEWEST: ("-published_at", "-id"),
        LIKED: ("-like_count", "-published_at", "-id"),
        COPIED: ("-copy_count", "-published_at", "-id"),
    }


# --- who sees what ----------------------------------------------------------------------------------


def _seen_condition(user: SiteUser, author_field: str, shown: Q) -> Q | None:
    """None: everything (staff); else what ``user`` sees of rows with an author: those ``shown`` to everyone, and
    their own."""
    if user.is_authenticated and user.is_staff:
        return None
    condition = shown
    if user.is_authenticated:
        condition |= Q(**{author_field: user})
    return condition


def visible_publications(user: SiteUser) -> QuerySet[Publication]:
    """The snapshots ``user`` may see: staff every one; others those neither hidden by a moderator nor withdrawn by
    their author, and their own."""
    publications = Publication.objects.select_related("game", "author")
    condition = _seen_condition(user, "author", Q(hidden=False, withdrawn_at__isnull=True))
    return publications if condition is None else publications.filter(condition)


def access_publication(user: SiteUser, pk: Any) -> Publication:
    """The publication, or Http404 if there is none the user may see (a hidden one's existence is not told)."""
    found = visible_publications(user).filter(pk=pk).first()
    if found is None:
        raise Http404
    return found


def visible_comments(user: SiteUser, publication: Publication) -> QuerySet[Comment]:
    """The comments of ``publication`` the user may read, oldest first: each one they may see whose thread they may
    see too. A reply to a comment hidden from the user is hidden with it, on the page (``comment_threads``), in the
    API's list and as the target of a reply or a report alike."""
    comments = Comment.objects.filter(publication=publication).select_related("author")
    condition = _seen_condition(user, "author", Q(hidden=False))
    if condition is None:
        return comments
    readable: set[int] = set()
    # Oldest first, so a comment's parent (always older) is decided before it.
    for pk, parent_id in comments.filter(condition).order_by("created_at", "id").values_list("pk", "parent_id"):
        if parent_id is None or parent_id in readable:
            readable.add(pk)
    return comments.filter(pk__in=readable)


def access_comment(user: SiteUser, publication: Publication, pk: Any) -> Comment:
    """A comment of ``publication`` the user may see, or Http404."""
    found = (
        visible_comments(user, publication).filter(pk=pk).first() if str(pk).isascii() and str(pk).isdigit() else None
    )
    if found is None:
        raise Http404
    return found


def require_staff(user: SiteUser) -> None:
    if not (user.is_authenticated and user.is_staff):
        raise PermissionDenied


# --- the public list --------------------------------------------------------------------------------


def matching_card_ids(game: Game | None, queries: dict[str, str], language: str) -> dict[str, Any]:
    """For each field's query (the search language), the ids of the cards (of ``game``) it finds: a list, or a
    subquery when more than ``MAX_FILTER_CARDS`` match. Every query is checked first (an error names its field);
    the id sets are then read in one statement (``cards.search.selectors.card_ids``). What a query finds changes
    only with the cards: it is remembered until they change (``pagecache.fragment``, the "cards" namespace), as
    the deck pages' verdicts are."""
    key = ("community:cards", game.pk if game is not None else None, sorted(queries.items()), language)
    found = pagecache.fragment(key, ("cards",), lambda: _matching_card_ids(game, queries, language))
    return {
        field: ids if ids is not None else card_id_query(queries[field], language, game=game)
        for field, ids in found.items()
    }


def _matching_card_ids(game: Game | None, queries: dict[str, str], language: str) -> dict[str, list[int] | None]:
    try:
        return card_ids(queries, language, game=game, limit=MAX_FILTER_CARDS)
    except QueryError as error:
        field = error.parameter
        raise CommunityError(
            Message(_("%(field)s: %(error)s"), {"field": field, "error": error.message}),
            code="query_error",
            errors={field: [error.message]},
        ) from None


def _containing(card_ids: Any) -> Exists:
    return Exists(PublicationCard.objects.filter(publication=OuterRef("pk"), card_id__in=card_ids))


# A card filter is answered one of two ways, chosen by how many snapshots hold the cards (counted on the index,
# at most this many): few, and those snapshots are read and sorted (a rare card); many, and the list is walked in
# its order, each snapshot checked by an index probe, until a page is full (a common card fills it soon).
DRIVE_LIMIT = 2_000


def _with_cards(publications: QuerySet[Publication], card_ids: Any) -> QuerySet[Publication]:
    postings = PublicationCard.objects.filter(card_id__in=card_ids)
    if postings[: DRIVE_LIMIT + 1].count() <= DRIVE_LIMIT:
        return publications.filter(pk__in=Subquery(postings.values("publication_id")))
    return publications.filter(_containing(card_ids))


def public_list(
    user: SiteUser,
    game: Game | None,
    *,
    sort: str = Sort.NEWEST,
    include: str = "",
    exclude: str = "",
    language: str = "ja",
) -> QuerySet[Publication]:
    """The current snapshots ``user`` may see, of ``game`` (or every game), sorted and filtered."""
    if sort not in Sort.CHOICES:
        raise CommunityError(
            Message(_("A sort must be one of %(choices)s."), {"choices": list(Sort.CHOICES)}),
            code="unknown_sort",
            errors={"sort": [Message(_("A sort must be one of %(choices)s."), {"choices": list(Sort.CHOICES)})]},
        )
    # The list shows neither the cards nor the description: leaving them out keeps the rows small to sort.
    publications = visible_publications(user).filter(is_current=True).defer("entries", "description", "options")
    if game is not None:
        publications = publications.filter(game=game)
    for field, query in (("include", include), ("exclude", exclude)):
        if len(query) > MAX_QUERY_LENGTH:
            message = Message(_("A card filter may have at most %(limit)s characters."), {"limit": MAX_QUERY_LENGTH})
            raise CommunityError(message, code="query_too_long", errors={field: [message]})
    queries = {field: query for field, query in (("include", include), ("exclude", exclude)) if query.strip()}
    matched = matching_card_ids(game, queries, language) if queries else {}
    included = matched.get("include")
    if "exclude" in matched:
        publications = publications.exclude(_containing(matched["exclude"]))
    if isinstance(included, list) and len(included) == 1 and sort == Sort.NEWEST:
        # One card, newest first: walk that card's rows in the (card, time) index, newest first, joined to their
        # snapshots, until a page is full; a snapshot holds a card once, so no row comes twice.
        return publications.filter(cards__card_id=included[0]).order_by(
            "-cards__published_at", "-cards__publication_id"
        )
    if included is not None:
        publications = _with_cards(publications, included)
    return publications.order_by(*Sort.ORDERING[sort])


def page_of(publications: QuerySet[Publication], number: Any, size: int = PAGE_SIZE) -> Page[Publication]:
    """A page of ``publications`` (from 1; anything that is not a page number is page 1), one row read ahead."""
    return paging.page_of(publications, number, size)


# --- one publication --------------------------------------------------------------------------------


def snapshots_of(user: SiteUser, publication: Publication) -> list[Publication]:
    """Every snapshot of the same deck the user may see, newest first (the publication's own included)."""
    if publication.deck_id is None:
        return [publication]
    return list(visible_publications(user).filter(deck_id=publication.deck_id).order_by("-published_at", "-id"))


def current_publication(user: SiteUser, deck: Any) -> Publication | None:
    return visible_publications(user).filter(deck=deck, is_current=True).first()


def public_list_url(game_slug: str | None) -> str:
    """The published list of a game (or of every game): where ``/decks/public/`` now leads."""
    return reverse("community:game", args=[game_slug]) if game_slug else reverse("community:index")


def former_public_deck_url(deck_pk: int) -> str | None:
    """The current snapshot, as everyone sees it, of a deck that was public before decks stopped being public;
    None for any other deck (or when that deck's snapshots are withdrawn or hidden)."""
    if not Publication.objects.filter(deck_id=deck_pk, from_public_deck=True).exists():
        return None
    found = visible_publications(AnonymousUser()).filter(deck_id=deck_pk, is_current=True).first()
    return reverse("community:detail", args=[found.pk]) if found is not None else None


def marks_of(user: SiteUser, publications: list[Publication]) -> tuple[set[int], set[int]]:
    """The ids among ``publications`` that ``user`` likes and has as favourites."""
    if not user.is_authenticated or not publications:
        return set(), set()
    ids = [p.pk for p in publications]
    liked = set(Like.objects.filter(user=user, publication_id__in=ids).values_list("publication_id", flat=True))
    kept = set(Favourite.objects.filter(user=user, publication_id__in=ids).values_list("publication_id", flat=True))
    return liked, kept


@dataclass
class Thread:
    comment: Comment
    replies: list[Thread]


MAX_THREAD_DEPTH = 6  # replies nested deeper are shown at this depth, under the reply they answer's thread


def comment_threads(user: SiteUser, publication: Publication) -> list[Thread]:
    """The comments the user may read (``visible_comments``) as trees, oldest first at each level."""
    comments = list(visible_comments(user, publication))
    threads: dict[int, Thread] = {}
    depth: dict[int, int] = {}
    parent_of: dict[int, int | None] = {}
    roots = []
    for comment in comments:
        thread = Thread(comment, [])
        if comment.parent_id is None:
            roots.append(thread)
            depth[comment.pk], parent_of[comment.pk] = 0, None
        elif comment.parent_id in threads:
            target = comment.parent_id
            while depth[target] >= MAX_THREAD_DEPTH - 1:
                above = parent_of[target]
                if above is None:
                    break
                target = above
            threads[target].replies.append(thread)
            depth[comment.pk], parent_of[comment.pk] = depth[target] + 1, target
        else:
            continue
        threads[comment.pk] = thread
    return roots


def favourites_of(user: SiteUser) -> QuerySet[Publication]:
    user = signed_in(user)
    return visible_publications(user).filter(favourites__user=user).order_by("-favourites__created_at")


# --- moderation ---------------------------------------------------------------------------------


def open_reports(user: SiteUser) -> QuerySet[Report]:
    require_staff(user)
    return Report.objects.filter(resolved_at__isnull=True).select_related(
        "reporter", "publication", "publication__author", "comment", "comment__author"
    )


def moderation_log(user: SiteUser) -> QuerySet[ModerationAction]:
    require_staff(user)
    return ModerationAction.objects.select_related("moderator", "publication", "comment", "user")


def blocked_users(user: SiteUser) -> QuerySet[Any]:
    from .models import Block

    require_staff(user)
    return Block.objects.select_related("user", "moderator").order_by("-created_at")


def deck_of_entries(publication: Publication, language: str) -> list[dict[str, Any]]:
    """The snapshot's entries by zone, each card with its name in ``language`` (a card deleted since keeps its key)."""
    from decks.rules import get_rules

    cards = {
        c.key: c
        for c in Card.objects.filter(game=publication.game, key__in=[e["card"] for e in publication.entries])
        .select_related("game")  # a card's shown name asks its game's original language: one join, not a query each
        .prefetch_related("texts")
    }
    rules = get_rules(publication.game.slug)
    zones: dict[str, dict[str, Any]] = {}
    for entry in publication.entries:
        zone = zones.get(entry["zone"])
        if zone is None:
            spec = rules.zone(entry["zone"])
            from cardsite.labels import pick

            label = pick(spec.labels, language) if spec is not None else entry["zone"]
            zone = zones[entry["zone"]] = {"zone": entry["zone"], "label": label, "cards": [], "total": 0}
        card = cards.get(entry["card"])
        zone["cards"].append(
            {
                "key": entry["card"],
                "card": card,
                "name": card.shown_name(language) if card else entry["card"],
                "count": entry["count"],
            }
        )
        zone["total"] += entry["count"]
    return list(zones.values())


def snapshot_placeholders(publication: Publication, language: str) -> list[dict[str, Any]]:
    """The snapshot's placeholder cards (``decks.services.placeholder_rows``'s shape), each with its zone's name
    and its label in ``language``, as the deck page names them: always as a placeholder, never as a card."""
    from cardsite.labels import pick
    from decks.models import DeckPlaceholder
    from decks.placeholders.selectors import label
    from decks.rules import get_rules

    rules = get_rules(publication.game.slug)
    shown = []
    for row in publication.placeholders:
        placeholder = DeckPlaceholder(
            zone=row["zone"],
            kind=row["kind"],
            values=dict(row.get("values") or {}),
            name=row.get("name") or "",
            count=row["count"],
        )
        zone = rules.zone(placeholder.zone)
        shown.append(
            {
                "zone": placeholder.zone,
                "zone_label": pick(zone.labels, language) if zone is not None else placeholder.zone,
                "kind": placeholder.kind,
                "values": placeholder.values,
                "name": placeholder.name,
                "count": placeholder.count,
                "label": label(publication.game, placeholder, language),
            }
        )
    return shown
