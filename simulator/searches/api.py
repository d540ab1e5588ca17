"""API of the strategy searches, under ``/api/simulator/``: ``POST games/<game>/searches/`` start one (needs
credentials; 409 with ``missing`` when the cards lack values), ``GET searches/<id>/`` its status, progress and result
(the strategy found, in the strategy syntax, with its win rate and 95% interval against every shipped strategy), ``POST
searches/<id>/cancel/``. A search belongs to whoever started it: 404 for anyone else."""

from __future__ import annotations

from django.http import Http404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.reverse import reverse
from rest_framework.views import APIView

from cardsite.api_errors import ErrorSerializer
from cardsite.api_inputs import KnownKeysSerializer

from .. import inputs
from ..inputs import MAX_SEED
from ..models import StrategySearch
from ..setups import selectors as setup_selectors
from ..shared import selectors as fullgame_selectors
from . import services as searches


class SearchRequestSerializer(KnownKeysSerializer):
    players = serializers.IntegerField(min_value=2, max_value=4, default=2)
    generations = serializers.IntegerField(min_value=1, max_value=searches.MAX_GENERATIONS, default=40)
    islands = serializers.IntegerField(
        min_value=1, max_value=searches.MAX_ISLANDS, default=2, help_text="Independent searches played side by side."
    )
    abilities = serializers.ListField(
        child=serializers.CharField(max_length=100), required=False, default=list, max_length=50
    )
    deck = serializers.CharField(max_length=80, required=False, default="", help_text=setup_selectors.DECK_HELP)
    seed = serializers.IntegerField(min_value=0, max_value=MAX_SEED, required=False)


class SearchSerializer(serializers.ModelSerializer):
    url = serializers.SerializerMethodField()
    game = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    planned = serializers.IntegerField(read_only=True, help_text="Generations over every search.")
    progress = serializers.IntegerField(read_only=True, help_text="Generations played so far.")
    result = serializers.JSONField(
        help_text="`islands`: each search's best strategy so far (text); `best`: once every search is done, the "
        "strategy found (`text`) and per shipped strategy [win rate, low, high, games]."
    )
    error = serializers.CharField(source="error_message", read_only=True)

    class Meta:
        model = StrategySearch
        fields = (
            "id", "url", "game", "status", "players", "islands", "generations", "planned", "progress", "seed",
            "result", "error", "created_at", "finished_at",
        )  # fmt: skip

    def get_url(self, run: StrategySearch) -> str:
        return reverse("simulator_api:search", args=[run.pk], request=self.context.get("request"))


def _own(request: Request, run_id: int) -> StrategySearch:
    return searches.SEARCHES.own(request.user, run_id, related=("game",))


class SearchCreateView(APIView):
    permission_classes = (IsAuthenticated,)
    throttle_scope = "simulation_start"

    @extend_schema(
        summary="Start a search for the best strategy on a set-up",
        request=SearchRequestSerializer,
        responses={201: SearchSerializer, 400: ErrorSerializer, 404: ErrorSerializer, 429: ErrorSerializer},
    )
    def post(self, request: Request, game: str) -> Response:
        game_obj, fullgame = fullgame_selectors.fullgame_or_404(game)
        if fullgame.search is None:
            raise Http404
        serializer = SearchRequestSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        language = inputs.language()
        table = setup_selectors.api_table(request.user, game_obj, fullgame, data["deck"], data["abilities"])
        found = setup_selectors.table_verdict(game_obj, fullgame, table, language)
        if not found.ready:
            raise setup_selectors.refused_fields("deck" if data["deck"] else "abilities", found)
        run = searches.start_search(
            game=game_obj,
            requester=request.user,
            setup=found.setup,
            players=data["players"],
            generations=data["generations"],
            islands=data["islands"],
            abilities=table.piles,
            language=language,
            seed=data.get("seed"),
        )
        body = SearchSerializer(run, context={"request": request}).data
        return Response(body, status=status.HTTP_201_CREATED, headers={"Location": body["url"]})


class SearchView(APIView):
    permission_classes = (IsAuthenticated,)

    @extend_schema(summary="A strategy search", responses={200: SearchSerializer, 404: ErrorSerializer})
    def get(self, request: Request, run_id: int) -> Response:
        return Response(SearchSerializer(_own(request, run_id), context={"request": request}).data)


class SearchCancelView(APIView):
    permission_classes = (IsAuthenticated,)

    @extend_schema(summary="Cancel a strategy search", request=None, responses={200: SearchSerializer})
    def post(self, request: Request, run_id: int) -> Response:
        run = _own(request, run_id)
        searches.cancel_search(run)
        run.refresh_from_db()
        return Response(SearchSerializer(run, context={"request": request}).data)
