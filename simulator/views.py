"""Goldfish pages of a deck: sample hand, draw odds and Monte Carlo runs.

Who may see them is decided as for the deck page (``decks.selectors``): ``/decks/<pk>/…`` for whoever
may see the deck there, ``/decks/shared/<token>/…`` for a deck shared by link; 404 otherwise, so a
private deck's existence is not revealed. Monte Carlo runs need an account and belong to whoever
started them: someone else's run answers 404.

The sample hand is replayed from the URL on every request (``simulator.sample``): the seed, the
policy, the parameters, the turn and the extra draws are all in the query, so a hand can be shared
and comes back exactly. htmx requests get the hand's panel only (and push the URL); anything else
gets the whole page.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any
from urllib.parse import urlencode

from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from cardsite.htmx import vary_on_htmx
from cardsite.throttling import rate_limit
from decks import selectors
from decks.models import Deck

from . import adapters, inputs, presentation, sample, services, tables
from .engines import get_engine
from .forms import CalculatorForm, SimulationForm
from .models import SimulationRun
from .odds import Group
from .selectors import access_run

RECENT_RUNS = 10


class DeckLinks:
    """The URLs of one deck's goldfish pages, through its pk or (shared by link) its token."""

    def __init__(self, deck: Deck, token: str | None) -> None:
        self.deck = deck
        self.token = token

    def url(self, name: str, *args: Any) -> str:
        if self.token:
            return reverse(f"goldfish:shared_{name}", args=[self.token, *args])
        return reverse(f"goldfish:{name}", args=[self.deck.pk, *args])

    @property
    def detail(self) -> str:
        if self.token:
            return reverse("decks:shared", args=[self.token])
        return reverse("decks:detail", args=[self.deck.pk])

    @property
    def hand(self) -> str:
        return self.url("hand")

    @property
    def odds(self) -> str:
        return self.url("odds")

    @property
    def calculate(self) -> str:
        return self.url("calculate")

    @property
    def simulate(self) -> str:
        return self.url("simulate")

    def run(self, run_id: int) -> str:
        return self.url("run", run_id)

    def cancel(self, run_id: int) -> str:
        return self.url("cancel", run_id)


def _load(request: HttpRequest, pk: int | None, token: str | None) -> tuple[Deck, DeckLinks]:
    deck = selectors.access_deck(request.user, pk, token=token)
    return deck, DeckLinks(deck, token)


def _partial(request: HttpRequest) -> bool:
    return bool(request.htmx) and not request.htmx.history_restore_request


def _base_context(request: HttpRequest, deck: Deck, links: DeckLinks, section: str) -> dict[str, Any]:
    language = inputs.language()
    return {
        "deck": deck,
        "links": links,
        "section": section,
        "game_name": deck.game.definition.name(language),
        "is_owner": selectors.can_edit(request.user, deck),
    }


# --- sample hand ------------------------------------------------------------------------------------


def _hand_query(seed: int, turn: int, policy: str, params: Mapping[str, int], draws: Sequence[int]) -> str:
    query: dict[str, Any] = {"seed": seed, "policy": policy, "turn": turn}
    query.update(params)
    if draws:
        query["draws"] = ",".join(map(str, draws))
    return urlencode(query)


def _parse_draws(raw: str, turn: int) -> tuple[tuple[int, ...], str | None]:
    """``draws=0,0,2``: after which turn each extra draw was made; each from 0 to the turn, in order."""
    if not raw.strip():
        return (), None
    try:
        draws = tuple(int(part) for part in raw.split(","))
    except ValueError:
        draws = ()
    else:
        if (
            len(draws) <= inputs.MAX_EXTRA_DRAWS
            and all(0 <= value <= turn for value in draws)
            and list(draws) == sorted(draws)
        ):
            return draws, None
    return (), _("The extra draws in the address (“%(draws)s”) could not be read; they were left out.") % {
        "draws": raw[:40]
    }


