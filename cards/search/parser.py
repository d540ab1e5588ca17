"""Scryfall-style search query parser (plain Python, no Django).

``parse('g:endbreaker at>=3 -is:translated (fire or "ice storm")')`` builds the
tree defined in ``cards.search.ast``. Anything it cannot read raises
``QuerySyntaxError`` with the offset of the problem, so the search page can point
at it; no other exception escapes for any input string.

Grammar (AND binds tighter than OR)::

    query   := or_expr?
    or_expr := and_expr ("or" and_expr)*
    and_expr:= unary (["and"] unary)*
    unary   := "-"* primary
    primary := "(" or_expr ")" | WORD | "PHRASE" | /REGEX/ | NAME OP VALUE

Lexing decisions, each driven by card text in several languages:

* Only ASCII ``(`` ``)`` group; full-width （ ） and 「 」 are ordinary word characters
  because they occur in Japanese and Chinese rules text.
* Quotes are ASCII ``"`` and “ ” (the pair Chinese and Japanese IMEs produce). A quote
  ends the word before it, so ``foo"bar"`` is ``foo`` AND ``"bar"``.
* ``/`` only starts a regex at the start of a term, so 1/1 or AT/DF stay words.
* ``-`` only negates at the start of a term, so EB1-008 is one word.
* A field name is ASCII; the full-width colon ``：`` counts as ``:`` after an ASCII name
  (CJK IME users type ``cost：PPT``) while ``スキル：B`` stays a word.
"""

from __future__ import annotations

import re
import warnings
from dataclasses import dataclass
from enum import Enum, auto
from typing import Any

from cardsite import linear_regex

from .ast import And, Display, FieldFilter, Node, Not, Operator, Or, Query, QuerySyntaxError, Regex, Term
from .messages import regex_problem

__all__ = ["MAX_DEPTH", "QuerySyntaxError", "parse"]

# Real queries nest a handful of levels; the cap keeps the recursive descent (and
# whatever walks the tree later) far away from Python's recursion limit.
MAX_DEPTH = 50

_FIELD = re.compile(r"(?P<name>[A-Za-z][A-Za-z0-9_]*)(?P<op>!=|<=|>=|[:=<>：])")
_CLOSING_QUOTE = {'"': '"', "“": "”"}
_KEYWORDS = frozenset({"or", "and"})
_DISPLAY_FIELDS = frozenset({"order", "direction", "dir"})
_DIRECTIONS = frozenset({"asc", "desc"})


class _Kind(Enum):
    LPAREN = auto()
    RPAREN = auto()
    MINUS = auto()
    OR = auto()
    AND = auto()
    ATOM = auto()


_STARTS = frozenset({_Kind.LPAREN, _Kind.MINUS, _Kind.ATOM})


@dataclass(frozen=True, slots=True)
class _Token:
    kind: _Kind
    start: int
    end: int
    node: Node | None = None


def _is_delimiter(ch: str) -> bool:
    return ch.isspace() or ch in '()"“'


