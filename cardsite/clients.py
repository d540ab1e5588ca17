"""Who is asking: the client's address, the same for every per-address limit and every log line.

The address is the connection's (``REMOTE_ADDR``), unless the connection comes from a trusted proxy
(``settings.TRUSTED_PROXIES``, read from ``FORWARDED_ALLOW_IPS``, the list gunicorn believes too). Then
``X-Forwarded-For`` is read from its right end, each trusted proxy naming the hop before it, and the
first address that is not a trusted proxy is the client. What a client writes into the header itself is
to the left of that and is never read: rotating it changes nothing.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from django.conf import settings

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Address = ipaddress.IPv4Address | ipaddress.IPv6Address


@lru_cache(maxsize=8)
def _networks(trusted: tuple[str, ...]) -> tuple[Network, ...]:
    return tuple(ipaddress.ip_network(item, strict=False) for item in trusted)


def _parse(value: str) -> Address | None:
    """An address as a proxy writes it: ``203.0.113.5``, ``2001:db8::1``, ``[2001:db8::1]:443``, ``1.2.3.4:80``."""
    value = value.strip().strip('"')
    if value.startswith("["):
        value = value[1:].partition("]")[0]
    elif value.count(":") == 1:
        value = value.partition(":")[0]
    try:
        address = ipaddress.ip_address(value)
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def client_address(request: Any) -> str:
    """The address of the client of ``request`` (a Django or DRF request, or a WSGI environ); "" if unknown."""
    meta: Mapping[str, Any] = getattr(request, "META", request)
    remote = str(meta.get("REMOTE_ADDR") or "")
    trusted = _networks(tuple(getattr(settings, "TRUSTED_PROXIES", ())))
    current = _parse(remote)
    if current is None or not trusted:
        return remote
    hops = [hop for hop in str(meta.get("HTTP_X_FORWARDED_FOR") or "").split(",") if hop.strip()]
    while any(current in network for network in trusted) and hops:
        previous = _parse(hops.pop())
        if previous is None:
            break  # what a trusted proxy did not write: the last proxy is as far as can be known
        current = previous
    return str(current)
