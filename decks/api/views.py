"""Deck API views: thin DRF views over ``decks.services`` and ``decks.selectors``.

Permissions are the pages': reading needs ``selectors.can_view`` (a deck shared by link is
read with ``?token=``), changing needs ``selectors.can_edit``. A deck the user may not see
answers 404 whatever the method, so that its existence is not revealed; a change to a deck
the user may see but does not own answers 403; a change without credentials 401.

A body with problems answers 400 with every problem, each naming its field
(``entries[2].card``), and nothing is written: every check is made before the first write,
and the writes of one request share a transaction.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import QuerySet, Sum
from django.http import HttpResponse
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import status
from rest_framework.decorators import action
from rest_framework.exceptions import NotAuthenticated
from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.reverse import reverse

from cards.api.games import game_from_slug
from cards.models import Game
from cardsite import pagecache
from cardsite.api_errors import merge_errors
from cardsite.api_inputs import LanguageSerializer
from cardsite.errors import Message
from cardsite.labels import pick
from cardsite.renderers import FileRenderer

from .. import services
from ..models import Deck
from ..organise import selectors as organise_selectors
from ..organise import services as organise_services
from ..printing import drawing as printing
from ..printing import selectors as printouts
from ..rules import get_rules
from ..rules.base import DeckSpec, Verdict, validate
from ..selectors import access_deck, deck_entries, deck_spec, unsaved_deck_spec, visible_decks
from .history import FORBIDDEN, NOT_FOUND, DeckHistoryActions
from .serializers import (
    DeckDetailSerializer,
    DeckListParametersSerializer,
    DeckParametersSerializer,
    DeckReplaceSerializer,
    DeckSerializer,
    DeckUpdateSerializer,
    DeckWriteSerializer,
    EntriesBodySerializer,
    EntriesPatchBodySerializer,
    EntrySerializer,
    FieldErrors,
    UnsavedDeckSerializer,
    VerdictSerializer,
    clean_entries,
    clean_mode_options,
    validated_body,
)


def _clean_deck_body(game: Game, data: dict):
    """A deck body's mode, options and entries, checked; every problem of both reported at once."""
    errors: dict[str, list[Any]] = {}
    mode, options, entries = None, None, []
    try:
        mode, options = clean_mode_options(game, data.get("mode"), data.get("options"))
    except FieldErrors as error:
        merge_errors(errors, error.errors)
    try:
        entries = clean_entries(game, data.get("entries", []))
    except FieldErrors as error:
        merge_errors(errors, error.errors)
    if errors:
        raise FieldErrors(errors)
    return mode, options, entries


class DeckPermission(BasePermission):
    """Reading and validating: anyone (which deck, ``get_deck`` decides); anything else: a signed-in user."""

    def has_permission(self, request: Request, view: Any) -> bool:
        if request.method in SAFE_METHODS or getattr(view, "action", None) in {"validate", "validate_unsaved"}:
            return True
        return bool(request.user and request.user.is_authenticated)


def verdict_data(rules_game: str, spec: DeckSpec, verdict: Verdict, language: str) -> dict[str, Any]:
    rules = get_rules(rules_game)
    return {
        "legal": verdict.legal,
        "checked": verdict.checked,
        "placeholders": verdict.placeholders,
        "legal_apart_from_placeholders": verdict.legal_apart_from_placeholders,
        "findings": [
            {"rule": f.rule, "kind": f.kind, "message": f.message(language), "cards": list(f.cards)}
            for f in verdict.findings
        ],
        "totals": [
            {"zone": zone.slug, "label": pick(zone.labels, language), "count": spec.size(zone.slug)}
            for zone in rules.zones
            if not zone.fixed
        ],
    }


