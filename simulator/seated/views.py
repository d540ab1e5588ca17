"""Pages of whole games played one choice at a time (the step-by-step game view), under
``/simulator/games/<game>/play/``: start a game with yourself in one seat and strategies in the others (or strategies
only, to watch), then answer each choice the game asks you, with the table and the log beside; a game of strategies is
stepped through turn by turn. A comparison's sample games open here too. A played game is its owner's alone. Thin: reads
in ``seated.selectors``, writes in ``seated.services``."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from accounts.decorators import account_required
from cardsite.errors import AppError
from cardsite.labels import pick
from cardsite.refusals import show_refusal
from cardsite.throttling import rate_limit
from cardsite.types import signed_in

from .. import inputs
from ..assumptions import selectors as assumption_selectors
from ..comparisons import selectors as comparison_selectors
from ..models import SeatedGame
from ..setups import selectors as setup_selectors
from ..shared import selectors as fullgame_selectors
from ..shared.forms import MAX_WRITTEN_CHOICES
from ..strategies import selectors as strategy_selectors
from . import selectors as seated_selectors
from . import services as seated_services
from .forms import SeatedForm

RECENT = 10


@account_required
@require_http_methods(["GET", "POST"])
@rate_limit("deck_write")
def start(request: HttpRequest, game: str) -> HttpResponse:
    game_obj, fullgame = fullgame_selectors.fullgame_or_404(game)
    language = inputs.language()
    chosen_deck = setup_selectors.requested(request)
    written = [
        (strategy.reference, f"{strategy.name} ({strategy.owner.get_username()})")
        for strategy in strategy_selectors.strategies_of_game(request.user, game_obj)[:MAX_WRITTEN_CHOICES]
    ]
    form = SeatedForm(
        request.POST or None,
        fullgame=fullgame,
        decks=setup_selectors.deck_choices(request.user, game_obj, chosen_deck),
        language=language,
        written=written,
        initial={"deck": chosen_deck},
    )
    shown = setup_selectors.shown_verdict(request.user, game_obj, fullgame, chosen_deck, language)
    setup, missing, problems = shown.setup, shown.missing, shown.problems
    # A deck's assumed values may make a set-up the database alone does not: the chosen deck's verdict decides.
    if request.method == "POST" and form.is_valid():
        table = setup_selectors.choose(request.user, game_obj, form.cleaned_data["deck"], fullgame)
        found = setup_selectors.table_verdict(game_obj, fullgame, table, language)
        setup, missing, problems = found.setup, found.missing, found.problems
        if setup is not None:
            try:
                seated = seated_services.start_seated(
                    owner=request.user,
                    game=game_obj,
                    fullgame=fullgame,
                    seats=form.seats(),
                    setup=setup,
                    abilities=table.piles,
                    assumptions=assumption_selectors.stored_copy(table.deck),
                )
            except AppError as refused:
                show_refusal(request, refused, form=form)
                for messages in refused.errors.values():
                    for message in messages:
                        show_refusal(request, message, form=form)
            else:
                return redirect("seated:game", game=game, pk=seated.pk)
    context = {
        "game": game_obj,
        "game_name": pick(fullgame.names, language),
        "form": form,
        "missing": missing,
        "assumptions_url": shown.assumptions_url,
        "problems": problems,
        "assumptions_deck": setup_selectors.assumptions_deck(request.user, game_obj, chosen_deck) if missing else None,
        "recent": SeatedGame.objects.filter(owner=signed_in(request.user), game=game_obj)[:RECENT],
    }
    status = 400 if form.is_bound and (form.errors or missing or problems) else 200
    return render(request, "simulator/seated_start.html", context, status=status)


def _turn(request: HttpRequest) -> int | None:
    value = request.GET.get("turn", "")
    return int(value) if value.isdigit() and len(value) < 6 else None


@account_required
@require_http_methods(["GET", "POST"])
@rate_limit("game_answer")
def play(request: HttpRequest, game: str, pk: int) -> HttpResponse:
    seated = seated_selectors.own_game(request.user, pk, game)
    _game, fullgame = fullgame_selectors.fullgame_or_404(game)
    error = ""
    status = 200
    if request.method == "POST":
        try:
            if request.POST.get("play_hand"):
                seated = seated_services.play_hand(request.user, seated.pk, seen=_seen(request))
            else:
                seated = seated_services.answer(
                    request.user, seated.pk, request.POST.get("answer", ""), seen=_seen(request)
                )
        except AppError as refused:
            error, status = refused.message, refused.status
        else:
            return redirect(f"{reverse('seated:game', args=[game, seated.pk])}#choice")
    return _render(request, seated, fullgame, error=error, status=status)


def _seen(request: HttpRequest) -> int | None:
    """How many answers the page the request came from was made with (None: a form that does not say)."""
    value = request.POST.get("answered", "")
    return int(value) if value.isdigit() and len(value) < 6 else None


def _render(
    request: HttpRequest, seated: SeatedGame, fullgame: Any, *, error: str = "", status: int = 200
) -> HttpResponse:
    language = inputs.language()
    watched = seated.person is None
    turn = _turn(request) if watched else None
    data = seated_selectors.view(seated, fullgame, language, after_turns=turn)
    if watched:
        total = seated_selectors.view(seated, fullgame, language)["turns"] if turn is not None else data["turns"]
        shown = data["turns"]
    else:
        total = shown = data["turns"]
    base = reverse("seated:game", args=[seated.game.slug, seated.pk])
    context = {
        **data,
        "seated": seated,
        "assumed": assumption_selectors.named(seated.game, seated.assumptions, language),
        "game": seated.game,
        "game_name": pick(fullgame.names, language),
        "watched": watched,
        "shown_turn": shown,
        "total_turns": total,
        "previous_url": f"{base}?turn={shown - 1}" if watched and shown > 0 else "",
        "next_url": f"{base}?turn={shown + 1}" if watched and shown < total else "",
        "last_url": base if watched and shown < total else "",
        # Watched: the turn shown, in order; played: the latest events first (what just happened is on top).
        "this_turn_log": [entry for entry in data["log"] if entry["turn"] == shown]
        if watched
        else data["log"][-40:][::-1],
        "error": error,
        "play_hand": _offers_play_hand(fullgame, data["pending"]),
        "back_url": reverse("seated:back", args=[seated.game.slug, seated.pk]),
        "comparison_url": reverse("comparisons:run", args=[seated.game.slug, seated.source["comparison"]])
        if seated.source.get("comparison")
        else "",
    }
    return render(request, "simulator/seated_game.html", context, status=status)


def _offers_play_hand(fullgame: Any, pending: dict[str, Any] | None) -> bool:
    """Whether the pending choice is one of playing a card from the hand ("play my whole hand" is offered)."""
    if pending is None or fullgame.next_play is None:
        return False
    return fullgame.next_play(pending["kind"], [option.value for option in pending["options"]]) is not None


@account_required
@require_POST
@rate_limit("deck_write")
def take_back(request: HttpRequest, game: str, pk: int) -> HttpResponse:
    seated = seated_selectors.own_game(request.user, pk, game)
    _game, fullgame = fullgame_selectors.fullgame_or_404(game)
    try:
        seated_services.take_back(request.user, seated.pk, seen=_seen(request))
    except AppError as refused:
        return _render(request, seated, fullgame, error=refused.message, status=refused.status)
    return redirect("seated:game", game=game, pk=seated.pk)


@account_required
@require_POST
@rate_limit("deck_write")
def sample(request: HttpRequest, game: str, run_id: int, percentile: int) -> HttpResponse:
    """Keeps a comparison's sample game (10th, 50th or 90th percentile of length) and opens it turn by turn."""
    run = comparison_selectors.own_comparison(request.user, game, run_id)
    _game, fullgame = fullgame_selectors.fullgame_or_404(game)
    seated = seated_services.sample_game(run, fullgame, percentile, request.user)
    return redirect(f"{reverse('seated:game', args=[game, seated.pk])}?turn=1")
