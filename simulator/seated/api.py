"""API of whole games played one choice at a time, with the pages' rules (a played game is its owner's alone):
``POST games/<game>/plays/`` start one (``seats``: shipped strategy names, ``written:<id>`` or ``person`` for your
own seat, at most one); ``GET plays/<id>/`` the table, the log and the choice you are asked (``?turn=N``: a game
of strategies after N turns); ``POST plays/<id>/answers/`` answer it; ``POST plays/<id>/play-hand/`` play your
whole hand card after card (``{"answered"}``: as the state gave it); ``POST plays/<id>/undo/`` take the last
answer back. Each change takes the state's ``answered`` as its sender last read it and refuses (409
``stale_state``) a game that has moved on since."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
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
from ..models import SeatedGame
from ..setups import selectors as setup_selectors
from ..shared import selectors as fullgame_selectors
from . import selectors as seated_selectors
from . import services as seated_services


class SeatedRequestSerializer(KnownKeysSerializer):
    seats = serializers.ListField(
        child=serializers.CharField(max_length=200),
        min_length=seated_services.MIN_SEATS,
        max_length=seated_services.MAX_SEATS,
        help_text="In seat order: a shipped strategy's name, `written:<id>` (or `written:<id>:<token>`), or "
        "`person` for your own seat (at most one).",
    )
    abilities = serializers.ListField(
        child=serializers.CharField(max_length=100), required=False, default=list, max_length=50
    )
    deck = serializers.CharField(max_length=80, required=False, default="", help_text=setup_selectors.DECK_HELP)
    seed = serializers.IntegerField(min_value=0, max_value=MAX_SEED, required=False)


SEEN_HELP = (
    "The state's `answered` as you last read it: if the game has moved on since (another tab or program "
    "answered, or this request was sent twice), nothing is changed and the answer is a 409 `stale_state`."
)


def _seen_field(*, required: bool) -> serializers.IntegerField:
    return serializers.IntegerField(
        min_value=0,
        max_value=99999,
        required=required,
        help_text=SEEN_HELP if required else f"{SEEN_HELP} Send it: without it the state is not checked.",
    )


class AnswerSerializer(KnownKeysSerializer):
    answer = serializers.CharField(max_length=200, help_text="One of the pending choice's `options[].value`.")
    # Optional: programs written before it keep working; the documentation asks for it.
    answered = _seen_field(required=False)


class PlayHandSerializer(KnownKeysSerializer):
    answered = _seen_field(required=True)


class UndoSerializer(KnownKeysSerializer):
    answered = _seen_field(required=False)


def _state(request: Request, seated: SeatedGame, after_turns: int | None = None) -> dict[str, Any]:
    _game, fullgame = fullgame_selectors.fullgame_or_404(seated.game.slug)
    data = seated_selectors.view(seated, fullgame, inputs.language(), after_turns=after_turns)
    pending = data["pending"]
    return {
        "id": seated.pk,
        "url": reverse("simulator_api:play", args=[seated.pk], request=request),
        "game": seated.game.slug,
        "seats": seated.seats,
        "seat_names": data["seat_names"],
        "seed": seated.seed,
        "answers": seated.answers,
        # How many of them the game was replayed with (fewer when some were kept under an earlier version of its
        # choices); "play my whole hand" takes it back as ``answered``, to refuse a state that moved on.
        "answered": data["answered"],
        "table": data["table"],
        "log": data["log"],
        "pending": None if pending is None else {**pending, "options": [asdict(o) for o in pending["options"]]},
        "winners": data["winners"],
    }


STATE = OpenApiTypes.OBJECT


class SeatedCreateView(APIView):
    permission_classes = (IsAuthenticated,)
    throttle_scope = "deck_write"

    @extend_schema(
        summary="Start a game played one choice at a time",
        request=SeatedRequestSerializer,
        responses={201: STATE, 400: ErrorSerializer, 409: ErrorSerializer},
    )
    def post(self, request: Request, game: str) -> Response:
        game_obj, fullgame = fullgame_selectors.fullgame_or_404(game)
        serializer = SeatedRequestSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        table = setup_selectors.api_table(request.user, game_obj, fullgame, data["deck"], data["abilities"])
        found = setup_selectors.table_verdict(game_obj, fullgame, table, inputs.language())
        if not found.ready:
            raise setup_selectors.refused_fields("deck" if data["deck"] else "abilities", found)
        seated = seated_services.start_seated(
            owner=request.user,
            game=game_obj,
            fullgame=fullgame,
            seats=data["seats"],
            setup=found.setup,
            abilities=table.piles,
            seed=data.get("seed"),
        )
        body = _state(request, seated)
        return Response(body, status=status.HTTP_201_CREATED, headers={"Location": body["url"]})


TURN = OpenApiParameter("turn", int, description="A game of strategies only: the table after this many turns.")


class SeatedView(APIView):
    permission_classes = (IsAuthenticated,)

    @extend_schema(
        summary="A played game: the table, the log and your pending choice",
        parameters=[TURN],
        responses={200: STATE, 404: ErrorSerializer},
    )
    def get(self, request: Request, pk: int) -> Response:
        seated = seated_selectors.own_game(request.user, pk)
        turn = request.query_params.get("turn", "")
        after = int(turn) if turn.isdigit() and len(turn) < 6 and seated.person is None else None
        return Response(_state(request, seated, after))


class SeatedAnswerView(APIView):
    permission_classes = (IsAuthenticated,)
    throttle_scope = "game_answer"

    @extend_schema(
        summary="Answer your pending choice",
        description="Send the state's `answered` with the answer: a request sent twice (a retry, a double tap) "
        "or made from a state another tab or program has since answered is then refused with a 409 "
        "`stale_state` instead of answering a later choice that happens to offer the same option. 404 for a game "
        "that is not yours; 409 `nothing_to_answer` when the game asks you nothing; 400 `not_an_option`.",
        request=AnswerSerializer,
        responses={200: STATE, 400: ErrorSerializer, 404: ErrorSerializer, 409: ErrorSerializer},
    )
    def post(self, request: Request, pk: int) -> Response:
        seated_selectors.own_game(request.user, pk)  # 404 before a body's problems are told
        serializer = AnswerSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        seated = seated_services.answer(request.user, pk, data["answer"], seen=data.get("answered"))
        return Response(_state(request, seated))


class SeatedPlayHandView(APIView):
    permission_classes = (IsAuthenticated,)
    throttle_scope = "game_answer"

    @extend_schema(
        summary="Play your whole hand",
        description="What the page's “play my whole hand” does, through the same service: the hand is played card "
        "after card in the order the game offers them, each card its own answer (undo takes back one card), and "
        "it stops at any other question (a card's “may”, a choice of cards, resolve or gain), when only stopping "
        "is left, or at the end. 404 for a game that is not yours; 409 `game_over` once the game is over, "
        "`stale_state` when `answered` is not the game's any more, `nothing_to_play` when no card can be played "
        "now.",
        request=PlayHandSerializer,
        responses={200: STATE, 400: ErrorSerializer, 404: ErrorSerializer, 409: ErrorSerializer},
    )
    def post(self, request: Request, pk: int) -> Response:
        seated_selectors.own_game(request.user, pk)  # 404 before a body's problems are told, as answers and undo
        serializer = PlayHandSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        seated = seated_services.play_hand(request.user, pk, seen=serializer.validated_data["answered"])
        return Response(_state(request, seated))


class SeatedUndoView(APIView):
    permission_classes = (IsAuthenticated,)
    throttle_scope = "deck_write"

    @extend_schema(
        summary="Take your last answer back",
        description="Send the state's `answered`: an undo sent twice is then refused with a 409 `stale_state` "
        "instead of taking back two answers. 409 `nothing_to_take_back` when no answer is left to take back.",
        request=UndoSerializer,
        responses={200: STATE, 400: ErrorSerializer, 404: ErrorSerializer, 409: ErrorSerializer},
    )
    def post(self, request: Request, pk: int) -> Response:
        seated_selectors.own_game(request.user, pk)  # 404 before a body's problems are told
        serializer = UndoSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        seated = seated_services.take_back(request.user, pk, seen=serializer.validated_data.get("answered"))
        return Response(_state(request, seated))
