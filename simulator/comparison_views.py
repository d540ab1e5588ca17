"""Pages of a whole game's comparisons: ``/games/<game>/compare/`` (start one; the set-up is refused with every
missing value linked to where it is filled) and ``/games/<game>/compare/<id>/`` (its progress and report).
A comparison belongs to whoever started it: anyone else gets 404. Thin: reads in ``fullgame_selectors``,
writes in ``comparisons``."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from cardsite.htmx import vary_on_htmx
from cardsite.labels import pick
from cardsite.refusals import show_refusal
from cardsite.throttling import rate_limit

from . import comparisons, fullgame_selectors, inputs, setup_decks, strategy_selectors
from .comparison_forms import ComparisonForm
from .models import ComparisonRun
from .presentation import interval_chart

RECENT_RUNS = 10
MAX_WRITTEN_CHOICES = 200  # the most recently changed of the user's own and the public ones


@require_http_methods(["GET", "POST"])
@rate_limit("simulation_start")
def compare(request: HttpRequest, game: str) -> HttpResponse:
    game_obj, fullgame = fullgame_selectors.fullgame_or_404(game)
    language = inputs.language()
    if request.method == "POST" and not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    chosen_deck = setup_decks.requested(request)
    written = [
        (strategy.reference, f"{strategy.name} ({strategy.owner.get_username()})")
        for strategy in strategy_selectors.strategies_of_game(request.user, game_obj)[:MAX_WRITTEN_CHOICES]
    ]
    preset = request.GET.get("strategy", "")
    form = ComparisonForm(
        request.POST or None,
        fullgame=fullgame,
        decks=setup_decks.deck_choices(request.user, game_obj, chosen_deck),
        language=language,
        written=written,
        initial={
            "deck": chosen_deck,
            **({"seat1": preset} if preset in dict(written) else {}),
        },
    )
    setup, missing, problems = fullgame_selectors.setup_or_refusal(game_obj, fullgame, language, [])
    if request.method == "POST" and form.is_valid() and setup is not None:
        table = setup_decks.choose(request.user, game_obj, form.cleaned_data["deck"], fullgame)
        found = setup_decks.table_verdict(game_obj, fullgame, table, language)
        setup, missing, problems = found.setup, found.missing, found.problems
        seats, written_texts, unusable = comparisons.written_strategies(
            request.user, game_obj, fullgame, form.strategies()
        )
        if unusable:
            show_refusal(
                request, _("Not a strategy you may use: %(names)s.") % {"names": ", ".join(unusable)}, form=form
            )
        elif setup is not None:
            try:
                run = comparisons.start_comparison(
                    game=game_obj,
                    requester=request.user,
                    setup=setup,
                    strategies=seats,
                    written=written_texts,
                    games=form.cleaned_data["games"],
                    sequential=form.cleaned_data["sequential"],
                    abilities=table.piles,
                    language=language,
                )
            except comparisons.RunQuotaExceeded as refused:
                show_refusal(request, refused, form=form)
            else:
                return redirect("comparisons:run", game=game, run_id=run.pk)
    runs = (
        ComparisonRun.objects.filter(game=game_obj, requester=request.user)[:RECENT_RUNS]
        if request.user.is_authenticated
        else []
    )
    context = {
        "game": game_obj,
        "game_name": pick(fullgame.names, language),
        "form": form,
        "missing": missing,
        "problems": problems,
        "runs": runs,
        "max_games": comparisons.MAX_GAMES,
    }
    status = 400 if form.is_bound and (form.errors or missing or problems) else 200
    return render(request, "simulator/compare.html", context, status=status)


def own_run(request: HttpRequest, game: str, run_id: int) -> ComparisonRun:
    return comparisons.COMPARISONS.own(request.user, run_id, related=("game",), game__slug=game)


def run_context(run: ComparisonRun, language: str) -> dict[str, Any]:
    _game, fullgame = fullgame_selectors.fullgame_or_404(run.game.slug)
    labels = fullgame_selectors.strategy_labels(fullgame, run.strategies, run.written, language)
    result = run.result
    rows = []
    if result:
        for index, row in enumerate(result["strategies"]):
            on = f" · {run.setup_names[index]}" if index < len(run.setup_names) else ""
            rows.append(
                {
                    **row,
                    "name": labels.get(row["strategy"], row["strategy"]) + on,
                    "percent": 100 * row["win_rate"],
                    "low": 100 * row["interval"][0],
                    "high": 100 * row["interval"][1],
                }
            )
    names = {row["label"]: row["name"] for row in rows}
    leaders = (result or {}).get("leaders") or {}
    percentiles = (result or {}).get("length_percentiles") or {}
    samples = [
        {
            "percentile": int(q),
            "turns": turns,
            "url": reverse("seated:sample", args=[run.game.slug, run.pk, int(q)]),
        }
        for q, turns in percentiles.items()
        if turns is not None and not run.active
    ]
    return {
        "run": run,
        "leader_first": names.get(leaders.get("first"), leaders.get("first")),
        "leader_second": names.get(leaders.get("second"), leaders.get("second")),
        "chart": interval_chart(rows),
        "samples": samples,
        "game_name": pick(fullgame.names, language),
        "result": result,
        "rows": rows,
        "strategy_names": [
            labels[name] + (f" · {run.setup_names[index]}" if index < len(run.setup_names) else "")
            for index, name in enumerate(run.strategies)
        ],
        "opponent_names": list(
            fullgame_selectors.strategy_labels(fullgame, run.opponents, run.written, language).values()
        ),
        "run_url": reverse("comparisons:run", args=[run.game.slug, run.pk]),
        "cancel_url": reverse("comparisons:cancel", args=[run.game.slug, run.pk]),
        "compare_url": reverse("comparisons:compare", args=[run.game.slug]),
    }


@require_GET
@vary_on_htmx
def run_detail(request: HttpRequest, game: str, run_id: int) -> HttpResponse:
    run = own_run(request, game, run_id)
    partial = bool(request.htmx) and not request.htmx.history_restore_request
    template = "simulator/_comparison.html" if partial else "simulator/comparison.html"
    return render(request, template, run_context(run, inputs.language()))


@require_POST
def cancel(request: HttpRequest, game: str, run_id: int) -> HttpResponse:
    run = own_run(request, game, run_id)
    comparisons.cancel_comparison(run)
    if request.htmx:
        return render(request, "simulator/_comparison.html", run_context(run, inputs.language()))
    return redirect("comparisons:run", game=game, run_id=run.pk)
