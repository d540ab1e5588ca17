"""A renderer that lets an API view answer a file (a PNG, a PDF) to a client that asks for that type.

The view returns the file itself (a Django ``HttpResponse``); DRF only needs a renderer of the type so that
``Accept: image/png`` is not refused as not acceptable. What this renderer is asked to render is an error (a
dict): it is answered as JSON, with a JSON content type, as every other API error is.
"""

from __future__ import annotations

import json
from typing import Any

from rest_framework.renderers import BaseRenderer


class FileRenderer(BaseRenderer):
    format = "file"
    charset = None

    @classmethod
    def for_type(cls, media_type: str) -> type[FileRenderer]:
        return type(f"FileRenderer[{media_type}]", (cls,), {"media_type": media_type})

    def render(self, data: Any, accepted_media_type: str | None = None, renderer_context: Any = None) -> bytes:
        response = (renderer_context or {}).get("response")
        if response is not None:
            response["Content-Type"] = "application/json"
        return json.dumps(data, ensure_ascii=False).encode()
