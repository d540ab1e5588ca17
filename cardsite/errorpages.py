"""The site's error answers: pages in the reader's language, JSON under /api/.

Django's handlers (``handler400`` … ``handler500`` in ``cardsite.urls``) and the site's own
answers (429 from a rate limit, 503 from a database that cannot answer) all come from here, so
that a player never sees a debug page or a bare server message.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.conf import settings
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from .errors import watch_refusals
from .sizes import megabytes

API_PREFIX = "/api/"


def wants_json(request: HttpRequest) -> bool:
    return request.path.startswith(API_PREFIX)


def _answer(
    request: HttpRequest,
    status: int,
    *,
    title: str,
    message: str,
    code: str,
    template: str = "error.html",
    retry_after: int | None = None,
) -> HttpResponse:
    if wants_json(request):
        response: HttpResponse = JsonResponse({"detail": message, "code": code, "errors": {}}, status=status)
    elif request.headers.get("HX-Request") and not request.headers.get("HX-History-Restore-Request"):
        # An htmx request: the message alone, swapped into the page's alert area (base.html).
        response = render(request, "_error_message.html", {"message": message, "status": status}, status=status)
    else:
        context = {"title": title, "message": message, "status": status}
        response = render(request, template, context, status=status)
    if retry_after is not None:
        response["Retry-After"] = str(retry_after)
    return response


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if isinstance(exception, RequestDataTooBig):
        # 413, as every other "too large" of the site (uploads, photos); the limit is named.
        message = _("The form's fields are larger than %(limit)s together.") % {
            "limit": megabytes(settings.DATA_UPLOAD_MAX_MEMORY_SIZE)
        }
        return _answer(request, 413, title=_("Request too large"), message=message, code="body_too_large")
    if isinstance(exception, TooManyFieldsSent):
        message = _("The form has more than %(limit)s fields.") % {
            "limit": f"{settings.DATA_UPLOAD_MAX_NUMBER_FIELDS:,}"
        }
    else:
        message = _("The request could not be read (it may be too large or malformed).")
    return _answer(request, 400, title=_("Bad request"), message=message, code="bad_request")


def forbidden(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    # A view that says why (a blocked contributor, a reviewer of another game) raises PermissionDenied with a
    # message in the reader's language; the others get the deck owner's rule, the commonest case.
    said = str(exception) if exception is not None and exception.args else ""
    return _answer(
        request,
        403,
        title=_("Not allowed"),
        message=said or _("You may not do this. Only the owner of a deck can change it; you can copy it instead."),
        code="permission_denied",
    )


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    return _answer(
        request,
        403,
        title=_("Not allowed"),
        message=_("The form had expired or came from another site. Go back, reload the page and try again."),
        code="csrf_failed",
    )


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return _answer(
        request,
        404,
        title=_("Not found"),
        message=_("There is nothing here, or it is not shared with you."),
        code="not_found",
    )


def server_error(request: HttpRequest) -> HttpResponse:
    # Standalone template: whatever broke (the database included) is not needed to say so.
    return _answer(
        request,
        500,
        title=_("Something went wrong"),
        message=_("The server could not answer this request. The error was logged; please try again later."),
        code="server_error",
        template="error_standalone.html",
    )


def throttled_message(wait: int) -> str:
    """What a rate limit's 429 says, pages and API alike, wholly in the reader's language."""
    return _("Too many requests in a short time. Please wait %(seconds)s seconds and try again.") % {"seconds": wait}


def too_many_requests(request: HttpRequest, wait: int, message: str | None = None) -> HttpResponse:
    return _answer(
        request,
        429,
        title=_("Too many requests"),
        message=message or throttled_message(wait),
        code="throttled",
        retry_after=wait,
    )


class RetryAfterMiddleware:
    """Every 429 carries Retry-After. A page view that shows a refused allowance in its form (an upload over
    the day's allowance) answers 429 without raising: the wait comes from the ``QuotaExceeded`` it caught,
    noted for this request (``cardsite.errors.watch_refusals``)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        noted = watch_refusals()
        response = self.get_response(request)
        if response.status_code == 429 and not response.has_header("Retry-After") and noted:
            response["Retry-After"] = str(max(noted))
        return response


# What the site says when the request itself cannot be read: the HTTP server (``cardsite.gunicorn_worker``)
# answers these before Django sees the request; ``cardsite.middleware`` the header limits below its own.
def malformed_request_answer(status: int) -> tuple[str, str, str]:
    """The title, message and code for a request refused before any view: 414, 431, or 400 (unreadable)."""
    if status == 414:
        return (
            _("Address too long"),
            _("The address is too long: the request line may be at most %(limit)s bytes. Send long input in a body.")
            % {"limit": f"{settings.REQUEST_LINE_MAX_BYTES:,}"},
            "request_line_too_long",
        )
    if status == 431:
        return (
            _("Headers too large"),
            _("The request's headers are too large: at most %(fields)s headers of %(limit)s bytes each.")
            % {"fields": settings.REQUEST_HEADER_FIELDS_MAX, "limit": f"{settings.REQUEST_HEADER_FIELD_MAX_BYTES:,}"},
            "headers_too_large",
        )
    return (
        _("Bad request"),
        _(
            "The request could not be read: its request line or a header is not valid HTTP (a NUL or control "
            "character, a bad name)."
        ),
        "bad_request",
    )


def headers_too_large(request: HttpRequest) -> HttpResponse:
    title, message, code = malformed_request_answer(431)
    return _answer(request, 431, title=title, message=message, code=code, template="error_standalone.html")


def refused(request: HttpRequest, status: int, message: str, code: str) -> HttpResponse:
    """A request refused before a view could show its form (an upload too large to read): the message alone."""
    return _answer(request, status, title=_("Request refused"), message=message, code=code)


@dataclass(frozen=True)
class Unavailable:
    """What a 503 says for one kind of database failure (``cardsite.db.failure_kind``)."""

    message: str
    code: str
    retry_after: int


def unavailable(kind: str) -> Unavailable:
    if kind == "read-only":
        message = _(
            "The site cannot save changes right now (its database is read-only or its disk is full). "
            "Nothing was changed; reading still works. Please try again later."
        )
        retry = 60
    elif kind == "timeout":
        message = _("This request took too long and was stopped. Nothing was changed. Please try again.")
        retry = 5
    elif kind == "busy":
        message = _("The site is too busy to save this change right now. Nothing was changed. Please try again.")
        retry = 5
    else:
        message = _("The site's database cannot be reached right now. Please try again in a minute.")
        retry = 30
    return Unavailable(message, f"database_{kind.replace('-', '_')}", retry)


def database_failure(request: HttpRequest, kind: str) -> HttpResponse:
    """503 for a database that cannot write (reads still work), cannot answer, or took too long."""
    answer = unavailable(kind)
    return _answer(
        request,
        503,
        title=_("Temporarily unavailable"),
        message=answer.message,
        code=answer.code,
        template="error_standalone.html",
        retry_after=answer.retry_after,
    )
