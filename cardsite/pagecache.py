"""Whole answers for readers who are not signed in, kept in the shared cache until what they show changes.

Most requests to a card database are anonymous reads of the same pages (the games, the card lists,
a card, a search, a public deck). A view marked ``@cached_for_readers("cards")`` is answered from the
cache for a request without a session or credentials; the key holds the path and query, the
language, the htmx headers, the Accept header and the current *version* of each namespace the view
depends on. A write bumps its namespace's version (``bump``, after the transaction commits), so the
next request renders afresh: nothing stale is served past the write, and nothing has to be deleted.

What is never cached: signed-in readers (their pages show their name and carry a CSRF token),
requests with a flashed message, answers other than 200, answers that set a cookie or say
``Cache-Control: private/no-store``. A process trusts its copy of the versions for
``VERSION_MEMO_SECONDS``: a write made through another process shows within that second.
"""

from __future__ import annotations

import hashlib
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.utils.cache import get_conditional_response
from django.utils.translation import get_language

PAGE_TTL = 600
VERSION_MEMO_SECONDS = 1.0
NAMESPACES = ("cards", "decks")
_KEPT_HEADERS_EXCLUDED = {"set-cookie", "date"}

_memo: dict[str, tuple[float, int]] = {}
_memo_lock = threading.Lock()


# --- versions -----------------------------------------------------------------------------------


def _version_key(namespace: str) -> str:
    return f"pagecache:version:{namespace}"


def versions(namespaces: Iterable[str]) -> tuple[int, ...]:
    """The current version of each namespace (from this process's memo when it is fresh)."""
    now = time.monotonic()
    wanted = tuple(namespaces)
    with _memo_lock:
        fresh = {name: _memo[name][1] for name in wanted if name in _memo and _memo[name][0] > now}
    missing = [name for name in wanted if name not in fresh]
    if missing:
        stored = cache.get_many([_version_key(name) for name in missing])
        with _memo_lock:
            for name in missing:
                fresh[name] = stored.get(_version_key(name), 0)
                _memo[name] = (now + VERSION_MEMO_SECONDS, fresh[name])
    return tuple(fresh[name] for name in wanted)


def bump(*namespaces: str) -> None:
    """A write changed what pages of these namespaces show: give them new versions once it commits."""

    def apply() -> None:
        for name in namespaces:
            key = _version_key(name)
            if not cache.add(key, 1, timeout=None):
                try:
                    cache.incr(key)
                except ValueError:  # evicted between add and incr
                    cache.set(key, 1, timeout=None)
        with _memo_lock:
            for name in namespaces:
                _memo.pop(name, None)

    transaction.on_commit(apply)


# --- views --------------------------------------------------------------------------------------


def cached_for_readers(*namespaces: str) -> Callable:
    """Mark a view whose answer to an anonymous GET depends only on the request and these namespaces."""
    unknown = set(namespaces) - set(NAMESPACES)
    if unknown:
        raise ValueError(f"unknown page cache namespaces: {sorted(unknown)}")

    def mark(view: Callable) -> Callable:
        view.page_cache_namespaces = namespaces  # type: ignore[attr-defined]
        return view

    return mark


def _cacheable_request(request: HttpRequest) -> bool:
    return (
        request.method in ("GET", "HEAD")
        and settings.SESSION_COOKIE_NAME not in request.COOKIES
        and "messages" not in request.COOKIES
        and "HTTP_AUTHORIZATION" not in request.META
    )


def _key(request: HttpRequest, namespaces: tuple[str, ...]) -> str:
    meta = request.META
    parts = [
        request.get_full_path(),
        get_language() or "",
        meta.get("HTTP_HX_REQUEST", ""),
        meta.get("HTTP_HX_BOOSTED", ""),
        meta.get("HTTP_HX_HISTORY_RESTORE_REQUEST", ""),
        meta.get("HTTP_ACCEPT", ""),
        ",".join(map(str, versions(namespaces))),
    ]
    return "pagecache:page:" + hashlib.sha256("\x1f".join(parts).encode()).hexdigest()


def _storable(response: HttpResponse) -> bool:
    if response.status_code != 200 or response.streaming or response.cookies:
        return False
    control = response.get("Cache-Control", "")
    return "private" not in control and "no-store" not in control


def _rebuild(request: HttpRequest, stored: dict[str, Any]) -> HttpResponse:
    response = HttpResponse(stored["body"], status=200)
    for name, value in stored["headers"]:
        response[name] = value
    etag = response.get("ETag")
    if etag and request.META.get("HTTP_IF_NONE_MATCH"):
        conditional = get_conditional_response(request, etag=etag, response=response)
        if isinstance(conditional, HttpResponseNotModified):
            return conditional
    return response


class PageCacheMiddleware:
    """Answers marked views for anonymous readers from the cache, and keeps what they render."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        key = getattr(request, "_page_cache_key", None)
        if key is not None and not getattr(response, "_page_cache_hit", False) and _storable(response):
            headers = [(name, value) for name, value in response.items() if name.lower() not in _KEPT_HEADERS_EXCLUDED]
            cache.set(key, {"headers": headers, "body": response.content}, PAGE_TTL)
        return response

    def process_view(self, request: HttpRequest, view: Callable, args: Any, kwargs: Any) -> HttpResponse | None:
        namespaces = getattr(view, "page_cache_namespaces", None)
        if namespaces is None or not settings.PAGE_CACHE or not _cacheable_request(request):
            return None
        key = _key(request, namespaces)
        stored = cache.get(key)
        if stored is None:
            request._page_cache_key = key  # type: ignore[attr-defined]
            return None
        response = _rebuild(request, stored)
        response._page_cache_hit = True  # type: ignore[attr-defined]
        return response
