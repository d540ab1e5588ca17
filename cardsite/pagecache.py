"""Whole answers for readers who are not signed in, kept in the shared cache until what they show changes.

Most requests to a card database are anonymous reads of the same pages (the games, the card lists,
a card, a search, a public deck). A view marked ``@cached_for_readers("cards")`` is answered from the
cache for a request without a session or credentials; the key holds the path and query, the
language, the htmx headers, the Accept header and the current *version* of each namespace the view
depends on. A write bumps its namespace's version (``bump``, after the transaction commits), so the
next request renders afresh: nothing stale is served past the write, and nothing has to be deleted. Every key
holds the release too (``cardsite.release``), so a deploy is a write of everything: no page rendered by other
code is given out. A kept page carries an ETag: a browser that sends it back (a repeat visit) is answered 304
without the page's bytes.

What this middleware never caches: signed-in readers (their pages show their name and carry a CSRF
token; a few of their pages are kept for each of them instead, ``kept_for_reader`` below), requests with a
flashed message, answers other than 200, answers that set a cookie or say ``Cache-Control: private/no-store``.
A process trusts its copy of the versions for ``VERSION_MEMO_SECONDS``: a write made through another process
shows within that second.

Two smaller things are kept the same way, for every reader: ``remembered`` (an answer that is a pure
function of the request and the data, such as the verdict on a deck sent in a body) and ``fragment`` (a
part of a page that is the same for every reader, keyed by what it is made of, such as a deck page's
zones and verdict, keyed by the deck's entries, mode and options and the cards' version).
"""

from __future__ import annotations

import copy
import functools
import hashlib
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable
from typing import Any

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.auth.middleware import AuthenticationMiddleware, get_user
from django.contrib.messages import get_messages
from django.core.cache import cache
from django.db import transaction
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.middleware.csrf import (  # type: ignore[attr-defined]  # Django's own, private
    CSRF_ALLOWED_CHARS,
    CSRF_SECRET_LENGTH,
    CSRF_TOKEN_LENGTH,
    _unmask_cipher_token,
    get_token,
)
from django.urls import Resolver404, resolve
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers
from django.utils.functional import SimpleLazyObject
from django.utils.translation import get_language

from . import release

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

    transaction.on_commit(lambda: _apply_bump(namespaces))


def _apply_bump(namespaces: Iterable[str]) -> None:
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
    return _kept(f"pagecache:{release.identity()}:answer:" + digest, compute)


def fragment(parts: Iterable[Any], namespaces: Iterable[str], compute: Callable[[], Any]) -> Any:
    """``compute()``, or what it gave for the same ``parts`` (their ``repr``s) and language while the
    namespaces kept their versions: for a part of a page that is the same for every reader and is a pure
    function of ``parts`` and the data (a deck's zones and verdict: its entries, mode and options, and
    the cards). Kept for signed-in readers too, since nothing in it is personal."""
    if not settings.PAGE_CACHE:
        return compute()
    key_parts = [*map(repr, parts), get_language() or "", *map(str, versions(namespaces))]
    digest = hashlib.sha256("\x1f".join(key_parts).encode()).hexdigest()
    return _kept(f"pagecache:{release.identity()}:fragment:" + digest, compute)


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


def _key(request: HttpRequest, namespaces: tuple[str, ...], kind: str = "page", reader: str = "") -> str:
    """The key of ``request``'s page (``reader``: the signed-in reader's id, for a page kept for them alone)."""
    meta = request.META
    parts = [
        *([reader] if reader else []),
        request.get_full_path(),
        get_language() or "",
        meta.get("HTTP_HX_REQUEST", ""),
        meta.get("HTTP_HX_BOOSTED", ""),
        meta.get("HTTP_HX_HISTORY_RESTORE_REQUEST", ""),
        meta.get("HTTP_ACCEPT", ""),
        *(request.COOKIES.get(name, "") for name in CHOICE_COOKIES),
        ",".join(map(str, versions(namespaces))),
    ]
    return f"pagecache:{release.identity()}:{kind}:" + hashlib.sha256("\x1f".join(parts).encode()).hexdigest()


