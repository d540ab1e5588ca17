"""Token API: obtain a token with a user name and password; list and revoke one's tokens.

``POST /api/accounts/token/`` is rate-limited per address and shares the log-in's lock on a user name that
failed too often (django-axes: 429 until it ends). Tokens expire (``REST_KNOX["TOKEN_TTL"]``) and
are revoked when the password changes.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import authenticate
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.exceptions import NotFound
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.reverse import reverse
from rest_framework.views import APIView

from cardsite.api_errors import ErrorSerializer
from cardsite.errors import AppError
from cardsite.parsers import BoundedJSONParser

from .. import selectors, services
from .serializers import CredentialsSerializer, NewTokenSerializer, TokenSerializer


class TokenObtainView(APIView):
    authentication_classes = ()
    permission_classes = (AllowAny,)
    # JSON, or a form as token endpoints usually take (the rest of the API reads JSON only).
    parser_classes = (BoundedJSONParser, FormParser, MultiPartParser)
    throttle_scope = "token"

    @extend_schema(
        summary="Obtain an API token",
        description="A wrong user name or password is a 400 with the code `invalid_credentials`; after "
        f"{settings.AXES_FAILURE_LIMIT} failures for one user name from one address, that pair is refused (429) "
        "for a while, even with the right password.",
        request=CredentialsSerializer,
        responses={
            201: OpenApiResponse(NewTokenSerializer, description="A new token; Location: its address (to revoke it)."),
            400: OpenApiResponse(ErrorSerializer, description="Wrong user name or password, or a missing field."),
            403: OpenApiResponse(
                ErrorSerializer,
                description=f"The user already has {settings.REST_KNOX['TOKEN_LIMIT_PER_USER']} tokens, the most "
                "allowed (`token_limit`); nothing was made. Revoke one first.",
            ),
            429: OpenApiResponse(
                ErrorSerializer, description="Too many attempts, or too many failures for this user name."
            ),
        },
    )
    def post(self, request: Request) -> Response:
        credentials = CredentialsSerializer(data=request.data)
        credentials.is_valid(raise_exception=True)
        # The Django request, so that django-axes can mark it locked out for its middleware to answer.
        user = authenticate(request._request, **credentials.validated_data)
        if user is None:
            raise AppError(_("Unable to log in with the user name and password given."), code="invalid_credentials")
        token, secret = services.token_create(user=user)
        location = reverse("api-token-detail", kwargs={"token_key": token.token_key}, request=request)
        body = {"token": secret, "token_key": token.token_key, "expiry": token.expiry}
        return Response(body, status.HTTP_201_CREATED, headers={"Location": location})


class TokenListView(APIView):
    permission_classes = (IsAuthenticated,)

    @extend_schema(summary="The user's API tokens", responses={200: TokenSerializer(many=True)})
    def get(self, request: Request) -> Response:
        tokens = selectors.tokens_of(request.user)
        return Response(TokenSerializer(tokens, many=True, context={"request": request}).data)


class TokenDetailView(APIView):
    permission_classes = (IsAuthenticated,)

    @extend_schema(
        summary="Revoke one of the user's API tokens",
        responses={204: None, 404: OpenApiResponse(ErrorSerializer, description="The user has no such token.")},
    )
    def delete(self, request: Request, token_key: str) -> Response:
        if not services.token_revoke(user=request.user, token_key=token_key):
            raise NotFound(_("There is no such token."))
        return Response(status=status.HTTP_204_NO_CONTENT)
