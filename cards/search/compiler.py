"""From a parsed query to a filter on cards.

The parser (plain Python) gives the tree; this module resolves field names
against the games' declarations (``cards.search.names`` for games and kinds),
folds values like the index, expands glossary terms (``cards.search.glossary``),
and builds the set of matching card ids (``cards.search.idsets``): one text-index
expression whenever the query allows, SQL otherwise. Problems the parser cannot see (an unknown
field, a number that is not a number) are raised as ``QuerySyntaxError`` with
the position of the offending filter.

Decisions where the issue was silent, modelled on Scryfall:
- ``lang:`` both keeps cards that have a text in that language and makes bare words
  and ``name:``/``text:`` search that language only (several ``lang:`` widen it).
- For text, symbol and choice fields ``:`` and ``=`` compare the whole value
  (``cost:PPT`` is not ``PPPT``); for multi-valued fields (Shadow Era ``class``,
  水滸伝 ``specialties``) ``:`` means "has this value".
- A card whose value is unknown never matches a comparison on that field
  (``at<3`` leaves out cards of unknown AT); ``-has:at`` finds them.
- A bare Latin word also matches words it begins (``baz`` finds Bazaar); CJK text
  matches as a substring of any length.
"""

from __future__ import annotations

import operator as operator_module
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db import connection
from django.db.models import F, OuterRef, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce

from ..gamedefs import all_games
from ..gamedefs.base import BooleanType, ChoiceListType, FieldSpec, IntegerType
from ..models import Card, CardFieldValue, CardText
from . import ast
from .backends import indexes_any_column_pairs, indexes_needles
from .glossary import Glossary
from .idsets import ALL_CARDS, IdSet, facet_matches, intersect, text_matches
from .matching import any_of
from .names import names
from .normalize import fold
from .tokens import (
    AT_LEAST_LIMIT,
    INCOMPLETE,
    LANGUAGE_CODES,
    PART_CODES,
    Phrase,
    at_least_value,
    columns_for,
    kind_facet,
    term_phrases,
)

FIELD_ALIASES = {
    "g": "game",
    "n": "name",
    "o": "text",
    "oracle": "text",
    "t": "kind",
    "type": "kind",
    "l": "lang",
    "language": "lang",
    "num": "number",
    "no": "number",
}
BUILTIN_FIELDS = ("game", "name", "text", "kind", "number", "lang", "is", "has")
LANGUAGE_ALIASES = {
    "ja": "ja",
    "jp": "ja",
    "jpn": "ja",
    "japanese": "ja",
    "日本語": "ja",
    "zh": "zh-hant",
    "zh-hant": "zh-hant",
    "zh-tw": "zh-hant",
    "zht": "zh-hant",
    "chinese": "zh-hant",
    "中文": "zh-hant",
    "繁體中文": "zh-hant",
    "en": "en",
    "english": "en",
}
ORDERS = ("number", "name", "kind", "game")
NUMERIC_TYPES = (IntegerType, BooleanType)


# Fields whose answer depends on who asks (``owned:``, registered by the collection app at start-up): name ->
# a function of the user and the filter giving the matching card ids. An anonymous search using one is a query
# error ("sign in"), not a failure.
USER_FIELDS: dict[str, Callable[[Any, ast.FieldFilter], IdSet]] = {}


def register_user_field(name: str, builder: Callable[[Any, ast.FieldFilter], IdSet]) -> None:
    USER_FIELDS[name] = builder


# A comparison over more distinct values than this is answered from the field values table.
MAX_VALUES_IN_EXPRESSION = 64


@dataclass
class CompiledQuery:
    ids: IdSet
    also_searched: list[str] = field(default_factory=list)
    order: str = "number"
    descending: bool = False
    languages: tuple[str, ...] = tuple(LANGUAGE_CODES)
    highlight_terms: list[str] = field(default_factory=list)


