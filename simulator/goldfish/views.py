"""Goldfish pages of a deck: sample hand, draw odds and Monte Carlo runs.

Who may see them is decided as for the deck page (``decks.selectors``): ``/simulator/decks/<pk>/…`` for whoever
may see the deck there, ``/simulator/decks/shared/<token>/…`` for a deck shared by link; 404 otherwise, so a
private deck's existence is not revealed. Monte Carlo runs need an account and belong to whoever
started them: someone else's run answers 404.

The sample hand is replayed from the URL on every request (``simulator.sample``): the seed, the
policy, the parameters, the turn and the extra draws are all in the query, so a hand can be shared
and comes back exactly. htmx requests get the hand's panel only (and push the URL); anything else
gets the whole page.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from cards.search.normalize import fold
from cardsite.htmx import vary_on_htmx
from cardsite.pagecache import kept_for_reader
from cardsite.refusals import show_refusal
from cardsite.throttling import rate_limit
from cardsite.types import HtmxRequest
from decks import selectors
from decks.models import Deck

from .. import adapters, core, inputs, presentation, sample, tables
from ..assumptions import selectors as assumption_selectors
from ..engines import get_engine
from ..models import SimulationRun
from ..odds import Group
from ..presentation import DeckLinks
from . import services
from .forms import CalculatorForm, SimulationForm
from .selectors import access_run

RECENT_RUNS = 10


def _load(request: HttpRequest, pk: int | None, token: str | None) -> tuple[Deck, DeckLinks]:
    deck = selectors.access_deck(request.user, pk, token=token)
    return deck, DeckLinks(deck, token)


def _partial(request: HtmxRequest) -> bool:
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


def _unknown_values(request: HttpRequest, deck: Deck, simdeck: core.SimDeck, language: str) -> int:
    """For the deck's owner: how many values the goldfish reads that the deck's cards (``simdeck``, the deck's
    assumptions in) lack; the page links to the assumptions page, where they can be assumed."""
    if deck.owner_id != request.user.pk:
        return 0
    return assumption_selectors.goldfish_unknown(deck, language, simdeck)


# --- sample hand ------------------------------------------------------------------------------------


@require_GET
@vary_on_htmx
@kept_for_reader()
def hand(request: HtmxRequest, pk: int | None = None, token: str | None = None) -> HttpResponse:
    deck, links = _load(request, pk, token)
    engine = get_engine(deck.game.slug)
    language = inputs.language()
    asked = inputs.parse_hand(engine, request.GET)
    if not asked.seed_given:
        # No seed (or an unreadable one): deal a new hand and put its seed in the address.
        query = request.GET.copy()
        query["seed"] = str(asked.spec.seed)
        return redirect(f"{request.path}?{query.urlencode()}")
    spec = asked.spec
    simdeck, used = adapters.sim_deck_assumed(deck, language)
    readiness = adapters.readiness(simdeck, language)
    context = {
        **_base_context(request, deck, links, "hand"),
        "engine": engine,
        "readiness": readiness,
        "placeholders_dealt": adapters.placeholders_dealt(simdeck),
        "assumed": assumption_selectors.used_by(deck, used, language),
        "unknown_values": _unknown_values(request, deck, simdeck, language),
        "errors": [message for slug, message in asked.errors.items() if slug not in spec.params],
        "seed": spec.seed,
        "policy": spec.policy,
        "policies": presentation.policy_choices(engine, language),
        "parameters": presentation.parameter_views(engine, spec.params, asked.errors, language),
        "opening_hand": core.opening_hand(engine, spec.params),
        "max_turns": inputs.MAX_TURNS,
    }
    if readiness.ready:
        played = sample.replay(engine, simdeck, spec)
        state = played.state
        zones, counters = presentation.state_panels(engine, deck.game, state, language)
        can_draw = not played.over and len(played.draws) < inputs.MAX_EXTRA_DRAWS
        can_continue = not played.over and played.turn < inputs.MAX_TURNS
        here = replace(spec, turn=played.turn, draws=played.draws)
        context.update(
            {
                "played": played,
                "turn": played.turn,
                "zones": zones,
                "hand_zone": next((zone for zone in zones if zone.slug == "hand"), None),
                "in_play": presentation.in_play_panel(engine, deck.game, simdeck, language),
                "counters": counters,
                "turn_events": presentation.event_views(
                    engine, sample.events_of_turn(state.log, played.turn), language
                ),
                "log": presentation.event_views(engine, state.log, language),
                "won_on_turn": state.won_on_turn,
                "draws": ",".join(map(str, played.draws)),
                "current_url": presentation.hand_url(links, here),
                "draw_url": presentation.hand_url(links, replace(here, draws=(*played.draws, played.turn)))
                if can_draw
                else "",
                "next_url": presentation.hand_url(links, replace(here, turn=played.turn + 1)) if can_continue else "",
                "new_url": presentation.hand_url(links, replace(spec, seed=inputs.new_seed(), turn=0, draws=())),
                "restart_url": presentation.hand_url(links, replace(here, turn=0, draws=())),
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
        "placeholders_dealt": adapters.placeholders_dealt(simdeck),
        "main_zone": adapters.zone_label(deck.game.slug, adapters.main_zone(deck.game.slug), language),
        "first_player": first,
        "table": table,
        "cards": [row.card for row in table.rows],
    }


@require_GET
def odds_page(request: HttpRequest, pk: int | None = None, token: str | None = None) -> HttpResponse:
    context = _odds_context(request, pk, token)
    table = context["table"]
    context["rows"] = presentation.odds_rows(table)
    context["form"] = CalculatorForm(cards=context["cards"], seen=table.seen)
    context["calculator_groups"] = _calculator_groups(context["form"], {})
    return render(request, "simulator/odds.html", context)


@require_GET
@vary_on_htmx
def calculate(request: HtmxRequest, pk: int | None = None, token: str | None = None) -> HttpResponse:
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
            "exact": presentation.fraction(probability),
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
    context["rows"] = presentation.odds_rows(table)
    context["calculator_groups"] = _calculator_groups(form, _chosen(request.GET, form.cards))
    return render(request, "simulator/odds.html", context, status=200 if result else 400)


GROUPS = ("a", "b")
CARD_SUGGESTIONS = 12


def _chosen(data: QueryDict, cards: Mapping[str, adapters.DeckCard]) -> dict[str, list[adapters.DeckCard]]:
    """The cards already in each group of the calculator (its chips), as the request names them."""
    return {
        group: [cards[key] for key in dict.fromkeys(data.getlist(f"group_{group}")) if key in cards] for group in GROUPS
    }


def _zone_cards(deck: Deck) -> dict[str, adapters.DeckCard]:
    """The distinct cards of the zone the odds are drawn from, by key."""
    return {card.key: card for card in adapters.main_zone_cards(adapters.sim_deck(deck, inputs.language()))}


def _taken(request: HttpRequest, cards: Mapping[str, adapters.DeckCard]) -> set[str]:
    """The keys of the cards the request says are in a group already (a card is in one group only)."""
    return {card.key for chosen in _chosen(request.GET, cards).values() for card in chosen}


def _calculator_groups(form: CalculatorForm, chosen: Mapping[str, list[adapters.DeckCard]]) -> list[tuple]:
    """Each group of the calculator: its slug, its field, its "at least" field and its chosen cards."""
    return [(group, form[f"group_{group}"], form[group], chosen.get(group, [])) for group in GROUPS]


def _calculator_group(request: HttpRequest) -> str:
    group = request.GET.get("group", "")
    if group not in GROUPS:
        raise Http404
    return group


@require_GET
def odds_cards(request: HttpRequest, pk: int | None = None, token: str | None = None) -> HttpResponse:
    """The calculator's search as you type: the cards of the zone the odds are drawn from whose name holds
    ``find_<group>`` (folded as the card search folds), less those already in a group; each adds a chip."""
    deck, links = _load(request, pk, token)
    group = _calculator_group(request)
    cards = _zone_cards(deck)
    taken = _taken(request, cards)
    query = request.GET.get(f"find_{group}", "").strip()
    wanted = fold(query)
    matches = [
        card
        for card in cards.values()
        if card.key not in taken and (not wanted or wanted in fold(card.name) or wanted in fold(card.key))
    ]
    context = {
        "links": links,
        "group": group,
        "query": query,
        "suggestions": matches[:CARD_SUGGESTIONS],
        "more": len(matches) - CARD_SUGGESTIONS,
        "all_taken": not matches and not wanted,
    }
    return render(request, "simulator/_card_suggestions.html", context)


@require_GET
def odds_chip(request: HttpRequest, pk: int | None = None, token: str | None = None) -> HttpResponse:
    """One chip of the calculator (a card with its hidden input), for the group the request names."""
    deck, _links = _load(request, pk, token)
    group = _calculator_group(request)
    cards = _zone_cards(deck)
    card = cards.get(request.GET.get("card", ""))
    if card is None:
        raise Http404
    context = {"card": card, "group": group, "clear": True, "already": card.key in _taken(request, cards)}
    return render(request, "simulator/_chip.html", context)


# --- Monte Carlo --------------------------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
@rate_limit("simulation_start")
def simulate(request: HttpRequest, pk: int | None = None, token: str | None = None) -> HttpResponse:
    deck, links = _load(request, pk, token)
    engine = get_engine(deck.game.slug)
    language = inputs.language()
    quota_status: int | None = None  # 429 when the user's allowance of runs refused the start
    if request.method == "POST" and not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    simdeck, used = adapters.sim_deck_assumed(deck, language)
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
            show_refusal(request, refused, form=form)
            quota_status = refused.status
        else:
            return redirect(links.run(run.pk))
    runs = [
        (run, presentation.policy_label(engine, run.policy, language))
        for run in (
            SimulationRun.objects.filter(deck=deck, requester=request.user)[:RECENT_RUNS]
            if request.user.is_authenticated
            else []
        )
    ]
    context = {
        **_base_context(request, deck, links, "simulate"),
        "engine": engine,
        "readiness": readiness,
        "placeholders_dealt": adapters.placeholders_dealt(simdeck),
        "assumed": assumption_selectors.used_by(deck, used, language),  # what a run started now plays with
        "unknown_values": _unknown_values(request, deck, simdeck, language),
        "form": form,
        "runs": runs,
        "page_cap": inputs.PAGE_MAX_GAMES,
        "api_cap": inputs.API_MAX_GAMES,
        "parameters": presentation.parameter_views(engine, {}, None, language),
    }
    return render(request, "simulator/simulate.html", context, status=quota_status or (400 if form.is_bound else 200))


def _run_context(request: HttpRequest, deck: Deck, links: DeckLinks, run: SimulationRun) -> dict[str, Any]:
    engine = get_engine(deck.game.slug)
    language = inputs.language()
    context: dict[str, Any] = {
        **_base_context(request, deck, links, "simulate"),
        "run": run,
        "assumed": assumption_selectors.named(deck.game, run.assumptions, language),
        "run_url": links.run(run.pk),
        "cancel_url": links.cancel(run.pk),
        "engine": engine,
        "policy_label": presentation.policy_label(engine, run.policy, language),
        "parameters": presentation.parameter_views(engine, run.params, None, language),
        "stat_labels": presentation.stat_labels(engine, language),
    }
    result = run.result
    if result and result.get("games"):
        context["result"] = result
        context["win_percent"] = presentation.percent(result["win_rate"])
        context["charts"] = presentation.chart_data(engine, result, language)
        simdeck = adapters.sim_deck(deck, language)
        first = bool(run.params.get("first_player", 1))
        table = tables.exact_table(engine, simdeck, first_player=first, turns=inputs.ODDS_TURNS)
        shuffles = min(run.games, inputs.PAGE_MAX_GAMES)
        if run.odds is not None:  # drawn once as the chunks merged (services.run_odds)
            tables.fill_simulated(table, run.odds)
        else:  # a run kept before runs kept their odds: drawn for this look, not stored (a look never writes)
            tables.add_simulated(table, shuffles, run.seed)
        context["odds_shuffles"] = shuffles
        context["odds_turns"] = table.turns
        context["odds_rows"] = presentation.simulated_odds_rows(table)
    return context


@require_GET
@vary_on_htmx
def run_detail(request: HtmxRequest, run_id: int, pk: int | None = None, token: str | None = None) -> HttpResponse:
    deck, links = _load(request, pk, token)
    run = access_run(request.user, run_id, deck=deck)
    template = "simulator/_run.html" if _partial(request) else "simulator/run.html"
    return render(request, template, _run_context(request, deck, links, run))


@require_POST
def cancel(request: HtmxRequest, run_id: int, pk: int | None = None, token: str | None = None) -> HttpResponse:
    deck, links = _load(request, pk, token)
    run = access_run(request.user, run_id, deck=deck)
    services.cancel_run(run)
    if _partial(request):
        return render(request, "simulator/_run.html", _run_context(request, deck, links, run))
    return redirect(links.run(run.pk))