def _lookup(key: str) -> dict[str, Any] | None:
    """A kept page: this process's copy, else the shared cache's (then copied here)."""
    stored = _local_pages.get(key)
    if stored is None:
        stored = cache.get(key)
        if stored is not None:
            _local_pages.put(key, stored)
    return stored


def _storable(response: HttpResponse) -> bool:
    if response.status_code != 200 or response.streaming or response.cookies:
        return False
    control = response.get("Cache-Control", "")
    return "private" not in control and "no-store" not in control


def _rebuild(request: HttpRequest, stored: dict[str, Any]) -> HttpResponse:
    response = HttpResponse(stored["body"], status=200)
    for name, value in stored["headers"]:
        response[name] = value
    return _not_modified(request, response)


def _not_modified(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    """304 when the request already holds this answer (If-None-Match with its ETag), else the answer."""
    etag = response.get("ETag")
    if etag and request.META.get("HTTP_IF_NONE_MATCH"):
        conditional = get_conditional_response(request, etag=etag, response=response)
        if isinstance(conditional, HttpResponseNotModified):
            return conditional
    return response


class _LocalPages:
    """The pages this process served last (least recently used dropped first), so that a popular page
    costs no trip to the shared cache. Keys hold the versions, so a write still shows at once."""

    def __init__(self, size: int = 256, seconds: float = PAGE_TTL) -> None:
        self.size = size
        self.seconds = seconds
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
            self.pages[key] = (time.monotonic() + self.seconds, stored)
            self.pages.move_to_end(key)
            while len(self.pages) > self.size:
                self.pages.popitem(last=False)


_local_pages = _LocalPages()


def forget() -> None:
    """Drop what this process keeps of the versions and pages (a test that empties the shared cache)."""
    with _memo_lock:
        _memo.clear()
    for kept in (_local_pages, _known_users):
        with kept.lock:
            kept.pages.clear()


def _marked_namespaces(request: HttpRequest) -> tuple[str, ...] | None:
    try:
        match = resolve(request.path_info, getattr(request, "urlconf", None))
    except Resolver404:
        return None
    return getattr(match.func, "page_cache_namespaces", None)


class PageCacheMiddleware:
    """Answers marked views for anonymous readers from the cache, before the rest of the middleware runs
    (the kept answer already has what that middleware adds), and keeps what they render; and a signed-in
    reader's kept page the same way (``kept_for_reader``)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        key = None
        if settings.PAGE_CACHE and _cacheable_request(request):
            namespaces = _marked_namespaces(request)
            if namespaces is not None:
                key = _key(request, namespaces)
                stored = _lookup(key)
                if stored is not None:
                    return _rebuild(request, stored)
        elif settings.PAGE_CACHE and _session_request(request):
            kept = _kept_for_session(request)
            if kept is not None:
                return kept
        response = self.get_response(request)
        if key is not None and _storable(response):
            # An ETag of the kept page: a browser that has it asks again with If-None-Match and is answered 304,
            # from what is kept, without the page's bytes (a phone's repeat visit).
            response["ETag"] = '"' + hashlib.sha256(key.encode() + b"\x1f" + response.content).hexdigest()[:32] + '"'
            headers = [(name, value) for name, value in response.items() if name.lower() not in _KEPT_HEADERS_EXCLUDED]
            stored = {"headers": headers, "body": response.content}
            cache.set(key, stored, PAGE_TTL)
            _local_pages.put(key, stored)
            return _not_modified(request, response)
        elif getattr(request, "_keep_for_reader", False):
            _keep_for_session(request, response)
        return response


# --- signed-in readers ----------------------------------------------------------------------------

# Every write to the database bumps this namespace (``note_write``, a wrapper on every connection), whatever made
# it: a view, the admin, a task, a bulk ``update()`` that sends no model signal. A page kept for one signed-in
# reader shows their own things (their unread notifications, their marks, their folders), which no single
# namespace covers; this one changes whenever any of them can have changed.
READER_NAMESPACES = ("cards", "decks", "writes")
# Writes that change no page: the sessions, the login lockout's records, the task queue's own rows.
_UNSEEN_TABLES = ("django_session", "axes_", "django_tasks")
_WRITE = re.compile(
    r'\s*(?:INSERT\s+(?:OR\s+\w+\s+)?INTO|UPDATE|DELETE\s+FROM|REPLACE\s+INTO)\s+[`"]?(\w+)', re.IGNORECASE
)
# Stands for the reader's CSRF token in a kept page; each answer puts in a token of its own request.
_CSRF_SLOT = "\x00csrf-token\x00"
_CANDIDATE_TOKEN = re.compile(rf"(?<![A-Za-z0-9])[A-Za-z0-9]{{{CSRF_TOKEN_LENGTH}}}(?![A-Za-z0-9])")
_CSRF_ALLOWED = frozenset(CSRF_ALLOWED_CHARS)
# Sessions read from the shared cache: a kept page is looked up with its reader's session in one round trip.
_CACHED_SESSIONS = ("django.contrib.sessions.backends.cached_db", "django.contrib.sessions.backends.cache")


def on_connection_created(sender: Any, connection: Any, **kwargs: Any) -> None:
    """Every connection notes its writes (``note_write``); ``cardsite.apps`` connects this."""
    if note_write not in connection.execute_wrappers:
        connection.execute_wrappers.append(note_write)


def note_write(execute: Callable, sql: str, params: Any, many: bool, context: dict[str, Any]) -> Any:
    """A connection's execute wrapper: a statement that writes a table a page shows bumps ``writes`` when its
    transaction commits (once, however many rows the transaction writes)."""
    result = execute(sql, params, many, context)
    written = _WRITE.match(sql)
    if written is not None and not written.group(1).lower().startswith(_UNSEEN_TABLES):
        connection = context["connection"]
        if not connection.in_atomic_block:
            _bump_writes()
        elif not any(entry[1] is _bump_writes for entry in connection.run_on_commit):
            connection.on_commit(_bump_writes)
    return result


def _bump_writes() -> None:
    _apply_bump(("writes",))


def kept_for_reader(when: Callable[[HttpRequest], bool] | None = None) -> Callable:
    """Keep a view's page for each signed-in reader's session: their next GET of the same address, in the same
    language, is answered from the cache (by ``PageCacheMiddleware``, before the view and the middleware after it)
    until anything in the database changes (``writes``) or the cards or decks change. The key holds the session's
    key, and the kept page holds the session's user and the ``writes`` version it was rendered at, checked
    against the session and the version read in the same cache round trip: no one else is ever given the page,
    a signed-out session or a changed password is never given it, and a write from any process shows at once. A
    reader who may not see the page is refused by the view as before, since a page is only kept when the view
    rendered it for that reader. Nothing is kept for a request with a flashed message waiting, or for an answer
    other than a plain 200 (a redirect, an error) or one that sets a cookie other than the CSRF one.
    ``when(request)``: keep only pages of requests it accepts. Each answer carries ``Cache-Control: private`` and
    a CSRF token of its own, and a repeated request that sends the ETag it was given is answered 304."""

    def decorate(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @functools.wraps(view)
        def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            keep = _keeps_for_reader(request, when)
            response = view(request, *args, **kwargs)
            request._keep_for_reader = keep  # type: ignore[attr-defined]  # PageCacheMiddleware keeps it
            if getattr(request, "user", None) is not None and request.user.is_authenticated:
                patch_cache_control(response, private=True)
                patch_vary_headers(response, ("Cookie",))
            return response

        return wrapped

    return decorate


def _keeps_for_reader(request: HttpRequest, when: Callable[[HttpRequest], bool] | None) -> bool:
    if getattr(request, "_reader_lookup", None) is None or not request.user.is_authenticated:
        return False  # not looked up by PageCacheMiddleware: no session in the cache, no "writes" version
    if len(get_messages(request)):  # a flashed message is shown once, by a rendering
        return False
    return when is None or when(request)


def _session_request(request: HttpRequest) -> bool:
    """A GET of a reader with a session kept in the shared cache, no flashed message and no other credentials."""
    return (
        request.method in ("GET", "HEAD")
        and settings.SESSION_COOKIE_NAME in request.COOKIES
        and settings.SESSION_ENGINE in _CACHED_SESSIONS
        and settings.SESSION_CACHE_ALIAS == "default"
        and not settings.CSRF_USE_SESSIONS
        and "messages" not in request.COOKIES
        and "HTTP_AUTHORIZATION" not in request.META
    )


def _session_auth(data: dict[str, Any]) -> tuple[str, ...]:
    return tuple(str(data.get(name, "")) for name in (SESSION_KEY, BACKEND_SESSION_KEY, HASH_SESSION_KEY))


def _kept_for_session(request: HttpRequest) -> HttpResponse | None:
    """The reader's kept page for this request, or None (their session then read, and the "writes" version, for
    the rest of the request). One round trip to the shared cache: the session, the version and the page (unless
    this process holds it already)."""
    session = request.session
    if session.session_key is None:  # a malformed cookie
        return None
    key = _key(request, NAMESPACES, "reader", reader=session.session_key)
    writes_key, session_key = _version_key("writes"), session.cache_key  # type: ignore[attr-defined]
    local = _local_pages.get(key)
    found = cache.get_many([session_key, writes_key] if local is not None else [session_key, writes_key, key])
    data, writes = found.get(session_key), found.get(writes_key)
    if data is None or writes is None:  # the session is read as Django reads it; nothing is kept without a version
        return None
    session._session_cache = data  # type: ignore[attr-defined]  # as its load() would have read it
    request._reader_lookup = {"key": key, "writes": writes}  # type: ignore[attr-defined]
    stored = local if local is not None else found.get(key)
    if stored is not None and stored["writes"] != writes and local is not None:
        stored = cache.get(key)  # another process may have kept the page again since the write
        if stored is not None:
            _local_pages.put(key, stored)
    elif stored is not None and local is None:
        _local_pages.put(key, stored)
    secret = request.COOKIES.get(settings.CSRF_COOKIE_NAME, "")
    if (
        stored is None
        or stored["writes"] != writes
        or stored["session"] != _session_auth(data)
        or "_messages" in data  # a flashed message kept in the session
        or len(secret) != CSRF_SECRET_LENGTH
        or not set(secret) <= _CSRF_ALLOWED
    ):
        return None
    return _reader_answer(request, stored, secret)


def _keep_for_session(request: HttpRequest, response: HttpResponse) -> None:
    """Keep the page a ``kept_for_reader`` view rendered for this session (PageCacheMiddleware, on its way out)."""
    lookup = request._reader_lookup  # type: ignore[attr-defined]
    data = request.session
    if (
        response.status_code != 200
        or response.streaming
        or set(response.cookies) - {settings.CSRF_COOKIE_NAME}
        or data.modified
        or "no-store" in response.get("Cache-Control", "")
        or str(request.user.pk) != str(data.get(SESSION_KEY))
    ):
        return
    stored = _reader_stored(request, lookup["key"], response)
    stored.update(writes=lookup["writes"], session=_session_auth(data))
    cache.set(lookup["key"], stored, PAGE_TTL)
    _local_pages.put(lookup["key"], stored)
    response["ETag"] = stored["etag"]


def _reader_stored(request: HttpRequest, key: str, response: HttpResponse) -> dict[str, Any]:
    """What is kept of a page: its headers, and its body with the reader's CSRF token taken out."""
    body = response.content.decode(response.charset)
    secret = request.META.get("CSRF_COOKIE")
    if secret:

        def slot(match: re.Match[str]) -> str:
            return _CSRF_SLOT if _unmask_cipher_token(match.group(0)) == secret else match.group(0)

        body = _CANDIDATE_TOKEN.sub(slot, body)
    excluded = {*_KEPT_HEADERS_EXCLUDED, "content-length", "etag"}
    headers = [(name, value) for name, value in response.items() if name.lower() not in excluded]
    etag = '"' + hashlib.sha256((key + "\x1f" + body).encode()).hexdigest()[:32] + '"'
    # Kept encoded, in the pieces between the token's places: an answer joins them with its own token.
    pieces = [piece.encode(response.charset) for piece in body.split(_CSRF_SLOT)]
    return {"headers": headers, "pieces": pieces, "charset": response.charset, "etag": etag}