def declared_fields() -> dict[str, list[FieldSpec]]:
    """Field name -> its declarations across games (a name may mean a field in several games)."""
    fields: dict[str, list[FieldSpec]] = {}
    for game in all_games():
        for spec in game.fields:
            fields.setdefault(spec.name, []).append(spec)
    return fields


def _error(code: str, node: ast.Node, **params: Any) -> ast.QuerySyntaxError:
    return ast.QuerySyntaxError(code, node.span[0], **params)


class _Compiler:
    def __init__(self, glossary: Glossary | None, languages: tuple[str, ...], user: Any = None) -> None:
        self._glossary = glossary
        self.user = user
        self.languages = languages
        self.fields = declared_fields()
        self.also_searched: list[str] = []
        self.highlight_terms: list[str] = []

    def compile(self, node: ast.Node) -> IdSet:
        if isinstance(node, ast.And):
            # a -b is "a and not b": no need to build the complement of b.
            positives = [self.compile(operand) for operand in node.operands if not isinstance(operand, ast.Not)]
            negatives = [self.compile(operand.operand) for operand in node.operands if isinstance(operand, ast.Not)]
            return intersect(positives, negatives)
        if isinstance(node, ast.Or):
            result = self.compile(node.operands[0])
            for operand in node.operands[1:]:
                result |= self.compile(operand)
            return result
        if isinstance(node, ast.Not):
            return ~self.compile(node.operand)
        if isinstance(node, ast.Term):
            return self.text_term(node.text, PART_CODES, expand=True)
        if isinstance(node, ast.Regex):
            return self.regex(node.pattern, ("name", "text"))
        if isinstance(node, ast.FieldFilter):
            return self.field_filter(node)
        raise TypeError(f"unknown node {node!r}")

    # --- text

    def text_term(self, text: str, parts: Iterable[str], expand: bool) -> IdSet:
        columns = columns_for(parts, self.languages)
        alternatives = [text]
        if expand:
            if self._glossary is None:
                self._glossary = Glossary.from_database()  # only queries with words need it
            extra = self._glossary.counterparts(text)
            self.also_searched.extend(name for name in extra if name not in self.also_searched)
            alternatives += extra
        pairs, needles = indexes_any_column_pairs(), indexes_needles()
        phrases = [
            phrase
            for alternative in alternatives
            for phrase in term_phrases(fold(alternative), columns, pairs, needles)
        ]
        self.highlight_terms.extend(alternatives)
        if not phrases:
            return ALL_CARDS
        return text_matches(any_of(*phrases))

    def regex(self, pattern: str, parts: Iterable[str]) -> IdSet:
        match = Q()
        for part in parts:
            match |= Q(**{f"{part}__iregex": pattern})
        return IdSet.of(CardText.objects.filter(match, language__in=self.languages), "card_id")

    # --- fields

    def field_filter(self, node: ast.FieldFilter) -> IdSet:
        name = FIELD_ALIASES.get(node.name, node.name)
        if name in BUILTIN_FIELDS:
            return getattr(self, f"builtin_{name}")(node)
        if name in USER_FIELDS:
            if self.user is None or not self.user.is_authenticated:
                raise _error("needs_account", node, field=node.name)
            return USER_FIELDS[name](self.user, node)
        specs = self.fields.get(name)
        if not specs:
            fields = [*BUILTIN_FIELDS, *sorted(USER_FIELDS), *sorted(self.fields)]
            raise _error("unknown_field", node, field=node.name, fields=fields)
        return self.declared_field(name, specs, node)

    def _equality_only(self, node: ast.FieldFilter, name: str) -> None:
        if node.operator not in (ast.Operator.COLON, ast.Operator.EQ, ast.Operator.NE):
            raise _error("equality_only", node, field=name)

    @staticmethod
    def _negate_if_ne(node: ast.FieldFilter, ids: IdSet) -> IdSet:
        return ~ids if node.operator == ast.Operator.NE else ids

    def builtin_game(self, node: ast.FieldFilter) -> IdSet:
        self._equality_only(node, "game")
        slugs = names().games.get(fold(node.value))
        if not slugs:
            raise _error("unknown_game", node, value=node.value, games=[game.slug for game in all_games()])
        return self._negate_if_ne(node, facet_matches("game", slugs))

    def builtin_name(self, node: ast.FieldFilter) -> IdSet:
        self._equality_only(node, "name")
        return self._negate_if_ne(node, self._text_condition(node, "name"))

    def _text_condition(self, node: ast.FieldFilter, part: str) -> IdSet:
        if node.regex:
            return self.regex(node.value, (part,))
        return self.text_term(node.value, (part,), expand=False)

    def builtin_text(self, node: ast.FieldFilter) -> IdSet:
        self._equality_only(node, "text")
        return self._negate_if_ne(node, self._text_condition(node, "text"))

    def builtin_kind(self, node: ast.FieldFilter) -> IdSet:
        self._equality_only(node, "kind")
        wanted = fold(node.value)
        if wanted in {"unknown", fold("不明"), fold("未知")}:
            return self._negate_if_ne(node, ~self._has("kind"))
        tokens = [Phrase((kind_facet(game, kind),)) for game, kind in names().kinds.get(wanted, [])]
        if not tokens:
            kinds = sorted({kind.slug for game in all_games() for kind in game.kinds})
            raise _error("unknown_kind", node, value=node.value, kinds=kinds)
        return self._negate_if_ne(node, text_matches(any_of(*tokens)))

    @staticmethod
    def _has(name: str) -> IdSet:
        return facet_matches("has", [name])

    def builtin_number(self, node: ast.FieldFilter) -> IdSet:
        self._equality_only(node, "number")
        return self._negate_if_ne(node, facet_matches("number", [fold(node.value)]))

    def builtin_lang(self, node: ast.FieldFilter) -> IdSet:
        self._equality_only(node, "lang")
        language = LANGUAGE_ALIASES.get(node.value.lower())
        if language is None:
            raise _error("unknown_language", node, value=node.value)
        return self._negate_if_ne(node, facet_matches("lang", [language]))

    def builtin_is(self, node: ast.FieldFilter) -> IdSet:
        self._equality_only(node, "is")
        translated = facet_matches("lang", ["zh-hant"])
        value = node.value.lower()
        if value == "translated":
            return self._negate_if_ne(node, translated)
        if value == "untranslated":
            return self._negate_if_ne(node, ~translated)
        # A value its game declares for it is unknown, or a text in one of its game's languages is missing.
        incomplete = facet_matches("is", [INCOMPLETE])
        if value == "incomplete":
            return self._negate_if_ne(node, incomplete)
        if value == "complete":
            return self._negate_if_ne(node, ~incomplete)
        raise _error("unknown_is", node, value=node.value)

    def builtin_has(self, node: ast.FieldFilter) -> IdSet:
        self._equality_only(node, "has")
        name = FIELD_ALIASES.get(node.value.lower(), node.value.lower())
        if name not in ("number", "kind") and name not in self.fields:
            raise _error("unknown_has", node, value=node.value, fields=sorted(self.fields))
        return self._negate_if_ne(node, self._has(name))

    def declared_field(self, name: str, specs: list[FieldSpec], node: ast.FieldFilter) -> IdSet:
        if all(isinstance(spec.type, NUMERIC_TYPES) for spec in specs):
            number = _number(node, specs[0])
            if node.operator in (ast.Operator.COLON, ast.Operator.EQ, ast.Operator.NE):
                matching = facet_matches(name, _indexed_forms([number], specs))
            else:
                matching = self._compared(name, specs, node.operator, number)
        else:
            self._equality_only(node, name)
            if node.regex:
                values = CardFieldValue.objects.filter(field=name, text__iregex=node.value)
                # A card has one row per value: one for a single-valued field, several for a list.
                single_valued = not any(isinstance(spec.type, ChoiceListType) for spec in specs)
                matching = IdSet.of(values, "card_id", distinct=single_valued)
            else:
                matching = facet_matches(name, [fold(node.value)[:200]])
        if node.operator == ast.Operator.NE:
            # Unknown stays unknown: != matches known values that differ.
            return intersect([self._has(name)], [matching])
        return matching

    def _compared(self, name: str, specs: list[FieldSpec], operator: ast.Operator, number: int) -> IdSet:
        """Cards whose ``name`` compares so with ``number``.

        The text index answers it with one "at least" token when the bound is a small
        number (``tokens.AT_LEAST_LIMIT``): at>=5 is "at least 5", at<3 is "has at, not
        at least 3". Otherwise with the field's distinct values: those that compare so,
        or, when fewer, the cards with a value without those that do not. A field with
        very many distinct values is compared in the field values table instead.
        """
        at_least = number + 1 if operator in (ast.Operator.GT, ast.Operator.LE) else number
        if 0 <= at_least <= AT_LEAST_LIMIT:
            cards_at_least = facet_matches(name, [at_least_value(at_least)])
            if operator in (ast.Operator.GT, ast.Operator.GE):
                return cards_at_least
            return intersect([self._has(name)], [cards_at_least])
        compare, lookup = _COMPARISONS[operator]
        known = _distinct_numbers(name, MAX_VALUES_IN_EXPRESSION + 1)
        if len(known) > MAX_VALUES_IN_EXPRESSION:
            values = CardFieldValue.objects.filter(field=name, **{f"number__{lookup}": number})
            return IdSet.of(values, "card_id")
        matching = [value for value in known if compare(value, number)]
        failing = [value for value in known if not compare(value, number)]
        if len(failing) + 1 < len(matching):
            return intersect([self._has(name)], [facet_matches(name, _indexed_forms(failing, specs))])
        return facet_matches(name, _indexed_forms(matching, specs))


