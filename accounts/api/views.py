"""Token API: obtain a token with a user name and password; list and revoke one's tokens.

``POST /api/token/`` is rate-limited per address and shares the log-in's lock on a user name that
failed too often (django-axes: 429 until it ends). Tokens expire (``REST_KNOX["TOKEN_TTL"]``) and
are revoked when the password changes.
"""

from __future__ import annotations

from django.contrib.auth import authenticate
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from .. import selectors, services
from .serializers import CredentialsSerializer, NewTokenSerializer, TokenSerializer


class TokenObtainView(APIView):
    authentication_classes = ()
    permission_classes = (AllowAny,)
    throttle_scope = "token"

    @extend_schema(
        summary="Obtain an API token",
        request=CredentialsSerializer,
        responses={
            200: NewTokenSerializer,
            400: OpenApiResponse(description="Wrong user name or password, or a missing field."),
            429: OpenApiResponse(description="Too many attempts, or too many failures for this user name."),
        },
        auth=[],
    )
    def post(self, request: Request) -> Response:
        credentials = CredentialsSerializer(data=request.data)
        credentials.is_valid(raise_exception=True)
        # The Django request, so that django-axes can mark it locked out for its middleware to answer.
        user = authenticate(request._request, **credentials.validated_data)
        if user is None:
            raise ValidationError({"non_field_errors": [_("Unable to log in with the user name and password given.")]})
        token, secret = services.token_create(user=user)
        return Response({"token": secret, "token_key": token.token_key, "expiry": token.expiry})


class TokenListView(APIView):
    permission_classes = (IsAuthenticated,)

    @extend_schema(summary="The user's API tokens", responses={200: TokenSerializer(many=True)})
    def get(self, request: Request) -> Response:
        tokens = selectors.tokens_of(request.user)
        return Response(TokenSerializer(tokens, many=True, context={"request": request}).data)


class TokenDetailView(APIView):
    permission_classes = (IsAuthenticated,)

    @extend_schema(summary="Revoke one of the user's API tokens", responses={204: None, 404: None})
    def delete(self, request: Request, token_key: str) -> Response:
        if not services.token_revoke(user=request.user, token_key=token_key):
            raise NotFound(_("There is no such token."))
        return Response(status=status.HTTP_204_NO_CONTENT)
