"""JSON read with limits (plain Python): bodies and files from anyone must not exhaust a worker.

Python's ``json`` recurses once per level of nesting: ``'[' * 1000 + ']' * 1000`` raises
RecursionError (a 500, were it not caught), and a number of 5,000 digits raises ValueError rather
than a decoding error. ``loads`` turns both into ``JSONLimitError`` and refuses any document nested
deeper than the site's formats ever are.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

# The deepest document the site reads (a card file: cards[i].texts.<language>.<part>) has 5 levels.
MAX_DEPTH = 32


class JSONLimitError(ValueError):
    """The document is valid JSON, or might be, but is beyond what the site reads."""


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


def loads(text: str | bytes, *, max_depth: int = MAX_DEPTH) -> Any:
    """``json.loads`` that raises ``json.JSONDecodeError`` for bad JSON and ``JSONLimitError`` beyond limits."""
    try:
        value = json.loads(text)
    except RecursionError:
        raise JSONLimitError(f"it is nested more than {max_depth} levels deep") from None
    except json.JSONDecodeError:
        raise
    except ValueError as error:  # e.g. an integer with more digits than Python converts
        raise JSONLimitError(str(error)) from None
    if depth(value) > max_depth:
        raise JSONLimitError(f"it is nested more than {max_depth} levels deep")
    return value
