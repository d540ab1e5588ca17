"""The deck API's actions on a deck's history: its versions (every save of its cards, ``services.record_version``),
what changed between two, restoring one, and new decks made from a version or by copying the deck.

A base of ``views.DeckViewSet``, which gives it the deck the request may see (``get_deck``), the reader's
language and the deck's answer (``detail_response``).
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status, viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.reverse import reverse

from cardsite.api_errors import ErrorSerializer
from cardsite.labels import pick

from .. import services
from ..models import Deck
from ..versions import selectors as versions
from .serializers import DeckDetailSerializer, DeckParametersSerializer

# 400, 401, 429 … are added to every operation where they can happen (cardsite.api_schema); these say more.
NOT_FOUND = OpenApiResponse(ErrorSerializer, description="No such deck, or one the user may not see.")
FORBIDDEN = OpenApiResponse(
    ErrorSerializer,
    description="The user may see the deck but does not own it (or signed in by session without the CSRF token).",
)

# A list of versions, each an object (``DeckViewSet.version_data``).
VERSION_LIST = {"type": "array", "items": {"type": "object", "additionalProperties": True}}


class DeckHistoryActions(viewsets.GenericViewSet):
    """Versions and copies of a deck (``DeckViewSet`` supplies the methods named below)."""

    def get_deck(self, *, write: bool = False) -> Deck:
        raise NotImplementedError

    def language(self) -> str:
        raise NotImplementedError

    def detail_response(self, deck: Deck, status_code: int = 200, **kwargs: Any) -> Response:
        raise NotImplementedError

    def version_data(self, version: Any) -> dict[str, Any]:
        language = self.language()
        findings = [
            {"rule": f["rule"], "kind": f["kind"], "message": pick(f["texts"], language)}
            for f in version.verdict.get("findings", [])
        ]
        return {
            "number": version.number,
            "created_at": version.created_at.isoformat(),
            "kind": version.kind,
            "name": version.name,
            "note": version.note,
            "legal": version.legal,
            "checked": bool(version.verdict.get("checked")),
            "findings": findings,
            "entries": version.entries,
            "placeholders": version.placeholders,
        }

    @staticmethod
    def diff_row(key: str, n: int) -> dict[str, Any]:
        """A card by its key; a placeholder card as ``{"placeholder": {kind, values, name}}``."""
        placeholder = versions.placeholder_in(key)
        if placeholder is None:
            return {"card": key, "count": n}
        stated = {"kind": placeholder.kind, "values": placeholder.values, "name": placeholder.name}
        return {"placeholder": stated, "count": n}

    def diff_data(self, result: Any) -> list[dict[str, Any]]:
        return [
            {
                "zone": zone.zone,
                "added": [self.diff_row(key, n) for key, n in zone.added],
                "removed": [self.diff_row(key, n) for key, n in zone.removed],
            }
            for zone in result.zones
        ]

    @extend_schema(
        summary="The versions of a deck, oldest first",
        description="Each save of the deck's cards; changes of one kind within 60 seconds make one version.",
        parameters=[DeckParametersSerializer],
        responses={200: OpenApiResponse(VERSION_LIST, description="The versions, oldest first."), 404: NOT_FOUND},
    )
    @action(detail=True, methods=["get"], pagination_class=None, url_path="versions")
    def versions(self, request: Request, pk: str) -> Response:
        deck = self.get_deck()
        return Response([self.version_data(v) for v in versions.versions_of(deck)])

    @extend_schema(
        summary="What changed between two versions of a deck",
        parameters=[
            DeckParametersSerializer,
            OpenApiParameter("a", int, required=True, description="The earlier version's number."),
            OpenApiParameter("b", int, required=True, description="The later version's number."),
        ],
        responses={200: OpenApiTypes.OBJECT, 404: NOT_FOUND},
    )
    @action(detail=True, methods=["get"], pagination_class=None, url_path="diff")
    def diff(self, request: Request, pk: str) -> Response:
        deck = self.get_deck()
        a = versions.version(deck, request.query_params.get("a"))
        b = versions.version(deck, request.query_params.get("b"))
        return Response(
            {
                "a": {"number": a.number, "legal": a.legal},
                "b": {"number": b.number, "legal": b.legal},
                "zones": self.diff_data(versions.compare(deck, a, b)),
            }
        )

    def version_location(self, deck: Deck, number: int) -> str:
        return reverse("decks_api:deck-version", kwargs={"pk": deck.pk, "number": number}, request=self.request)

    def copy_answer(self, copy: Deck) -> Response:
        """A new deck made by this request: 201, its address in Location (the status rule: docs, API)."""
        location = reverse("decks_api:deck-detail", kwargs={"pk": copy.pk}, request=self.request)
        return self.detail_response(copy, status.HTTP_201_CREATED, headers={"Location": location})

    @extend_schema(
        summary="One version of a deck",
        operation_id="decks_version_retrieve",
        parameters=[DeckParametersSerializer],
        responses={
            200: OpenApiResponse(OpenApiTypes.OBJECT, description="As in the list of versions."),
            404: NOT_FOUND,
        },
    )
    @action(detail=True, methods=["get"], pagination_class=None, url_path="versions/<int:number>", url_name="version")
    def version(self, request: Request, pk: str, number: int) -> Response:
        deck = self.get_deck()
        return Response(self.version_data(versions.version(deck, number)))

    @extend_schema(
        summary="Restore a version of a deck",
        description="The deck gets that version's cards, as a new version: 201, the new version in the body and its "
        "address in Location. Owner only.",
        parameters=[DeckParametersSerializer],
        request=None,
        responses={201: OpenApiTypes.OBJECT, 403: FORBIDDEN, 404: NOT_FOUND},
    )
    @action(detail=True, methods=["post"], url_path="versions/<int:number>/restore", url_name="restore-version")
    def restore_version(self, request: Request, pk: str, number: int) -> Response:
        deck = self.get_deck(write=True)
        restored = services.restore_version(deck, versions.version(deck, number))
        headers = {"Location": self.version_location(deck, restored.number)} if restored is not None else {}
        return Response(self.version_data(restored), status.HTTP_201_CREATED, headers=headers)

    @extend_schema(
        summary="Make a new deck from a version of a deck",
        description="A new private deck of the user with that version's cards (its source is the deck): 201, the "
        "new deck in the body and its address in Location. Anyone who may see the deck (a deck shared by link: "
        "with `?token=`); 404 for a deck the user may not see or an unknown version.",
        parameters=[DeckParametersSerializer],
        request=None,
        responses={201: DeckDetailSerializer, 404: NOT_FOUND},
    )
    @action(detail=True, methods=["post"], url_path="versions/<int:number>/deck", url_name="version-deck")
    def version_deck(self, request: Request, pk: str, number: int) -> Response:
        token = DeckParametersSerializer.read(request.query_params).get("token") or None
        return self.copy_answer(services.branch_version(request.user, int(pk), number, token=token))

    @extend_schema(
        summary="Copy a deck",
        description="A private copy for the user of a deck they may see (a deck shared by link: with `?token=`), "
        "recording where it came from: 201, the copy in the body and its address in Location. 404 for a deck the "
        "user may not see.",
        parameters=[DeckParametersSerializer],
        request=None,
        responses={201: DeckDetailSerializer, 404: NOT_FOUND},
    )
    @action(detail=True, methods=["post"], url_path="copy", url_name="copy")
    def copy(self, request: Request, pk: str) -> Response:
        token = DeckParametersSerializer.read(request.query_params).get("token") or None
        return self.copy_answer(services.copy_deck(request.user, int(pk), token=token))