def _reader_answer(request: HttpRequest, stored: dict[str, Any], secret: str) -> HttpResponse:
    """The kept page, with a token masked afresh from the reader's CSRF cookie (not set again: it is unchanged)."""
    if request.META.get("HTTP_IF_NONE_MATCH"):
        response = HttpResponse(status=200)
        conditional = get_conditional_response(request, etag=stored["etag"], response=response)
        if isinstance(conditional, HttpResponseNotModified):
            patch_cache_control(conditional, private=True)
            patch_vary_headers(conditional, ("Cookie",))
            return conditional
    pieces: list[bytes] = stored["pieces"]
    if len(pieces) > 1:
        request.META["CSRF_COOKIE"] = secret
        content = get_token(request).encode(stored["charset"]).join(pieces)
    else:
        content = pieces[0]
    response = HttpResponse(content, status=200)
    for name, value in stored["headers"]:
        response[name] = value
    response["ETag"] = stored["etag"]
    response["Content-Length"] = str(len(content))
    patch_cache_control(response, private=True)
    patch_vary_headers(response, ("Cookie",))
    return response


# --- the signed-in reader -------------------------------------------------------------------------

# Users this process verified against a session, for a minute or until anything is written, whichever is first.
_known_users = _LocalPages(size=1024, seconds=60)