_COMPARISONS = {
    ast.Operator.LT: (operator_module.lt, "lt"),
    ast.Operator.LE: (operator_module.le, "lte"),
    ast.Operator.GT: (operator_module.gt, "gt"),
    ast.Operator.GE: (operator_module.ge, "gte"),
}


def _distinct_numbers(name: str, limit: int) -> list[int]:
    """Up to ``limit`` distinct numbers of field ``name``, smallest first.

    Each step seeks the next value in the (field, number) index, so this reads as
    many index entries as there are distinct values, not cards.
    """
    table = CardFieldValue._meta.db_table
    sql = f"""WITH RECURSIVE found(number) AS (
            SELECT MIN(number) FROM {table} WHERE field = %s
            UNION ALL
            SELECT (SELECT MIN(number) FROM {table} WHERE field = %s AND number > found.number)
            FROM found WHERE found.number IS NOT NULL
        )
        SELECT number FROM found WHERE number IS NOT NULL LIMIT %s"""
    with connection.cursor() as cursor:
        cursor.execute(sql, (name, name, limit))
        return [row[0] for row in cursor.fetchall()]


def _indexed_forms(numbers: Iterable[int], specs: list[FieldSpec]) -> list[str]:
    """How the index spells these numbers as values of a field (``indexing.field_values``)."""
    boolean = any(isinstance(spec.type, BooleanType) for spec in specs)
    forms: list[str] = []
    for number in numbers:
        forms.append(str(number))
        if boolean and number in (0, 1):
            forms.append("true" if number else "false")
    return forms


