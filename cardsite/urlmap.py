"""The URL map: every pattern of the root URLconf, with its name and the module whose view answers it.

``python manage.py urlmap`` prints it; ``tests/test_url_map.py`` holds it to the rule that a URL's first segment
names the app that answers it. The ground knows no app: it reads each app's declared prefixes from its
``AppConfig`` (``url_prefixes``; for the API, ``/api/<prefix>/``), through the app registry.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from django.apps import apps
from django.conf import settings
from django.urls import URLPattern, URLResolver, get_resolver

# First segments that belong to the ground (cardsite) whatever module answers them: the admin, the language
# switch, the health check, static and uploaded files, and the API's own description (schema/, docs/).
GROUND_SEGMENTS = frozenset({"admin", "i18n", "healthz", "static", "media", "schema", "docs"})
GROUND = "cardsite"


@dataclass(frozen=True)
class Route:
    """One URL pattern as a reader sees it: the route from the root, its full name, the module answering it."""

    route: str
    name: str
    module: str
    urlconf: str = ""  # the URLconf that declares the pattern

    @property
    def segments(self) -> list[str]:
        return [part for part in self.route.lstrip("^").split("/") if part]

    @property
    def first_segment(self) -> str:
        """The app's segment: ``api/<segment>/`` for the API, else the route's first segment."""
        parts = self.segments
        if parts[:1] == ["api"] and len(parts) > 1:
            return parts[1]
        return parts[0] if parts else ""

    @property
    def app(self) -> str:
        """The app whose module answers; for a view of a library (Django's log-in, the API schema), the app whose
        URLconf mounts it."""
        top = self.module.split(".")[0]
        if top in _project_apps():
            return top
        return self.urlconf.split(".")[0]

    @property
    def is_moved(self) -> bool:
        """An old address kept as a permanent redirect to where its page moved (``cardsite.moved``)."""
        return self.module == "cardsite.moved"


def _view_module(callback: object) -> str:
    view_class = getattr(callback, "view_class", None) or getattr(callback, "cls", None)
    if view_class is not None:
        return view_class.__module__
    return getattr(callback, "__module__", "") or ""


def _project_apps() -> set[str]:
    base = str(settings.BASE_DIR)
    return {config.label for config in apps.get_app_configs() if config.path.startswith(base)}


def _urlconf_name(resolver: URLResolver) -> str:
    urlconf = resolver.urlconf_name
    return urlconf if isinstance(urlconf, str) else getattr(urlconf, "__name__", "")


def _walk(patterns: Sequence[object], prefix: str, namespace: str, urlconf: str) -> Iterator[Route]:
    for entry in patterns:
        if isinstance(entry, URLResolver):
            inner = f"{namespace}{entry.namespace}:" if entry.namespace else namespace
            yield from _walk(entry.url_patterns, prefix + str(entry.pattern), inner, _urlconf_name(entry))
        elif isinstance(entry, URLPattern):
            name = f"{namespace}{entry.name}" if entry.name else ""
            moved_to = getattr(entry.callback, "moved_to", None)
            if moved_to and not name:
                name = f"-> {moved_to}"
            yield Route(prefix + str(entry.pattern), name, _view_module(entry.callback), urlconf)


def url_map(urlconf: str | None = None) -> list[Route]:
    """Every pattern of the URLconf (the root one by default), in the order they are tried."""
    resolver = get_resolver(urlconf)
    return list(_walk(resolver.url_patterns, "", "", _urlconf_name(resolver)))


def declared_prefixes() -> dict[str, str]:
    """First segment -> the app that declared it (``url_prefixes`` on its ``AppConfig``), plus the ground's."""
    owners = dict.fromkeys(GROUND_SEGMENTS, GROUND)
    for config in apps.get_app_configs():
        for prefix in getattr(config, "url_prefixes", ()):
            owners[prefix] = config.label
    return owners


def doubly_declared() -> list[str]:
    """Prefixes that two apps declare (each must belong to one)."""
    seen: dict[str, str] = {}
    twice = []
    for config in apps.get_app_configs():
        for prefix in getattr(config, "url_prefixes", ()):
            if prefix in seen and seen[prefix] != config.label:
                twice.append(f"{prefix}: {seen[prefix]}, {config.label}")
            seen[prefix] = config.label
    return twice


def misplaced(routes: Sequence[Route]) -> list[str]:
    """The routes that break the rule, each said as a line: its first segment is not its answering app's."""
    owners = declared_prefixes()
    problems = []
    for route in routes:
        segment = route.first_segment
        if route.is_moved or route.app == GROUND or owners.get(segment) == GROUND:
            continue  # an old address's redirect, the API's JSON 404, or a segment of the ground
        owner = owners.get(segment)
        if owner is None:
            problems.append(f"/{route.route} ({route.module}): no app declares the segment {segment!r}")
        elif owner != route.app:
            problems.append(f"/{route.route} ({route.module}): the segment {segment!r} belongs to {owner}")
    return problems
