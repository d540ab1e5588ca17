"""The glossary as the search expands bare terms with it, kept until a term text changes."""

from __future__ import annotations

from collections.abc import Iterable

from django.db import connection

from ..models import TermText
from .normalize import fold

_glossary_cache: dict[str, tuple[tuple, Glossary]] = {}


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
        # A plain query: this runs for every search with words, and the ORM's own work would cost
        # more than the database's.
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT COUNT(*), MAX(updated_at) FROM {TermText._meta.db_table}")
            key = (connection.settings_dict["NAME"], *cursor.fetchone())
        cached = _glossary_cache.get("glossary")
        if cached is None or cached[0] != key:
            cached = (key, cls(TermText.objects.exclude(name="").values_list("term_id", "name")))
            _glossary_cache["glossary"] = cached
        return cached[1]

    def counterparts(self, text: str) -> list[str]:
        folded = fold(text)
        return sorted(name for name in self._by_folded.get(folded, ()) if fold(name) != folded)
