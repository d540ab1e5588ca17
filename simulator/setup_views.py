"""The old addresses of the set-up builder, ``/games/<game>/setups/``: a table's choice of piles is a deck now
(``setup_decks``), built in the deck builder, so each address leads to the deck pages (a saved set-up's to the
deck it became); ``check/`` still gives the game's verdict on a choice of piles. ``/games/<game>/compare/setups/``
compares one strategy on two to four decks. Thin: reads in ``setup_decks``."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.decorators import account_required
from cardsite.labels import pick
from cardsite.throttling import rate_limit
from decks import public_space
from decks.selectors import access_deck

from . import comparisons, fullgame_selectors, inputs, setup_decks, setup_services, strategy_selectors
from .comparison_forms import DEFAULT_SETUP, SetupsComparisonForm
from .comparisons import MAX_STRATEGIES

LISTED = 100


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
    deck = setup_decks.moved_deck(pk)
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
    return redirect(setup_decks.deck_address(request.user, deck, token), permanent=True)


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
    found = setup_services.verdict(game_obj, fullgame, request.POST.getlist("abilities"), inputs.language())
    return render(request, "simulator/_setup_verdict.html", {"verdict": found})


@account_required
@require_http_methods(["GET", "POST"])
@rate_limit("simulation_start")
def compare_setups(request: HttpRequest, game: str) -> HttpResponse:
    """One strategy on two to four decks (the game's default piles or the user's decks of the game: each a table's
    choice of piles), each in its own games against the same opponents, with the same shuffles."""
    game_obj, fullgame = fullgame_selectors.fullgame_or_404(game)
    language = inputs.language()
    preset_deck = request.GET.get("deck", "")
    written = [
        (strategy.reference, f"{strategy.name} ({strategy.owner.get_username()})")
        for strategy in strategy_selectors.strategies_of_game(request.user, game_obj)[:LISTED]
    ]
    preset = {"setup1": preset_deck, "setup2": DEFAULT_SETUP}
    # A deck shared by link, chosen from its page, stays a choice when the form is posted.
    posted = [request.POST.get(f"setup{n}", "") for n in range(1, MAX_STRATEGIES + 1)]
    form = SetupsComparisonForm(
        request.POST or None,
        fullgame=fullgame,
        language=language,
        decks=setup_decks.deck_choices(request.user, game_obj, preset_deck, *posted),
        written=written,
        initial=preset,
    )
    problems: list[str] = []
    if request.method == "POST" and form.is_valid():
        entrant_setups = []
        for choice in form.setups():
            table = setup_decks.choose(request.user, game_obj, choice, fullgame)
            found = setup_decks.table_verdict(game_obj, fullgame, table, language)
            if not found.ready:
                problems.append(
                    _("%(setup)s cannot be played yet: %(problems)s")
                    % {"setup": table.name, "problems": " ".join([*found.problems, *(r.text for r in found.missing)])}
                )
            entrant_setups.append((table.name, found.setup))
        names = [form.cleaned_data["strategy"], *form.opponents()]
        seats, written_texts, unknown = comparisons.written_strategies(request.user, game_obj, fullgame, names)
        if unknown:
            problems.append(_("Not a strategy you may use: %(names)s.") % {"names": ", ".join(unknown)})
        if not problems:
            try:
                run = comparisons.start_comparison(
                    game=game_obj,
                    requester=request.user,
                    setup=entrant_setups[0][1],
                    strategies=[seats[0]] * len(entrant_setups),
                    written=written_texts,
                    games=form.cleaned_data["games"],
                    sequential=form.cleaned_data["sequential"],
                    abilities=[],
                    language=language,
                    entrant_setups=entrant_setups,
                    opponents=seats[1:],
                )
            except comparisons.RunQuotaExceeded as refused:
                problems.append(str(refused))
            else:
                return redirect("comparisons:run", game=game, run_id=run.pk)
    context = {"game": game_obj, "game_name": pick(fullgame.names, language), "form": form, "problems": problems}
    status = 400 if form.is_bound and (form.errors or problems) else 200
    return render(request, "simulator/compare_setups.html", context, status=status)
