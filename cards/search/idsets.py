"""Sets of card ids that a compiled query combines with and, or and not (``IdSet``).

A set the text index can answer alone carries its index expression, and sets
combined with and, or and not stay one expression; the others are SQL
SELECTs of card ids, and an AND of both kinds drives from the index's matches
and tests the rest (``intersect``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import F, QuerySet

from .backends import cards_matching
from .matching import EVERY_CARD, Expression, all_of, any_of, without
from .tokens import Phrase, facet_token


@dataclass(frozen=True)
class IdSet:
    """A SELECT of card ids (one column, ``match_id``) that a query combines with others.

    A set the text index can answer alone carries its index ``expression``
    (``cards.search.matching``): sets combined with and, or and not stay one index
    expression, which counts and pages without reading the cards table. The other
    sets (regular expressions, comparisons over many distinct values) are SQL; a leaf
    that can cheaply test one card also carries ``probe``: the same condition as a
    correlated EXISTS, with ``{outer}`` standing for the card id; an AND then walks
    its text-index member and probes the others, instead of materialising large sets.
    """

    sql: str
    params: tuple = ()
    everything: bool = False
    probe: str | None = None
    probe_params: tuple | None = None  # when the probe's parameters differ from the SELECT's
    distinct: bool = False  # True when no id is selected twice, so a plain COUNT(*) counts cards
    expression: Expression | None = None  # set when the text index alone answers this set

    @classmethod
    def of(cls, queryset: QuerySet, id_column: str, distinct: bool = False) -> IdSet:
        """The ids in ``id_column`` of the rows ``queryset`` selects (``distinct``: each id once)."""
        queryset = queryset.order_by().values(match_id=F(id_column))
        sql, params = queryset.query.sql_with_params()
        model = queryset.model._meta
        probe = None
        if " WHERE " in sql and " JOIN " not in sql:
            # The probe's table gets an alias of its own, so that {outer} may name a column of
            # the same table outside (a walk over cards_card probing a cards_card condition).
            table, alias = model.db_table, f"{model.db_table}_probe"
            inner = sql.replace(f'FROM "{table}"', f'FROM "{table}" AS "{alias}"').replace(f'"{table}".', f'"{alias}".')
            inner = inner.replace("{", "{{").replace("}", "}}")
            probe = f'EXISTS ({inner} AND "{alias}"."{model.get_field(id_column).column}" = {{outer}})'
        return cls(sql, tuple(params), probe=probe, distinct=distinct)

    def _compound(self, operator: str, other: IdSet) -> IdSet:
        sql = f"SELECT * FROM ({self.sql}) AS a {operator} SELECT * FROM ({other.sql}) AS b"
        return IdSet(sql, self.params + other.params, distinct=True)  # compound selects are sets

    def __or__(self, other: IdSet) -> IdSet:
        if self.everything or other.everything:
            return ALL_CARDS
        if self.expression is not None and other.expression is not None:
            return text_matches(any_of(self.expression, other.expression))
        return self._compound("UNION", other)

    def __invert__(self) -> IdSet:
        if self.everything:
            return NO_CARDS
        if self.expression is not None:
            return text_matches(without(EVERY_CARD, self.expression))
        return intersect([ALL_CARDS.plain()], [self])

    def plain(self) -> IdSet:
        return IdSet(self.sql, self.params, self.everything, self.probe, self.probe_params, self.distinct)

    def test(self, outer: str) -> tuple[str, tuple]:
        """A condition that ``outer`` (a card id column) is in this set.

        Without a probe it is ``+outer IN (…)``: the unary plus keeps SQLite from driving a
        loop over the cards from this list, so an ordered walk stops after a page.
        """
        if self.probe is not None:
            return self.probe.format(outer=outer), self.params if self.probe_params is None else self.probe_params
        return f"+{outer} IN ({self.sql})", self.params

    def probe_template(self) -> tuple[str, tuple]:
        """``test`` with ``{outer}`` left in place, for a probe that contains this set."""
        if self.probe is not None:
            return self.probe, self.params if self.probe_params is None else self.probe_params
        escaped = self.sql.replace("{", "{{").replace("}", "}}")
        return f"+{{outer}} IN ({escaped})", self.params


def text_matches(expression: Expression) -> IdSet:
    sql, params = cards_matching(expression)
    return IdSet(sql, params, expression=expression, distinct=True)


def facet_matches(name: str, values: Iterable[str]) -> IdSet:
    """Cards with any of ``values`` for ``name`` (as the index spells them, ``tokens.facet_token``)."""
    return text_matches(any_of(*(Phrase((facet_token(name, value),)) for value in values)))


ALL_CARDS = IdSet("SELECT id AS match_id FROM cards_card", (), everything=True, distinct=True)
NO_CARDS = IdSet("SELECT id AS match_id FROM cards_card WHERE 1 = 0", distinct=True)


def intersect(included: list[IdSet], excluded: list[IdSet]) -> IdSet:
    """Cards in every set of ``included`` and in none of ``excluded``."""
    included = [ids for ids in included if not ids.everything]
    # The members the text index answers become one expression; the rest test its matches.
    indexed_in = [ids.expression for ids in included if ids.expression is not None]
    indexed_out = [ids.expression for ids in excluded if ids.expression is not None]
    if indexed_in or indexed_out:
        expression = all_of(*indexed_in) if indexed_in else EVERY_CARD
        if indexed_out:
            expression = without(expression, any_of(*indexed_out))
        included = [text_matches(expression), *(ids for ids in included if ids.expression is None)]
        excluded = [ids for ids in excluded if ids.expression is None]
    if not included and not excluded:
        return ALL_CARDS
    if len(included) == 1 and not excluded:
        return included[0]
    # Drive from a set that cannot be probed (a text match, usually the smallest).
    driver = next((ids for ids in included if ids.probe is None), included[0] if included else ALL_CARDS.plain())
    conditions: list[str] = []
    params: list = list(driver.params)
    for ids in included:
        if ids is not driver:
            condition, condition_params = ids.test("m.match_id")
            conditions.append(condition)
            params.extend(condition_params)
    for ids in excluded:
        condition, condition_params = ids.test("m.match_id")
        conditions.append(f"NOT {condition}")
        params.extend(condition_params)
    sql = f"SELECT m.match_id FROM ({driver.sql}) AS m WHERE {' AND '.join(conditions)}"
    # The same test for one card: every member's test, so an ordered walk can check the
    # cards it passes without building this set.
    probes: list[str] = []
    probe_params: list = []
    for ids in included:
        template, template_params = ids.probe_template()
        probes.append(template)
        probe_params.extend(template_params)
    for ids in excluded:
        template, template_params = ids.probe_template()
        probes.append(f"NOT {template}")
        probe_params.extend(template_params)
    probe = "(" + " AND ".join(probes) + ")"
    return IdSet(sql, tuple(params), probe=probe, probe_params=tuple(probe_params), distinct=driver.distinct)
