"""The expression tree of a search query (plain Python).

``parse(query)`` in ``cards.search.parser`` builds it; the compiler turns it
into database filters. Every node keeps the span (start, end) of the query text
it came from, so an error can point at the place.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

Span = tuple[int, int]


class Operator(StrEnum):
    COLON = ":"
    EQ = "="
    NE = "!="
    LT = "<"
    LE = "<="
    GT = ">"
    GE = ">="


@dataclass(frozen=True)
class Term:
    """A bare word or a "quoted phrase": matches names and rules text in every language."""

    text: str
    quoted: bool = False
    span: Span = (0, 0)


@dataclass(frozen=True)
class Regex:
    """/pattern/ on rules text (and names)."""

    pattern: str
    span: Span = (0, 0)


@dataclass(frozen=True)
class FieldFilter:
    """name OP value, e.g. game:endbreaker, at>=3, cost:PPT, is:translated, has:cost.

    ``name`` is the field as typed, lower-cased (aliases are resolved by the compiler:
    g -> game, n -> name, o -> text, t -> kind). ``value`` is the raw value text
    (quotes removed); ``regex`` is True for name:/re/ or text:/re/.
    """

    name: str
    operator: Operator
    value: str
    regex: bool = False
    span: Span = (0, 0)


@dataclass(frozen=True)
class Not:
    operand: Node
    span: Span = (0, 0)


@dataclass(frozen=True)
class And:
    operands: tuple[Node, ...]
    span: Span = (0, 0)


@dataclass(frozen=True)
class Or:
    operands: tuple[Node, ...]
    span: Span = (0, 0)


Node = Term | Regex | FieldFilter | Not | And | Or


@dataclass(frozen=True)
class Display:
    """order:NAME and direction:asc|desc, which shape the results but do not filter."""

    order: str | None = None
    direction: str | None = None
    order_position: int = field(default=0, compare=False)  # where the order: word stands, for errors


@dataclass(frozen=True)
class Query:
    """A parsed query: ``root`` is None for an empty query (or one with only display words)."""

    root: Node | None
    display: Display = field(default_factory=Display)


class QuerySyntaxError(ValueError):
    """The query cannot be parsed: what is wrong (``code``, with ``params``) and where (``position``, the offset
    in the query text). ``message`` is in English; ``cards.search.messages`` has every code."""

    def __init__(self, code: str, position: int, query: str = "", **params: Any) -> None:
        from .messages import english

        self.code = code
        self.params = params
        self.position = position
        self.query = query
        self.message = english(code, params)
        super().__init__(self.message)
