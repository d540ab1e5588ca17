"""Content negotiation for the API: DRF's, with the usual request answered without parsing.

Almost every API request says ``Accept: */*``, ``application/json`` or nothing; DRF would parse the
header into media types and match each against each renderer on every request. Those requests get the
first renderer (JSON) at once, as DRF's own matching would choose it; anything else (a browser's
``text/html``, ``?format=``, a format suffix, parameters) goes through DRF's negotiation unchanged.
"""

from __future__ import annotations

from collections.abc import Iterable

from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request

# What DRF would match to the first renderer (application/json) without a more specific type.
_PLAIN_ACCEPTS = frozenset({"", "*/*", "application/json"})


class SiteContentNegotiation(DefaultContentNegotiation):
    def select_renderer(
        self, request: Request, renderers: Iterable[BaseRenderer], format_suffix: str | None = None
    ) -> tuple[BaseRenderer, str]:
        renderers = list(renderers)
        first = renderers[0] if renderers else None
        if (
            first is not None
            and first.media_type == "application/json"
            and format_suffix is None
            and request.META.get("HTTP_ACCEPT", "").strip() in _PLAIN_ACCEPTS
            and self.settings.URL_FORMAT_OVERRIDE not in request._request.GET
        ):
            return first, first.media_type
        return super().select_renderer(request, renderers, format_suffix)
