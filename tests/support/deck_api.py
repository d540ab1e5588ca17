"""The decks API: a client of it, its addresses, and a synthetic Shadow Era deck."""

from __future__ import annotations

import json

from django.test import Client

from accounts import services as account_services
from decks import services
from decks.models import Deck, DeckEntry
from tests.synthetic_decks import card, game


class Api:
    """A client speaking JSON, authenticated by session, by token, or not at all."""

    def __init__(self, user=None, auth: str = "session", **client_options) -> None:
        self.client = Client(**client_options)
        self.headers: dict[str, str] = {}
        if user is not None and auth == "session":
            self.client.force_login(user)
        elif user is not None and auth == "token":
            self.headers["HTTP_AUTHORIZATION"] = f"Token {account_services.token_create(user=user)[1]}"

    def call(self, method: str, url: str, body=None, **extra):
        kwargs = {**self.headers, **extra}
        if body is not None:
            kwargs.update(data=json.dumps(body), content_type="application/json")
        return getattr(self.client, method)(url, **kwargs)

    def get(self, url, params=None, **extra):
        return self.client.get(url, params or {}, **{**self.headers, **extra})

    def post(self, url, body=None, **extra):
        return self.call("post", url, body, **extra)

    def patch(self, url, body, **extra):
        return self.call("patch", url, body, **extra)

    def put(self, url, body, **extra):
        return self.call("put", url, body, **extra)

    def delete(self, url, **extra):
        return self.call("delete", url, **extra)


def url(deck: Deck | int | None = None, suffix: str = "") -> str:
    if deck is None:
        return f"/api/decks/{suffix}"
    pk = deck.pk if isinstance(deck, Deck) else deck
    return f"/api/decks/{pk}/{suffix}"


def make_deck(owner, visibility=Deck.Visibility.PRIVATE, name="テストデッキ") -> Deck:
    return services.create_deck(
        owner=owner,
        game=game("shadowera"),
        name=name,
        visibility=visibility,
        entries=[("hero", card("shadowera", "Test Hero 01"), 1), ("deck", card("shadowera", "Test Ally 01"), 4)],
    )


def rows(deck: Deck) -> set[tuple[str, str, int]]:
    return {(e.zone, e.card.key, e.count) for e in DeckEntry.objects.filter(deck=deck).select_related("card")}
