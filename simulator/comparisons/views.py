"""Pages of a whole game's comparisons: ``/simulator/games/<game>/compare/`` (start one; the set-up is refused with
every missing value linked to where it is filled) and ``/simulator/games/<game>/compare/<id>/`` (its progress and
report). A comparison belongs to whoever started it: anyone else gets 404. Thin: reads in ``shared.selectors`` and
``comparisons.selectors``, writes in ``comparisons.services``."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.decorators import account_required
from cardsite.htmx import vary_on_htmx
from cardsite.labels import pick
from cardsite.refusals import show_refusal
from cardsite.throttling import rate_limit
from cardsite.types import HtmxRequest

from .. import inputs
from ..assumptions import selectors as assumption_selectors
from ..models import ComparisonRun
from ..presentation import interval_chart
from ..setups import selectors as setup_selectors
from ..shared import selectors as fullgame_selectors
from ..shared.forms import MAX_WRITTEN_CHOICES
from ..strategies import selectors as strategy_selectors
from . import selectors as comparison_selectors
from . import services as comparisons
from .forms import DEFAULT_SETUP, ComparisonForm, SetupsComparisonForm
from .services import MAX_STRATEGIES

RECENT_RUNS = 10
SETUPS_LISTED = 100  # written strategies offered by the comparison of decks


@require_http_methods(["GET", "POST"])
@rate_limit("simulation_start")
def compare(request: HttpRequest, game: str) -> HttpResponse:
    game_obj, fullgame = fullgame_selectors.fullgame_or_404(game)
    quota_status: int | None = None  # 429 when the user's allowance of runs refused the start
    language = inputs.language()
    if request.method == "POST" and not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    chosen_deck = setup_selectors.requested(request)
    written = [
        (strategy.reference, f"{strategy.name} ({strategy.owner.get_username()})")
        for strategy in strategy_selectors.strategies_of_game(request.user, game_obj)[:MAX_WRITTEN_CHOICES]
    ]
    preset = request.GET.get("strategy", "")
    form = ComparisonForm(
        request.POST or None,
        fullgame=fullgame,
        decks=setup_selectors.deck_choices(request.user, game_obj, chosen_deck),
        language=language,
        written=written,
        initial={
            "deck": chosen_deck,
            **({"seat1": preset} if preset in dict(written) else {}),
        },
    )
    shown = setup_selectors.shown_verdict(request.user, game_obj, fullgame, chosen_deck, language)
    setup, missing, problems = shown.setup, shown.missing, shown.problems
    # A deck's assumed values may make a set-up the database alone does not: the chosen deck's verdict decides.
    if request.method == "POST" and form.is_valid():
        table = setup_selectors.choose(request.user, game_obj, form.cleaned_data["deck"], fullgame)
        found = setup_selectors.table_verdict(game_obj, fullgame, table, language)
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
                    assumptions=assumption_selectors.stored_copy(table.deck),
                )
            except comparisons.RunQuotaExceeded as refused:
                show_refusal(request, refused, form=form)
                quota_status = refused.status
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
        "assumptions_url": shown.assumptions_url,
        "problems": problems,
        "assumptions_deck": setup_selectors.assumptions_deck(request.user, game_obj, chosen_deck) if missing else None,
        "runs": runs,
        "max_games": comparisons.MAX_GAMES,
    }
    status = 400 if form.is_bound and (form.errors or missing or problems) else 200
    return render(request, "simulator/compare.html", context, status=quota_status or status)


def own_run(request: HttpRequest, game: str, run_id: int) -> ComparisonRun:
    return comparison_selectors.own_comparison(request.user, game, run_id)


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
        "assumed": assumption_selectors.named(run.game, run.assumptions, language),
        "leader_first": names.get(leaders.get("first"), leaders.get("first")),
        "leader_second": names.get(leaders.get("second"), leaders.get("second")),
        "chart": interval_chart(rows),
        "samples": samples,
        "notes": fullgame_selectors.result_notes(fullgame, [run.setup, *run.setups], language),
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
def run_detail(request: HtmxRequest, game: str, run_id: int) -> HttpResponse:
    run = own_run(request, game, run_id)
    partial = bool(request.htmx) and not request.htmx.history_restore_request
    template = "simulator/_comparison.html" if partial else "simulator/comparison.html"
    return render(request, template, run_context(run, inputs.language()))


@require_POST
def cancel(request: HtmxRequest, game: str, run_id: int) -> HttpResponse:
    run = own_run(request, game, run_id)
    comparisons.cancel_comparison(run)
    if request.htmx:
        return render(request, "simulator/_comparison.html", run_context(run, inputs.language()))
    return redirect("comparisons:run", game=game, run_id=run.pk)


@account_required
@require_http_methods(["GET", "POST"])
@rate_limit("simulation_start")
def compare_setups(request: HttpRequest, game: str) -> HttpResponse:
    """One strategy on two to four decks (the game's default piles or the user's decks of the game: each a table's
    choice of piles), each in its own games against the same opponents, with the same shuffles."""
    game_obj, fullgame = fullgame_selectors.fullgame_or_404(game)
    quota_status: int | None = None  # 429 when the user's allowance of runs refused the start
    language = inputs.language()
    preset_deck = request.GET.get("deck", "")
    written = [
        (strategy.reference, f"{strategy.name} ({strategy.owner.get_username()})")
        for strategy in strategy_selectors.strategies_of_game(request.user, game_obj)[:SETUPS_LISTED]
    ]
    preset = {"setup1": preset_deck, "setup2": DEFAULT_SETUP}
    # A deck shared by link, chosen from its page, stays a choice when the form is posted.
    posted = [request.POST.get(f"setup{n}", "") for n in range(1, MAX_STRATEGIES + 1)]
    form = SetupsComparisonForm(
        request.POST or None,
        fullgame=fullgame,
        language=language,
        decks=setup_selectors.deck_choices(request.user, game_obj, preset_deck, *posted),
        written=written,
        initial=preset,
    )
    problems: list[str] = []
    if request.method == "POST" and form.is_valid():
        entrant_setups = []
        for choice in form.setups():
            table = setup_selectors.choose(request.user, game_obj, choice, fullgame)
            found = setup_selectors.table_verdict(game_obj, fullgame, table, language)
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
                quota_status = refused.status
            else:
                return redirect("comparisons:run", game=game, run_id=run.pk)
    context = {"game": game_obj, "game_name": pick(fullgame.names, language), "form": form, "problems": problems}
    status = 400 if form.is_bound and (form.errors or problems) else 200
    return render(request, "simulator/compare_setups.html", context, status=quota_status or status)
