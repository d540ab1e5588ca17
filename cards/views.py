"""Pages of the card database: thin views over ``cards.selectors``."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import get_language

from . import presentation, selectors
from .models import Card, Game


def _game_or_404(slug: str) -> Game:
    return get_object_or_404(Game, slug=slug)


def game_list(request: HttpRequest) -> HttpResponse:
    games = selectors.games_with_counts()
    return render(request, "cards/game_list.html", {"games": games})


def game_detail(request: HttpRequest, game: str) -> HttpResponse:
    game_row = _game_or_404(game)
    counted = selectors.games_with_counts().get(pk=game_row.pk)
    language = get_language()
    context = {
        "game": counted,
        "kind_counts": presentation.kind_counts(game_row, language),
        "rules": presentation.rule_sections(game_row, language),
    }
    return render(request, "cards/game_detail.html", context)


def glossary(request: HttpRequest, game: str) -> HttpResponse:
    game_row = _game_or_404(game)
    context = {"game": game_row, "terms": presentation.glossary_rows(game_row)}
    return render(request, "cards/glossary.html", context)


def card_list(request: HttpRequest, game: str) -> HttpResponse:
    game_row = _game_or_404(game)
    language = get_language()
    kind = request.GET.get("kind") or None
    known_kinds = {k.slug for k in game_row.definition.kinds} | {"unknown"}
    if kind not in known_kinds:
        kind = None
    cards = selectors.cards_of_game(game_row, kind)
    context = {
        "game": game_row,
        "kind": kind,
        "kinds": presentation.kind_counts(game_row, language),
        "rows": [presentation.card_row(card, language) for card in cards],
    }
    template = "cards/_card_rows.html" if request.htmx else "cards/card_list.html"
    return render(request, template, context)


def card_detail(request: HttpRequest, game: str, key: str) -> HttpResponse:
    game_row = _game_or_404(game)
    try:
        card = selectors.card_detail(game_row, key)
    except Card.DoesNotExist:
        raise Http404 from None
    language = get_language()
    neighbours = selectors.card_neighbours(card)
    context = {
        "game": game_row,
        "card": card,
        "view": presentation.card_view(card, language, selectors.glossary(game_row)),
        "previous": neighbours.previous,
        "next": neighbours.next,
    }
    return render(request, "cards/card_detail.html", context)
