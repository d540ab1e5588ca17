"""The one way a page shows a refused action (an ``AppError``, or a sentence of the view's own).

- ``show_refusal(request, refusal, form=form)``: the page is drawn again with its form: the refusal is the form's
  error above its fields. Without a form (a POST that redirects), it is a message on the next page.
- ``refused_page(request, message, status)`` and the ``refusals`` decorator: a refusal with no page to go back to
  is the one "The change was not made" page (``refused.html``), with its status; an htmx request gets the
  message alone, for the page's alert area.

The API has its own single shape (``cardsite.api_errors``); these are for pages.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from .errors import AppError


def show_refusal(request: HttpRequest, refusal: AppError | str, *, form: Any = None) -> None:
    """Shows ``refusal`` on the page being answered: on ``form`` (not bound to a field) when the page draws it
    again, else as an error message on the next page."""
    text = refusal.message if isinstance(refusal, AppError) else str(refusal)
    if form is not None:
        form.add_error(None, text)
    else:
        messages.error(request, text)


def refused_page(
    request: HttpRequest, message: str, status: int = 400, *, back_url: str = "", back_label: str = ""
) -> HttpResponse:
    """The page of a refused action, with a link back to where one goes on (htmx: the message alone)."""
    if getattr(request, "htmx", False):
        return render(request, "_error_message.html", {"message": message, "status": status}, status=status)
    context = {"message": message, "back_url": back_url, "back_label": back_label}
    return render(request, "refused.html", context, status=status)


def refusals(
    error_class: type[AppError], back: Callable[[], tuple[str, str]] | None = None
) -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponse]]:
    """A view whose ``error_class`` refusals are answered by ``refused_page`` with the error's status; ``back``
    gives the link (its URL and label) the page offers."""

    def decorate(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @wraps(view)
        def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            try:
                return view(request, *args, **kwargs)
            except error_class as error:
                url, label = back() if back is not None else ("", "")
                return refused_page(request, error.message, error.status, back_url=url, back_label=label)

        return wrapper

    return decorate
