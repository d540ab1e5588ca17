"""Pages of the card database: thin views over ``cards.selectors``."""

from __future__ import annotations

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import get_language
from django.views.decorators.http import require_http_methods

from cardsite.htmx import vary_on_htmx
from cardsite.pagecache import cached_for_readers
from cardsite.throttling import rate_limit
from cardsite.types import HtmxRequest

from . import (
    extensions,
    history_presentation,
    presentation,
    selectors,
    services,
)
from .citations import shown_documents
from .images.selectors import card_pictures, with_pictures
from .missing import presentation as missing_presentation
from .missing import selectors as missing_selectors
from .models import LANGUAGE_CHOICES, Card, Game, TranslationTrack
from .revisions import card_revisions, value_origins
from .search.selectors import QueryError, run_search
from .services import card_state, state_digest


def _game_or_404(slug: str) -> Game:
    return get_object_or_404(Game, slug=slug)


def _game_status(game: Game, language: str) -> missing_presentation.GameStatus:
    return missing_presentation.game_status(
        game,
        missing_selectors.missing_map(game),
        language,
        has_engine=extensions.missing_part("engine", game.slug) is not None,
        has_fullgame=extensions.game_has("fullgame", game.slug),
        has_placeholders=extensions.game_has("placeholders", game.slug),
    )


@cached_for_readers("cards")
def game_list(request: HttpRequest) -> HttpResponse:
    language = get_language()
    games = [(game, _game_status(game, language)) for game in selectors.games_with_counts()]
    return render(request, "cards/game_list.html", {"games": games})


@cached_for_readers("cards")
def game_detail(request: HttpRequest, game: str) -> HttpResponse:
    game_row = _game_or_404(game)
    counted = selectors.games_with_counts().get(pk=game_row.pk)
    language = get_language()
    context = {
        "game": counted,
        "search_game": game_row,
        "kind_counts": presentation.kind_counts(game_row, language),
        "rules": presentation.rule_sections(game_row, language),
        "documents": shown_documents(game_row.definition, language),
        "has_fullgame": extensions.game_has("fullgame", game_row.slug),  # strategies can be compared
        "status": _game_status(game_row, language),
    }
    return render(request, "cards/game_detail.html", context)


@cached_for_readers("cards")
def game_missing(request: HttpRequest, game: str) -> HttpResponse:
    """The map of what is missing of a game: what its cards lack, what that blocks, and where to fill it."""
    game_row = _game_or_404(game)
    context = {
        "game": game_row,
        "search_game": game_row,
        "view": missing_presentation.missing_view(game_row, missing_selectors.missing_map(game_row), get_language()),
    }
    return render(request, "cards/game_missing.html", context)


@cached_for_readers("cards")
def glossary(request: HttpRequest, game: str) -> HttpResponse:
    game_row = _game_or_404(game)
    context = {"game": game_row, "search_game": game_row, "terms": presentation.glossary_rows(game_row)}
    return render(request, "cards/glossary.html", context)


def _wants_fragment(request: HtmxRequest) -> bool:
    """An htmx swap wants the fragment; htmx's history restore (Back after a swap) wants the page."""
    return bool(request.htmx) and not request.htmx.boosted and not request.htmx.history_restore_request


@cached_for_readers("cards")
@vary_on_htmx
def card_list(request: HtmxRequest, game: str) -> HttpResponse:
    game_row = _game_or_404(game)
    language = get_language()
    kind = request.GET.get("kind") or None
    known_kinds = {k.slug for k in game_row.definition.kinds} | {"unknown"}
    if kind not in known_kinds:
        kind = None
    cards = selectors.cards_of_game(game_row, kind)
    context = {
        "game": game_row,
        "search_game": game_row,
        "kind": kind,
        "kinds": presentation.kind_counts(game_row, language),
        "rows": [presentation.card_row(card, language) for card in cards],
    }
    template = "cards/_card_rows.html" if _wants_fragment(request) else "cards/card_list.html"
    return render(request, template, context)


def _card_or_404(game: str, key: str) -> tuple[Game, Card]:
    game_row = _game_or_404(game)
    try:
        return game_row, selectors.card_detail(game_row, key)
    except Card.DoesNotExist:
        raise Http404 from None


def _card_not_found(request: HttpRequest, game: Game, key: str) -> HttpResponse:
    """A card address no card holds: the card under that printed number if one has it, else a 404 page that
    offers to search for it and to add it (the card form with the number filled in)."""
    numbered = selectors.card_by_number(game, key)
    if numbered is not None:
        return HttpResponseRedirect(reverse("cards:card_detail", args=[game.slug, numbered.key]))
    context = {"game": game, "search_game": game, **missing_presentation.card_not_found_view(game, key)}
    return render(request, "cards/card_not_found.html", context, status=404)


