"""Contributions API: submit a change set, follow it, and for editors the review queue, accept and reject.

Thin DRF views over ``contributions.services`` (every write, every check of the cards) and
``contributions.selectors`` (what a user sees, who may review): no view checks a role itself. Anyone may
read a change set, as the pages allow; submitting, listing one's own and reviewing need credentials (a
token, ``POST /api/accounts/token/``, or the site's session). Errors are the services' (``ContributionError`` and
its kinds), shaped by the API's one exception handler.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import UploadedFile
from django.db.models import QuerySet
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import generics, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound
from rest_framework.parsers import MultiPartParser
from rest_framework.permissions import AllowAny, BasePermission, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.reverse import reverse
from rest_framework.views import APIView

from cards import selectors as card_selectors
from cards.api.games import GAME, game_from_slug, game_or_404
from cards.api.serializers import CardDetailSerializer
from cards.images.selectors import stored_image
from cards.images.services import image_store_or_found, too_large_upload
from cards.messages import no_such_card
from cards.models import Card, Game, StoredImage
from cards.revisions import card_revisions
from cards.services import card_state, state_digest
from cardsite.api_errors import ErrorSerializer
from cardsite.api_inputs import refuse_unknown_keys
from cardsite.errors import Message

from .. import editor_actions, selectors, services
from ..models import ChangeSet
from ..uploads import body_too_large
from .serializers import (
    AcceptSerializer,
    BlockedUserSerializer,
    BlockSerializer,
    CardChangedSinceSerializer,
    CardHistorySerializer,
    ChangeSetDetailSerializer,
    ChangeSetRequestSerializer,
    ChangeSetSerializer,
    DeletedCardSerializer,
    ImageUploadSerializer,
    RejectSerializer,
    RevertSerializer,
    ReviewQueueParametersSerializer,
    SeedConflictResolveSerializer,
    SeedConflictSerializer,
    StoredImageSerializer,
)

# 400, 401, 429 … are added to every operation where they can happen (cardsite.api_schema); these say more.
NOT_FOUND = OpenApiResponse(ErrorSerializer, description="No such change set.")
NOT_AN_EDITOR = OpenApiResponse(
    ErrorSerializer,
    description="Only an editor of the change set's game reviews it (`not_allowed`); or signed in by session "
    "without the CSRF token.",
)
STALE = OpenApiResponse(
    CardChangedSinceSerializer,
    description="`card_changed_since`: a card changed after it was read (`cards` holds each as it is now); "
    "`no_change` / `already_reviewed`: it is already so.",
)

NOT_A_REVIEWER = OpenApiResponse(ErrorSerializer, description="The user reviews no game (or not `game`).")

STALE_CARD = OpenApiResponse(
    CardChangedSinceSerializer,
    description="`card_changed_since`: the card changed after it was read (`cards` holds it as it is now); "
    "`changed_by_later_revision`, `first_revision`, `no_change`: the revision cannot be undone.",
)

REVIEWED = {200: ChangeSetDetailSerializer, 403: NOT_AN_EDITOR, 404: NOT_FOUND, 409: STALE}


def _valid(serializer_class: type, data: Any) -> dict[str, Any]:
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


def _found(pk: int) -> ChangeSet:
    change_set = selectors.change_set_detail(pk)
    if change_set is None:
        raise NotFound(str(Message(_("There is no change set #%(number)s."), {"number": pk})))
    return change_set


def _reviewed_game(request: Request) -> Any:
    """The game a review queue is asked for (None: every game the user reviews); 403 if the user reviews none."""
    slug = ReviewQueueParametersSerializer.read(request.query_params).get("game")
    game = game_from_slug(slug) if slug is not None else None
    if not selectors.reviews(request.user, game):
        raise services.NotAllowed(_("Only editors of a game review its change sets."))
    return game


def _source_photo(pk: int | None) -> StoredImage | None:
    if pk is None:
        return None
    photo = stored_image(pk)
    if photo is None:
        message = Message(_("There is no upload #%(id)s."), {"id": pk})
        raise services.ContributionError(message, code="no_such_upload", errors={"source_photo": [message]})
    return photo


class SignedInExceptReading(BasePermission):
    """Reading one change set: anyone; the user's list, submitting and reviewing: a signed-in user."""

    def has_permission(self, request: Request, view: Any) -> bool:
        if getattr(view, "action", None) == "retrieve":
            return True
        return bool(request.user and request.user.is_authenticated)


