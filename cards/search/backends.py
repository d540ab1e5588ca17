"""The text-index query of each database: one function per vendor, chosen by ``connection.vendor``."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from django.db import connection
from django.db.models import BigAutoField, Lookup

from .tokens import Phrase

SqlWithParams = tuple[str, tuple]


def _fts5_match(phrases: Sequence[Phrase]) -> SqlWithParams:
    parts = [f"{phrase.tokens[0]}*" if phrase.prefix else '"' + " ".join(phrase.tokens) + '"' for phrase in phrases]
    return "SELECT rowid AS match_id FROM cards_search_fts WHERE cards_search_fts MATCH %s", (" OR ".join(parts),)


def _tsquery_match(phrases: Sequence[Phrase]) -> SqlWithParams:
    parts = [
        f"{phrase.tokens[0]}:*" if phrase.prefix else "(" + " <-> ".join(phrase.tokens) + ")" for phrase in phrases
    ]
    sql = "SELECT card_id AS match_id FROM cards_searchdocument WHERE vector @@ to_tsquery('simple', %s)"
    return sql, (" | ".join(parts),)


_MATCHERS: dict[str, Callable[[Sequence[Phrase]], SqlWithParams]] = {
    "sqlite": _fts5_match,
    "postgresql": _tsquery_match,
}


def cards_matching(phrases: Sequence[Phrase]) -> SqlWithParams:
    """A SELECT of the ids of cards whose index holds any of ``phrases``."""
    return _MATCHERS[connection.vendor](phrases)


@BigAutoField.register_lookup
class ScanIn(Lookup):
    """``id__scan_in=RawSQL(…)``: membership that SQLite must not drive from the id list.

    SQLite's unary ``+`` keeps a column from being used as an index key, so for
    ``ORDER BY sort_key LIMIT 50`` over a large match set it walks the sort_key
    index and probes the set, stopping after 50, instead of fetching and sorting every
    match. The search uses it only when the matches are many (see ``prefer_scan``).
    """

    lookup_name = "scan_in"

    def as_sql(self, compiler, connection):
        lhs, lhs_params = self.process_lhs(compiler, connection)
        rhs, rhs_params = self.process_rhs(compiler, connection)
        return f"+{lhs} IN {rhs}", [*lhs_params, *rhs_params]


# Walking the sort index to fill a page of 50 costs about 50 * total / matches probes;
# fetching and sorting the matches costs about `matches`. The break-even is near
# sqrt(50 * total); below a floor the plain plan always wins.
_SCAN_FLOOR = 1000


def prefer_scan(matches: int, total: int) -> bool:
    """Whether the ordered page should walk the sort index rather than sort the matches."""
    return connection.vendor == "sqlite" and matches > max(_SCAN_FLOOR, (50 * total) ** 0.5)
