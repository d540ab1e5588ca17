"""Goldfish API: a sample game replayed from its seed, the exact draw odds, and Monte Carlo runs.

Permissions are the deck's (``decks.selectors.can_view``; a deck shared by link is read with
``?token=``): a deck the user may not see answers 404. Starting a run needs credentials (401
without); a run belongs to whoever started it, and is 404 for anyone else. Problems with a request
answer 400 with ``{"detail": …, "errors": {field: [messages]}}``, as the deck API does.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.reverse import reverse
from rest_framework.views import APIView

from cardsite.api_errors import ErrorSerializer
from cardsite.api_inputs import LanguageSerializer
from cardsite.errors import Conflict, FieldProblems, Message
from decks.api.serializers import DeckParametersSerializer
from decks.models import Deck
from decks.selectors import access_deck

from .. import adapters, inputs, presentation, sample, tables
from ..assumptions import selectors as assumption_selectors
from ..assumptions.overlay import Assumed
from ..core import SimDeck, opening_hand
from ..engines import get_engine
from . import services
from .selectors import access_run
from .serializers import (
    GoldfishParametersSerializer,
    OddsParametersSerializer,
    SimulationRequestSerializer,
    SimulationRunSerializer,
)

# 400, 401, 429 … are added to every operation where they can happen (cardsite.api_schema); these say more.
NOT_FOUND = OpenApiResponse(ErrorSerializer, description="No such deck (or run), or one the user may not see.")
NOT_READY = OpenApiResponse(
    ErrorSerializer, description="The deck has no cards in a zone its game needs to play (`errors.deck`)."
)


class DeckAPIView(APIView):
    """Helpers shared by the goldfish endpoints: the deck (or 404), the language, a deck ready to play."""

    def language(self) -> str:
        return LanguageSerializer.read(self.request.query_params).get("lang") or get_language() or "ja"

    def get_deck(self, pk: int) -> Deck:
        token = DeckParametersSerializer.read(self.request.query_params).get("token") or None
        return access_deck(self.request.user, pk, token=token)


def ready_deck(deck: Deck, language: str) -> tuple[SimDeck, list[Assumed]]:
    """The deck as the simulator plays it, and the assumed values it fills in; 409 when a zone the game draws from
    is empty (add cards, ask again)."""
    simdeck, used = adapters.sim_deck_assumed(deck, language)
    readiness = adapters.readiness(simdeck, language)
    if not readiness.ready:
        message = _("The deck has no cards in: %(zones)s.") % {"zones": readiness.missing_text}
        raise Conflict(message, code="deck_not_ready", errors={"deck": [message]})
    return simdeck, used


def _parameters(engine: Any, values: Mapping[str, int], language: str) -> list[dict[str, Any]]:
    return [
        {
            "slug": view.slug,
            "label": view.label,
            "value": view.value,
            "default": view.default,
            "minimum": view.minimum,
            "maximum": view.maximum,
            "source": view.source,
        }
        for view in presentation.parameter_views(engine, values, None, language)
    ]


def _card(card: presentation.CardView) -> dict[str, Any]:
    data: dict[str, Any] = {"key": card.key, "name": card.name, "kind": card.kind_label}
    if card.ready is not None:
        data["ready"] = card.ready
    if card.attack is not None:
        data["attack"] = card.attack
    return data


class GoldfishView(DeckAPIView):
    @extend_schema(
        summary="A sample game of a deck, replayed from its seed",
        description="The game dealt from `seed` (random when absent, and returned), played for `turns` turns by "
        "`policy` (fewer when the game ends first): the zones (the deck's and face-down lands' order is secret: "
        "only their size), the card in play from the start (`in_play`: Shadow Era's hero, Epic Battles' "
        "character, with each value its kind declares as the page shows it, `null` where no source gives it; "
        "`in_play` is null when the game or the deck has none), the counters and the whole event log. "
        "`draws=0,0,2` makes extra draws outside the "
        "turn structure after those turns (0: before turn 1), as the sample-hand page does. The same query "
        "always gives the same answer. The game's stated parameters are given by their slugs; those of other "
        "games are checked and left aside. `assumptions` (`assumed_count` of them): the values the deck's owner "
        "assumes where the card database gives none that this game was dealt with, each with its contribution form.",
        parameters=[GoldfishParametersSerializer],
        responses={200: OpenApiTypes.OBJECT, 404: NOT_FOUND, 409: NOT_READY},
    )
    def get(self, request: Request, pk: int) -> Response:
        deck = self.get_deck(pk)
        values = GoldfishParametersSerializer.read(request.query_params)
        language = values.get("lang") or get_language() or "ja"
        engine = get_engine(deck.game.slug)
        asked = inputs.parse_hand(engine, values, turn_key="turns")
        if asked.errors:
            raise FieldProblems({slug: [message] for slug, message in asked.errors.items()})
        spec = asked.spec
        simdeck, used = ready_deck(deck, language)
        played = sample.replay(engine, simdeck, spec)
        assumed = assumption_selectors.used_by(deck, used, language)
        zones, counters = presentation.state_panels(engine, deck.game, played.state, language)
        in_play = presentation.in_play_panel(engine, deck.game, simdeck, language)
        return Response(
            {
                "deck": deck.pk,
                "game": deck.game.slug,
                "seed": spec.seed,
                "turns": played.turn,
                "turns_asked": spec.turn,
                "policy": spec.policy,
                "draws": list(played.draws),
                "parameters": _parameters(engine, spec.params, language),
                "over": played.over,
                "won_on_turn": played.state.won_on_turn,
                "opening_hand": opening_hand(engine, spec.params),
                # The values the deck assumes where the card database gives none that this game was dealt with.
                "assumed_count": len(assumed),
                "assumptions": assumption_selectors.exported(assumed, request.build_absolute_uri),
                "zones": {
                    zone.slug: {
                        "label": zone.label,
                        "count": zone.count,
                        "hidden": zone.hidden,
                        "cards": [_card(card) for card in zone.cards],
                    }
                    for zone in zones
                },
                # The card in play from the start (Shadow Era's hero, Epic Battles' character); null: none.
                "in_play": None
                if in_play is None
                else {
                    "zone": in_play.zone,
                    "label": in_play.label,
                    "cards": [
                        {
                            "key": card.key,
                            "name": card.name,
                            "kind": card.kind_label,
                            "values": {
                                value.slug: {"label": value.label, "value": value.value} for value in card.values
                            },
                        }
                        for card in in_play.cards
                    ],
                },
                "counters": {counter.slug: {"label": counter.label, "value": counter.value} for counter in counters},
                "log": [
                    {
                        "turn": event.turn,
                        "kind": event.kind,
                        "kind_label": event.kind_label,
                        "card": event.card,
                        "amount": event.amount,
                        "message": event.message,
                        "text": event.text,
                        "params": event.params,
                    }
                    for event in presentation.event_views(engine, played.state.log, language)
                ],
            }
        )


class OddsView(DeckAPIView):
    @extend_schema(
        summary="Exact draw odds of every card of a deck",
        description="For every card of the zone the game's goldfish draws from: the probability of holding at "
        "least one copy by each of turns 1 to 10 (hypergeometric, exact; also as a fraction), with the cards seen "
        "by each turn. `first_player=0` for the second player where the game has a first player (Shadow Era).",
        parameters=[OddsParametersSerializer],
        responses={200: OpenApiTypes.OBJECT, 404: NOT_FOUND},
    )
    def get(self, request: Request, pk: int) -> Response:
        deck = self.get_deck(pk)
        values = OddsParametersSerializer.read(request.query_params)
        language = values.get("lang") or get_language() or "ja"
        engine = get_engine(deck.game.slug)
        first = None
        if inputs.has_first_player(engine):
            first = values.get("first_player", 1) != 0
        simdeck = adapters.sim_deck(deck, language)
        table = tables.exact_table(
            engine, simdeck, first_player=True if first is None else first, turns=inputs.ODDS_TURNS
        )
        return Response(
            {
                "deck": deck.pk,
                "game": deck.game.slug,
                "zone": adapters.main_zone(deck.game.slug),
                "deck_size": table.deck_size,
                "first_player": first,
                "turns": table.turns,
                "cards_seen": table.seen,
                "cards": [
                    {
                        "key": row.card.key,
                        "name": row.card.name,
                        "copies": row.card.copies,
                        "odds": [float(p) for p in row.exact],
                        "exact": [f"{p.numerator}/{p.denominator}" for p in row.exact],
                    }
                    for row in table.rows
                ],
            }
        )


class SimulationCreateView(DeckAPIView):
    permission_classes = (IsAuthenticated,)
    throttle_scope = "simulation_start"

    @extend_schema(
        summary="Start a Monte Carlo run of a deck",
        description=f"Queues a background run of `games` games (at most {inputs.API_MAX_GAMES:,} through the API; "
        "more answers 400) of `turns` turns. Poll the run's `url` for its status, progress and result. A user "
        f"may have {settings.MAX_ACTIVE_RUNS_PER_USER} runs waiting or running at once; another answers 429.",
        parameters=[DeckParametersSerializer],
        request=SimulationRequestSerializer,
        responses={201: SimulationRunSerializer, 404: NOT_FOUND, 409: NOT_READY},
    )
    def post(self, request: Request, pk: int) -> Response:
        deck = self.get_deck(pk)
        engine = get_engine(deck.game.slug)
        serializer = SimulationRequestSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        errors: dict[str, list[Any]] = {}
        policy, error = inputs.parse_policy(engine, data["policy"])
        if error:
            errors["policy"] = [error]
        known = {parameter.slug for parameter in engine.parameters}
        for slug in data["parameters"]:
            if slug not in known:
                errors[f"parameters.{slug}"] = [
                    Message(
                        _("The game has no parameter “%(parameter)s”; its parameters: %(parameters)s."),
                        {"parameter": slug, "parameters": sorted(known) or ["—"]},
                    )
                ]
        params, param_errors = inputs.parse_params(engine, data["parameters"])
        for slug, message in param_errors.items():
            errors[f"parameters.{slug}"] = [message]
        language = self.language()
        if errors:
            raise FieldProblems(errors)
        ready_deck(deck, language)
        run = services.start_run(
            deck=deck,
            requester=request.user,
            games=data["games"],
            turns=data["turns"],
            policy=policy,
            params=params,
            language=language,
            seed=data.get("seed"),
            share_token=DeckParametersSerializer.read(request.query_params).get("token") or "",
        )
        body = SimulationRunSerializer(run, context={"request": request}).data
        location = reverse("simulator_api:simulation", args=[run.pk], request=request)
        return Response(body, status=status.HTTP_201_CREATED, headers={"Location": location})


class SimulationView(APIView):
    permission_classes = (IsAuthenticated,)

    @extend_schema(
        summary="A Monte Carlo run: status, progress and result",
        responses={200: SimulationRunSerializer, 404: NOT_FOUND},
    )
    def get(self, request: Request, run_id: int) -> Response:
        run = access_run(request.user, run_id)
        return Response(SimulationRunSerializer(run, context={"request": request}).data)


class SimulationCancelView(APIView):
    permission_classes = (IsAuthenticated,)

    @extend_schema(
        summary="Cancel a Monte Carlo run",
        description="A queued run never starts; a running one stops at its next progress report (every 500 games) "
        "and keeps the summary of the games played. A finished run is left as it is.",
        request=None,
        responses={200: SimulationRunSerializer, 404: NOT_FOUND},
    )
    def post(self, request: Request, run_id: int) -> Response:
        run = access_run(request.user, run_id)
        services.cancel_run(run)
        return Response(SimulationRunSerializer(run, context={"request": request}).data)