@extend_schema_view(
    list=extend_schema(
        summary="The user's own change sets",
        description="Newest first, with their state.",
        responses={200: ChangeSetSerializer(many=True)},
    ),
    create=extend_schema(
        summary="Submit a change set",
        description="Cards to add or change in one game, with where the values come from. A card record "
        "changes what it names and nothing else: a key left out keeps the card's value, a value sets it, "
        "`null` removes it, at every level (`number`, `kind`, `source`, `fields.<name>`, `texts.<language>.<part>`, "
        "`texts.<language>`, `translations.<language>.<track>`); a new card is the record itself. The card so"
        " changed is checked as the importer checks a file's cards: a problem answers 400 naming its place "
        "(`cards[1].fields.health`) with what is wrong in the request's language, and nothing is stored. An "
        "editor's or a trusted contributor's change set applies at once (`status`: accepted); anyone else's "
        "waits for an editor (pending). Send `seen` so that a change made on a card someone changed meanwhile"
        " is refused (409) rather than reviewed against a card it no longer fits.",
        request=ChangeSetRequestSerializer,
        responses={
            201: ChangeSetDetailSerializer,
            403: OpenApiResponse(
                ErrorSerializer,
                description="The user may not contribute to this game (blocked by an editor); or signed in by "
                "session without the CSRF token.",
            ),
            409: STALE,
        },
    ),
    retrieve=extend_schema(
        summary="One change set, with its cards",
        description="Anyone may read a change set: its state, source, the decision and each card before and after.",
        responses={200: ChangeSetDetailSerializer, 404: NOT_FOUND},
    ),
)
class ChangeSetViewSet(viewsets.GenericViewSet):
    """Change sets: players' additions and corrections of a game's cards, and their review."""

    queryset = ChangeSet.objects.none()  # for the schema; the selectors decide what is read
    serializer_class = ChangeSetSerializer
    permission_classes = (SignedInExceptReading,)
    lookup_url_kwarg = "change_set_id"
    lookup_value_converter = "int"

    @property
    def throttle_scope(self) -> str | None:
        """Submitting counts against the user's limit of contributions a day."""
        return "contribution" if getattr(self, "action", None) == "create" else None

    def detail_response(self, pk: int, status_code: int = 200, **kwargs: Any) -> Response:
        change_set = _found(pk)
        context = {**self.get_serializer_context(), "existing": selectors.cards_in_database(change_set)}
        return Response(ChangeSetDetailSerializer(change_set, context=context).data, status_code, **kwargs)

    def list(self, request: Request) -> Response:
        page = self.paginate_queryset(selectors.change_sets_of(request.user))
        return self.get_paginated_response(self.get_serializer(page, many=True).data)

    def create(self, request: Request) -> Response:
        data = _valid(ChangeSetRequestSerializer, request.data)
        change_set = services.submit_change_set(
            author=request.user,
            game=game_from_slug(data["game"]),
            cards=data["cards"],
            partial=True,  # a record changes what it names (contributions.merging)
            source_kind=data["source_kind"],
            source_detail=data.get("source_detail", ""),
            comment=data.get("comment", ""),
            seen=data.get("seen"),
            source_photo=_source_photo(data.get("source_photo")),
            images=[
                services.ImageProposal(
                    key=item["card"], image=item["image"], side=item["side"], language=item["language"]
                )
                for item in data["images"]
            ],
            remove_images=data["remove_images"],
            tracks=data.get("tracks"),
        )
        location = reverse(
            "contributions_api:change-set-detail", kwargs={"change_set_id": change_set.pk}, request=request
        )
        return self.detail_response(change_set.pk, status.HTTP_201_CREATED, headers={"Location": location})

    def retrieve(self, request: Request, change_set_id: int) -> Response:
        return self.detail_response(change_set_id)

    def _review(self, change_set_id: int, body: type, decide: Callable[..., ChangeSet]) -> Response:
        _found(change_set_id)  # 404 before anything else: whether the user may review it is the service's
        data = _valid(body, self.request.data)
        decide(editor=self.request.user, change_set_id=change_set_id, reason=data.get("reason", ""))
        return self.detail_response(change_set_id)

    @extend_schema(
        summary="Accept a change set (editors)",
        description="Applies a waiting change set as one revision of its cards and tells its author. Refused (409) "
        "when one of its cards changed after the change set was made.",
        request=AcceptSerializer,
        responses=REVIEWED,
    )
    @action(detail=True, methods=["post"])
    def accept(self, request: Request, change_set_id: int) -> Response:
        return self._review(change_set_id, AcceptSerializer, services.accept_change_set)

    @extend_schema(
        summary="Reject a change set (editors)",
        description="Turns a waiting change set down with the reason its author reads (required).",
        request=RejectSerializer,
        responses=REVIEWED,
    )
    @action(detail=True, methods=["post"])
    def reject(self, request: Request, change_set_id: int) -> Response:
        return self._review(change_set_id, RejectSerializer, services.reject_change_set)


