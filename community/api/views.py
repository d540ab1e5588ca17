"""API of the public deck space: thin DRF views over ``community.selectors`` and ``community.services``, with the
pages' permissions: anyone reads what is not hidden (a hidden publication or comment: its author and staff); a
signed-in user publishes (own decks), likes, keeps favourites, copies, comments and reports (the notifications
these send are in the one inbox's API, ``notifications.api``); the moderation queue, log and actions are
staff's (403 for others).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.shortcuts import get_object_or_404
from django.utils.translation import get_language
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotAuthenticated
from rest_framework.permissions import SAFE_METHODS, BasePermission, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.reverse import reverse

from cards.api.games import game_from_slug
from cardsite.api_errors import ErrorSerializer
from cardsite.api_inputs import LanguageSerializer
from decks.selectors import access_deck

from .. import selectors, services
from ..models import Comment, Publication, Report
from .serializers import (
    CommentSerializer,
    CommentWriteSerializer,
    CopySerializer,
    MarkSerializer,
    ModerationActionSerializer,
    ModerationWriteSerializer,
    PublicationDetailSerializer,
    PublicationListParametersSerializer,
    PublicationSerializer,
    PublishSerializer,
    ReportSerializer,
    ReportWriteSerializer,
)

NOT_FOUND = OpenApiResponse(ErrorSerializer, description="No such publication (or comment), or a hidden one.")
FORBIDDEN = OpenApiResponse(
    ErrorSerializer,
    description="Not allowed: the deck is not yours, you are blocked from publishing and commenting, or signed in "
    "by session without the CSRF token.",
)
STAFF_ONLY = OpenApiResponse(ErrorSerializer, description="Staff only.")
EMPTY_DECK = OpenApiResponse(ErrorSerializer, description="The deck has no cards: add some first.")


def _valid(serializer_class: type, data: Any) -> dict[str, Any]:
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


class ReadOrSignedIn(BasePermission):
    def has_permission(self, request: Request, view: Any) -> bool:
        return request.method in SAFE_METHODS or bool(request.user and request.user.is_authenticated)


class LanguageMixin:
    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        super().initial(request, *args, **kwargs)  # type: ignore[misc]
        read = LanguageSerializer.read({"lang": request.query_params["lang"]} if "lang" in request.query_params else {})
        self.language = read.get("lang") or get_language() or "ja"


@extend_schema_view(
    list=extend_schema(
        summary="Published decks: sorted, filtered by cards included or excluded",
        parameters=[PublicationListParametersSerializer],
        responses={200: PublicationSerializer(many=True)},
    ),
    retrieve=extend_schema(
        summary="One published deck with its cards",
        parameters=[LanguageSerializer],
        responses={200: PublicationDetailSerializer, 404: NOT_FOUND},
    ),
    create=extend_schema(
        summary="Publish a deck of yours (a snapshot of its cards)",
        description="Publishing again makes a new snapshot; the earlier ones stop being current. The deck keeps "
        "its own visibility.",
        parameters=[LanguageSerializer],
        request=PublishSerializer,
        responses={
            201: PublicationDetailSerializer,
            403: FORBIDDEN,
            404: OpenApiResponse(ErrorSerializer, description="No such deck of yours."),
            409: EMPTY_DECK,
        },
    ),
)
class PublicationViewSet(LanguageMixin, viewsets.GenericViewSet):
    """Published decks (snapshots), their likes, favourites, copies, comments and reports."""

    queryset = Publication.objects.all()  # for the schema; the selectors decide what a user sees
    serializer_class = PublicationSerializer
    permission_classes = (ReadOrSignedIn,)
    lookup_value_converter = "int"

    @property
    def throttle_scope(self) -> str | None:
        return None if self.request.method in SAFE_METHODS else "deck_write"

    def _context(self, publications: list[Publication], **more: Any) -> dict[str, Any]:
        liked, kept = selectors.marks_of(self.request.user, publications)
        return {"request": self.request, "language": self.language, "liked": liked, "kept": kept, **more}

    def _publication(self) -> Publication:
        return selectors.access_publication(self.request.user, self.kwargs["pk"])

    def _detail(self, publication: Publication, status_code: int = 200, **kwargs: Any) -> Response:
        context = self._context([publication], snapshots=selectors.snapshots_of(self.request.user, publication))
        return Response(PublicationDetailSerializer(publication, context=context).data, status_code, **kwargs)

    def list(self, request: Request) -> Response:
        parameters = PublicationListParametersSerializer.read(request.query_params)
        game = game_from_slug(parameters["game"]) if "game" in parameters else None
        if parameters.get("favourites"):
            if not request.user.is_authenticated:
                raise NotAuthenticated()
            publications = selectors.favourites_of(request.user)
            if game is not None:
                publications = publications.filter(game=game)
        else:
            publications = selectors.public_list(
                request.user,
                game,
                sort=parameters.get("sort", selectors.Sort.NEWEST),
                include=parameters.get("include", ""),
                exclude=parameters.get("exclude", ""),
                language=self.language,
            )
        page = self.paginate_queryset(publications)
        return self.get_paginated_response(
            PublicationSerializer(page, many=True, context=self._context(page or [])).data
        )

    def retrieve(self, request: Request, pk: int) -> Response:
        return self._detail(self._publication())

    def create(self, request: Request) -> Response:
        data = _valid(PublishSerializer, request.data)
        deck = access_deck(request.user, data["deck"], write=True)
        publication = services.publish(
            deck,
            user=request.user,
            title=data.get("title", deck.name),
            description=data.get("description", deck.description),
        )
        location = reverse("community_api:publication-detail", kwargs={"pk": publication.pk}, request=request)
        return self._detail(publication, status.HTTP_201_CREATED, headers={"Location": location})

    @extend_schema(
        summary="Withdraw a published deck (its author)",
        description="Every snapshot of the deck is then seen by its author and staff only, and none is current; "
        "likes, favourites and comments are kept. Publishing the deck again makes a new snapshot for everyone. "
        "Idempotent.",
        request=None,
        responses={200: PublicationDetailSerializer, 403: FORBIDDEN, 404: NOT_FOUND},
    )
    @action(detail=True, methods=["post"])
    def withdraw(self, request: Request, pk: int) -> Response:
        publication = self._publication()
        services.withdraw(publication, user=request.user)
        publication.refresh_from_db()
        return self._detail(publication, status.HTTP_200_OK)

    # --- likes and favourites (PUT: set, DELETE: take back; both idempotent)

    def _mark(self, setter: Any, on: bool) -> Response:
        publication = self._publication()
        now = setter(publication, self.request.user, on)
        publication.refresh_from_db(fields=["like_count", "favourite_count"])
        return Response(
            {"on": now, "like_count": publication.like_count, "favourite_count": publication.favourite_count}
        )

    @extend_schema(summary="Like a published deck", request=None, responses={200: MarkSerializer, 404: NOT_FOUND})
    @action(detail=True, methods=["put"])
    def like(self, request: Request, pk: int) -> Response:
        return self._mark(services.set_like, True)

    @extend_schema(summary="Take back a like", request=None, responses={200: MarkSerializer, 404: NOT_FOUND})
    @like.mapping.delete
    def unlike(self, request: Request, pk: int) -> Response:
        return self._mark(services.set_like, False)

    @extend_schema(
        summary="Keep a published deck among your favourites",
        request=None,
        responses={200: MarkSerializer, 404: NOT_FOUND},
    )
    @action(detail=True, methods=["put"])
    def favourite(self, request: Request, pk: int) -> Response:
        return self._mark(services.set_favourite, True)

    @extend_schema(
        summary="Take a published deck out of your favourites",
        request=None,
        responses={200: MarkSerializer, 404: NOT_FOUND},
    )
    @favourite.mapping.delete
    def unfavourite(self, request: Request, pk: int) -> Response:
        return self._mark(services.set_favourite, False)

    @extend_schema(
        summary="Copy a published deck into your decks",
        description="A private deck with the snapshot's cards, recording the published deck as its source.",
        request=None,
        responses={201: CopySerializer, 404: NOT_FOUND},
    )
    @action(detail=True, methods=["post"])
    def copy(self, request: Request, pk: int) -> Response:
        deck = services.copy_publication(self._publication(), owner=request.user)
        url = reverse("decks_api:deck-detail", kwargs={"pk": deck.pk}, request=request)
        return Response({"id": deck.pk, "url": url}, status.HTTP_201_CREATED, headers={"Location": url})

    # --- comments

    @extend_schema(
        summary="The comments of a published deck, oldest first",
        description="Each names the comment it replies to (`parent`); hidden ones are listed to staff and their "
        "author only, and a reply to a comment hidden from the reader is hidden with it.",
        responses={200: CommentSerializer(many=True), 404: NOT_FOUND},
    )
    @action(detail=True, methods=["get"])
    def comments(self, request: Request, pk: int) -> Response:
        comments = selectors.visible_comments(request.user, self._publication())
        page = self.paginate_queryset(comments)
        return self.get_paginated_response(CommentSerializer(page, many=True).data)

    @extend_schema(
        summary="Comment on a published deck, or reply to a comment",
        description="The deck's author (and the author of the comment replied to) are notified. Location: the "
        "comments of the publication, where the new one is listed.",
        request=CommentWriteSerializer,
        responses={201: CommentSerializer, 403: FORBIDDEN, 404: NOT_FOUND},
    )
    @comments.mapping.post
    def add_comment(self, request: Request, pk: int) -> Response:
        publication = self._publication()
        data = _valid(CommentWriteSerializer, request.data)
        parent = selectors.access_comment(request.user, publication, data["parent"]) if data.get("parent") else None
        comment = services.add_comment(publication, author=request.user, body=data["body"], parent=parent)
        location = reverse("community_api:publication-comments", kwargs={"pk": publication.pk}, request=request)
        return Response(CommentSerializer(comment).data, status.HTTP_201_CREATED, headers={"Location": location})

    @extend_schema(
        summary="Report a published deck or one of its comments to the moderators",
        description="201: the report is made, and waits in the moderators' queue (which only staff read: so no "
        "Location).",
        parameters=[
            OpenApiParameter(
                "Location",
                str,
                location=OpenApiParameter.HEADER,
                response=[201],
                required=False,
                description="Not sent: a report is read by the moderators only.",
            )
        ],
        request=ReportWriteSerializer,
        responses={201: ReportSerializer, 404: NOT_FOUND},
    )
    @action(detail=True, methods=["post"])
    def reports(self, request: Request, pk: int) -> Response:
        publication = self._publication()
        data = _valid(ReportWriteSerializer, request.data)
        comment = selectors.access_comment(request.user, publication, data["comment"]) if data.get("comment") else None
        made = services.report(
            publication, reporter=request.user, reason=data["reason"], note=data.get("note", ""), comment=comment
        )
        return Response(ReportSerializer(made).data, status.HTTP_201_CREATED)


class ModerationViewSet(viewsets.GenericViewSet):
    """The moderators' queue (open reports), their log and their actions. Staff only."""

    queryset = Report.objects.none()  # for the schema
    serializer_class = ReportSerializer
    permission_classes = (IsAuthenticated,)

    @property
    def throttle_scope(self) -> str | None:
        return None if self.request.method in SAFE_METHODS else "deck_write"

    @extend_schema(summary="Open reports, oldest first", responses={200: ReportSerializer(many=True), 403: STAFF_ONLY})
    @action(detail=False, methods=["get"])
    def reports(self, request: Request) -> Response:
        page = self.paginate_queryset(selectors.open_reports(request.user))
        return self.get_paginated_response(ReportSerializer(page, many=True).data)

    @extend_schema(
        summary="The moderation log, newest first",
        responses={200: ModerationActionSerializer(many=True), 403: STAFF_ONLY},
    )
    @action(detail=False, methods=["get"])
    def actions(self, request: Request) -> Response:
        page = self.paginate_queryset(selectors.moderation_log(request.user))
        return self.get_paginated_response(ModerationActionSerializer(page, many=True).data)

    @extend_schema(
        summary="Hide or restore a publication or a comment, block or unblock a user, dismiss a report",
        description="Every action is logged with its reason. Acting on what a report names resolves it.",
        request=ModerationWriteSerializer,
        responses={
            201: ModerationActionSerializer,
            403: STAFF_ONLY,
            404: OpenApiResponse(
                ErrorSerializer, description="A publication, comment, user or report named does not exist."
            ),
        },
    )
    @actions.mapping.post
    def act(self, request: Request) -> Response:
        selectors.require_staff(request.user)
        data = _valid(ModerationWriteSerializer, request.data)

        def pick(model: Any, name: str, field: str = "pk") -> Any:
            value = data.get(name)
            return None if value in (None, "") else get_object_or_404(model, **{field: value})

        logged = services.moderate(
            moderator=request.user,
            action=data["action"],
            reason=data["reason"],
            publication=pick(Publication, "publication"),
            comment=pick(Comment, "comment"),
            user=pick(get_user_model(), "user", get_user_model().USERNAME_FIELD),
            report=pick(Report, "report"),
        )
        location = reverse("community_api:moderation-actions", request=request)
        return Response(
            ModerationActionSerializer(logged).data, status.HTTP_201_CREATED, headers={"Location": location}
        )