def _number(node: ast.FieldFilter, spec: FieldSpec) -> int:
    if isinstance(spec.type, BooleanType):
        lowered = node.value.strip().lower()
        if lowered in {"true", "yes", "1"}:
            return 1
        if lowered in {"false", "no", "0"}:
            return 0
        raise _error("boolean_value", node, field=node.name, value=node.value)
    try:
        number = int(fold(node.value).strip())
    except ValueError:
        raise _error("whole_number", node, field=node.name, value=node.value) from None
    if not -(2**63) <= number < 2**63:  # what the databases' integer columns hold
        raise _error("number_too_large", node, field=node.name, value=node.value)
    return number


def _languages(node: ast.Node | None) -> tuple[str, ...]:
    """The languages named by lang: filters that are not negated, in query order."""
    found: list[str] = []

    def visit(current: ast.Node | None, negated: bool) -> None:
        if current is None:
            return
        if isinstance(current, ast.Not):
            visit(current.operand, not negated)
        elif isinstance(current, ast.And | ast.Or):
            for operand in current.operands:
                visit(operand, negated)
        elif isinstance(current, ast.FieldFilter) and FIELD_ALIASES.get(current.name, current.name) == "lang":
            language = LANGUAGE_ALIASES.get(current.value.lower())
            if language and not negated and current.operator != ast.Operator.NE and language not in found:
                found.append(language)

    visit(node, False)
    return tuple(found) or tuple(LANGUAGE_CODES)


