"""The site's application errors: what went wrong, with a stable code a program can test, the values
the message names, and the problems field by field where there are fields.

Every layer raises these (or subclasses: ``decks.services.DeckError``, ``simulator.goldfish.services.RunError`` …);
the API answers each with one body shape (``cardsite.api_errors``), the pages show ``message``. Like
Django's paginator errors, callers catch only the kind they can handle.

A message is a template (usually ``gettext_lazy``) and its parameters, put together when the message is
read, so that it is in the language of whoever reads it, not of whoever raised it. A parameter may be a
``Labels`` mapping (a zone's or a game's name in three languages): the reader's language is picked.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextvars import ContextVar
from typing import Any

from .labels import pick


def current_language() -> str:
    from django.utils import translation  # only when read: plain-Python callers may raise these too

    return translation.get_language() or "en"


def render(template: Any, params: Mapping[str, Any] | None = None) -> str:
    """``template`` (a string or lazy translation) with ``params`` put in, in the active language."""
    text = str(template)
    if not params:
        return text
    language = current_language()
    values = {name: render_value(value, language) for name, value in params.items()}
    return text % values


def render_value(value: Any, language: str) -> Any:
    if isinstance(value, Mapping):
        return pick(value, language)
    if isinstance(value, list | tuple):
        separator = ", " if language == "en" else "、"
        return separator.join(str(render_value(item, language)) for item in value)
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10_000:
        return f"{value:,}"
    return value


class Message:
    """A message to be read later: its template and parameters, rendered in the reader's language by ``str``."""

    __slots__ = ("params", "template")

    def __init__(self, template: Any, params: Mapping[str, Any] | None = None) -> None:
        self.template = template
        self.params = dict(params or {})

    def __str__(self) -> str:
        return render(self.template, self.params)

    def __repr__(self) -> str:
        return f"Message({str(self.template)!r}, {self.params!r})"


class AppError(Exception):
    """An error the user can do something about; nothing was changed."""

    code = "invalid"
    status = 400
    retry_after: int | None = None  # seconds, for an error that passes with time (the answer's Retry-After)

    def __init__(
        self,
        message: Any,
        *,
        code: str | None = None,
        params: Mapping[str, Any] | None = None,
        errors: Mapping[str, Sequence[Any]] | None = None,
    ) -> None:
        super().__init__(message)
        if isinstance(message, Message):
            message, params = message.template, {**message.params, **(params or {})}
        self.template = message
        self.params = dict(params or {})
        if code is not None:
            self.code = code
        self._errors = {path: list(messages) for path, messages in (errors or {}).items()}

    @property
    def message(self) -> str:
        return render(self.template, self.params)

    @property
    def errors(self) -> dict[str, list[str]]:
        return {path: [str(item) for item in messages] for path, messages in self._errors.items()}

    def extra(self) -> dict[str, Any]:
        """What the API's error body says beside ``detail``, ``code`` and ``errors`` (a subclass adds to it)."""
        return {}

    def __str__(self) -> str:
        return self.message


class FieldProblems(AppError):
    """Problems with the fields of a request, keyed by each field's path (``entries[2].card``)."""

    def __init__(self, errors: Mapping[str, Sequence[Any]], *, code: str | None = None) -> None:
        super().__init__("", code=code, errors=errors)

    @property
    def message(self) -> str:
        return "; ".join(f"{path}: {' '.join(messages)}" for path, messages in self.errors.items())


class Conflict(AppError):
    """The request cannot be carried out in the present state of what it names (a deck with an empty zone
    cannot be played); the user can change that state and ask again. 409, not 400: the request itself is
    well formed."""

    code = "conflict"
    status = 409


# The allowances refused while answering the current request (``errorpages.RetryAfterMiddleware`` gives each
# request a fresh list): a page view that shows the refusal in its form, with status 429, gets its
# Retry-After from here without passing the error along.
_refused_here: ContextVar[list[int] | None] = ContextVar("refused_allowances", default=None)


class QuotaExceeded(AppError):
    """The user has used up an allowance (runs waiting, uploads a day …); ``retry_after``: the seconds until
    it may have room again, which every answer of it carries as ``Retry-After`` (API and pages)."""

    code = "quota_exceeded"
    status = 429

    def __init__(self, message: Any, *, retry_after: int, **kwargs: Any) -> None:
        super().__init__(message, **kwargs)
        self.retry_after = max(1, int(retry_after))
        noted = _refused_here.get()
        if noted is not None:
            noted.append(self.retry_after)


def watch_refusals() -> list[int]:
    """Start noting the allowances refused in this request; the list of their waits, in seconds."""
    noted: list[int] = []
    _refused_here.set(noted)
    return noted
