"""The set-up builder's addresses, ``/simulator/games/<game>/setups/``: a table's choice of piles is a deck now
(``setups.selectors``), built in the deck builder, so each address leads to the deck pages (a saved set-up's to
the deck it became); ``check/`` still gives the game's verdict on a choice of piles. The deck page's whole-game
panel (``decks.extensions``) is drawn here. ``/simulator/games/<game>/compare/setups/`` (``comparisons.views``)
compares one strategy on two to four decks. Thin: reads in ``setups.selectors``."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from cardsite.throttling import rate_limit
from decks import public_space
from decks.models import Deck
from decks.selectors import access_deck

from .. import inputs
from ..fullgames import get_fullgame
from ..shared import selectors as fullgame_selectors
from . import selectors as setup_selectors


@require_GET
def setup_list(request: HttpRequest, game: str) -> HttpResponse:
    """Set-ups are decks now: the list leads to one's own decks of the game (everyone else to the game's published
    decks)."""
    fullgame_selectors.fullgame_or_404(game)
    if request.user.is_authenticated:
        return redirect(f"{reverse('decks:my_decks')}?game={game}")
    return redirect(public_space.list_url(game) or reverse("decks:public"))


@require_GET
def setup_new(request: HttpRequest, game: str) -> HttpResponse:
    """A new set-up is a new deck of the game, built in the deck builder."""
    fullgame_selectors.fullgame_or_404(game)
    return redirect(f"{reverse('decks:new')}?game={game}")


def _moved(request: HttpRequest, game: str, pk: int) -> Any:
    deck = setup_selectors.moved_deck(pk)
    if deck is None or deck.game.slug != game:
        raise Http404
    return deck


@require_GET
def setup_detail(request: HttpRequest, game: str, pk: int) -> HttpResponse:
    """A set-up saved before set-ups became decks: its deck's page, for whoever may see the deck (its old link's
    token is the deck's); a set-up that was public leads everyone else to the deck's published snapshot."""
    deck = _moved(request, game, pk)
    token = request.GET.get("token") or None
    try:
        access_deck(request.user, deck.pk, token=token)
    except Http404:
        published = public_space.deck_url(deck.pk)
        if published is None:
            raise
        return redirect(published, permanent=True)
    return redirect(setup_selectors.deck_address(request.user, deck, token), permanent=True)


@require_http_methods(["GET", "POST"])
def setup_edit(request: HttpRequest, game: str, pk: int) -> HttpResponse:
    """The set-up's editor is its deck's builder (the owner's alone, as it was)."""
    deck = _moved(request, game, pk)
    access_deck(request.user, deck.pk)
    return redirect("decks:edit", pk=deck.pk, permanent=True)


@require_http_methods(["GET", "POST"])
def setup_delete(request: HttpRequest, game: str, pk: int) -> HttpResponse:
    """Deleting is done on the deck's page now (nothing is deleted by an old form's address)."""
    deck = _moved(request, game, pk)
    access_deck(request.user, deck.pk)
    return redirect("decks:detail", pk=deck.pk)


@require_POST
@rate_limit("search")
def setup_check(request: HttpRequest, game: str) -> HttpResponse:
    """The game's verdict on the piles being chosen (htmx swaps it in)."""
    game_obj, fullgame = fullgame_selectors.fullgame_or_404(game)
    found = setup_selectors.verdict(game_obj, fullgame, request.POST.getlist("abilities"), inputs.language())
    return render(request, "simulator/_setup_verdict.html", {"verdict": found})


def whole_game_panel(request: Any, deck: Deck, token: str | None) -> str:
    """The deck page's panel (``decks.extensions``): the whole game's verdict on the deck's piles, each missing
    value linked to where it is filled; nothing for a game without a whole game."""
    fullgame = get_fullgame(deck.game.slug)
    if fullgame is None or not fullgame.choosable:
        return ""
    table = setup_selectors.TableChoice(deck.name, setup_selectors.deck_piles(deck, fullgame), deck)
    found = setup_selectors.table_verdict(deck.game, fullgame, table, inputs.language())
    context = {
        "verdict": found,
        "deck": deck,
        # The owner states there what the database does not know (``simulator.assumptions``).
        "assumptions_url": reverse("assumptions:page", args=[deck.pk]) if deck.owner_id == request.user.pk else "",
    }
    return render_to_string("simulator/_deck_whole_game.html", context, request=request)
