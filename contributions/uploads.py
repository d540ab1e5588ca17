"""Pages that take a picture: a body larger than a picture may be is refused before it is read."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse

from cards.images.services import too_large_upload
from cardsite import errorpages


def body_too_large(request: HttpRequest) -> bool:
    """Whether the request says it is larger than one picture and a form's fields may be together."""
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return False
    return length > settings.IMAGE_MAX_BYTES + settings.DATA_UPLOAD_MAX_MEMORY_SIZE


def refuse_oversized_uploads(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """413, naming the limit, for a POST too large to hold one picture: Django would otherwise read it all to disk."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if request.method == "POST" and body_too_large(request):
            error = too_large_upload()
            return errorpages.refused(request, error.status, error.message, error.code)
        return view(request, *args, **kwargs)

    return wrapper