@cached_for_readers("cards")
def card_detail(request: HttpRequest, game: str, key: str) -> HttpResponse:
    game_row = _game_or_404(game)
    try:
        card = selectors.card_detail(game_row, key)
    except Card.DoesNotExist:
        return _card_not_found(request, game_row, key)
    language = get_language()
    neighbours = selectors.card_neighbours(card)
    context = {
        "game": game_row,
        "search_game": game_row,
        "card": card,
        "view": presentation.card_view(
            card,
            language,
            selectors.glossary(game_row),
            value_origins(card_revisions(card)),
            selectors.preferred_tracks(request.user, request.COOKIES.get(selectors.TRACK_COOKIE, ""), game_row),
        ),
        "completeness": missing_presentation.completeness_view(
            card, missing_selectors.card_completeness(card), language
        ),
        "pictures": card_pictures(card),
        "previous": neighbours.previous,
        "next": neighbours.next,
    }
    return render(request, "cards/card_detail.html", context)


@cached_for_readers("cards")
def card_history(request: HttpRequest, game: str, key: str) -> HttpResponse:
    """Every revision of a card, newest first: when, by whom, from which source, and what it changed."""
    game_row, card = _card_or_404(game, key)
    context = {
        "game": game_row,
        "search_game": game_row,
        "card": card,
        "revisions": history_presentation.history_view(card, card_revisions(card), get_language()),
        # An editor reverts a revision from here; the page carries the card's state so that a revert of a
        # card changed since it was loaded is refused (contributions.editor_actions.card_revert).
        "may_revert": extensions.may("revert", request.user, game_row),
        "seen": state_digest(card_state(card)),
    }
    return render(request, "cards/card_history.html", context)


TRACK_COOKIE_AGE = 365 * 24 * 60 * 60


@require_http_methods(["GET", "POST"])
def prefer_track(request: HttpRequest, game: str) -> HttpResponse:
    """Make a translation track the reader's choice for its language (``track=main``: the main text again), then
    go back to ``next``.

    A GET, like the language switcher (``cardsite.views.set_language``): a choice of how to read, which a link
    makes, so that card pages carry no form and stay cacheable for readers who have made none.
    """
    game_row = _game_or_404(game)
    data = request.POST if request.method == "POST" else request.GET
    language = data.get("language", "")
    if language not in dict(LANGUAGE_CHOICES):
        raise Http404
    track = None
    if data.get("track", "main") != "main":
        track_id = data.get("track", "")
        track = TranslationTrack.objects.filter(
            game=game_row, language=language, pk=int(track_id) if track_id.isdigit() and len(track_id) < 19 else 0
        ).first()
        if track is None:
            raise Http404
    cookie = services.track_preference_set(
        user=request.user,
        cookie=request.COOKIES.get(selectors.TRACK_COOKIE, ""),
        game=game_row,
        language=language,
        track=track,
    )
    target = data.get("next") or ""
    if not url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        target = "/"
    response = HttpResponseRedirect(target)
    if cookie:
        response.set_cookie(
            selectors.TRACK_COOKIE,
            cookie,
            max_age=TRACK_COOKIE_AGE,
            secure=settings.SESSION_COOKIE_SECURE,
            httponly=True,
            samesite="Lax",
        )
    else:
        response.delete_cookie(selectors.TRACK_COOKIE)
    return response


SEARCH_PAGE_SIZE = 50


@cached_for_readers("cards")
@vary_on_htmx
@rate_limit("search", methods=("GET",))
def search(request: HtmxRequest) -> HttpResponse:
    """Search results; the query lives in the URL (?q=…&page=…&game=…) so results can be shared."""
    query = request.GET.get("q", "").strip()
    game_row = Game.objects.filter(slug=request.GET.get("game", "")).first()
    language = get_language()
    context: dict = {"query": query, "search_game": game_row, "sort_choices": presentation.sort_choices()}
    if query:
        try:
            found = run_search(
                query,
                language,
                game=game_row,
                order=request.GET.get("order") or None,
                direction=request.GET.get("dir") or None,
                user=request.user,
                page=request.GET.get("page"),
                per_page=SEARCH_PAGE_SIZE,
                rows=lambda page: [
                    presentation.search_row(card, language, page.paginator.outcome.highlight_terms)
                    for card in with_pictures(page)
                ],
            )
        except QueryError as failure:
            context["error"] = presentation.query_error(query, failure.message, failure.position)
        else:
            context.update(outcome=found.outcome, page=found.page, rows=found.rows)
            context["owned"] = extensions.user_card_counts("owned", request.user, [row["card"] for row in found.rows])
    template = "cards/_search_results.html" if _wants_fragment(request) else "cards/search.html"
    # 200 with the error in the page, as a form with errors: htmx swaps it in while the reader types.
    return render(request, template, context)


@cached_for_readers("cards")
def search_syntax(request: HttpRequest) -> HttpResponse:
    return render(request, "cards/search_syntax.html")
