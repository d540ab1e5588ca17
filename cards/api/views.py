"""Read-only API views: thin DRF views over ``cards.selectors``.

Every GET carries an ETag from ``caching.response_etag`` (honoured in If-None-Match
with 304) and ``Cache-Control: no-cache``, so clients and shared caches revalidate
cheaply instead of serving stale data.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING, Any

from django.db.models import QuerySet
from django.http import HttpResponseBase
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.decorators import method_decorator
from django.utils.translation import get_language
from django.views.decorators.http import condition
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import generics
from rest_framework.authentication import BaseAuthentication
from rest_framework.exceptions import NotFound
from rest_framework.permissions import AllowAny, BasePermission
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from cards.messages import no_such_card
from cardsite.api_errors import ErrorSerializer
from cardsite.api_inputs import Pagination

from .. import selectors
from ..models import Card, Game, Term
from ..search.selectors import QueryError, run_search
from ..selectors import SearchOutcome
from .caching import response_etag, search_etag
from .games import GAME, game_or_404
from .missing import MISSING_MAP, missing_data
from .serializers import (
    CardDetailSerializer,
    CardSearchParametersSerializer,
    CardSerializer,
    GameDetailSerializer,
    GameSerializer,
    QueryErrorSerializer,
    TermSerializer,
)

NOT_FOUND = OpenApiResponse(ErrorSerializer, description="No such game or card, or no such page.")


if TYPE_CHECKING:
    # A mixin of DRF views: the type checker reads it as one (at run time it stays a plain mixin).
    _ViewMixinBase = APIView
else:
    _ViewMixinBase = object


class ConditionalGetMixin(_ViewMixinBase):
    """An ETag on every GET answer; a request whose If-None-Match has it gets 304 without the view running.

    The data is public and read-only: no authentication (and so no session lookup) is done.
    """

    authentication_classes: Sequence[type[BaseAuthentication]] = ()
    permission_classes: Sequence[type[BasePermission]] = (AllowAny,)
    conditional_get = True  # the schema states the ETag and the 304 (cardsite.api_schema)

    # condition() answers a matching If-None-Match with a 304 itself; what runs here answers the rest.
    @method_decorator(condition(etag_func=response_etag))
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)  # type: ignore[misc]  # the generic view beside the mixin has get

    def dispatch(self, request: Any, *args: Any, **kwargs: Any) -> HttpResponseBase:
        # Here rather than in finalize_response: a 304 from condition() is no DRF Response, yet it needs it too.
        response = super().dispatch(request, *args, **kwargs)
        patch_cache_control(response, no_cache=True)
        return response


# --- games and glossaries


@extend_schema_view(get=extend_schema(summary="Games, their card counts and what their cards carry"))
class GameListView(ConditionalGetMixin, generics.ListAPIView):
    """Every game: names, card counts, and the kinds and fields its cards are declared with."""

    serializer_class = GameSerializer
    pagination_class = None  # four games: one list

    def get_queryset(self) -> QuerySet[Game]:
        # The counts' GROUP BY drops Game.Meta.ordering, so the order is given here.
        return selectors.games_with_counts().order_by("sort_order", "slug")


@extend_schema_view(
    get=extend_schema(
        summary="One game, with its rules",
        parameters=[GAME],
        responses={200: GameDetailSerializer, 404: NOT_FOUND},
    )
)
class GameDetailView(ConditionalGetMixin, generics.RetrieveAPIView):
    """A game as in the list, plus the sections of its rules in each language."""

    serializer_class = GameDetailSerializer

    def get_object(self) -> Game:
        return game_or_404(self.kwargs["game"], selectors.games_with_counts())


@extend_schema_view(
    get=extend_schema(
        summary="A game's glossary: rules terms, keyword abilities and symbols",
        parameters=[GAME],
        responses={200: TermSerializer(many=True), 404: NOT_FOUND},
    )
)
class GlossaryView(ConditionalGetMixin, generics.ListAPIView):
    """A game's glossary entries with their names and meanings in each language, by category."""

    serializer_class = TermSerializer

    def get_queryset(self) -> QuerySet[Term]:
        game = game_or_404(self.kwargs["game"])
        return selectors.glossary(game).order_by("category", "sort_order", "pk")  # pk: stable pages


