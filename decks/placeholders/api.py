"""API of a deck's placeholder cards, under ``/api/decks/<pk>/placeholders/`` (``decks.api.urls``):

``GET`` lists them (whoever may see the deck; ``?token=`` for a deck shared by link), ``POST`` adds some (an
upsert: the same kind, values and name again raise that placeholder's count; 201 when new, 200 when raised);
``GET|PATCH|DELETE <id>/`` one of them (changing: the deck's owner only, checked in ``services``). Values are
checked against the kinds the game declares (``decks.rules`` ``placeholders``); a refusal names the field
(``values.cost``) in the one error shape (``cardsite.errors``).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import get_language
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import SAFE_METHODS, IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from cardsite.api_errors import ErrorSerializer
from cardsite.api_inputs import JSONBodySerializer
from cardsite.text import plain_name

from ..api.history import FORBIDDEN, NOT_FOUND
from ..api.serializers import DeckParametersSerializer, PlaceholderSerializer
from ..models import Deck
from ..selectors import access_deck
from . import selectors, services


def _name_field(**options: Any) -> serializers.CharField:
    return serializers.CharField(
        max_length=services.MAX_NAME_LENGTH,
        allow_blank=True,
        validators=[plain_name()],
        help_text="Optional; no invisible or control character.",
        **options,
    )


class StatedValueField(serializers.IntegerField):
    """A stated value: a whole number 0–99 as JSON writes one (not "3", not true); null: unknown, not stored."""

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("invalid")
        return super().to_internal_value(data)


def _values_field(**options: Any) -> serializers.DictField:
    return serializers.DictField(
        child=StatedValueField(min_value=0, max_value=services.MAX_STATED_VALUE, allow_null=True),
        help_text='Values the kind states, by field (e.g. {"cost": 3, "attack": 2}): whole numbers 0–99, null '
        "for unknown. A field the kind does not state is a 400 naming it (values.<field>).",
        **options,
    )


class PlaceholderWriteSerializer(JSONBodySerializer):
    kind = serializers.CharField(max_length=32, help_text="A kind the deck's game declares as a placeholder.")
    values = _values_field(required=False, default=dict)
    name = _name_field(required=False, default="")
    count = serializers.IntegerField(min_value=1, max_value=services.MAX_STATED_VALUE, required=False, default=1)


class PlaceholderPatchSerializer(JSONBodySerializer):
    values = _values_field(required=False)  # replaces every stated value
    name = _name_field(required=False)
    count = serializers.IntegerField(min_value=1, max_value=services.MAX_STATED_VALUE, required=False)


class _PlaceholderView(APIView):
    permission_classes = (IsAuthenticatedOrReadOnly,)

    @property
    def throttle_scope(self) -> str | None:
        return None if self.request.method in SAFE_METHODS else "deck_write"

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        super().initial(request, *args, **kwargs)
        self.parameters = DeckParametersSerializer.read(request.query_params)  # ?lang= and ?token=, checked first

    def language(self) -> str:
        return self.parameters.get("lang") or get_language() or "ja"

    def answer(self, deck: Deck, data: Any, *, many: bool = False, status_code: int = 200) -> Response:
        context = {"request": self.request, "deck": deck, "language": self.language()}
        return Response(PlaceholderSerializer(data, many=many, context=context).data, status=status_code)

    def readable_deck(self, pk: int) -> Deck:
        return access_deck(self.request.user, pk, token=self.parameters.get("token") or None)


class PlaceholderListView(_PlaceholderView):
    @extend_schema(
        summary="A deck's placeholder cards",
        parameters=[DeckParametersSerializer],
        responses={200: PlaceholderSerializer(many=True), 404: NOT_FOUND},
    )
    def get(self, request: Request, pk: int) -> Response:
        deck = self.readable_deck(pk)
        return self.answer(deck, selectors.placeholders(deck), many=True)

    @extend_schema(
        summary="Add placeholder cards to a deck",
        description="An upsert: a placeholder of the same kind, values and name already in the deck has its count "
        "raised (200); otherwise a new one is made (201). 409 when the count would pass 99 in all, or when the "
        "deck's game holds no placeholders.",
        parameters=[DeckParametersSerializer],
        request=PlaceholderWriteSerializer,
        responses={200: PlaceholderSerializer, 201: PlaceholderSerializer, 400: ErrorSerializer, 403: FORBIDDEN,
                   404: NOT_FOUND, 409: ErrorSerializer},
    )  # fmt: skip
    def post(self, request: Request, pk: int) -> Response:
        body = PlaceholderWriteSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        deck, placeholder, created = services.placeholder_create(
            user=request.user, deck_pk=pk, kind=data["kind"], values=data["values"], count=data["count"],
            name=data["name"],
        )  # fmt: skip
        if not created:
            return self.answer(deck, placeholder)
        response = self.answer(deck, placeholder, status_code=status.HTTP_201_CREATED)
        response["Location"] = response.data["url"]
        return response


class PlaceholderView(_PlaceholderView):
    @extend_schema(
        summary="One placeholder of a deck",
        parameters=[DeckParametersSerializer],
        responses={200: PlaceholderSerializer, 404: NOT_FOUND},
    )
    def get(self, request: Request, pk: int, placeholder_pk: int) -> Response:
        deck = self.readable_deck(pk)
        return self.answer(deck, selectors.placeholder_of(deck, placeholder_pk))

    @extend_schema(
        summary="Change a placeholder's stated values, name or count (its kind stays)",
        parameters=[DeckParametersSerializer],
        request=PlaceholderPatchSerializer,
        responses={200: PlaceholderSerializer, 400: ErrorSerializer, 403: FORBIDDEN, 404: NOT_FOUND},
    )
    def patch(self, request: Request, pk: int, placeholder_pk: int) -> Response:
        body = PlaceholderPatchSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        deck, placeholder = services.placeholder_update(
            user=request.user, deck_pk=pk, placeholder_pk=placeholder_pk, **body.validated_data
        )
        return self.answer(deck, placeholder)

    @extend_schema(
        summary="Remove a placeholder from a deck",
        parameters=[DeckParametersSerializer],
        responses={204: None, 403: FORBIDDEN, 404: NOT_FOUND},
    )
    def delete(self, request: Request, pk: int, placeholder_pk: int) -> Response:
        services.placeholder_delete(user=request.user, deck_pk=pk, placeholder_pk=placeholder_pk)
        return Response(status=status.HTTP_204_NO_CONTENT)
