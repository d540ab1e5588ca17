"""``/api/notifications/`` (the signed-in user's inbox, newest first) and ``/api/notifications/read/``."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import serializers, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.routers import SimpleRouter

from cardsite.api_inputs import JSONBodySerializer

from . import kinds, selectors, services
from .models import Notification

MAX_IDS = 500


class NotificationSerializer(serializers.ModelSerializer):
    actor = serializers.CharField(source="actor.get_username", allow_null=True, default=None)
    text = serializers.CharField(help_text="How it reads in the inbox, in the reader's language.")
    url = serializers.CharField(help_text="The page it leads to (empty when that is gone).")
    target = serializers.SerializerMethodField(help_text="What it is about: its type and id.")

    class Meta:
        model = Notification
        fields = ["id", "kind", "verb", "actor", "target", "text", "url", "created_at", "read_at"]

    def get_target(self, notification: Notification) -> dict[str, Any]:
        return {
            "type": f"{notification.target_type.app_label}.{notification.target_type.model}",
            "id": notification.target_id,
        }

    def to_representation(self, instance: Notification) -> dict[str, Any]:
        data = super().to_representation(instance)
        kind = kinds.get(instance.kind)
        if kind is not None and kind.api_fields is not None:
            data.update(kind.api_fields(instance))  # the fields an older shape of its kind had (e.g. publication)
        return data


class ReadSerializer(JSONBodySerializer):
    ids = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=2**63 - 1),
        required=False,
        max_length=MAX_IDS,
        help_text="The notifications to mark read; absent: every unread one.",
    )


@extend_schema_view(
    list=extend_schema(summary="Your notifications, newest first", responses={200: NotificationSerializer(many=True)})
)
class NotificationViewSet(viewsets.GenericViewSet):
    queryset = Notification.objects.none()  # for the schema
    serializer_class = NotificationSerializer
    permission_classes = (IsAuthenticated,)

    def list(self, request: Request) -> Response:
        page = self.paginate_queryset(selectors.notifications_of(request.user))
        return self.get_paginated_response(
            NotificationSerializer(selectors.described(list(page or [])), many=True).data
        )

    @extend_schema(
        summary="Mark notifications read",
        request=ReadSerializer,
        responses={
            200: OpenApiResponse(
                {"type": "object", "properties": {"marked": {"type": "integer"}}, "required": ["marked"]},
                description="How many were unread.",
            )
        },
    )
    @action(detail=False, methods=["post"])
    def read(self, request: Request) -> Response:
        serializer = ReadSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        return Response({"marked": services.mark_read(request.user, serializer.validated_data.get("ids"))})


app_name = "notifications_api"

router = SimpleRouter(use_regex_path=False)
router.register("notifications", NotificationViewSet, basename="notification")
urlpatterns = router.urls