@extend_schema_view(
    get=extend_schema(
        summary="The review queue (editors)",
        description="Change sets waiting for review in the games the user reviews (or in `game`), oldest first.",
        parameters=[ReviewQueueParametersSerializer],
        responses={
            200: ChangeSetSerializer(many=True),
            403: NOT_A_REVIEWER,
        },
    )
)
class ReviewQueueView(generics.ListAPIView):
    serializer_class = ChangeSetSerializer
    permission_classes = (IsAuthenticated,)

    def get_queryset(self) -> QuerySet[ChangeSet]:
        return selectors.review_queue(self.request.user, _reviewed_game(self.request))


@extend_schema_view(
    get=extend_schema(
        summary="Seed conflicts waiting for an editor",
        description="A seed file changed a card that someone had changed since it was loaded: the card was kept as "
        "it is. Each conflict gives the card now and what the seed says, in the games the user reviews (or in "
        "`game`), oldest first. Settle one with POST /api/contributions/seed-conflicts/{id}/resolve/.",
        parameters=[ReviewQueueParametersSerializer],
        responses={
            200: SeedConflictSerializer(many=True),
            403: NOT_A_REVIEWER,
        },
    )
)
class SeedConflictQueueView(generics.ListAPIView):
    serializer_class = SeedConflictSerializer
    permission_classes = (IsAuthenticated,)

    def get_queryset(self) -> QuerySet[Any]:
        return selectors.seed_conflicts(self.request.user, _reviewed_game(self.request))


class SeedConflictResolveView(generics.GenericAPIView):
    serializer_class = SeedConflictResolveSerializer
    permission_classes = (IsAuthenticated,)

    @extend_schema(
        summary="Settle a seed conflict (editors)",
        description="Keep the card as it is, or take the seed's values. Either way the seed counts as loaded: the "
        "next start of the site does not raise the conflict again.",
        request=SeedConflictResolveSerializer,
        responses={
            204: None,
            403: NOT_AN_EDITOR,
            409: OpenApiResponse(
                CardChangedSinceSerializer,
                description="`card_changed_since` / `seed_changed_since`: the card or the seed changed after it was "
                "read; `already_settled`.",
            ),
        },
    )
    def post(self, request: Request, conflict_id: int) -> Response:
        data = _valid(SeedConflictResolveSerializer, request.data)
        editor_actions.seed_conflict_resolve(
            editor=request.user,
            conflict_id=conflict_id,
            take=data["take"],
            seen=data["seen"],
            seed_seen=data["seed_seen"],
        )
        return Response(status=status.HTTP_204_NO_CONTENT)


@extend_schema_view(
    post=extend_schema(
        summary="Upload a picture of a card",
        description="A photo or scan (JPEG, PNG or WebP), checked and re-encoded as WebP without its metadata (EXIF, "
        "GPS, camera), with a thumbnail. The answer's `id` goes into a change set: `source_photo` (the values come "
        "from it) or `images` (show it on a card). Until it is published that way, only its uploader may attach it "
        "(another user's id answers 400 `no_such_upload`, as a missing one does), and its `url` is random, not "
        "found from its id or its picture. The same picture uploaded again by the same user answers 200 with the "
        "upload kept (201 when it is stored now). Refused: not an image of these formats or damaged "
        "(400 `image_not_an_image`, `image_unreadable`); "
        "larger than the bytes or pixels allowed, a decompression bomb among them (413 `image_too_large`, "
        "`image_too_many_pixels`); more uploads in 24 hours than allowed (429 `image_uploads_per_day`).",
        request={"multipart/form-data": ImageUploadSerializer},
        responses={
            201: StoredImageSerializer,
            200: OpenApiResponse(StoredImageSerializer, description="This user had uploaded the same picture."),
            413: OpenApiResponse(ErrorSerializer, description="The file is larger than the limit it names."),
        },
    )
)
class ImageUploadView(generics.GenericAPIView):
    serializer_class = StoredImageSerializer
    permission_classes = (IsAuthenticated,)
    parser_classes = (MultiPartParser,)

    def post(self, request: Request) -> Response:
        if body_too_large(request._request):
            raise too_large_upload()  # before the body is read
        refuse_unknown_keys(request.data, ImageUploadSerializer().fields)
        upload = request.data.get("file") if hasattr(request.data, "get") else None
        if not isinstance(upload, UploadedFile):
            raise services.ContributionError(
                _("Send the picture as the form field “file”."), code="no_file", errors={"file": [_("Required.")]}
            )
        stored, created = image_store_or_found(uploader=request.user, stream=upload)
        # The same picture sent again is the one kept already: 200 with it, as an upsert answers.
        return Response(self.get_serializer(stored).data, status.HTTP_201_CREATED if created else status.HTTP_200_OK)


