"""Pages of the public deck space: thin views over ``community.selectors`` (reads) and ``community.services``
(writes). Who sees what is the selectors' (hidden things: their author and staff only); a refusal is a page in
the reader's language with a 4xx status, never a half-write. Likes and favourites toggle with htmx (the button
is swapped); without JavaScript the same forms post and come back to the page.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.decorators import account_required, same_site_path
from cards.models import Game
from cardsite import pagecache
from cardsite.pagecache import cached_for_readers, kept_for_reader
from cardsite.refusals import refusals as shown_refusals
from cardsite.throttling import rate_limit
from cardsite.types import HtmxRequest
from decks.selectors import access_deck

from . import markdown, selectors, services
from .models import Publication, Report
from .selectors import Sort


def _language() -> str:
    return get_language() or "ja"


# A refused change (``CommunityError``) is the site's refusal page (htmx: the message alone) with its status.
refusals = shown_refusals(services.CommunityError, lambda: (reverse("community:index"), _("Published decks")))


# --- lists ------------------------------------------------------------------------------------------


def _games() -> list[Game]:
    return list(Game.objects.order_by("sort_order", "slug"))


@require_GET
@cached_for_readers("cards", "decks")
@refusals
def index(request: HttpRequest) -> HttpResponse:
    """Published decks of every game, newest first (filters are per game)."""
    publications = selectors.public_list(request.user, None)
    page = selectors.page_of(publications, request.GET.get("page"))
    return render(request, "community/list.html", _list_context(request, None, page, Sort.NEWEST, "", ""))


@require_GET
@cached_for_readers("cards", "decks")
def game_list(request: HttpRequest, game: str) -> HttpResponse:
    found = get_object_or_404(Game, slug=game)
    sort = request.GET.get("sort") or Sort.NEWEST
    include, exclude = request.GET.get("include", ""), request.GET.get("exclude", "")
    status, error = 200, None
    try:
        publications = selectors.public_list(
            request.user, found, sort=sort, include=include, exclude=exclude, language=_language()
        )
        page = selectors.page_of(publications, request.GET.get("page"))
    except services.CommunityError as refused:
        status, error = 400, refused
        page = selectors.Page([], 1, False)
    context = _list_context(request, found, page, sort, include, exclude)
    context["error"] = error
    return render(request, "community/list.html", context, status=status)


def _list_context(request: HttpRequest, game: Game | None, page: Any, sort: str, include: str, exclude: str) -> dict:
    liked, kept = selectors.marks_of(request.user, page.items)
    filters = urlencode({k: v for k, v in {"sort": sort, "include": include, "exclude": exclude}.items() if v})
    return {
        "game": game,
        "games": _games(),
        "page": page,
        "sort": sort,
        "sorts": [(key, Sort.LABELS[key]) for key in Sort.CHOICES],
        "include": include,
        "exclude": exclude,
        "filters": filters,
        "liked": liked,
        "kept": kept,
    }


@account_required
@require_GET
def favourites(request: HttpRequest) -> HttpResponse:
    page = selectors.page_of(selectors.favourites_of(request.user), request.GET.get("page"))
    return render(request, "community/favourites.html", {"page": page})


# --- one publication --------------------------------------------------------------------------------


@require_GET
@cached_for_readers("cards", "decks")
@kept_for_reader()
def detail(request: HttpRequest, pk: int) -> HttpResponse:
    publication = selectors.access_publication(request.user, pk)
    liked, kept = selectors.marks_of(request.user, [publication])
    threads = selectors.comment_threads(request.user, publication)
    blocked = services.is_blocked(request.user)
    placeholders = selectors.snapshot_placeholders(publication, _language())
    context = {
        "publication": publication,
        "description": mark_safe(markdown.render(publication.description)),  # sanitised by nh3
        "zones": selectors.deck_of_entries(publication, _language()),
        "placeholders": placeholders,
        "placeholder_total": sum(placeholder["count"] for placeholder in placeholders),
        "snapshots": selectors.snapshots_of(request.user, publication),
        "threads": threads,
        "comments_html": _comments_html(request, publication, threads, blocked),
        "liked": publication.pk in liked,
        "kept": publication.pk in kept,
        "reasons": Report.Reason.choices,
        "is_author": request.user.is_authenticated and publication.author_id == request.user.pk,
        "blocked": blocked,
        "max_comment": services.MAX_COMMENT_LENGTH,
    }
    return render(request, "community/detail.html", context)


# Stands for the reader's CSRF token in a kept rendering of the comments; each request puts its own in.
_CSRF_PLACEHOLDER = "csrf-token-of-this-request"


def _comments_html(request: HttpRequest, publication: Publication, threads: list, blocked: bool) -> str:
    """The comment threads as HTML. A long discussion is most of the page's work (each comment's Markdown and
    forms), so the rendering is kept (``pagecache.fragment``) for every reader who sees the same comments
    in the same role (signed in or not, blocked or not) and language; only the CSRF token is the reader's own.
    Staff see moderation forms that carry the page's address: theirs is rendered each time."""

    def flattened(level: list) -> list:
        return [(t.comment.pk, t.comment.hidden, t.comment.author.get_username(), flattened(t.replies)) for t in level]

    user = request.user
    context = {
        "threads": threads,
        "publication": publication,
        "user": user,
        "blocked": blocked,
        "reasons": Report.Reason.choices,
        "max_comment": services.MAX_COMMENT_LENGTH,
    }
    if user.is_staff:
        return render_to_string("community/_comment_threads.html", context, request=request)

    def rendered() -> str:
        return render_to_string("community/_comment_threads.html", {**context, "csrf_token": _CSRF_PLACEHOLDER})

    parts = ("community:comments", publication.pk, user.is_authenticated, blocked, flattened(threads))
    kept = pagecache.fragment(parts, (), rendered)
    return mark_safe(kept.replace(_CSRF_PLACEHOLDER, get_token(request)) if user.is_authenticated else kept)