@require_GET
@vary_on_htmx
def hand(request: HttpRequest, pk: int | None = None, token: str | None = None) -> HttpResponse:
    deck, links = _load(request, pk, token)
    engine = get_engine(deck.game.slug)
    language = inputs.language()
    seed, seed_error = inputs.parse_int(request.GET.get("seed", ""), "seed", 0, inputs.MAX_SEED)
    if seed_error:
        # No seed (or an unreadable one): deal a new hand and put its seed in the address.
        query = request.GET.copy()
        query["seed"] = str(inputs.new_seed())
        return redirect(f"{request.path}?{query.urlencode()}")
    errors: list[str] = []
    turn = 0
    if request.GET.get("turn", "").strip():
        parsed, error = inputs.parse_int(request.GET["turn"], _("The turn"), 0, inputs.MAX_TURNS)
        if error:
            errors.append(error)
        else:
            turn = parsed
    policy, error = inputs.parse_policy(engine, request.GET.get("policy"))
    if error:
        errors.append(error)
    params, param_errors = inputs.parse_params(engine, request.GET)
    draws, error = _parse_draws(request.GET.get("draws", ""), turn)
    if error:
        errors.append(error)

    simdeck = adapters.sim_deck(deck, language)
    readiness = adapters.readiness(simdeck, language)
    context = {
        **_base_context(request, deck, links, "hand"),
        "engine": engine,
        "readiness": readiness,
        "errors": errors,
        "seed": seed,
        "policy": policy,
        "policies": presentation.policy_choices(engine),
        "parameters": presentation.parameter_views(engine, params, param_errors, language),
        "opening_hand": engine.opening_hand,
        "max_turns": inputs.MAX_TURNS,
    }
    if readiness.ready:
        played = sample.replay(engine, simdeck, sample.HandSpec(seed, turn, policy, params, draws))
        zones, counters = presentation.state_panels(deck.game, played.state, language)
        state = played.state
        can_draw = played.can_draw and not played.over and len(played.draws) < inputs.MAX_EXTRA_DRAWS
        can_continue = not played.over and played.turn < inputs.MAX_TURNS

        def url(seed: int, turn: int, draws: Sequence[int]) -> str:
            return f"{links.hand}?{_hand_query(seed, turn, policy, params, draws)}"

        context.update(
            {
                "played": played,
                "turn": played.turn,
                "zones": zones,
                "hand_zone": next((zone for zone in zones if zone.slug == "hand"), None),
                "counters": counters,
                "turn_events": presentation.event_views(sample.events_of_turn(state.log, played.turn)),
                "log": presentation.event_views(state.log),
                "won_on_turn": state.won_on_turn,
                "draws": ",".join(map(str, played.draws)),
                "current_url": url(seed, played.turn, played.draws),
                "draw_url": url(seed, played.turn, (*played.draws, played.turn)) if can_draw else "",
                "next_url": url(seed, played.turn + 1, played.draws) if can_continue else "",
                "new_url": url(inputs.new_seed(), 0, ()),
                "restart_url": url(seed, 0, ()),
            }
        )
    template = "simulator/_hand.html" if _partial(request) else "simulator/hand.html"
    return render(request, template, context)


# --- odds -------------------------------------------------------------------------------------------


def _first_player(engine: Any, data: Mapping[str, Any]) -> bool | None:
    """Going first (True) or second: only for games with a first-player parameter (Shadow Era)."""
    if not inputs.has_first_player(engine):
        return None
    return str(data.get("first_player", "1")).strip() != "0"


def _odds_context(request: HttpRequest, pk: int | None, token: str | None) -> dict[str, Any]:
    deck, links = _load(request, pk, token)
    engine = get_engine(deck.game.slug)
    language = inputs.language()
    simdeck = adapters.sim_deck(deck, language)
    first = _first_player(engine, request.GET)
    table = tables.exact_table(engine, simdeck, first_player=True if first is None else first, turns=inputs.ODDS_TURNS)
    return {
        **_base_context(request, deck, links, "odds"),
        "engine": engine,
        "readiness": adapters.readiness(simdeck, language),
        "main_zone": adapters.zone_label(deck.game.slug, adapters.main_zone(deck.game.slug), language),
        "first_player": first,
        "table": table,
        "cards": [row.card for row in table.rows],
    }


def _odds_rows(table: tables.OddsTable) -> list[dict[str, Any]]:
    return [
        {
            "card": row.card,
            "cells": [
                {"turn": turn, "percent": presentation.percent(p), "exact": f"{p.numerator}/{p.denominator}"}
                for turn, p in zip(table.turns, row.exact, strict=True)
            ],
        }
        for row in table.rows
    ]


@require_GET
def odds_page(request: HttpRequest, pk: int | None = None, token: str | None = None) -> HttpResponse:
    context = _odds_context(request, pk, token)
    table = context["table"]
    context["rows"] = _odds_rows(table)
    context["form"] = CalculatorForm(cards=context["cards"], seen=table.seen)
    return render(request, "simulator/odds.html", context)


@require_GET
@vary_on_htmx
def calculate(request: HttpRequest, pk: int | None = None, token: str | None = None) -> HttpResponse:
    """The calculator's answer: P(at least a of group A and b of group B by the turn)."""
    context = _odds_context(request, pk, token)
    table = context["table"]
    form = CalculatorForm(request.GET, cards=context["cards"], seen=table.seen)
    result = None
    if form.is_valid():
        data = form.cleaned_data
        groups = [Group(form.copies(data["group_a"]), data["a"]), Group(form.copies(data["group_b"]), data["b"])]
        seen = table.seen[data["turn"] - 1]
        probability = tables.group_odds(table.deck_size, groups, seen)
        result = {
            "percent": presentation.percent(probability),
            "exact": f"{probability.numerator}/{probability.denominator}",
            "seen": seen,
            "turn": data["turn"],
            "a": data["a"],
            "b": data["b"],
            "copies_a": groups[0].copies,
            "copies_b": groups[1].copies,
        }
    context.update({"form": form, "result": result})
    if _partial(request):
        return render(request, "simulator/_calculator_result.html", context)
    context["rows"] = _odds_rows(table)
    return render(request, "simulator/odds.html", context, status=200 if result else 400)