# --- an editor's work beyond change sets: a card's history and its revert, deleted cards, blocking --------

KEY = OpenApiParameter(
    "key",
    OpenApiTypes.STR,
    OpenApiParameter.PATH,
    description="The card's key: its printed number (EB1-010) or original name (城塞騎士).",
)
NO_SUCH_CARD = OpenApiResponse(ErrorSerializer, description="No such game or card.")
ONLY_EDITORS = OpenApiResponse(
    ErrorSerializer,
    description="Only an editor of the game does this (`not_allowed`); or signed in by session without the CSRF token.",
)


def _card_found(slug: str, key: str) -> tuple[Game, Card]:
    game = game_or_404(slug)
    try:
        return game, card_selectors.card_detail(game, key)
    except Card.DoesNotExist:
        raise NotFound(str(no_such_card(game, key))) from None


def _card_answer(request: Request, game: Game, key: str, status_code: int = 200, **kwargs: Any) -> Response:
    """The card as GET /api/cards/{game}/{key}/ gives it, after an editor's change."""
    _game, card = _card_found(game.slug, key)
    return Response(CardDetailSerializer(card, context={"request": request}).data, status_code, **kwargs)


@extend_schema_view(
    get=extend_schema(
        summary="A card's history",
        description="Every revision of the card, newest first: when, by whom, from which source, and each value it "
        "changed. Anyone may read it, as the card's history page. An editor of the game undoes a revision with "
        "POST /api/contributions/cards/{game}/{key}/revert/, "
        "sending its `id` as `revision` and `state_digest` as `seen`.",
        parameters=[GAME, KEY],
        responses={200: CardHistorySerializer, 404: NO_SUCH_CARD},
    )
)
class CardHistoryView(generics.GenericAPIView):
    serializer_class = CardHistorySerializer
    permission_classes = (AllowAny,)

    def get(self, request: Request, game: str, key: str) -> Response:
        game_row, card = _card_found(game, key)
        history = {"card": card, "state_digest": state_digest(card_state(card)), "revisions": card_revisions(card)}
        context = {**self.get_serializer_context(), "definition": game_row.definition, "language": get_language()}
        return Response(CardHistorySerializer(history, context=context).data)


@extend_schema_view(
    post=extend_schema(
        summary="Revert a revision of a card (editors)",
        description="Undoes what one revision changed, as a new revision by the editor (source `revert`); the "
        "reverted revision stays in the history. Refused (409) when the card changed after it was read "
        "(`card_changed_since`, with the card as it is now), when a later revision changed one of its values again "
        "(`changed_by_later_revision`: revert that one first), for the revision that made the card "
        "(`first_revision`), or when it changed nothing that could be undone (`no_change`).",
        parameters=[GAME, KEY],
        request=RevertSerializer,
        responses={
            200: CardDetailSerializer,
            403: ONLY_EDITORS,
            404: OpenApiResponse(
                ErrorSerializer,
                description="No such game, card (`no_such_card`) or revision of it (`no_such_revision`).",
            ),
            409: STALE_CARD,
        },
    )
)
class CardRevertView(generics.GenericAPIView):
    serializer_class = RevertSerializer
    permission_classes = (IsAuthenticated,)

    def post(self, request: Request, game: str, key: str) -> Response:
        game_row = game_or_404(game)
        data = _valid(RevertSerializer, request.data)
        editor_actions.card_revert(
            editor=request.user, game=game_row, key=key, revision_id=data["revision"], seen=data["seen"]
        )
        return _card_answer(request, game_row, key)


