"""The site's own endpoints: health."""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from . import health


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """200 while the site can serve pages (``ok`` or ``degraded``), 503 when its database cannot be read."""
    status, checks = health.report()
    return JsonResponse({"status": status, "checks": checks}, status=503 if status == "down" else 200)
