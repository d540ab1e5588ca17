"""API of the whole games' comparisons. ``GET games/<game>/comparisons/setup/`` whether the stored cards make a
set-up (each missing value with where to fill it); ``POST games/<game>/comparisons/`` start a comparison (needs
credentials; 409 with ``missing`` when the cards lack values); ``GET comparisons/<id>/`` its status, progress and
report; ``POST comparisons/<id>/cancel/``. A comparison belongs to whoever started it: 404 for anyone else."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.reverse import reverse
from rest_framework.views import APIView

from cardsite.api_errors import ErrorSerializer
from cardsite.errors import Conflict, FieldProblems, Message
from cardsite.labels import pick

from .. import inputs
from ..fullgames import SetupRefused
from ..models import ComparisonRun
from ..setups import selectors as setup_selectors
from ..shared import selectors as fullgame_selectors
from . import services as comparisons
from .serializers import ComparisonRequestSerializer, ComparisonRunSerializer, SetupSerializer

NOT_FOUND = OpenApiResponse(ErrorSerializer, description="No such game with a whole game, or no such comparison.")
NOT_READY = OpenApiResponse(
    ErrorSerializer,
    description="The stored cards lack values the game needs: `missing` lists each card and value, with the "
    "address where it is filled.",
)


class SetupNotReady(Conflict):
    code = "setup_not_ready"

    def __init__(self, rows: list[Any], problems: list[str]) -> None:
        message = _("The cards in the database cannot make a game yet: %(count)s values are missing.")
        texts = [row.text for row in rows] + problems
        super().__init__(Message(message, {"count": len(rows)}), errors={"setup": texts})
        self.rows = rows

    def extra(self) -> dict[str, Any]:
        return {"missing": [row.__dict__ for row in self.rows]}


def _setup(game: Any, fullgame: Any, abilities: list[str], language: str) -> Any:
    try:
        return fullgame_selectors.build_setup(game, fullgame, abilities, language)
    except SetupRefused as refused:
        raise SetupNotReady(
            fullgame_selectors.refusal_rows(game, fullgame, refused, language),
            fullgame_selectors.problem_texts(refused.problems),
        ) from refused


class ComparisonSetupView(APIView):
    @extend_schema(
        summary="Whether the stored cards make a whole game's set-up",
        responses={200: SetupSerializer, 404: NOT_FOUND},
    )
    def get(self, request: Request, game: str) -> Response:
        game_obj, fullgame = fullgame_selectors.fullgame_or_404(game)
        language = inputs.language()
        missing: list[Any] = []
        try:
            fullgame_selectors.build_setup(game_obj, fullgame, [], language)
        except SetupRefused as refused:
            missing = [row.__dict__ for row in fullgame_selectors.refusal_rows(game_obj, fullgame, refused, language)]
        names = {name: pick(fullgame.strategy_labels.get(name, {}), language) or name for name in fullgame.strategies}
        return Response({"ready": not missing, "missing": missing, "strategies": names})


class ComparisonCreateView(APIView):
    permission_classes = (IsAuthenticated,)
    throttle_scope = "simulation_start"

    @extend_schema(
        summary="Start a comparison of strategies",
        description=f"Queues a comparison of 2 to 4 strategies (shipped or written) over `games` games each (at most "
        f"{comparisons.MAX_GAMES:,}), the seats rotating. Poll its `url`. A user may have "
        f"{settings.MAX_ACTIVE_RUNS_PER_USER} runs (Monte Carlo runs and comparisons) waiting or running at once; "
        "another answers 429.",
        request=ComparisonRequestSerializer,
        responses={201: ComparisonRunSerializer, 404: NOT_FOUND, 409: NOT_READY},
    )
    def post(self, request: Request, game: str) -> Response:
        game_obj, fullgame = fullgame_selectors.fullgame_or_404(game)
        serializer = ComparisonRequestSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        language = inputs.language()
        errors: dict[str, list[Any]] = {}
        seats, written, unknown = comparisons.written_strategies(request.user, game_obj, fullgame, data["strategies"])
        for index, name in enumerate(data["strategies"]):
            if name in unknown:
                errors[f"strategies[{index}]"] = [
                    Message(_("Not a strategy of this game you may use: %(names)s."), {"names": [name]})
                ]
        abilities = data["abilities"]
        if abilities:
            cards = {card.key: card for card in fullgame_selectors.game_cards(game_obj, language)}
            wrong = [key for key in abilities if key not in cards or cards[key].kind not in fullgame.choosable]
            if wrong:
                errors["abilities"] = [Message(_("Not an ability card of this game: %(keys)s."), {"keys": wrong})]
            elif len(set(abilities)) != fullgame.choose_count:
                errors["abilities"] = [
                    Message(
                        _("Choose exactly %(count)s ability piles (%(chosen)s chosen), or none."),
                        {"count": fullgame.choose_count, "chosen": len(set(abilities))},
                    )
                ]
        table = None
        try:
            table = setup_selectors.api_table(request.user, game_obj, fullgame, data["deck"], [])
        except FieldProblems as refused:
            errors.update(refused.errors)
        entrant_setups, opponents = _setups_and_opponents(request, game_obj, fullgame, data, seats, errors)
        if errors:
            raise FieldProblems(errors)
        if table is not None and table.deck is not None:
            if abilities:
                raise FieldProblems({"deck": [_("Give a deck or the ability piles, not both.")]})
            found = setup_selectors.table_verdict(game_obj, fullgame, table, language)
            if not found.ready and found.problems:
                raise setup_selectors.refused_fields("deck", found)
            abilities = table.piles
        setup = entrant_setups[0][1] if entrant_setups else _setup(game_obj, fullgame, abilities, language)
        if entrant_setups:
            seats, written = [seats[0]] * len(entrant_setups), {**written, **opponents[1]}
        run = comparisons.start_comparison(
            entrant_setups=entrant_setups,
            opponents=opponents[0],
            game=game_obj,
            requester=request.user,
            setup=setup,
            strategies=seats,
            written=written,
            games=data["games"],
            sequential=data["sequential"],
            abilities=abilities,
            language=language,
            seed=data.get("seed"),
        )
        body = ComparisonRunSerializer(run, context={"request": request}).data
        location = reverse("simulator_api:comparison", args=[run.pk], request=request)
        return Response(body, status=status.HTTP_201_CREATED, headers={"Location": location})


def _setups_and_opponents(
    request: Request, game: Any, fullgame: Any, data: dict[str, Any], seats: list[str], errors: dict[str, list[Any]]
) -> tuple[list[tuple[str, Any]], tuple[list[str], dict[str, Any]]]:
    """For one strategy on several set-ups: the (name, set-up) of each and the opponents (seats, written texts);
    the problems go into ``errors`` by field."""
    if not data["setups"]:
        if data["opponents"]:
            errors["opponents"] = [_("Opponents are for one strategy on several set-ups (give setups).")]
        return [], ([], {})
    if len(data["setups"]) < 2:
        errors["setups"] = [_("Give 2 to 4 set-ups.")]
    if len(data["strategies"]) != 1:
        errors["strategies"] = [_("Name exactly one strategy to compare on several set-ups.")]
    entrant_setups = []
    for index, choice in enumerate(data["setups"]):
        try:
            table = setup_selectors.choose(request.user, game, choice, fullgame)
        except Http404:
            errors[f"setups[{index}]"] = [_("Not a deck of this game you may use.")]
            continue
        found = setup_selectors.table_verdict(game, fullgame, table, inputs.language())
        if not found.ready:
            errors[f"setups[{index}]"] = [*found.problems, *(row.text for row in found.missing)]
            continue
        entrant_setups.append((table.name, found.setup))
    opponents, written, unknown = comparisons.written_strategies(request.user, game, fullgame, data["opponents"])
    for index, name in enumerate(data["opponents"]):
        if name in unknown:
            errors[f"opponents[{index}]"] = [
                Message(_("Not a strategy of this game you may use: %(names)s."), {"names": [name]})
            ]
    return entrant_setups, (opponents, written)


def _own(request: Request, run_id: int) -> ComparisonRun:
    return comparisons.COMPARISONS.own(request.user, run_id, related=("game", "requester"))


class ComparisonView(APIView):
    permission_classes = (IsAuthenticated,)

    @extend_schema(
        summary="A comparison: status, progress and report", responses={200: ComparisonRunSerializer, 404: NOT_FOUND}
    )
    def get(self, request: Request, run_id: int) -> Response:
        return Response(ComparisonRunSerializer(_own(request, run_id), context={"request": request}).data)


class ComparisonCancelView(APIView):
    permission_classes = (IsAuthenticated,)

    @extend_schema(
        summary="Cancel a comparison",
        description="Queued chunks never start; running ones stop at their next report and keep their games.",
        request=None,
        responses={200: ComparisonRunSerializer, 404: NOT_FOUND},
    )
    def post(self, request: Request, run_id: int) -> Response:
        run = _own(request, run_id)
        comparisons.cancel_comparison(run)
        return Response(ComparisonRunSerializer(run, context={"request": request}).data)