class GameMissingView(APIView):
    """The map of what is missing of a game, as the page ``/games/<game>/missing/`` shows it."""

    authentication_classes = ()  # public data: no session lookup
    permission_classes = (AllowAny,)

    @extend_schema(
        summary="The map of what is missing of a game",
        description="What the game's cards lack against its own declarations (totals, runs of numbers, values, "
        "texts, stale translations) and what that blocks (deck rules, goldfish, the whole game), as the page "
        "`/games/<game>/missing/` shows it: counts as numbers, each sentence in the reader's language, with the "
        "page links where a gap is filled or its cards shown.",
        parameters=[GAME],
        responses={200: OpenApiResponse(MISSING_MAP), 404: NOT_FOUND},
    )
    def get(self, request: Request, game: str) -> Response:
        return Response(missing_data(game_or_404(game), get_language() or "ja", request._request))


# --- cards


class CardSearchPagination(Pagination):
    """Page number pagination plus the glossary names the query was widened with."""

    def paginate_outcome(self, outcome: SearchOutcome, request: Request, view: APIView) -> list[Card] | None:
        """A page of the search's cards, counted as the site counts them (``selectors.SearchPaginator``)."""
        assert outcome.cards is not None  # only an error has no cards, and an error is never paged
        # DRF calls django_paginator_class(cards, page_size) only: a factory that binds the outcome serves as one.
        self.django_paginator_class = partial(_search_paginator, outcome)  # type: ignore[assignment]
        return self.paginate_queryset(outcome.cards, request, view)

    def get_paginated_response(self, data: Any, also_searched: list[str] | None = None) -> Response:
        assert self.page is not None  # paginate_outcome made it
        return Response(
            {
                "count": self.page.paginator.count,
                "next": self.get_next_link(),
                "previous": self.get_previous_link(),
                "also_searched": list(also_searched or []),
                "results": data,
            }
        )

    def get_paginated_response_schema(self, schema: dict[str, Any]) -> dict[str, Any]:
        paginated = super().get_paginated_response_schema(schema)
        paginated["properties"]["also_searched"] = {
            "type": "array",
            "items": {"type": "string"},
            "description": "Other-language glossary names a bare word of the query was also searched as "
            "(e.g. ドロー also finds 抽牌).",
        }
        paginated["required"] = [*paginated.get("required", []), "also_searched"]
        return paginated


def _search_paginator(outcome: SearchOutcome, cards: QuerySet[Card], per_page: int) -> selectors.SearchPaginator:
    return selectors.SearchPaginator(replace(outcome, cards=cards), per_page)


def stable_order(cards: QuerySet[Card]) -> QuerySet[Card]:
    """The search's order with the primary key last, so that pages never overlap or skip."""
    return cards.order_by(*cards.query.order_by, "pk")


