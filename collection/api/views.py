"""Collection API: thin DRF views over ``collection.selectors``, ``collection.services`` and
``collection.importing``. A collection is its owner's alone: every operation needs credentials (a token or the
session) and reads or changes the collection of the user who asks, never another's. A deck's want list is for any
deck the user may see (``decks.selectors.access_deck``: 404 otherwise, ``?token=`` for one shared by link),
computed against the user's own collection; the shared check takes the user's own decks of the game only.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import get_language
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.exceptions import NotFound
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from cards.api.games import GAME, game_or_404
from cards.messages import no_such_card
from cards.models import Card, Game
from cardsite.api_errors import ErrorSerializer
from cardsite.errors import AppError
from cardsite.types import signed_in
from decks.models import Deck
from decks.selectors import access_deck

from .. import importing, selectors, services
from ..rules import CollectionError
from .serializers import (
    CardCountSerializer,
    ChangeBodySerializer,
    CollectionSerializer,
    CsvImportBodySerializer,
    ExportSerializer,
    GameTotalsSerializer,
    ImportedSerializer,
    ImportErrorSerializer,
    ListImportBodySerializer,
    SetBodySerializer,
    SharedBodySerializer,
    SharedSerializer,
    WantsParametersSerializer,
    WantsSerializer,
)

NO_GAME = OpenApiResponse(ErrorSerializer, description="No such game.")
REFUSED = OpenApiResponse(
    ErrorSerializer,
    description="A body breaking a constraint, a card the game does not have, or a count the "
    "collection cannot hold (below 0 or above the bound).",
)


def _language() -> str:
    return get_language() or "ja"


def _valid(serializer_class: type, data: Any) -> dict[str, Any]:
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


def _card(game: Game, key: str) -> Card:
    found = Card.objects.filter(game=game, key=key).select_related("game").first()
    if found is None:
        message = no_such_card(game, key)
        raise CollectionError(message, code="unknown_card", errors={"card": [message]})
    return found


class ListRefused(AppError):
    code = "invalid_list"

    def __init__(self, found: list[dict[str, Any]], field: str) -> None:
        super().__init__(
            _("The list has problems; nothing was saved."), errors={field: [problem["text"] for problem in found]}
        )
        self.problems = found

    def extra(self) -> dict[str, Any]:
        return {
            "problems": [
                {
                    "line": problem["line"],
                    "code": problem["code"],
                    "message": problem["message"],
                    "candidates": [candidate.key for candidate in problem["candidates"]],
                }
                for problem in self.problems
            ]
        }


class CollectionView(APIView):
    permission_classes = (IsAuthenticated,)

    def game(self) -> Game:
        return game_or_404(self.kwargs["game"])


class OverviewView(CollectionView):
    @extend_schema(
        summary="My collection: what I own of each game",
        responses={200: GameTotalsSerializer(many=True)},
    )
    def get(self, request: Request) -> Response:
        data = [{"game": game.slug, **totals} for game, totals in selectors.summaries(request.user)]
        return Response(data)


class GameCollectionView(CollectionView):
    @extend_schema(
        summary="My collection of one game: every card I own and how many copies",
        parameters=[GAME],
        responses={200: CollectionSerializer, 404: NO_GAME},
    )
    def get(self, request: Request, game: str) -> Response:
        game_row = self.game()
        language = _language()
        owned = [
            {
                "card": row.card.key,
                "number": row.card.number,
                "name": row.card.display_name(language),
                "count": row.count,
            }
            for row in selectors.owned_rows(request.user, game_row)
        ]
        return Response({"game": game_row.slug, **selectors.game_summary(request.user, game_row), "owned": owned})


class _ChangeView(CollectionView):
    throttle_scope = "collection_write"
    delta_sign = 1

    def post(self, request: Request, game: str) -> Response:
        game_row = self.game()
        data = _valid(ChangeBodySerializer, request.data)
        card = _card(game_row, data["card"])
        count = services.change_count(request.user, card, self.delta_sign * data["count"])
        return Response({"card": card.key, "count": count})


class AddView(_ChangeView):
    @extend_schema(
        summary="Add copies of a card to my collection",
        parameters=[GAME],
        request=ChangeBodySerializer,
        responses={200: CardCountSerializer, 400: REFUSED, 404: NO_GAME},
    )
    def post(self, request: Request, game: str) -> Response:
        return super().post(request, game)


class RemoveView(_ChangeView):
    delta_sign = -1

    @extend_schema(
        summary="Remove copies of a card from my collection",
        description="Removing more copies than the collection holds is refused (400) and changes nothing.",
        parameters=[GAME],
        request=ChangeBodySerializer,
        responses={200: CardCountSerializer, 400: REFUSED, 404: NO_GAME},
    )
    def post(self, request: Request, game: str) -> Response:
        return super().post(request, game)


class SetView(CollectionView):
    throttle_scope = "collection_write"

    @extend_schema(
        summary="Set how many copies of a card I own (0 removes it)",
        parameters=[GAME],
        request=SetBodySerializer,
        responses={200: CardCountSerializer, 400: REFUSED, 404: NO_GAME},
    )
    def post(self, request: Request, game: str) -> Response:
        game_row = self.game()
        data = _valid(SetBodySerializer, request.data)
        card = _card(game_row, data["card"])
        return Response({"card": card.key, "count": services.set_count(request.user, card, data["count"])})


def _import(request: Request, game: Game, resolved: importing.Resolved, mode: str, field: str) -> Response:
    if not resolved.ok:
        raise ListRefused(importing.problems(resolved.errors, game.slug), field)
    totals = services.import_counts(request.user, game, resolved.counts, mode)
    return Response({"game": game.slug, **totals, "imported": resolved.copies})


IMPORT_REFUSED = OpenApiResponse(
    ImportErrorSerializer,
    description="The list has problems (every one listed under `problems`, by line, with candidates); nothing "
    "was saved.",
)


class ListImportView(CollectionView):
    throttle_scope = "collection_write"

    @extend_schema(
        summary="Import a pasted list into my collection",
        description="The decklist format, read as a deck import reads it, with the same problems line by line. "
        "All or nothing.",
        parameters=[GAME],
        request=ListImportBodySerializer,
        responses={200: ImportedSerializer, 400: IMPORT_REFUSED, 404: NO_GAME},
    )
    def post(self, request: Request, game: str) -> Response:
        game_row = self.game()
        data = _valid(ListImportBodySerializer, request.data)
        return _import(request, game_row, importing.resolve_list(game_row, data["text"]), data["mode"], "text")


class CsvImportView(CollectionView):
    throttle_scope = "collection_write"

    @extend_schema(
        summary="Import a CSV into my collection",
        description="The first line names the columns: count, and key (or card, number, name); counts 0 to the "
        "bound. All or nothing.",
        parameters=[GAME],
        request=CsvImportBodySerializer,
        responses={200: ImportedSerializer, 400: IMPORT_REFUSED, 404: NO_GAME},
    )
    def post(self, request: Request, game: str) -> Response:
        game_row = self.game()
        data = _valid(CsvImportBodySerializer, request.data)
        return _import(request, game_row, importing.resolve_csv(game_row, data["csv"]), data["mode"], "csv")


class ExportView(CollectionView):
    @extend_schema(
        summary="My collection of one game as CSV",
        parameters=[GAME],
        responses={200: ExportSerializer, 404: NO_GAME},
    )
    def get(self, request: Request, game: str) -> Response:
        game_row = self.game()
        return Response({"game": game_row.slug, "csv": importing.export_csv(request.user, game_row, _language())})


def _need(need: selectors.Need, language: str) -> dict[str, Any]:
    card = need.card
    return {
        "card": card.key,
        "number": card.number,
        "name": card.display_name(language),
        "needed": need.needed,
        "owned": need.owned,
        "short": need.short,
    }


class WantsView(CollectionView):
    @extend_schema(
        summary="A deck's missing cards against my collection (a want list)",
        description="Any deck the user may see; the counts are the user's own collection's.",
        parameters=[WantsParametersSerializer],
        responses={
            200: WantsSerializer,
            404: OpenApiResponse(ErrorSerializer, description="No such deck, or one the user may not see."),
        },
    )
    def get(self, request: Request, pk: int) -> Response:
        token = WantsParametersSerializer.read(request.query_params).get("token") or None
        deck = access_deck(request.user, pk, token=token)
        report = selectors.needs(request.user, [deck])
        language = _language()
        wants = [(need.card, need.short) for need in report.missing]
        title = _("Want list for %(deck)s") % {"deck": deck.name}
        return Response(
            {
                "deck": deck.pk,
                "game": deck.game.slug,
                "copies_short": report.copies_short,
                "cards": [_need(need, language) for need in report.needs],
                "text": importing.want_list_text(deck.game, wants, language, title) if wants else "",
                "csv": importing.want_list_csv(report.missing, language),
            }
        )


class SharedView(CollectionView):
    @extend_schema(
        summary="Several of my decks of one game against my collection",
        description="Per card: copies each deck needs, in all, owned, short, and whether the copies are stretched "
        "too thin (enough for each deck alone, not for all at once). Decks that are not the user's own decks of "
        "this game answer 404.",
        parameters=[GAME],
        request=SharedBodySerializer,
        responses={
            200: SharedSerializer,
            404: OpenApiResponse(ErrorSerializer, description="No such game, or a deck that is not one of mine."),
        },
    )
    def post(self, request: Request, game: str) -> Response:
        game_row = self.game()
        data = _valid(SharedBodySerializer, request.data)
        wanted = list(dict.fromkeys(data["decks"]))
        decks = {
            deck.pk: deck for deck in Deck.objects.filter(owner=signed_in(request.user), game=game_row, pk__in=wanted)
        }
        if len(decks) != len(wanted):
            raise NotFound(_("No such deck among your decks of this game."))
        report = selectors.needs(request.user, [decks[pk] for pk in wanted])
        language = _language()
        cards = [
            {**_need(need, language), "per_deck": need.per_deck, "stretched": need.stretched} for need in report.needs
        ]
        return Response({"decks": wanted, "copies_short": report.copies_short, "cards": cards})
