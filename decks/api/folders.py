"""The deck API's folders: the user's own folders of decks, under ``api/decks/folders/``."""

from __future__ import annotations

from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import status, viewsets
from rest_framework.exceptions import NotFound
from rest_framework.permissions import SAFE_METHODS, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.reverse import reverse

from cardsite.api_errors import ErrorSerializer

from ..models import DeckFolder
from ..organise import selectors as organise_selectors
from ..organise import services as organise_services
from .serializers import FolderSerializer, FolderWriteSerializer, validated_body

FOLDER_NOT_FOUND = OpenApiResponse(ErrorSerializer, description="No such folder of yours.")
FOLDER_EXISTS = OpenApiResponse(ErrorSerializer, description="You already have a folder of that name.")


@extend_schema_view(
    list=extend_schema(summary="Your deck folders", responses={200: FolderSerializer(many=True)}),
    create=extend_schema(
        summary="Make a deck folder",
        request=FolderWriteSerializer,
        responses={201: FolderSerializer, 409: FOLDER_EXISTS},
    ),
    retrieve=extend_schema(
        summary="One of your deck folders", responses={200: FolderSerializer, 404: FOLDER_NOT_FOUND}
    ),
    partial_update=extend_schema(
        summary="Rename a deck folder",
        request=FolderWriteSerializer,
        responses={200: FolderSerializer, 404: FOLDER_NOT_FOUND, 409: FOLDER_EXISTS},
    ),
    destroy=extend_schema(
        summary="Delete a deck folder (its decks are kept, out of any folder)",
        responses={204: None, 404: FOLDER_NOT_FOUND},
    ),
)
class DeckFolderViewSet(viewsets.GenericViewSet):
    """The user's own folders of decks (only the owner ever sees them)."""

    queryset = DeckFolder.objects.none()  # for the schema; get_queryset reads the user's own
    serializer_class = FolderSerializer
    permission_classes = (IsAuthenticated,)
    lookup_value_converter = "int"
    pagination_class = None
    http_method_names = ["get", "post", "patch", "delete", "head", "options"]

    @property
    def throttle_scope(self) -> str | None:
        return None if self.request.method in SAFE_METHODS else "deck_write"

    def get_queryset(self) -> QuerySet[DeckFolder]:
        return organise_selectors.folders_of(self.request.user)

    def get_folder(self) -> DeckFolder:
        folder = self.get_queryset().filter(pk=self.kwargs["pk"]).first()
        if folder is None:
            raise NotFound(_("No such folder of yours."))
        return folder

    def list(self, request: Request) -> Response:
        return Response(FolderSerializer(self.get_queryset(), many=True).data)

    def create(self, request: Request) -> Response:
        data = validated_body(FolderWriteSerializer, request.data)
        folder = organise_services.create_folder(request.user, data["name"])
        location = reverse("decks_api:folder-detail", kwargs={"pk": folder.pk}, request=request)
        data = FolderSerializer(self.get_queryset().get(pk=folder.pk)).data
        return Response(data, status.HTTP_201_CREATED, headers={"Location": location})

    def retrieve(self, request: Request, pk: str) -> Response:
        return Response(FolderSerializer(self.get_folder()).data)

    def partial_update(self, request: Request, pk: str) -> Response:
        folder = self.get_folder()
        data = validated_body(FolderWriteSerializer, request.data)
        organise_services.rename_folder(folder, data["name"])
        return Response(FolderSerializer(self.get_queryset().get(pk=folder.pk)).data)

    def destroy(self, request: Request, pk: str) -> Response:
        organise_services.delete_folder(self.get_folder())
        return Response(status=status.HTTP_204_NO_CONTENT)