@extend_schema_view(
    list=extend_schema(
        summary=(
            "Decks: the user's own (a deck is never public: published decks are under /api/community/publications/)"
        ),
        parameters=[DeckListParametersSerializer],
        responses={200: DeckSerializer(many=True)},
    ),
    create=extend_schema(
        summary="Make a deck",
        parameters=[LanguageSerializer],
        request=DeckWriteSerializer,
        responses={201: DeckDetailSerializer},
    ),
    retrieve=extend_schema(
        summary="One deck with its entries",
        parameters=[DeckParametersSerializer],
        responses={200: DeckDetailSerializer, 404: NOT_FOUND},
    ),
    update=extend_schema(
        summary="Replace a deck's name, fields and entries",
        description="`name` and `entries` are required; other fields keep their value when absent.",
        parameters=[DeckParametersSerializer],
        request=DeckReplaceSerializer,
        responses={200: DeckDetailSerializer, 403: FORBIDDEN, 404: NOT_FOUND},
    ),
    partial_update=extend_schema(
        summary="Change a deck",
        description="Any of name, description, mode, options (merged with the deck's), visibility and "
        "entries (replacing every entry).",
        parameters=[DeckParametersSerializer],
        request=DeckUpdateSerializer,
        responses={200: DeckDetailSerializer, 403: FORBIDDEN, 404: NOT_FOUND},
    ),
    destroy=extend_schema(
        summary="Delete a deck",
        parameters=[DeckParametersSerializer],
        responses={204: None, 403: FORBIDDEN, 404: NOT_FOUND},
    ),
)
class DeckViewSet(DeckHistoryActions):
    """Decks of the four games, with their entries and the verdict of the game's construction rules."""

    queryset = Deck.objects.all()  # for the schema; get_queryset decides what a user sees
    serializer_class = DeckSerializer
    permission_classes = (DeckPermission,)
    lookup_value_converter = "int"  # <int:pk>: ASCII digits (a regex's \d also takes other scripts' digits)

    @property
    def throttle_scope(self) -> str | None:
        """Changes count against the user's limit on deck writes; checking an unsaved deck, like a search."""
        if getattr(self, "action", None) == "validate_unsaved":
            return "search"
        if self.request.method in SAFE_METHODS or getattr(self, "action", None) == "validate":
            return None
        return "deck_write"

    # --- helpers

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        super().initial(request, *args, **kwargs)
        self.language()  # ?lang= is checked before anything is written (answers use it afterwards)

    def language(self) -> str:
        # Read once per request (a view instance serves one request): ``initial`` checks it, the answer uses it.
        if getattr(self, "_language", None) is None:
            read = LanguageSerializer.read(self.request.query_params).get("lang")
            self._language = read or get_language() or "ja"
        return self._language

    def get_serializer_context(self) -> dict[str, Any]:
        return {**super().get_serializer_context(), "language": self.language()}

    def get_queryset(self) -> QuerySet[Deck]:
        user = self.request.user
        parameters = DeckListParametersSerializer.read(self.request.query_params)
        ordering = organise_selectors.SORTS[parameters.get("ordering", "changed")]
        # Folders, tags, the archive and legality are the owner's own: filtering by them lists the user's decks.
        if parameters.get("mine") or {"folder", "tag", "archived", "legality"} & set(parameters):
            if not user.is_authenticated:
                raise NotAuthenticated(
                    _("?mine=1 (and folder, tag, archived, legality) list your own decks: log in or send a token.")
                )
            if "game" in parameters:
                game_from_slug(parameters["game"])  # an unknown game is a 400, as without mine
            chosen = organise_selectors.DeckFilter(
                game=parameters.get("game", ""),
                folder=parameters.get("folder", ""),
                tag=parameters.get("tag", ""),
                legality=parameters.get("legality", ""),
                archive=parameters.get("archived", "all"),
                sort=parameters.get("ordering", "changed"),
            )
            decks = organise_selectors.filtered_decks(user, chosen, self.language())
        else:
            decks = visible_decks(user)
            if "game" in parameters:
                decks = decks.filter(game=game_from_slug(parameters["game"]))
        return (
            decks.select_related("game", "owner", "folder")
            .prefetch_related("tags")
            .annotate(card_total=Sum("entries__count"))
            .order_by(*ordering)
        )

    def get_deck(self, *, write: bool = False) -> Deck:
        token = DeckParametersSerializer.read(self.request.query_params).get("token") or None
        return access_deck(self.request.user, self.kwargs["pk"], token=token, write=write)

    def detail_response(self, deck: Deck, status_code: int = 200, **kwargs: Any) -> Response:
        deck = Deck.objects.select_related("game", "owner", "folder").prefetch_related("tags").get(pk=deck.pk)
        return Response(DeckDetailSerializer(deck, context=self.get_serializer_context()).data, status_code, **kwargs)

    # --- CRUD

    def list(self, request: Request) -> Response:
        page = self.paginate_queryset(self.get_queryset())
        data = DeckSerializer(page, many=True, context=self.get_serializer_context()).data
        return self.get_paginated_response(data)

    def create(self, request: Request) -> Response:
        data = validated_body(DeckWriteSerializer, request.data)
        game = game_from_slug(data["game"])
        mode, options, entries = _clean_deck_body(game, data)
        organisation = self._organisation(data)
        with transaction.atomic():  # the request's changes all or none
            deck = services.create_deck(
                owner=request.user,
                game=game,
                name=data["name"],
                description=data.get("description", ""),
                mode=mode,
                options=options,
                visibility=data.get("visibility", Deck.Visibility.PRIVATE),
                entries=entries,
            )
            organise_services.organise(deck, **organisation)
        location = reverse("decks_api:deck-detail", kwargs={"pk": deck.pk}, request=request)
        return self.detail_response(deck, status.HTTP_201_CREATED, headers={"Location": location})

    def _organisation(self, data: dict[str, Any]) -> dict[str, Any]:
        """The body's folder, tags and archived as ``organise_services.organise``'s arguments (a folder that is not
        the user's is a field error, as an unknown one is)."""
        organisation: dict[str, Any] = {"tags": data.get("tags"), "archived": data.get("archived")}
        if "folder" in data:
            folder = None
            if data["folder"] is not None:
                folder = organise_selectors.folder_of(self.request.user, data["folder"])
                if folder is None:
                    raise FieldErrors({"folder": [Message(_("That folder is not one of yours."))]})
            organisation["folder"] = folder
        return organisation

    def retrieve(self, request: Request, pk: str) -> Response:
        return self.detail_response(self.get_deck())

    def _change(self, request: Request, serializer_class: type) -> Response:
        deck = self.get_deck(write=True)
        data = validated_body(serializer_class, request.data)
        errors: dict[str, list[Any]] = {}
        if "game" in data and data["game"] != deck.game.slug:
            errors["game"] = [
                Message(
                    _("A deck's game cannot be changed (this deck is of %(game)s)."),
                    {"game": deck.game.definition.names},
                )
            ]
        mode, options, entries = None, None, None
        if "mode" in data or "options" in data:
            try:
                mode, options = clean_mode_options(
                    deck.game, data.get("mode", deck.mode), data.get("options"), base=deck.options
                )
            except FieldErrors as error:
                merge_errors(errors, error.errors)
        if "entries" in data:
            try:
                entries = clean_entries(deck.game, data["entries"])
            except FieldErrors as error:
                merge_errors(errors, error.errors)
        if errors:
            raise FieldErrors(errors)
        organisation = self._organisation(data)
        with transaction.atomic():  # the request's changes all or none
            services.update_deck(
                deck,
                name=data.get("name"),
                description=data.get("description"),
                mode=mode,
                options=options,
                visibility=data.get("visibility"),
                entries=entries,
            )
            organise_services.organise(deck, **organisation)
        return self.detail_response(deck)

    def update(self, request: Request, pk: str) -> Response:
        return self._change(request, DeckReplaceSerializer)

    def partial_update(self, request: Request, pk: str) -> Response:
        return self._change(request, DeckUpdateSerializer)

    def destroy(self, request: Request, pk: str) -> Response:
        services.delete_deck(self.get_deck(write=True))
        return Response(status=status.HTTP_204_NO_CONTENT)

    # --- entries

    @extend_schema(
        summary="A deck's entries",
        parameters=[DeckParametersSerializer],
        responses={200: EntrySerializer(many=True), 404: NOT_FOUND},
    )
    @action(detail=True, methods=["get"], pagination_class=None)
    def entries(self, request: Request, pk: str) -> Response:
        return self.entries_response(self.get_deck())

    def entries_response(self, deck: Deck) -> Response:
        return Response(EntrySerializer(deck_entries(deck), many=True, context=self.get_serializer_context()).data)

    @extend_schema(
        summary="Replace every entry of a deck",
        parameters=[DeckParametersSerializer],
        request=EntriesBodySerializer,
        responses={200: EntrySerializer(many=True), 403: FORBIDDEN, 404: NOT_FOUND},
    )
    @entries.mapping.put
    def put_entries(self, request: Request, pk: str) -> Response:
        deck = self.get_deck(write=True)
        data = validated_body(EntriesBodySerializer, request.data)
        services.replace_entries(deck, clean_entries(deck.game, data["entries"]))
        return self.entries_response(deck)

    @extend_schema(
        summary="Set the counts of some entries of a deck",
        description="Each entry's count is set (0 removes the card from the zone); other entries are kept.",
        parameters=[DeckParametersSerializer],
        request=EntriesPatchBodySerializer,
        responses={200: EntrySerializer(many=True), 403: FORBIDDEN, 404: NOT_FOUND},
    )
    @entries.mapping.patch
    def patch_entries(self, request: Request, pk: str) -> Response:
        deck = self.get_deck(write=True)
        data = validated_body(EntriesPatchBodySerializer, request.data)
        services.set_counts(deck, clean_entries(deck.game, data["entries"], patch=True))
        return self.entries_response(deck)

    @extend_schema(
        summary="Replace a deck's share link",
        description="A new share token; the old link, and runs started through it, stop working. Owner only.",
        parameters=[DeckParametersSerializer],
        request=None,
        responses={200: DeckDetailSerializer, 403: FORBIDDEN, 404: NOT_FOUND},
    )
    @action(detail=True, methods=["post"], url_path="share-link")
    def share_link(self, request: Request, pk: str) -> Response:
        deck = self.get_deck(write=True)
        services.regenerate_share_link(deck)
        return self.detail_response(deck)

    # --- picture and printouts: the files the deck page links, for API clients

    def _printout(self, kind: str) -> HttpResponse:
        deck = self.get_deck()
        printed = printouts.printed_deck(deck, self.language(), thumbnails=kind != "proxies")
        if kind == "picture":
            content, media_type, name = printing.deck_picture(printed), "image/png", f"deck-{deck.pk}.png"
        elif kind == "registration":
            content, media_type = printing.registration_sheet(printed), "application/pdf"
            name = f"deck-{deck.pk}-registration.pdf"
        else:
            try:
                content = printing.proxy_sheet(printed)
            except printing.TooManyProxies as error:
                raise FieldErrors({"proxies": [printouts.proxies_refused(error)]}) from None
            media_type, name = "application/pdf", f"deck-{deck.pk}-proxies.pdf"
        response = HttpResponse(content, content_type=media_type)
        response["Content-Disposition"] = f'inline; filename="{name}"'
        return response

    @extend_schema(
        summary="A deck's make-up as a picture (PNG)",
        parameters=[DeckParametersSerializer],
        responses={(200, "image/png"): OpenApiTypes.BINARY, 404: NOT_FOUND},
    )
    @action(detail=True, methods=["get"], renderer_classes=[JSONRenderer, FileRenderer.for_type("image/png")])
    def picture(self, request: Request, pk: str) -> HttpResponse:
        return self._printout("picture")

    @extend_schema(
        summary="A deck's registration sheet (PDF)",
        parameters=[DeckParametersSerializer],
        responses={(200, "application/pdf"): OpenApiTypes.BINARY, 404: NOT_FOUND},
    )
    @action(detail=True, methods=["get"], renderer_classes=[JSONRenderer, FileRenderer.for_type("application/pdf")])
    def registration(self, request: Request, pk: str) -> HttpResponse:
        return self._printout("registration")

    @extend_schema(
        summary="Proxies of a deck's cards to print and cut (PDF)",
        description=f"One proxy per copy, at most {printing.MAX_PROXIES} (400 above that).",
        parameters=[DeckParametersSerializer],
        responses={(200, "application/pdf"): OpenApiTypes.BINARY, 404: NOT_FOUND},
    )
    @action(detail=True, methods=["get"], renderer_classes=[JSONRenderer, FileRenderer.for_type("application/pdf")])
    def proxies(self, request: Request, pk: str) -> HttpResponse:
        return self._printout("proxies")

    # --- verdicts

    @extend_schema(
        summary="The verdict of the game's construction rules on a deck",
        description="GET and POST alike; nothing is changed.",
        parameters=[DeckParametersSerializer],
        request=None,
        responses={200: VerdictSerializer, 404: NOT_FOUND},
    )
    @action(detail=True, methods=["get", "post"])
    def validate(self, request: Request, pk: str) -> Response:
        deck = self.get_deck()
        language = self.language()
        spec = deck_spec(deck, language)
        return Response(verdict_data(deck.game.slug, spec, validate(get_rules(deck.game.slug), spec), language))

    @extend_schema(
        summary="The verdict on a deck that is not stored",
        operation_id="decks_validate_unsaved",
        description="The body is a deck as for a create (game, mode, options, entries); it is checked and "
        "validated, and nothing is stored. No credentials needed.",
        parameters=[LanguageSerializer],
        request=UnsavedDeckSerializer,
        responses={200: VerdictSerializer},
    )
    @action(detail=False, methods=["post"], url_path="validate", url_name="validate-unsaved")
    def validate_unsaved(self, request: Request) -> Response:
        language = self.language()

        def verdict() -> dict[str, Any]:
            data = validated_body(UnsavedDeckSerializer, request.data)
            game: Game = game_from_slug(data["game"])
            mode, options, entries = _clean_deck_body(game, data)
            spec = unsaved_deck_spec(game, mode, options, entries, language)
            return verdict_data(game.slug, spec, validate(get_rules(game.slug), spec), language)

        # The verdict depends only on the body and the cards: the same body is answered from memory.
        return Response(pagecache.remembered(request, ("cards",), verdict))
