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

Two smaller things are kept the same way, for every reader: ``remembered`` (an answer that is a pure
function of the request and the data, such as the verdict on a deck sent in a body) and ``fragment`` (a
part of a page that is the same for every reader, keyed by what it is made of, such as a deck page's
zones and verdict, keyed by the deck's entries, mode and options and the cards' version).
"""

from __future__ import annotations

import hashlib
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.urls import Resolver404, resolve
from django.utils.cache import get_conditional_response
from django.utils.translation import get_language

PAGE_TTL = 600
VERSION_MEMO_SECONDS = 1.0
NAMESPACES = ("cards", "decks")
_KEPT_HEADERS_EXCLUDED = {"set-cookie", "date"}
# Cookies of a reader's choices that change the pages they read (the translation tracks they prefer, kept by
# ``cards.views.prefer_track``): part of the key, as the language is.
CHOICE_COOKIES = ("tracks",)

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


# --- answers computed from a request alone --------------------------------------------------------


def remembered(request: HttpRequest, namespaces: Iterable[str], compute: Callable[[], Any]) -> Any:
    """``compute()``, or what it gave for the same request (path, body, language) while the namespaces
    kept their versions: for answers that are a pure function of the request and the data, such as the
    verdict on a deck sent in the body. An exception in ``compute`` is raised, never remembered."""
    if not settings.PAGE_CACHE:
        return compute()
    body = request.body if request.method in ("POST", "PUT", "PATCH") else b""
    parts = [request.method or "", request.get_full_path(), get_language() or "", *map(str, versions(namespaces))]
    digest = hashlib.sha256("\x1f".join(parts).encode() + b"\x1f" + body).hexdigest()
    return _kept("pagecache:answer:" + digest, compute)


def fragment(parts: Iterable[Any], namespaces: Iterable[str], compute: Callable[[], Any]) -> Any:
    """``compute()``, or what it gave for the same ``parts`` (their ``repr``s) and language while the
    namespaces kept their versions: for a part of a page that is the same for every reader and is a pure
    function of ``parts`` and the data (a deck's zones and verdict: its entries, mode and options, and
    the cards). Kept for signed-in readers too, since nothing in it is personal."""
    if not settings.PAGE_CACHE:
        return compute()
    key_parts = [*map(repr, parts), get_language() or "", *map(str, versions(namespaces))]
    return _kept("pagecache:fragment:" + hashlib.sha256("\x1f".join(key_parts).encode()).hexdigest(), compute)


def _kept(key: str, compute: Callable[[], Any]) -> Any:
    """What is kept under ``key`` (this process's copy, else the shared cache's), else ``compute()`` kept."""
    found = _local_pages.get(key)
    if found is None:
        found = cache.get(key)
    if found is None:
        found = {"answer": compute()}
        cache.set(key, found, PAGE_TTL)
    _local_pages.put(key, found)
    return found["answer"]


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
        *(request.COOKIES.get(name, "") for name in CHOICE_COOKIES),
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


class _LocalPages:
    """The pages this process served last (least recently used dropped first), so that a popular page
    costs no trip to the shared cache. Keys hold the versions, so a write still shows at once."""

    def __init__(self, size: int = 256) -> None:
        self.size = size
        self.pages: OrderedDict[str, tuple[float, dict[str, Any]]] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: str) -> dict[str, Any] | None:
        with self.lock:
            found = self.pages.get(key)
            if found is None:
                return None
            if found[0] < time.monotonic():
                del self.pages[key]
                return None
            self.pages.move_to_end(key)
            return found[1]

    def put(self, key: str, stored: dict[str, Any]) -> None:
        with self.lock:
            self.pages[key] = (time.monotonic() + PAGE_TTL, stored)
            self.pages.move_to_end(key)
            while len(self.pages) > self.size:
                self.pages.popitem(last=False)


_local_pages = _LocalPages()


def _marked_namespaces(request: HttpRequest) -> tuple[str, ...] | None:
    try:
        match = resolve(request.path_info, getattr(request, "urlconf", None))
    except Resolver404:
        return None
    return getattr(match.func, "page_cache_namespaces", None)


class PageCacheMiddleware:
    """Answers marked views for anonymous readers from the cache, before the rest of the middleware runs
    (the kept answer already has what that middleware adds), and keeps what they render."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        key = None
        if settings.PAGE_CACHE and _cacheable_request(request):
            namespaces = _marked_namespaces(request)
            if namespaces is not None:
                key = _key(request, namespaces)
                stored = _local_pages.get(key)
                if stored is None:
                    stored = cache.get(key)
                    if stored is not None:
                        _local_pages.put(key, stored)
                if stored is not None:
                    return _rebuild(request, stored)
        response = self.get_response(request)
        if key is not None and _storable(response):
            headers = [(name, value) for name, value in response.items() if name.lower() not in _KEPT_HEADERS_EXCLUDED]
            stored = {"headers": headers, "body": response.content}
            cache.set(key, stored, PAGE_TTL)
            _local_pages.put(key, stored)
        return response