@extend_schema_view(
    get=extend_schema(
        summary="Search cards",
        description=(
            "Cards matching `q`, in the site's search syntax, searched in every language at once. "
            "A syntax error is answered with 400 and the position of the problem in the query."
        ),
        parameters=[CardSearchParametersSerializer],  # and `page`, from the pagination
        responses={
            200: CardSerializer(many=True),
            400: OpenApiResponse(
                QueryErrorSerializer,
                description="The query (or another parameter) cannot be used.",
                examples=[
                    OpenApiExample(
                        "Unknown field",
                        value={
                            "detail": "Unknown field 'foo'. Fields: game, name, text, …",
                            "code": "invalid_query",
                            "errors": {"q": ["Unknown field 'foo'. Fields: game, name, text, …"]},
                            "position": 0,
                            "query": "foo:1",
                            "parameter": "q",
                            "reason": "unknown_field",
                        },
                    )
                ],
            ),
            404: NOT_FOUND,
        },
    )
)
class CardSearchView(ConditionalGetMixin, generics.ListAPIView):
    """Cards a query finds (``cards.search.selectors.run_search``), a page at a time; a query that cannot be run
    raises ``QueryError``, which the API's error handler answers (400 ``invalid_query``)."""

    serializer_class = CardSerializer
    pagination_class = CardSearchPagination
    throttle_scope = "search"
    # Who asks matters to ``owned:`` (their collection): a token or a session is read, as everywhere else in the
    # API. An anonymous search stays what it was (no credentials, nothing looked up); one with credentials has no
    # ETag (``search_etag``) and its answer varies with them.
    # The API's defaults (DEFAULT_AUTHENTICATION_CLASSES, which APIView holds as classes).
    authentication_classes = tuple(APIView.authentication_classes)
    etag_anonymous_only = True  # the schema says so (cardsite.api_schema)

    @method_decorator(condition(etag_func=search_etag))
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        try:
            return generics.ListAPIView.get(self, request, *args, **kwargs)
        except Exception as error:  # answered inside ``condition``: an error (a bad query) has its ETag too
            return self.handle_exception(error)

    def dispatch(self, request: Any, *args: Any, **kwargs: Any) -> HttpResponseBase:
        response = super().dispatch(request, *args, **kwargs)
        patch_vary_headers(response, ("Authorization", "Cookie"))
        return response

    def get_queryset(self) -> QuerySet[Card]:
        # list() searches; only the browsable renderer asks for a queryset (for its filter form).
        return Card.objects.none()

    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        query = request.query_params.get("q", "")
        parameters = CardSearchParametersSerializer.of(request.query_params)
        if not parameters.is_valid():
            name, messages = next(iter(parameters.errors.items()))
            raise QueryError(str(messages[0]), query=query, reason=None, parameter=name)
        values = parameters.validated_data
        order = values.get("order")
        if not query.strip() and not order:
            order = "game"  # everything: by game, then number
        found = run_search(
            query,
            values.get("lang") or get_language(),
            game=values.get("game"),
            order=order,
            direction=values.get("dir"),
            user=request.user,
            paginate=lambda outcome: self._page(outcome, request),
            rows=lambda page: self.get_serializer(page, many=True).data,
        )
        return self._pagination().get_paginated_response(found.rows, also_searched=found.outcome.also_searched)

    def _pagination(self) -> CardSearchPagination:
        pagination = self.paginator
        assert isinstance(pagination, CardSearchPagination)  # pagination_class
        return pagination

    def _page(self, outcome: SearchOutcome, request: Request) -> Sequence[Card] | None:
        assert outcome.cards is not None  # run_search pages only an outcome without an error
        return self._pagination().paginate_outcome(replace(outcome, cards=stable_order(outcome.cards)), request, self)


@extend_schema_view(
    get=extend_schema(
        summary="One card",
        parameters=[
            GAME,
            OpenApiParameter(
                "key",
                OpenApiTypes.STR,
                OpenApiParameter.PATH,
                description="The card's key: its printed number (EB1-010) or original name (城塞騎士).",
            ),
        ],
        responses={200: CardDetailSerializer, 404: NOT_FOUND},
    )
)
class CardDetailView(ConditionalGetMixin, generics.RetrieveAPIView):
    """One card with its field values and texts in each language, and the digest of its state."""

    serializer_class = CardDetailSerializer

    def get_object(self) -> Card:
        game = game_or_404(self.kwargs["game"])
        try:
            return selectors.card_detail(game, self.kwargs["key"])
        except Card.DoesNotExist:
            raise NotFound(str(no_such_card(game, self.kwargs["key"]))) from None
