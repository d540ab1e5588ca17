"""ETags for the API, computed from the state of the stored data rather than the response.

Every data endpoint answers a GET with an ETag digesting: the state of the card
tables (counts, newest id and newest ``Card.updated_at``; every card write through
``cards.services`` or the admin saves the ``Card`` row, so its texts are covered
too), the full content of the glossary and rules tables (small, and edited in
place, with no timestamp), the game declarations in ``cards.gamedefs``, and the
request: full path, response language and negotiated media type. A client sending
the ETag back in If-None-Match gets 304 without the search being run.

``API_REVISION`` must be raised when the shape of a response changes, so that
cached bodies of the old shape are not confirmed by a 304.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable
from functools import cache
from typing import Any

from django.conf import settings
from django.db.models import Count, Max
from django.http import HttpRequest
from django.middleware.http import ConditionalGetMiddleware
from django.utils.decorators import decorator_from_middleware
from django.utils.translation import get_language

from ..gamedefs import all_games
from ..models import Card, CardText, Game, RuleSection, RuleText, Term, TermText

API_REVISION = "3"  # 2: cards carry `invalid`; 3: a card's detail carries `state_digest`


@cache
def definitions_version() -> str:
    """A digest of the game declarations (code: fixed for the life of the process)."""
    return hashlib.sha256(repr(all_games()).encode()).hexdigest()


def _feed(digest: Any, rows: Iterable[Any]) -> None:
    for row in rows:
        digest.update(repr(row).encode())
        digest.update(b"\n")


def data_version() -> str:
    """A digest of the stored cards, glossaries and rules; changes whenever any of them does."""
    digest = hashlib.sha256()
    cards = Card.objects.aggregate(count=Count("pk"), last=Max("pk"), updated=Max("updated_at"))
    texts = CardText.objects.aggregate(count=Count("pk"), last=Max("pk"))
    _feed(digest, [sorted(cards.items()), sorted(texts.items())])
    _feed(digest, Game.objects.order_by("pk").values_list("pk", "slug", "sort_order").iterator())
    _feed(digest, Term.objects.order_by("pk").values_list("pk", "game_id", "key", "category", "sort_order").iterator())
    _feed(
        digest,
        TermText.objects.order_by("pk").values_list("pk", "term_id", "language", "name", "text", "source").iterator(),
    )
    _feed(digest, RuleSection.objects.order_by("pk").values_list("pk", "game_id", "key", "order").iterator())
    _feed(
        digest,
        RuleText.objects.order_by("pk")
        .values_list("pk", "section_id", "language", "title", "body", "source")
        .iterator(),
    )
    return digest.hexdigest()


def response_etag(request: HttpRequest, *args: Any, **kwargs: Any) -> str:
    """The ETag of a data response: data state, API revision and what the request asked for."""
    media_type = getattr(request, "accepted_media_type", "") or ""
    parts = (
        API_REVISION,
        definitions_version(),
        data_version(),
        request.get_full_path(),
        get_language() or "",
        media_type,
    )
    return hashlib.sha256("\x1f".join(parts).encode()).hexdigest()[:40]


def search_etag(request: HttpRequest, *args: Any, **kwargs: Any) -> str | None:
    """A search's ETag, as ``response_etag``; none for a request with credentials (a token or a session), whose
    answer may depend on who asks (``owned:`` reads their collection, which the data state does not digest)."""
    if "HTTP_AUTHORIZATION" in request.META or settings.SESSION_COOKIE_NAME in request.COOKIES:
        return None
    return response_etag(request, *args, **kwargs)


# For responses that do not depend on the data (the schema and its docs page): ETag from the body.
content_etag: Callable[[Callable[..., Any]], Callable[..., Any]] = decorator_from_middleware(ConditionalGetMiddleware)
