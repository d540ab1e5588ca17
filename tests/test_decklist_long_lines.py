"""A pasted list's longest lines are read as quickly as short ones: a line of 20,000 digits (the most a list may
hold) once kept a server thread busy for minutes, past the server's time-out, so the request never answered."""

from __future__ import annotations

import pytest

from decks.decklist import parse_decklist
from decks.rules import get_rules


@pytest.mark.parametrize("line", ["0" * 20_000, "Card " + "1" * 19_990, "Card x" + "2" * 19_990, "9" * 19_999 + "枚"])
def test_a_line_as_long_as_a_whole_list_is_read_and_refused_by_its_count(line: str) -> None:
    parsed = parse_decklist(line, get_rules("suikoden"))
    # Whatever the line is taken for, it is answered: a card named by it, or a count refused as too large.
    assert parsed.errors or parsed.lines


def test_counts_at_the_end_of_a_line_are_read_as_before() -> None:
    text = "Sub-Zero x2\n林沖 2枚\nFoo×3\nBar ✕ 4\n5 Baz\nQux"
    parsed = parse_decklist(text, get_rules("suikoden"))
    assert [(line.count, line.name) for line in parsed.lines] == [
        (2, "Sub-Zero"),
        (2, "林沖"),
        (3, "Foo"),
        (4, "Bar"),
        (5, "Baz"),
        (1, "Qux"),
    ]
