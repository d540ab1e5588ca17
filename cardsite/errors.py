"""The site's application errors (plain Python): what went wrong, in words for the reader, with a stable
code a program can test, and the problems field by field where there are fields.

Every layer raises these (or subclasses: ``decks.services.DeckError``, ``simulator.services.RunError`` …);
the API answers each with one body shape (``cardsite.api_errors``), the pages show ``message``. Like
Django's paginator errors, callers catch only the kind they can handle.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence


class AppError(Exception):
    """An error the user can do something about; nothing was changed."""

    code = "invalid"
    status = 400

    def __init__(
        self, message: str, *, code: str | None = None, errors: Mapping[str, Sequence[str]] | None = None
    ) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        self.errors = {path: [str(item) for item in messages] for path, messages in (errors or {}).items()}


class FieldProblems(AppError):
    """Problems with the fields of a request, keyed by each field's path (``entries[2].card``)."""

    def __init__(self, errors: Mapping[str, Sequence[str]], *, code: str | None = None) -> None:
        message = "; ".join(f"{path}: {' '.join(map(str, messages))}" for path, messages in errors.items())
        super().__init__(message, code=code, errors=errors)


class Conflict(AppError):
    """The request cannot be carried out in the present state of what it names (a deck with an empty zone
    cannot be played); the user can change that state and ask again. 409, not 400: the request itself is
    well formed."""

    code = "conflict"
    status = 409


class QuotaExceeded(AppError):
    """The user has used up an allowance (runs waiting, uploads a day …)."""

    code = "quota_exceeded"
    status = 429