class _Lexer:
    def __init__(self, query: str) -> None:
        self.query = query
        self.tokens: list[_Token] = []
        self.order: str | None = None
        self.order_position = 0
        self.direction: str | None = None

    def error(self, code: str, position: int, **params: Any) -> QuerySyntaxError:
        return QuerySyntaxError(code, position, self.query, **params)

    def run(self) -> list[_Token]:
        query = self.query
        size = len(query)
        i = 0
        # A word straight after '-' is a term to exclude, never the and/or keyword.
        negated = False
        while i < size:
            ch = query[i]
            if ch.isspace():
                i += 1
                continue
            if ch in "()":
                self.tokens.append(_Token(_Kind.LPAREN if ch == "(" else _Kind.RPAREN, i, i + 1))
                i += 1
                negated = False
                continue
            if ch == "-":
                following = query[i + 1] if i + 1 < size else ""
                if not following or following.isspace() or following == ")":
                    raise self.error("minus_space", i)
                self.tokens.append(_Token(_Kind.MINUS, i, i + 1))
                i += 1
                negated = True
                continue
            if ch in _CLOSING_QUOTE:
                text, end = self.quoted(i)
                if not text.strip():
                    raise self.error("empty_quotes", i)
                self.atom(Term(text, quoted=True, span=(i, end)))
                i = end
            elif ch == "/":
                pattern, end = self.regex(i)
                self.atom(Regex(pattern, span=(i, end)))
                i = end
            elif match := _FIELD.match(query, i):
                i = self.field(match, negated)
            else:
                end = self.word_end(i)
                word = query[i:end]
                if not negated and word.isascii() and word.lower() in _KEYWORDS:
                    self.tokens.append(_Token(_Kind.OR if word.lower() == "or" else _Kind.AND, i, end))
                else:
                    self.atom(Term(word, quoted=False, span=(i, end)))
                i = end
            negated = False
        return self.tokens

    def atom(self, node: Node) -> None:
        self.tokens.append(_Token(_Kind.ATOM, node.span[0], node.span[1], node))

    def word_end(self, i: int) -> int:
        query = self.query
        while i < len(query) and not _is_delimiter(query[i]):
            i += 1
        return i

    def quoted(self, start: int) -> tuple[str, int]:
        """The text of the phrase opening at ``start`` and the offset after its closing quote."""
        query = self.query
        closer = _CLOSING_QUOTE[query[start]]
        chars: list[str] = []
        i = start + 1
        while i < len(query):
            ch = query[i]
            # Only \" and \\ are escapes: other backslashes stay literal so text such as
            # "C:\x" needs no doubling.
            if ch == "\\" and i + 1 < len(query) and query[i + 1] in (closer, "\\"):
                chars.append(query[i + 1])
                i += 2
                continue
            if ch == closer:
                return "".join(chars), i + 1
            chars.append(ch)
            i += 1
        raise self.error("unclosed_quote", start)

    def regex(self, start: int) -> tuple[str, int]:
        """The pattern of the /regex/ opening at ``start`` (validated) and the offset after it."""
        query = self.query
        size = len(query)
        chars: list[str] = []
        # Where each pattern character came from, so a compile error points into the query.
        offsets: list[int] = []
        i = start + 1
        while True:
            if i >= size:
                raise self.error("unclosed_regex", start)
            ch = query[i]
            if ch == "\\" and i + 1 < size:
                if query[i + 1] == "/":
                    chars.append("/")
                    offsets.append(i)
                else:
                    chars += [ch, query[i + 1]]
                    offsets += [i, i + 1]
                i += 2
                continue
            if ch == "/":
                break
            chars.append(ch)
            offsets.append(i)
            i += 1
        closing = i
        end = closing + 1
        pattern = "".join(chars)
        if not pattern:
            raise self.error("empty_regex", start)
        try:
            # re warns (FutureWarning "possible nested set") about valid patterns such as
            # [[a]; under -W error that warning would escape as a non-syntax exception.
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                re.compile(pattern)
        # re reports most mistakes as re.error, but a huge repeat count raises
        # OverflowError and deep nesting RecursionError; all mean "invalid pattern".
        except re.error as exc:
            if exc.pos is None:
                position = start
            elif exc.pos < len(offsets):
                position = offsets[exc.pos]
            else:
                position = closing
            raise self.error(regex_problem(exc.msg), position) from None
        except OverflowError:
            raise self.error("regex_repeat_too_large", start) from None
        except RecursionError:
            raise self.error("regex_too_deep", start) from None
        if len(pattern) > linear_regex.MAX_LENGTH:
            raise self.error("regex_too_long", start, limit=linear_regex.MAX_LENGTH)
        if linear_regex.problem(pattern):
            raise self.error("regex_unsupported", start)
        if end < size and not (query[end].isspace() or query[end] == ")"):
            # /a/i would otherwise silently become /a/ AND the word "i".
            raise self.error("regex_space_after", end)
        return pattern, end

    def field(self, match: re.Match[str], negated: bool) -> int:
        """Read NAME OP VALUE; returns the offset after the value."""
        query = self.query
        typed_name, op_text = match["name"], match["op"]
        name = typed_name.lower()
        label = typed_name + op_text
        start = match.start()
        value_start = match.end()
        operator = Operator.COLON if op_text == "：" else Operator(op_text)
        following = query[value_start] if value_start < len(query) else ""
        regex = False
        if following in _CLOSING_QUOTE:
            value, end = self.quoted(value_start)
            if not value:
                raise self.error("needs_value", value_start, label=label)
        elif following == "/":
            value, end = self.regex(value_start)
            regex = True
        elif not following or _is_delimiter(following):
            raise self.error("needs_value", value_start, label=label)
        else:
            end = self.word_end(value_start)
            value = query[value_start:end]
        if name in _DISPLAY_FIELDS:
            self.display(name, label, operator, value, regex, negated, start, value_start)
        else:
            self.atom(FieldFilter(name, operator, value, regex=regex, span=(start, end)))
        return end

    def display(
        self,
        name: str,
        label: str,
        operator: Operator,
        value: str,
        regex: bool,
        negated: bool,
        start: int,
        value_start: int,
    ) -> None:
        if negated:
            raise self.error("display_negated", start - 1, label=label)
        if operator not in (Operator.COLON, Operator.EQ):
            raise self.error("display_operator", value_start - len(label) + len(name), name=name)
        if regex:
            raise self.error("display_regex", value_start, label=label)
        value = value.strip().lower()
        if name == "order":
            self.order = value
            self.order_position = start
        elif value in _DIRECTIONS:
            self.direction = value
        else:
            raise self.error("direction", value_start, label=label)