class ReaderAuthenticationMiddleware(AuthenticationMiddleware):
    """Django's, except that a session's user is remembered by this process while nothing is written
    (``writes``, read from the shared cache each time, never from this process's memo; with the session, in
    PageCacheMiddleware's one round trip, when the session is kept in the cache): a page then needs no query to
    know its reader. A changed password, a deactivated account or a signed-out session is a write, and the next request
    verifies the session against the database as Django does."""

    def process_request(self, request: HttpRequest) -> None:
        super().process_request(request)
        request.user = SimpleLazyObject(lambda: _known_user(request))  # type: ignore[assignment]


def _known_user(request: HttpRequest) -> Any:
    if hasattr(request, "_cached_user"):
        return request._cached_user
    session = request.session
    parts = [session.get(name) for name in (SESSION_KEY, BACKEND_SESSION_KEY, HASH_SESSION_KEY)]
    version = None
    if settings.PAGE_CACHE and all(parts):  # the version PageCacheMiddleware read with the session, else read now
        lookup = getattr(request, "_reader_lookup", None)
        version = lookup["writes"] if lookup is not None else cache.get(_version_key("writes"))
    if version is None:  # no shared version to trust (nothing written yet, or the cache emptied)
        return get_user(request)
    key = "\x1f".join([session.session_key or "", *map(str, parts), str(version)])
    found = _known_users.get(key)
    if found is not None:
        request._cached_user = copy.copy(found["user"])  # type: ignore[attr-defined]
        return request._cached_user  # type: ignore[attr-defined]
    user = get_user(request)
    if user.is_authenticated and str(user.pk) == str(parts[0]):
        _known_users.put(key, {"user": copy.copy(user)})
    return user
