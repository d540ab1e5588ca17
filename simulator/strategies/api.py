"""API of the strategies players write (under ``/api/simulator/``), with the pages' permissions (``cardsite.sharing``):
``GET games/<game>/strategies/`` the user's own and the public ones; ``POST`` the same path writes one (400 with
the text's problems by line under ``errors.text``); ``POST games/<game>/strategies/check/`` the problems of a text
without saving it; ``GET|PATCH|DELETE strategies/<id>/`` one (``?token=`` reads one shared by link). A written
strategy is compared as ``written:<id>`` (see the comparisons)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.reverse import reverse
from rest_framework.views import APIView

from cardsite.api_errors import ErrorSerializer
from cardsite.api_inputs import KnownKeysSerializer
from cardsite.sharing import Visibility, can_edit
from cardsite.text import plain_name, plain_text

from ..models import WrittenStrategy
from . import selectors as strategy_selectors
from . import services as strategy_services
from .services import DESCRIPTION_LIMIT, NAME_LIMIT, TEXT_LIMIT
from .views import _writable_game

LISTED = 200


class StrategySerializer(serializers.ModelSerializer):
    url = serializers.SerializerMethodField()
    game = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    owner = serializers.CharField(source="owner.username", read_only=True)
    reference = serializers.CharField(read_only=True, help_text="How a comparison names it.")
    share_token = serializers.SerializerMethodField(help_text="Only to its owner, while it is shared by link.")

    class Meta:
        model = WrittenStrategy
        fields = (
            "id", "url", "reference", "game", "owner", "name", "description", "text", "visibility", "share_token",
            "created_at", "updated_at",
        )  # fmt: skip

    def get_url(self, strategy: WrittenStrategy) -> str:
        return reverse("simulator_api:strategy", args=[strategy.pk], request=self.context.get("request"))

    def get_share_token(self, strategy: WrittenStrategy) -> str | None:
        request = self.context.get("request")
        if request is not None and can_edit(request.user, strategy) and strategy.visibility == Visibility.LINK:
            return strategy.share_token
        return None


class StrategyWriteSerializer(KnownKeysSerializer):
    name = serializers.CharField(max_length=NAME_LIMIT, validators=[plain_name()])
    text = serializers.CharField(max_length=TEXT_LIMIT, trim_whitespace=False)
    description = serializers.CharField(
        max_length=DESCRIPTION_LIMIT, required=False, allow_blank=True, validators=[plain_text(_("description"))]
    )
    visibility = serializers.ChoiceField(choices=Visibility.choices, required=False)


class StrategyPatchSerializer(StrategyWriteSerializer):
    name = serializers.CharField(max_length=NAME_LIMIT, required=False, validators=[plain_name()])
    text = serializers.CharField(max_length=TEXT_LIMIT, trim_whitespace=False, required=False)


class StrategyCheckSerializer(KnownKeysSerializer):
    text = serializers.CharField(max_length=TEXT_LIMIT, trim_whitespace=False, allow_blank=True)


class StrategyCheckAnswerSerializer(serializers.Serializer):
    ok = serializers.BooleanField()
    problems = serializers.ListField(child=serializers.CharField(), help_text="In the reader's language, by line.")


class StrategyListView(APIView):
    permission_classes = (IsAuthenticatedOrReadOnly,)
    throttle_scope = "deck_write"

    @extend_schema(
        summary="Written strategies of a game (your own and the public ones)", responses=StrategySerializer(many=True)
    )
    def get(self, request: Request, game: str) -> Response:
        game_obj, _fullgame = _writable_game(game)
        listed = strategy_selectors.strategies_of_game(request.user, game_obj)[:LISTED]
        return Response(StrategySerializer(listed, many=True, context={"request": request}).data)

    @extend_schema(
        summary="Write a strategy",
        request=StrategyWriteSerializer,
        responses={201: StrategySerializer, 400: ErrorSerializer},
    )
    def post(self, request: Request, game: str) -> Response:
        game_obj, _fullgame = _writable_game(game)
        serializer = StrategyWriteSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        strategy = strategy_services.create_strategy(owner=request.user, game=game_obj, **serializer.validated_data)
        body = StrategySerializer(strategy, context={"request": request}).data
        return Response(body, status=status.HTTP_201_CREATED, headers={"Location": body["url"]})


class StrategyCheckView(APIView):
    permission_classes = ()
    throttle_scope = "search"

    @extend_schema(
        summary="The problems of a strategy's text, by line, without saving it",
        request=StrategyCheckSerializer,
        responses=StrategyCheckAnswerSerializer,
    )
    def post(self, request: Request, game: str) -> Response:
        game_obj, _fullgame = _writable_game(game)
        serializer = StrategyCheckSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        problems = [
            str(problem) for problem in strategy_services.check_text(game_obj, serializer.validated_data["text"])
        ]
        return Response({"ok": not problems, "problems": problems})


TOKEN = OpenApiParameter("token", str, description="The share token of a strategy shared by link.")


class StrategyView(APIView):
    permission_classes = (IsAuthenticatedOrReadOnly,)
    throttle_scope = "deck_write"

    def _strategy(self, request: Request, pk: int, *, write: bool = False) -> WrittenStrategy:
        token: Any = request.query_params.get("token") or None
        return strategy_selectors.access_strategy(request.user, pk, token=token, write=write)

    @extend_schema(
        summary="A written strategy", parameters=[TOKEN], responses={200: StrategySerializer, 404: ErrorSerializer}
    )
    def get(self, request: Request, pk: int) -> Response:
        return Response(StrategySerializer(self._strategy(request, pk), context={"request": request}).data)

    @extend_schema(
        summary="Change a written strategy (its owner only)",
        request=StrategyPatchSerializer,
        responses={200: StrategySerializer, 400: ErrorSerializer, 403: ErrorSerializer, 404: ErrorSerializer},
    )
    def patch(self, request: Request, pk: int) -> Response:
        strategy = self._strategy(request, pk, write=True)
        serializer = StrategyPatchSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        changed = strategy_services.update_strategy(strategy, **serializer.validated_data)
        return Response(StrategySerializer(changed, context={"request": request}).data)

    @extend_schema(summary="Delete a written strategy (its owner only)", responses={204: None, 404: ErrorSerializer})
    def delete(self, request: Request, pk: int) -> Response:
        strategy_services.delete_strategy(self._strategy(request, pk, write=True))
        return Response(status=status.HTTP_204_NO_CONTENT)