@account_required
@require_http_methods(["GET", "POST"])
@rate_limit("deck_write")
@refusals
def publish(request: HttpRequest, pk: int) -> HttpResponse:
    deck = access_deck(request.user, pk, write=True)
    current = selectors.current_publication(request.user, deck)
    values = {
        "title": current.title if current else deck.name,
        "description": current.description if current else deck.description,
    }
    error = None
    if request.method == "POST":
        values = {"title": request.POST.get("title", ""), "description": request.POST.get("description", "")}
        try:
            publication = services.publish(
                deck, user=request.user, title=values["title"], description=values["description"]
            )
        except services.CommunityError as refused:
            error = refused
        else:
            messages.success(request, _("The deck was published."))
            return redirect("community:detail", publication.pk)
    context = {
        "deck": deck,
        "current": current,
        "values": values,
        "error": error,
        "max_description": services.MAX_DESCRIPTION_LENGTH,
        "blocked": services.is_blocked(request.user),
    }
    return render(request, "community/publish.html", context, status=400 if error else 200)


def _marks_response(request: HtmxRequest, publication: Publication) -> HttpResponse:
    if not request.htmx:
        return redirect("community:detail", publication.pk)
    publication.refresh_from_db(fields=["like_count", "favourite_count"])
    liked, kept = selectors.marks_of(request.user, [publication])
    context = {"publication": publication, "liked": publication.pk in liked, "kept": publication.pk in kept}
    return render(request, "community/_marks.html", context)


@account_required
@require_POST
@rate_limit("deck_write")
def like(request: HtmxRequest, pk: int) -> HttpResponse:
    publication = selectors.access_publication(request.user, pk)
    services.toggle_like(publication, request.user)
    return _marks_response(request, publication)


@account_required
@require_POST
@rate_limit("deck_write")
def favourite(request: HtmxRequest, pk: int) -> HttpResponse:
    publication = selectors.access_publication(request.user, pk)
    services.toggle_favourite(publication, request.user)
    return _marks_response(request, publication)


@account_required
@require_POST
@rate_limit("deck_write")
@refusals
def copy(request: HttpRequest, pk: int) -> HttpResponse:
    from decks.services import DeckError

    publication = selectors.access_publication(request.user, pk)
    try:
        deck = services.copy_publication(publication, owner=request.user)
    except DeckError as error:
        raise services.CommunityError(error.message, code=error.code) from None
    messages.success(request, _("This is your copy of “%(name)s”.") % {"name": publication.title})
    return redirect("decks:detail", deck.pk)


@account_required
@require_POST
@rate_limit("deck_write")
def withdraw(request: HttpRequest, pk: int) -> HttpResponse:
    publication = selectors.access_publication(request.user, pk)
    services.withdraw(publication, user=request.user)
    messages.success(request, _("The published deck was withdrawn: only you and the moderators see its pages now."))
    return redirect("community:detail", publication.pk)


@account_required
@require_POST
@rate_limit("deck_write")
@refusals
def comment(request: HttpRequest, pk: int) -> HttpResponse:
    publication = selectors.access_publication(request.user, pk)
    parent_id = request.POST.get("parent") or None
    parent = selectors.access_comment(request.user, publication, parent_id) if parent_id else None
    made = services.add_comment(publication, author=request.user, body=request.POST.get("body", ""), parent=parent)
    return redirect(reverse("community:detail", args=[publication.pk]) + f"#comment-{made.pk}")


@account_required
@require_POST
@rate_limit("deck_write")
@refusals
def report(request: HttpRequest, pk: int) -> HttpResponse:
    publication = selectors.access_publication(request.user, pk)
    comment_id = request.POST.get("comment") or None
    target = selectors.access_comment(request.user, publication, comment_id) if comment_id else None
    services.report(
        publication,
        reporter=request.user,
        reason=request.POST.get("reason", ""),
        note=request.POST.get("note", ""),
        comment=target,
    )
    messages.success(request, _("Thank you: the moderators will look at your report."))
    return redirect("community:detail", publication.pk)


# --- moderation -------------------------------------------------------------------------------------


def staff_required(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_staff:
            raise PermissionDenied(_("Only the site's moderators may do this."))
        return view(request, *args, **kwargs)

    return account_required(wrapper)


@staff_required
@require_GET
def moderation(request: HttpRequest) -> HttpResponse:
    context = {
        "reports": selectors.open_reports(request.user)[:200],
        "log": selectors.moderation_log(request.user)[:100],
        "blocks": selectors.blocked_users(request.user)[:200],
        "hidden": Publication.objects.filter(hidden=True).select_related("author", "game")[:100],
    }
    return render(request, "community/moderation.html", context)


@staff_required
@require_POST
@refusals
def moderate(request: HttpRequest) -> HttpResponse:
    from django.contrib.auth import get_user_model

    from .models import Comment

    def pick(model: Any, name: str) -> Any:
        value = request.POST.get(name, "")
        if not value:
            return None
        if not (value.isascii() and value.isdigit()):
            raise services.CommunityError(_("That is not an id."), code="bad_id")
        return get_object_or_404(model, pk=int(value))

    services.moderate(
        moderator=request.user,
        action=request.POST.get("action", ""),
        reason=request.POST.get("reason", ""),
        publication=pick(Publication, "publication"),
        comment=pick(Comment, "comment"),
        user=pick(get_user_model(), "user"),
        report=pick(Report, "report"),
    )
    messages.success(request, _("Done; the action is in the log."))
    return redirect(same_site_path(request, request.POST.get("next")) or "community:moderation")