# --- Monte Carlo --------------------------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
@rate_limit("simulation_start")
def simulate(request: HttpRequest, pk: int | None = None, token: str | None = None) -> HttpResponse:
    deck, links = _load(request, pk, token)
    engine = get_engine(deck.game.slug)
    language = inputs.language()
    if request.method == "POST" and not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    simdeck = adapters.sim_deck(deck, language)
    readiness = adapters.readiness(simdeck, language)
    form = SimulationForm(request.POST or None, engine=engine)
    if request.method == "POST" and form.is_valid() and readiness.ready:
        try:
            run = services.start_run(
                deck=deck,
                requester=request.user,
                games=form.cleaned_data["games"],
                turns=form.cleaned_data["turns"],
                policy=form.cleaned_data["policy"],
                params=form.params(),
                language=language,
                share_token=token or "",
            )
        except services.RunQuotaExceeded as refused:
            form.add_error(None, str(refused))
        else:
            return redirect(links.run(run.pk))
    runs = (
        list(SimulationRun.objects.filter(deck=deck, requester=request.user)[:RECENT_RUNS])
        if request.user.is_authenticated
        else []
    )
    for run in runs:
        run.policy_label = presentation.policy_label(run.policy)
    context = {
        **_base_context(request, deck, links, "simulate"),
        "engine": engine,
        "readiness": readiness,
        "form": form,
        "runs": runs,
        "page_cap": inputs.PAGE_MAX_GAMES,
        "api_cap": inputs.API_MAX_GAMES,
        "parameters": presentation.parameter_views(engine, {}, None, language),
    }
    return render(request, "simulator/simulate.html", context, status=400 if form.is_bound else 200)


def _own_run(request: HttpRequest, deck: Deck, run_id: int) -> SimulationRun:
    run = access_run(request.user, run_id, deck=deck)
    services.recover_stalled(run)
    return run


def _means(turns: Sequence[Mapping[str, Any]], key: str) -> list[float | None]:
    """A per-turn mean, None (a gap in the chart) for turns no game reached."""
    return [row[key] if row["games"] else None for row in turns]


def chart_data(result: Mapping[str, Any]) -> dict[str, Any]:
    """What static/js/sim-charts.js draws: per-turn means and the win-turn histogram, with their titles."""
    turns = result.get("turns", [])
    histogram = result.get("win_turn_histogram", [])
    return {
        "turns": [row["turn"] for row in turns],
        "series": [
            {"id": "damage", "title": _("Damage per turn (mean)"), "values": _means(turns, "damage")},
            {"id": "resources", "title": _("Resources per turn (mean)"), "values": _means(turns, "resources")},
            {
                "id": "cards_played",
                "title": _("Cards played per turn (mean)"),
                "values": _means(turns, "cards_played"),
            },
        ],
        "histogram": {
            "title": _("Turn of victory"),
            "label": pgettext("simulation", "Games"),
            "turns": [row["turn"] for row in histogram],
            "games": [row["games"] for row in histogram],
        },
    }


def _run_context(request: HttpRequest, deck: Deck, links: DeckLinks, run: SimulationRun) -> dict[str, Any]:
    engine = get_engine(deck.game.slug)
    language = inputs.language()
    context: dict[str, Any] = {
        **_base_context(request, deck, links, "simulate"),
        "run": run,
        "run_url": links.run(run.pk),
        "cancel_url": links.cancel(run.pk),
        "engine": engine,
        "policy_label": presentation.policy_label(run.policy),
        "parameters": presentation.parameter_views(engine, run.params, None, language),
    }
    result = run.result
    if result and result.get("games"):
        context["result"] = result
        context["win_percent"] = presentation.percent(result["win_rate"])
        context["charts"] = chart_data(result)
        simdeck = adapters.sim_deck(deck, language)
        first = bool(run.params.get("first_player", 1))
        table = tables.exact_table(engine, simdeck, first_player=first, turns=inputs.ODDS_TURNS)
        shuffles = min(run.games, inputs.PAGE_MAX_GAMES)
        tables.add_simulated(table, shuffles, run.seed)
        context["odds_shuffles"] = shuffles
        context["odds_turns"] = table.turns
        context["odds_rows"] = [
            {
                "card": row.card,
                "cells": [
                    {"exact": presentation.percent(exact), "simulated": presentation.percent(simulated)}
                    for exact, simulated in zip(row.exact, row.simulated or [], strict=False)
                ],
            }
            for row in table.rows
        ]
    return context


@require_GET
@vary_on_htmx
def run_detail(request: HttpRequest, run_id: int, pk: int | None = None, token: str | None = None) -> HttpResponse:
    deck, links = _load(request, pk, token)
    run = _own_run(request, deck, run_id)
    template = "simulator/_run.html" if _partial(request) else "simulator/run.html"
    return render(request, template, _run_context(request, deck, links, run))


@require_POST
def cancel(request: HttpRequest, run_id: int, pk: int | None = None, token: str | None = None) -> HttpResponse:
    deck, links = _load(request, pk, token)
    run = _own_run(request, deck, run_id)
    services.cancel_run(run)
    if _partial(request):
        return render(request, "simulator/_run.html", _run_context(request, deck, links, run))
    return redirect(links.run(run.pk))
