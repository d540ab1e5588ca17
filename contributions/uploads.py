"""Pages that take a picture: a body larger than a picture may be is refused before it is read.

A page's form is refused in the page: the form again, with the refusal beside its file field (templates read
``request.upload_refused``) and the limit in megabytes, status 413. The page's script (``static/js/site.js``)
refuses such a file as soon as it is chosen (``data-max-bytes`` on the file field), so that nothing typed in
the form is lost; an API or htmx request gets the site's error answer (``errorpages.refused``)."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils.functional import lazy

from cards.images.services import too_large_upload
from cardsite import errorpages


def body_too_large(request: HttpRequest) -> bool:
    """Whether the request says it is larger than one picture and a form's fields may be together."""
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return False
    return length > settings.IMAGE_MAX_BYTES + settings.DATA_UPLOAD_MAX_MEMORY_SIZE


def too_large_text() -> str:
    """The refusal of a file over the limit, in the reader's language (the file fields' ``data-too-large``)."""
    return str(too_large_upload().message)


def file_limit_attributes() -> dict[str, Any]:
    """The attributes of a picture's file field that let the page refuse a file over the limit at once."""
    return {"data-max-bytes": settings.IMAGE_MAX_BYTES, "data-too-large": lazy(too_large_text, str)()}


def refuse_oversized_uploads(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """413, naming the limit, for a POST too large to hold one picture: Django would otherwise read it all to disk.

    A page's form comes back as its page shows it before anything is sent (the body is not read, so nothing
    of it can be kept), with the refusal beside the file field."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if request.method == "POST" and body_too_large(request):
            error = too_large_upload()
            if errorpages.wants_json(request) or request.headers.get("HX-Request"):
                return errorpages.refused(request, error.status, error.message, error.code)
            request.method = "GET"
            request.upload_refused = str(error.message)  # type: ignore[attr-defined]
            response = view(request, *args, **kwargs)
            response.status_code = error.status
            return response
        return view(request, *args, **kwargs)

    return wrapper
