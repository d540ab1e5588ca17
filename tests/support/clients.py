"""Test clients that act as a user: signed in with a session, or sending an API token."""

from __future__ import annotations

from django.test import Client


def signed_in(user=None, language: str | None = "en", *, cookie: bool = False) -> Client:
    """A client signed in as ``user`` (anonymous when None) that reads the site in ``language``.

    The language goes in the Accept-Language header, or in the language cookie (a choice made earlier on the
    site) when ``cookie``; with None the client states none and gets the site's default.
    """
    client = Client() if language is None or cookie else Client(HTTP_ACCEPT_LANGUAGE=language)
    if cookie and language is not None:
        client.cookies["django_language"] = language
    if user is not None:
        client.force_login(user)
    return client


def token_client(user=None, language: str = "en") -> Client:
    """A client that signs every request with a new API token of ``user`` (no session; anonymous when None)."""
    if user is None:
        return Client(HTTP_ACCEPT_LANGUAGE=language)
    from accounts import services as account_services

    token = account_services.token_create(user=user)[1]
    return Client(HTTP_AUTHORIZATION=f"Token {token}", HTTP_ACCEPT_LANGUAGE=language)


def api_client(user=None, language: str | None = "en"):
    """A REST framework client authenticated as ``user`` without a session or a token (anonymous when None)."""
    from rest_framework.test import APIClient

    client = APIClient() if language is None else APIClient(HTTP_ACCEPT_LANGUAGE=language)
    if user is not None:
        client.force_authenticate(user)
    return client