@extend_schema_view(
    get=extend_schema(
        summary="A game's deleted cards",
        description="Cards deleted (in the admin) whose key no card holds now, the most recently revised first (at "
        "most 200). Anyone may read them, as the site's page; an editor brings one back with POST "
        "/api/contributions/games/{game}/deleted-cards/{version_id}/restore/.",
        parameters=[GAME],
        responses={
            200: DeletedCardSerializer(many=True),
            404: OpenApiResponse(ErrorSerializer, description="No such game."),
        },
    )
)
class DeletedCardsView(generics.ListAPIView):
    serializer_class = DeletedCardSerializer
    permission_classes = (AllowAny,)
    pagination_class = None  # at most MAX_DELETED_CARDS

    def get_queryset(self) -> Any:
        return card_selectors.deleted_cards(game_or_404(self.kwargs["game"]))


class CardRestoreView(APIView):  # no body to describe (OPTIONS); the answer is the card
    permission_classes = (IsAuthenticated,)

    @extend_schema(
        summary="Restore a deleted card (editors)",
        description="Brings the card back as its last revision kept it, as a new revision by the editor (source "
        "`restore`): it gets its old history back and is found in GET /api/cards/ again. Refused (409 "
        "`not_deleted`) when there is no such deleted card of the game (restored already, or its key taken by a "
        "new card); 400 `invalid_cards` when its values no longer fit the game's declarations.",
        parameters=[GAME],
        request=None,
        responses={
            201: CardDetailSerializer,
            400: OpenApiResponse(
                ErrorSerializer, description="`invalid_cards`: the card's values break the game's declarations now."
            ),
            403: ONLY_EDITORS,
            404: OpenApiResponse(ErrorSerializer, description="No such game."),
            409: OpenApiResponse(ErrorSerializer, description="`not_deleted`: no such deleted card (any more)."),
        },
    )
    def post(self, request: Request, game: str, version_id: int) -> Response:
        game_row = game_or_404(game)
        card = editor_actions.card_restore(editor=request.user, game=game_row, version_id=version_id)
        location = reverse("api:card-detail", kwargs={"game": game_row.slug, "key": card.key}, request=request)
        return _card_answer(request, game_row, card.key, status.HTTP_201_CREATED, headers={"Location": location})


def _user_found(user_id: int) -> None:
    if not get_user_model().objects.filter(pk=user_id).exists():
        raise NotFound(str(Message(_("There is no user #%(id)s."), {"id": user_id})))


CANNOT_BLOCK = OpenApiResponse(
    ErrorSerializer,
    description="`not_allowed`: only an editor of the game blocks or unblocks, and neither themselves nor another "
    "editor of the game; or signed in by session without the CSRF token.",
)


class UserBlockView(generics.GenericAPIView):
    serializer_class = BlockSerializer
    permission_classes = (IsAuthenticated,)

    @extend_schema(
        summary="Block a user's contributions to a game (editors)",
        description="From now on their change sets to this game are refused (403) until an editor unblocks them; "
        "a trusted contributor loses that role: 201, the block's address (this one) in Location. Blocking a "
        "blocked user again replaces the note: 200.",
        parameters=[GAME],
        request=BlockSerializer,
        responses={
            201: BlockedUserSerializer,
            200: BlockedUserSerializer,
            403: CANNOT_BLOCK,
            404: OpenApiResponse(ErrorSerializer, description="No such game or user."),
        },
    )
    def post(self, request: Request, game: str, user_id: int) -> Response:
        game_row = game_or_404(game)
        _user_found(user_id)
        data = _valid(BlockSerializer, request.data)
        role, new = editor_actions.user_block(
            editor=request.user, game=game_row, user_id=user_id, note=data.get("note", "")
        )
        if not new:  # blocked already: the note replaced
            return Response(BlockedUserSerializer(role).data)
        return Response(
            BlockedUserSerializer(role).data,
            status.HTTP_201_CREATED,
            headers={"Location": request.build_absolute_uri()},
        )

    @extend_schema(
        summary="Unblock a user (editors)",
        description="They may contribute to the game again, as anyone (a trusted role is not given back). A user "
        "who is not blocked stays as they are.",
        parameters=[GAME],
        request=None,
        responses={
            204: None,
            403: CANNOT_BLOCK,
            404: OpenApiResponse(ErrorSerializer, description="No such game or user."),
        },
    )
    def delete(self, request: Request, game: str, user_id: int) -> Response:
        game_row = game_or_404(game)
        _user_found(user_id)
        editor_actions.user_unblock(editor=request.user, game=game_row, user_id=user_id)
        return Response(status=status.HTTP_204_NO_CONTENT)
