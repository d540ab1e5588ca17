"""JSON read with limits (plain Python): bodies and files from anyone must not exhaust a worker.

Python's ``json`` recurses once per level of nesting: ``'[' * 1000 + ']' * 1000`` raises
RecursionError (a 500, were it not caught), and a number of 5,000 digits raises ValueError rather
than a decoding error. ``loads`` turns both into ``JSONLimitError`` and refuses any document nested
deeper than the site's formats ever are.

JSON's ``\\uXXXX`` escapes can write half of a UTF-16 surrogate pair alone (``"\\udc00"``): Python reads it
into a ``str`` that no encoder accepts, so every later step that writes it (the database, an error message
that quotes it, the JSON renderer) fails with a 500. ``loads`` refuses such a document once, here, naming
the place (``cards[0].name``) without quoting the text.

What is wrong is a code of ``PROBLEMS``, never Python's English: ``JSONLimitError.code`` for a limit,
``syntax_problem`` for a decoding error. The readers' sentences put its clause into their language
(``cardsite.parsers`` for a request's body, ``cards.gamedefs.messages`` for a card file).
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterable
from typing import Any

from .labels import N_

# The deepest document the site reads (a card file: cards[i].texts.<language>.<part>) has 5 levels.
MAX_DEPTH = 32


# What is wrong with a JSON text: a clause that a reader's sentence frames ("… is not valid JSON: %(problem)s"),
# in English, put into the reader's language where it is shown.
PROBLEMS: dict[str, str] = {
    "expecting_value": N_("a value is expected here"),
    "expecting_comma": N_("a comma is expected here, between two items"),
    "expecting_colon": N_("a colon is expected here, after a property's name"),
    "expecting_name": N_("a property's name in double quotes is expected here"),
    "unterminated_string": N_("the text that begins here has no closing double quote"),
    "control_character": N_(
        "a text holds a control character here, such as a line break, which JSON writes as an escape"
    ),
    "invalid_escape": N_("a backslash here begins an escape that JSON does not have"),
    "invalid_unicode_escape": N_("a Unicode escape here needs four hexadecimal digits"),
    "extra_data": N_("more follows the end of the document here"),
    "trailing_comma": N_("a comma here comes before the end of a list or an object"),
    "invalid": N_("this is not JSON"),
    "too_deep": N_("it is nested more than %(limit)s levels deep"),
    "number_too_long": N_("a number in it has more than %(limit)s digits"),
    "not_unicode": N_("the text at %(place)s is not valid Unicode: it holds %(character)s, half of a surrogate pair"),
}

# Python's messages for a decoding error (the same in its C scanner and its Python one), by code of PROBLEMS.
_SYNTAX_CODES: dict[str, str] = {
    "Expecting value": "expecting_value",
    "Expecting ',' delimiter": "expecting_comma",
    "Expecting ':' delimiter": "expecting_colon",
    "Expecting property name enclosed in double quotes": "expecting_name",
    "Unterminated string starting at": "unterminated_string",
    "Invalid control character at": "control_character",
    "Invalid \\escape": "invalid_escape",
    "Invalid \\uXXXX escape": "invalid_unicode_escape",
    "Extra data": "extra_data",
    "Illegal trailing comma before end of object": "trailing_comma",  # Python 3.13 on
    "Illegal trailing comma before end of array": "trailing_comma",
}


def syntax_problem(error: json.JSONDecodeError) -> str:
    """The code of ``PROBLEMS`` for a decoding error (``invalid`` for a message this table does not know)."""
    return _SYNTAX_CODES.get(error.msg, "invalid")


class JSONLimitError(ValueError):
    """The document is valid JSON, or might be, but is beyond what the site reads: ``code`` (of ``PROBLEMS``)
    and its ``params``."""

    def __init__(self, code: str, **params: Any) -> None:
        self.code = code
        self.params = params
        super().__init__(PROBLEMS[code] % params)


def depth(value: Any) -> int:
    """How deeply ``value`` nests lists and objects (a scalar is 0), without recursion."""
    deepest = 0
    stack = [(value, 0)]
    while stack:
        current, level = stack.pop()
        if isinstance(current, dict):
            children: Iterable[Any] = current.values()
        elif isinstance(current, list):
            children = current
        else:
            continue
        level += 1
        deepest = max(deepest, level)
        stack.extend((child, level) for child in children if isinstance(child, dict | list))
    return deepest


_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_PLACE_KEY_LENGTH = 40  # a key longer than this is shortened where a place is named


def _is_unicode(text: str) -> bool:
    if text.isascii():
        return True
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _lone_surrogate(text: str) -> str:
    """The first lone surrogate of ``text`` as ``U+DC00`` (never the character itself)."""
    return next(f"U+{ord(char):04X}" for char in text if 0xD800 <= ord(char) <= 0xDFFF)


def _key_place(path: str, key: str) -> str:
    if _IDENTIFIER.match(key):
        return f"{path}.{key}" if path else key
    shown = key if len(key) <= _PLACE_KEY_LENGTH else key[:_PLACE_KEY_LENGTH] + "…"
    # ASCII only: a key holding a surrogate is written as its escape, so the place itself can be written.
    return f"{path}[{json.dumps(shown, ensure_ascii=True)}]"


def invalid_unicode(value: Any) -> tuple[str, str] | None:
    """Where ``value`` (a decoded JSON document) holds text that is not valid Unicode, and which code point:
    ``("cards[0].name", "U+DC00")``, ``body`` for the document itself; ``None`` when all its text is valid.
    Object keys are text too. Without recursion, like ``depth``."""
    stack: list[tuple[Any, str]] = [(value, "")]
    while stack:
        current, path = stack.pop()
        if isinstance(current, str):
            if not _is_unicode(current):
                return path or "body", _lone_surrogate(current)
        elif isinstance(current, dict):
            children = []
            for key, child in current.items():
                if not _is_unicode(key):
                    return _key_place(path, key), _lone_surrogate(key)
                children.append((child, _key_place(path, key)))
            stack.extend(reversed(children))  # the first problem in reading order is the one named
        elif isinstance(current, list):
            stack.extend(reversed([(child, f"{path}[{index}]") for index, child in enumerate(current)]))
    return None


def loads(text: str | bytes, *, max_depth: int = MAX_DEPTH) -> Any:
    """``json.loads`` that raises ``json.JSONDecodeError`` for bad JSON and ``JSONLimitError`` beyond limits."""
    try:
        value = json.loads(text)
    except RecursionError:
        raise JSONLimitError("too_deep", limit=max_depth) from None
    except json.JSONDecodeError:
        raise
    except ValueError:  # an integer with more digits than Python converts (the one ValueError json raises)
        raise JSONLimitError("number_too_long", limit=sys.get_int_max_str_digits()) from None
    if depth(value) > max_depth:
        raise JSONLimitError("too_deep", limit=max_depth)
    found = invalid_unicode(value)
    if found is not None:
        raise JSONLimitError("not_unicode", place=found[0], character=found[1])
    return value
