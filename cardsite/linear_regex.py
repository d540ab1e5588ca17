"""Regular expressions that run in time linear in the text (RE2), for searches (plain Python).

Python's ``re`` backtracks: ``(.|.)*Ω`` against a card text takes exponential time, and a search
is a request anyone can make. RE2 has no back-references or look-arounds, and in exchange never
backtracks. The search parser refuses what RE2 cannot run (with the reason), and SQLite's
``REGEXP`` runs with RE2 (``cardsite.db``).
"""

from __future__ import annotations

import functools
from typing import Any

import re2

MAX_LENGTH = 200
# RE2 refuses a pattern whose compiled program would need more than this (a{1000}{1000} …).
_MAX_MEMORY = 8 << 20


def _options() -> re2.Options:
    options = re2.Options()
    options.max_mem = _MAX_MEMORY
    options.log_errors = False  # the caller reports the error; RE2 would also print it to stderr
    return options


@functools.lru_cache(maxsize=256)
def compiled(pattern: str) -> Any:
    """The compiled pattern (cached); raises ``re2.error`` for one RE2 cannot run."""
    return re2.compile(pattern, _options())


def problem(pattern: str) -> str | None:
    """None if RE2 can run ``pattern``; otherwise why not, in English."""
    if len(pattern) > MAX_LENGTH:
        return f"it is longer than {MAX_LENGTH} characters"
    try:
        compiled(pattern)
    except re2.error as error:
        reason = error.args[0] if error.args else b""
        return (reason.decode("utf-8", "replace") if isinstance(reason, bytes) else str(reason)) or "invalid"
    return None


def search(pattern: str, value: Any) -> bool:
    return compiled(pattern).search(value if isinstance(value, str) else str(value)) is not None
