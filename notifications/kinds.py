"""The registry of notification kinds: each sending app registers its own from its ``AppConfig.ready()``.

A kind says how one of its notifications reads in the inbox (in the reader's language), where it leads, whether
it is e-mailed when the user has not chosen (``email_by_default``), the e-mail's subject and body, and any fields
the API adds for it (kept so that an API reader of an older shape finds its fields)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .models import Notification


@dataclass(frozen=True)
class Kind:
    key: str
    label: Any  # a lazy translation: the e-mail settings page's label
    describe: Callable[[Notification], str]
    link: Callable[[Notification], str]
    email_by_default: bool = False
    mail: Callable[[Notification], tuple[str, str]] | None = None  # (subject, body), None: never e-mailed
    api_fields: Callable[[Notification], dict[str, Any]] | None = None


_KINDS: dict[str, Kind] = {}


def register(kind: Kind) -> None:
    """Registers (or replaces, for a reloaded app) a kind under its key."""
    _KINDS[kind.key] = kind


def get(key: str) -> Kind | None:
    return _KINDS.get(key)


def all_kinds() -> list[Kind]:
    return list(_KINDS.values())


def emailed_kinds() -> list[Kind]:
    """The kinds a user may choose e-mail for (those that have an e-mail)."""
    return [kind for kind in _KINDS.values() if kind.mail is not None]