_Parsed = tuple[Node, int, int]
"""A node with the extent of its text, which for a group includes the parentheses."""


class _Parser:
    def __init__(self, query: str, tokens: list[_Token]) -> None:
        self.query = query
        self.tokens = tokens
        self.index = 0

    def error(self, code: str, position: int, **params: Any) -> QuerySyntaxError:
        return QuerySyntaxError(code, position, self.query, **params)

    def peek(self) -> _Token | None:
        return self.tokens[self.index] if self.index < len(self.tokens) else None

    def parse(self) -> Node | None:
        if not self.tokens:
            return None
        node, _, _ = self.or_expr(0)
        leftover = self.peek()
        if leftover is not None:
            # or_expr only stops early at a ')' with no '(' to match.
            raise self.error("unexpected_close", leftover.start)
        return node

    def or_expr(self, depth: int) -> _Parsed:
        items = [self.and_expr(depth)]
        while (token := self.peek()) is not None and token.kind is _Kind.OR:
            self.index += 1
            following = self.peek()
            if following is None or following.kind not in _STARTS:
                raise self.error("keyword_sides", token.start, keyword="or")
            items.append(self.and_expr(depth))
        return _combine(Or, items)

    def and_expr(self, depth: int) -> _Parsed:
        items = [self.unary(depth)]
        while (token := self.peek()) is not None:
            if token.kind is _Kind.AND:
                self.index += 1
                following = self.peek()
                if following is None or following.kind not in _STARTS:
                    raise self.error("keyword_sides", token.start, keyword="and")
            elif token.kind not in _STARTS:
                break
            items.append(self.unary(depth))
        return _combine(And, items)

    def unary(self, depth: int) -> _Parsed:
        minuses: list[int] = []
        token = self.peek()
        while token is not None and token.kind is _Kind.MINUS:
            minuses.append(token.start)
            self.index += 1
            token = self.peek()
        if token is None or token.kind not in (_Kind.LPAREN, _Kind.ATOM):
            if minuses:
                raise self.error("minus_space", minuses[-1])
            if token is None:
                raise self.error("term_missing", len(self.query))
            if token.kind is _Kind.RPAREN:
                raise self.error("unexpected_close", token.start)
            keyword = "or" if token.kind is _Kind.OR else "and"
            raise self.error("keyword_sides", token.start, keyword=keyword)
        depth += len(minuses) + (token.kind is _Kind.LPAREN)
        if depth > MAX_DEPTH:
            raise self.error("too_deep", minuses[0] if minuses else token.start)
        if token.kind is _Kind.LPAREN:
            node, start, end = self.group(depth)
        else:
            assert token.node is not None
            self.index += 1
            node, start, end = token.node, token.start, token.end
        for minus in reversed(minuses):
            node, start = Not(node, span=(minus, end)), minus
        return node, start, end

    def group(self, depth: int) -> _Parsed:
        opening = self.tokens[self.index]
        self.index += 1
        following = self.peek()
        if following is not None and following.kind is _Kind.RPAREN:
            raise self.error("empty_group", opening.start)
        if following is None:
            raise self.error("unclosed_group", opening.start)
        node, _, _ = self.or_expr(depth)
        closing = self.peek()
        if closing is None or closing.kind is not _Kind.RPAREN:
            raise self.error("unclosed_group", opening.start)
        self.index += 1
        return node, opening.start, closing.end


def _combine(cls: type[And] | type[Or], items: list[_Parsed]) -> _Parsed:
    if len(items) == 1:
        return items[0]
    start, end = items[0][1], items[-1][2]
    return cls(tuple(item[0] for item in items), span=(start, end)), start, end


def parse(query: str) -> Query:
    """Parse a search query into a ``Query``; raises ``QuerySyntaxError`` if it cannot."""
    lexer = _Lexer(query)
    tokens = lexer.run()
    root = _Parser(query, tokens).parse()
    return Query(
        root=root, display=Display(order=lexer.order, direction=lexer.direction, order_position=lexer.order_position)
    )
