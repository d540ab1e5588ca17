"""Pages of the strategy searches, under ``/simulator/games/<game>/search/``: start one on a set-up, follow
it (htmx polls the panel), cancel it, and save the strategy it found as a written strategy to edit and compare.
A search belongs to whoever started it: anyone else gets 404. Thin: writes in ``searches.services``."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.decorators import account_required
from cardsite.errors import AppError
from cardsite.htmx import vary_on_htmx
from cardsite.labels import pick
from cardsite.refusals import show_refusal
from cardsite.throttling import rate_limit
from cardsite.types import HtmxRequest, signed_in

from .. import inputs
from ..assumptions import selectors as assumption_selectors
from ..models import StrategySearch
from ..presentation import interval_chart
from ..setups import selectors as setup_selectors
from ..shared import selectors as fullgame_selectors
from ..strategies import services as strategy_services
from . import services as searches
from .forms import SearchForm

RECENT = 10


@account_required
@require_http_methods(["GET", "POST"])
@rate_limit("simulation_start")
def start(request: HttpRequest, game: str) -> HttpResponse:
    game_obj, fullgame = fullgame_selectors.fullgame_or_404(game)
    quota_status: int | None = None  # 429 when the user's allowance of runs refused the start
    if fullgame.search is None:
        raise Http404
    language = inputs.language()
    chosen_deck = setup_selectors.requested(request)
    form = SearchForm(
        request.POST or None,
        fullgame=fullgame,
        decks=setup_selectors.deck_choices(request.user, game_obj, chosen_deck),
        initial={"deck": chosen_deck},
    )
    shown = setup_selectors.shown_verdict(request.user, game_obj, fullgame, chosen_deck, language)
    setup, missing, problems = shown.setup, shown.missing, shown.problems
    # A deck's assumed values may make a set-up the database alone does not: the chosen deck's verdict decides.
    if request.method == "POST" and form.is_valid():
        table = setup_selectors.choose(request.user, game_obj, form.cleaned_data["deck"], fullgame)
        found = setup_selectors.table_verdict(game_obj, fullgame, table, language)
        setup, missing, problems = found.setup, found.missing, found.problems
        chosen_piles = table.piles
        if setup is not None:
            try:
                run = searches.start_search(
                    game=game_obj,
                    requester=request.user,
                    setup=setup,
                    players=form.cleaned_data["players"],
                    generations=form.cleaned_data["generations"],
                    islands=form.cleaned_data["islands"],
                    abilities=chosen_piles,
                    language=language,
                    assumptions=assumption_selectors.stored_copy(table.deck),
                )
            except searches.RunQuotaExceeded as refused:
                show_refusal(request, refused, form=form)
                quota_status = refused.status
            else:
                return redirect("searches:run", game=game, run_id=run.pk)
    context = {
        "game": game_obj,
        "game_name": pick(fullgame.names, language),
        "form": form,
        "missing": missing,
        "assumptions_url": shown.assumptions_url,
        "problems": problems,
        "assumptions_deck": setup_selectors.assumptions_deck(request.user, game_obj, chosen_deck) if missing else None,
        "runs": StrategySearch.objects.filter(game=game_obj, requester=signed_in(request.user))[:RECENT],
    }
    status = 400 if form.is_bound and (form.errors or missing or problems) else 200
    return render(request, "simulator/search.html", context, status=quota_status or status)


def own_search(request: HttpRequest, game: str, run_id: int) -> StrategySearch:
    return searches.SEARCHES.own(request.user, run_id, related=("game",), game__slug=game)


def search_context(run: StrategySearch, language: str) -> dict[str, Any]:
    _game, fullgame = fullgame_selectors.fullgame_or_404(run.game.slug)
    best = (run.result or {}).get("best")
    rows = []
    if best:
        # (rate, low, high, games, stopped); a search reported before stopped games were counted has four.
        for name, (rate, low, high, games, *stopped) in best["against"].items():
            label = pick(fullgame.strategy_labels.get(name, {}), language) or name
            rows.append(
                {
                    "label": name,
                    "name": label,
                    "games": games,
                    "stopped": stopped[0] if stopped else None,
                    "percent": 100 * rate,
                    "low": 100 * low,
                    "high": 100 * high,
                    "beaten": low > 1 / run.players,
                }
            )
    return {
        "run": run,
        "assumed": assumption_selectors.named(run.game, run.assumptions, language),
        "game_name": pick(fullgame.names, language),
        "best": best,
        "rows": rows,
        "notes": fullgame_selectors.result_notes(fullgame, [run.setup], language),
        "chart": interval_chart(rows),
        "beats_all": bool(rows) and all(row["beaten"] for row in rows),
        "fair_share": 100 / run.players,
        "run_url": reverse("searches:run", args=[run.game.slug, run.pk]),
        "cancel_url": reverse("searches:cancel", args=[run.game.slug, run.pk]),
        "save_url": reverse("searches:save", args=[run.game.slug, run.pk]),
    }


@require_GET
@vary_on_htmx
def run_detail(request: HtmxRequest, game: str, run_id: int) -> HttpResponse:
    run = own_search(request, game, run_id)
    context = search_context(run, inputs.language())
    if request.htmx and not request.htmx.history_restore_request:
        return render(request, "simulator/_search.html", context)
    return render(request, "simulator/search_run.html", context)


@require_POST
def cancel(request: HtmxRequest, game: str, run_id: int) -> HttpResponse:
    run = own_search(request, game, run_id)
    searches.cancel_search(run)
    run.refresh_from_db()
    if request.htmx:
        return render(request, "simulator/_search.html", search_context(run, inputs.language()))
    return redirect("searches:run", game=game, run_id=run.pk)


@account_required
@require_POST
@rate_limit("deck_write")
def save(request: HttpRequest, game: str, run_id: int) -> HttpResponse:
    """The strategy found, saved as the user's own written strategy (private), to edit and compare."""
    run = own_search(request, game, run_id)
    best = (run.result or {}).get("best")
    if not best:
        raise Http404
    name = request.POST.get("name", "").strip() or _("Found by search %(id)s") % {"id": run.pk}
    try:
        strategy = strategy_services.create_strategy(owner=request.user, game=run.game, name=name, text=best["text"])
    except AppError as refused:
        context = {**search_context(run, inputs.language()), "save_error": refused.message}
        return render(request, "simulator/search_run.html", context, status=refused.status)
    return redirect("strategies:detail", game=game, pk=strategy.pk)
