"""Reading settings from the environment: flags, numbers, lists and service URLs.

Plain Python (no Django), so that settings.py stays a list of decisions. Every reader raises
``ImproperlyConfigured``-style ``ValueError`` naming the variable when a value cannot be read,
rather than silently falling back to a default an operator did not choose.
"""

from __future__ import annotations

import hashlib
import ipaddress
import os
from collections.abc import Mapping
from email.utils import parseaddr
from typing import Any
from urllib.parse import urlsplit

TRUE = {"1", "true", "yes", "on"}
FALSE = {"0", "false", "no", "off", ""}


class EnvironmentError_(ValueError):
    """A variable of the environment has a value the site cannot use."""


def flag(name: str, default: bool = False, environ: Mapping[str, str] = os.environ) -> bool:
    raw = environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in TRUE:
        return True
    if value in FALSE:
        return False
    raise EnvironmentError_(f"{name} must be one of 1/0, true/false, yes/no, on/off (got {raw!r})")


def integer(name: str, default: int, environ: Mapping[str, str] = os.environ) -> int:
    raw = environ.get(name, "").strip()
    if not raw:
        return default
    try:
        return int(raw)
    except ValueError:
        raise EnvironmentError_(f"{name} must be a whole number (got {raw!r})") from None


def number(name: str, default: float, environ: Mapping[str, str] = os.environ) -> float:
    raw = environ.get(name, "").strip()
    if not raw:
        return default
    try:
        return float(raw)
    except ValueError:
        raise EnvironmentError_(f"{name} must be a number (got {raw!r})") from None


def csv_list(name: str, default: str = "", environ: Mapping[str, str] = os.environ) -> list[str]:
    return [part.strip() for part in environ.get(name, default).split(",") if part.strip()]


def rates(name: str, defaults: Mapping[str, str], environ: Mapping[str, str] = os.environ) -> dict[str, str | None]:
    """``RATE_LIMITS="search=600/min,login=20/min"`` over the defaults; ``off`` turns a limit off."""
    result: dict[str, str | None] = dict(defaults)
    for entry in csv_list(name, environ=environ):
        scope, separator, rate = entry.partition("=")
        scope, rate = scope.strip(), rate.strip()
        if not separator or scope not in defaults:
            raise EnvironmentError_(f"{name}: {entry!r} is not scope=rate with a scope among {', '.join(defaults)}")
        if rate.lower() == "off":
            result[scope] = None
        else:
            count, _slash, period = rate.partition("/")
            if not count.isdigit() or period[:1] not in {"s", "m", "h", "d"}:
                raise EnvironmentError_(f"{name}: {rate!r} is not a rate such as 10/min")
            result[scope] = rate
    return result


def admins(name: str, environ: Mapping[str, str] = os.environ) -> list[tuple[str, str]]:
    """``ADMINS="Ann <ann@example.org>, bob@example.org"`` as Django's list of (name, address)."""
    people = []
    for entry in csv_list(name, environ=environ):
        person, address = parseaddr(entry)
        if "@" not in address:
            raise EnvironmentError_(f"{name}: {entry!r} is not an e-mail address")
        people.append((person or address, address))
    return people


def cache_from_url(url: str) -> dict[str, Any]:
    """A Django CACHES entry from a URL.

    ``redis://host:port/db`` (or ``rediss://``): Django's Redis backend, shared by every process;
    ``file:///path``: files in a folder, shared by the processes of one machine;
    ``locmem://``: memory of one process (tests); ``dummy://``: no cache.
    """
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    if scheme in {"redis", "rediss", "unix"}:
        return {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": url}
    if scheme == "file":
        return {"BACKEND": "django.core.cache.backends.filebased.FileBasedCache", "LOCATION": parts.path}
    if scheme == "locmem":
        return {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": parts.netloc or "default"}
    if scheme == "dummy":
        return {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}
    raise EnvironmentError_(
        f"CACHE_URL: unknown scheme {scheme!r} in {url!r} (use redis://, rediss://, file://, locmem:// or dummy://)"
    )


def trusted_proxies(name: str = "FORWARDED_ALLOW_IPS", environ: Mapping[str, str] = os.environ) -> list[str]:
    """The addresses or networks of the proxies in front of the site (``10.0.0.5,10.1.0.0/16``); none by default.

    One list for gunicorn (``forwarded_allow_ips``: whose X-Forwarded-Proto it believes) and for the site
    (``cardsite.clients``: whose X-Forwarded-For it reads). ``*`` is refused: it would let any client say
    which address it has, and every per-address limit would be its to choose.
    """
    networks = []
    for part in csv_list(name, environ=environ):
        if part == "*":
            raise EnvironmentError_(f"{name}: '*' would believe any client's X-Forwarded-For; list the proxies")
        try:
            networks.append(str(ipaddress.ip_network(part, strict=False)))
        except ValueError:
            raise EnvironmentError_(f"{name}: {part!r} is not an IP address or network") from None
    return networks


def database_identity(database: Mapping[str, Any]) -> str:
    """A short name for a database, the same wherever it is reached from by the same address: its engine,
    host, port and name (an SQLite file's absolute path), hashed. Neither user nor password is part of it."""
    parts = [str(database.get(key) or "") for key in ("ENGINE", "HOST", "PORT", "NAME")]
    return "site-" + hashlib.sha256("|".join(parts).encode()).hexdigest()[:12]


def proxy_ssl_header(name: str, environ: Mapping[str, str] = os.environ) -> tuple[str, str] | None:
    """``SECURE_PROXY_SSL_HEADER=X-Forwarded-Proto:https`` (or ``1`` for exactly that) as Django's pair."""
    raw = environ.get(name, "").strip()
    if not raw or raw.lower() in FALSE:
        return None
    if raw.lower() in TRUE:
        raw = "X-Forwarded-Proto:https"
    header, separator, value = raw.partition(":")
    if not separator or not header.strip() or not value.strip():
        raise EnvironmentError_(f"{name} must look like 'X-Forwarded-Proto:https' (got {raw!r})")
    return "HTTP_" + header.strip().upper().replace("-", "_"), value.strip()


def storage(
    backend_name: str, options_name: str, default_backend: str, environ: Mapping[str, str] = os.environ
) -> dict[str, Any]:
    """A ``STORAGES`` entry: the backend's dotted path from ``backend_name``, its OPTIONS as a JSON object
    from ``options_name`` (``{"bucket_name": "cards", "endpoint_url": "https://…"}`` for S3)."""
    import json

    backend = environ.get(backend_name, "").strip() or default_backend
    if "." not in backend:
        raise EnvironmentError_(f"{backend_name} must be a dotted path to a storage class (got {backend!r})")
    raw = environ.get(options_name, "").strip()
    try:
        options = json.loads(raw) if raw else {}
    except json.JSONDecodeError as error:
        raise EnvironmentError_(f"{options_name} must be a JSON object ({error.msg})") from None
    if not isinstance(options, dict):
        raise EnvironmentError_(f"{options_name} must be a JSON object (got {raw!r})")
    return {"BACKEND": backend, "OPTIONS": options} if options else {"BACKEND": backend}