def compile_query(query: ast.Query, glossary: Glossary | None = None, user: Any = None) -> CompiledQuery:
    """Build the card filter and display settings for a parsed query (``user``: who searches, for ``owned:``)."""
    languages = _languages(query.root)
    compiler = _Compiler(glossary, languages, user)
    ids = compiler.compile(query.root) if query.root is not None else ALL_CARDS
    order = (query.display.order or "number").lower()
    numeric = sorted(
        name for name, specs in declared_fields().items() if all(isinstance(s.type, NUMERIC_TYPES) for s in specs)
    )
    if order not in ORDERS and order not in numeric:
        raise ast.QuerySyntaxError(
            "unknown_order", query.display.order_position, value=order, orders=[*ORDERS, *numeric]
        )
    return CompiledQuery(
        ids=ids,
        also_searched=compiler.also_searched,
        order=order,
        descending=(query.display.direction or "asc").lower() == "desc",
        languages=languages,
        highlight_terms=compiler.highlight_terms,
    )


def ordered(cards: QuerySet[Card], compiled: CompiledQuery, ui_language: str) -> QuerySet[Card]:
    """Apply the query's order; unknown values sort last either way, then by number."""
    descending = compiled.descending
    if compiled.order == "number":
        # The id breaks ties as the search documents' positions do (cards.search.indexing).
        return cards.order_by(*(("-sort_key", "-id") if descending else ("sort_key", "id")))
    if compiled.order == "game":
        game_order = F("game__sort_order").desc() if descending else F("game__sort_order").asc()
        return cards.order_by(game_order, "sort_key")
    if compiled.order == "kind":
        kind = F("kind").desc(nulls_last=True) if descending else F("kind").asc(nulls_last=True)
        return cards.order_by(kind, "sort_key")
    if compiled.order == "name":
        # the card's main names (as its page heads it), not another translation track's
        names = CardText.objects.filter(Q(track__isnull=True) | Q(track__main=True), card=OuterRef("pk")).exclude(
            name=""
        )
        # Ordered by their own columns: CardText's default order is its card's, which joined the card and its
        # game into the sub-select run for every card sorted. Measured (docs/benchmarks.md, Search): SQLite at
        # 100,000 cards, `-kind:job order:name` 397 -> 331 ms; PostgreSQL at 2,000, 21,082 -> 13,750 buffers.
        main_first = F("track_id").asc(nulls_first=True)
        name = Coalesce(
            Subquery(names.filter(language=ui_language).order_by(main_first).values("name")[:1]),
            Subquery(names.order_by("language", main_first).values("name")[:1]),
        )
        sort_name = F("sort_name").desc(nulls_last=True) if descending else F("sort_name").asc(nulls_last=True)
        return cards.annotate(sort_name=name).order_by(sort_name, "sort_key")
    values = CardFieldValue.objects.filter(card=OuterRef("pk"), field=compiled.order).order_by("number")
    value = F("sort_value").desc(nulls_last=True) if descending else F("sort_value").asc(nulls_last=True)
    return cards.annotate(sort_value=Subquery(values.values("number")[:1])).order_by(value, "sort_key")
