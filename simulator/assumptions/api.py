"""API of a deck's assumed values, under ``/api/simulator/``: ``GET decks/<pk>/assumptions/`` the deck's
assumptions, each with the contribution form that would make it card data (whoever may see the deck; ``?token=``
for a deck shared by link); ``POST`` the same path sets one value (created, or replaced where the deck already
assumes it); ``DELETE`` the same path with ``?key=&field=`` drops one; ``POST decks/<pk>/assumptions/bulk/`` sets
many, all or nothing. Only the deck's owner writes (``services``: 403 for someone who may see the deck, 404 for
one who may not); a refused value is a 400 naming its field (``assumptions[3].value``)."""

from __future__ import annotations

from typing import Any

from django.http import Http404
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.permissions import IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.reverse import reverse
from rest_framework.views import APIView

from cardsite.api_errors import ErrorSerializer
from decks.api.serializers import DeckParametersSerializer
from decks.models import Deck
from decks.selectors import access_deck

from . import selectors, services
from .serializers import (
    AssumptionBulkAnswerSerializer,
    AssumptionBulkSerializer,
    AssumptionDropParametersSerializer,
    AssumptionListSerializer,
    AssumptionSerializer,
    AssumptionWriteSerializer,
)

NOT_FOUND = OpenApiResponse(ErrorSerializer, description="No such deck (or assumption), or one the user may not see.")
NOT_OWNER = OpenApiResponse(ErrorSerializer, description="The user may see the deck but does not own it.")


def _deck(request: Request, pk: int) -> Deck:
    token = DeckParametersSerializer.read(request.query_params).get("token") or None
    return access_deck(request.user, pk, token=token)


def _listing(request: Request, deck: Deck) -> dict[str, Any]:
    named = selectors.named_of_deck(deck)
    return {
        "deck": deck.pk,
        "game": deck.game.slug,
        "count": len(named),
        "assumptions": selectors.exported(named, request.build_absolute_uri),
    }


class _DeckAssumptionsView(APIView):
    # Anyone who may see the deck reads; writes need credentials, and the services check the owner.
    permission_classes = (IsAuthenticatedOrReadOnly,)
    throttle_scope = "deck_write"


class AssumptionsView(_DeckAssumptionsView):
    @extend_schema(
        summary="A deck's assumed values",
        description="Every value the deck's owner assumes where the card database gives none, with the "
        "contribution form that would make it card data. Assumed values are never card data: a card's page never "
        "shows them.",
        parameters=[DeckParametersSerializer],
        responses={200: AssumptionListSerializer, 404: NOT_FOUND},
    )
    def get(self, request: Request, pk: int) -> Response:
        return Response(_listing(request, _deck(request, pk)))

    @extend_schema(
        summary="Assume one value of a deck (its owner only)",
        description="Creates the assumption (201), or replaces the deck's earlier assumption of the same card's "
        "value (200). The value is checked as the game's field type checks a card's; a refused one is a 400 naming "
        "the field at fault (`key`, `field` or `value`).",
        parameters=[DeckParametersSerializer],
        request=AssumptionWriteSerializer,
        responses={200: AssumptionSerializer, 201: AssumptionSerializer, 403: NOT_OWNER, 404: NOT_FOUND},
    )
    def post(self, request: Request, pk: int) -> Response:
        deck = _deck(request, pk)
        serializer = AssumptionWriteSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        existed = selectors.assumes(deck, data["key"], data["field"])
        row = services.Row(data["key"], data["field"], data["value"], "value", key_where="key", field_where="field")
        services.set_values(request.user, deck, [row])
        item = selectors.named_one(deck, data["key"], data["field"])
        body = selectors.exported([item], request.build_absolute_uri)[0]
        if existed:
            return Response(body)
        # A value has no address of its own (it is dropped by key and field): the deck's list that now holds it.
        location = reverse("simulator_api:assumptions", args=[deck.pk], request=request)
        return Response(body, status=status.HTTP_201_CREATED, headers={"Location": location})

    @extend_schema(
        summary="Drop one assumed value of a deck (its owner only)",
        description="`key` and `field` name the value; an assumed card's `kind` drops the card and all its values.",
        parameters=[AssumptionDropParametersSerializer],
        responses={204: None, 403: NOT_OWNER, 404: NOT_FOUND},
    )
    def delete(self, request: Request, pk: int) -> Response:
        query = AssumptionDropParametersSerializer.read(request.query_params)
        deck = access_deck(request.user, pk, token=query.get("token") or None)
        if not services.drop(request.user, deck, query["key"], query["field"]):
            raise Http404
        return Response(status=status.HTTP_204_NO_CONTENT)


class AssumptionsBulkView(_DeckAssumptionsView):
    @extend_schema(
        summary="Assume many values of a deck at once (its owner only)",
        description="All or nothing: one refused value refuses the batch, and the 400 names each one at fault "
        "(`assumptions[3].value`). A value the deck already assumes is replaced; one given twice counts once (the "
        "later). Answers the deck's assumptions after the batch.",
        parameters=[DeckParametersSerializer],
        request=AssumptionBulkSerializer,
        responses={200: AssumptionBulkAnswerSerializer, 403: NOT_OWNER, 404: NOT_FOUND},
    )
    def post(self, request: Request, pk: int) -> Response:
        deck = _deck(request, pk)
        serializer = AssumptionBulkSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        rows = [
            services.Row(
                item["key"],
                item["field"],
                item["value"],
                f"assumptions[{index}].value",
                key_where=f"assumptions[{index}].key",
                field_where=f"assumptions[{index}].field",
            )
            for index, item in enumerate(serializer.validated_data["assumptions"])
        ]
        written = services.set_values(request.user, deck, rows)
        return Response({**_listing(request, deck), "written": written})
