"""The glossary as the search expands bare terms with it, kept until a term text changes.

A process trusts its copy for ``MEMO_SECONDS`` before asking the database whether a term text
was added, changed or removed (one small query), as ``cardsite.pagecache`` trusts its versions:
a write in this process drops the copy at once (``forget``, called by the model signals), a
write through another process shows within that second. On a database server the check is a
round trip, which on a search of words was a fifth of the page's time.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass

from django.db import connection

from ..models import TermText
from .normalize import fold

MEMO_SECONDS = 1.0


@dataclass
class _Kept:
    state: tuple  # (term texts, newest change) when it was built
    glossary: Glossary
    trusted_until: float  # time.monotonic() until which the database is not asked


_kept: dict[str, _Kept] = {}  # by database name


def forget() -> None:
    """A term text changed in this process: the next search reads the glossary afresh."""
    _kept.clear()


class Glossary:
    """Glossary names by their folded form, for expanding a bare term into its other-language names."""

    def __init__(self, rows: Iterable[tuple[int, str]]) -> None:
        names_by_term: dict[int, set[str]] = {}
        for term_id, name in rows:
            names_by_term.setdefault(term_id, set()).add(name)
        self._by_folded: dict[str, set[str]] = {}
        for names in names_by_term.values():
            for name in names:
                self._by_folded.setdefault(fold(name), set()).update(names)

    @classmethod
    def from_database(cls) -> Glossary:
        """The glossary as stored; rebuilt only when a term text was added, changed or removed."""
        database = connection.settings_dict["NAME"]
        kept = _kept.get(database)
        now = time.monotonic()
        if kept is not None and kept.trusted_until > now:
            return kept.glossary
        # A plain query: the ORM's own work would cost more than the database's.
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT COUNT(*), MAX(updated_at) FROM {TermText._meta.db_table}")
            state = tuple(cursor.fetchone())
        if kept is None or kept.state != state:
            glossary = cls(TermText.objects.exclude(name="").values_list("term_id", "name"))
            kept = _Kept(state, glossary, now)
            _kept[database] = kept
        kept.trusted_until = now + MEMO_SECONDS
        return kept.glossary

    def counterparts(self, text: str) -> list[str]:
        folded = fold(text)
        return sorted(name for name in self._by_folded.get(folded, ()) if fold(name) != folded)
