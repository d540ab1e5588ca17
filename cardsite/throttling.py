"""Rate limits, one mechanism for the API (DRF throttles) and the pages (``rate_limit``).

Each limit has a scope (``login``, ``search`` …) and a rate in ``settings.RATE_LIMITS``
("10/min"), read when a request is checked, so tests and operators can change them. Counts live in
the default cache: Redis or files shared by every process (``CACHE_URL``), so a limit holds however
many server processes there are. A request over its limit is answered 429 with ``Retry-After``, in
the reader's language (``cardsite.errorpages``), as Scryfall answers.

Who is counted: the signed-in user where there is one, otherwise the client's address
(``cardsite.clients.client_address``: the connection's, or the one trusted proxies name; never a header
the client writes).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from functools import wraps
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from rest_framework.throttling import SimpleRateThrottle

from .clients import client_address


class SiteThrottle(SimpleRateThrottle):
    """A DRF throttle for one scope, rate from ``settings.RATE_LIMITS``; usable on plain Django requests too."""

    scope_name: str = ""

    def __init__(self, scope: str | None = None) -> None:
        self.scope = scope or self.scope_name
        self.rate = self.get_rate()
        self.num_requests, self.duration = self.parse_rate(self.rate)

    def get_rate(self) -> str | None:
        return settings.RATE_LIMITS.get(self.scope) if self.scope else None

    def get_ident(self, request: Any) -> str:
        # DRF's get_ident takes the whole X-Forwarded-For a client sends unless NUM_PROXIES is set; the
        # site has one rule for every per-address limit instead.
        return client_address(request)

    def get_cache_key(self, request: Any, view: Any) -> str:
        user = getattr(request, "user", None)
        ident = f"user-{user.pk}" if user is not None and user.is_authenticated else self.get_ident(request)
        return f"throttle:{self.scope}:{ident}"


class ScopedThrottle(SiteThrottle):
    """For DRF views: the scope is the view's ``throttle_scope`` (None: no limit for this request)."""

    def __init__(self) -> None:
        self.scope = ""
        self.rate = None

    def allow_request(self, request: Any, view: Any) -> bool:
        scope = getattr(view, "throttle_scope", None)
        if not scope or not settings.RATE_LIMITS.get(scope):
            return True
        self.scope = scope
        self.rate = self.get_rate()
        self.num_requests, self.duration = self.parse_rate(self.rate)
        return super().allow_request(request, view)


def check(request: HttpRequest, scope: str) -> int | None:
    """None if the request is within ``scope``'s limit (and counts it); else the seconds to wait."""
    if not settings.RATE_LIMITS.get(scope):
        return None
    throttle = SiteThrottle(scope)
    # A page's request, not DRF's: the throttle reads only what both have (the user, the client's address).
    if throttle.allow_request(request, None):  # type: ignore[arg-type]
        return None
    return max(1, math.ceil(throttle.wait() or 1))


def rate_limit(scope: str, methods: Iterable[str] = ("POST",)) -> Callable:
    """Limit a page view's requests of ``methods`` to ``scope``'s rate (429 over it)."""
    limited = frozenset(method.upper() for method in methods)

    def decorator(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @wraps(view)
        def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if request.method in limited:
                wait = check(request, scope)
                if wait is not None:
                    from .errorpages import too_many_requests

                    return too_many_requests(request, wait)
            return view(request, *args, **kwargs)

        return wrapper

    return decorator
