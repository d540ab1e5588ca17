"""The one way the site writes CSV, and reads back what it wrote (plain Python).

A spreadsheet evaluates a cell that begins with ``=``, ``+``, ``-`` or ``@`` (and, in some, a tab or a
carriage return before one) as a formula: a contributed card named ``=HYPERLINK("http://…")`` would run
in the spreadsheet of whoever opens their collection export. Following OWASP's guidance on CSV injection,
``writer`` puts a single quote before every such text cell, so that the spreadsheet shows it as text. The
full-width forms (``＝＋－＠``) are neutralised too: spreadsheets with Japanese or Chinese input normalise
them to their ASCII forms.

Only text is neutralised: a number (``int``, ``float``, ``Decimal``) is written as it is, so that a count
of -3 stays -3 in its column.

The quote is added so that it can be taken off again exactly: a text that already begins with quotes and
then a formula character (``'=x``) gets one more, and ``reader`` takes one quote off every cell made of
quotes followed by a formula character. Every other cell is read as written, so what a person types in a
spreadsheet is read as before.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Iterator
from typing import Any, TextIO

# The first characters that make a spreadsheet evaluate a cell, in ASCII and in full width.
FORMULA_STARTS = frozenset("=+-@\t\r＝＋－＠")
QUOTE = "'"


def _quoted_formula(text: str) -> bool:
    """Whether ``text`` is quotes (none or more) followed by a character that starts a formula."""
    rest = text.lstrip(QUOTE)
    return bool(rest) and rest[0] in FORMULA_STARTS


def neutralise(value: Any) -> Any:
    """``value`` as a cell a spreadsheet does not evaluate: a text starting a formula gets a quote first."""
    if isinstance(value, str) and _quoted_formula(value):
        return QUOTE + value
    return value


def restore(cell: str) -> str:
    """The text ``neutralise`` was given for ``cell`` (a cell of a file the site wrote, or any other)."""
    if cell.startswith(QUOTE) and _quoted_formula(cell):
        return cell[1:]
    return cell


class Writer:
    """``csv.writer`` whose rows are neutralised cell by cell (lines end in ``\\n``)."""

    def __init__(self, out: TextIO) -> None:
        self._writer = csv.writer(out, lineterminator="\n")
        # csv quotes a cell holding the line terminator but not a lone carriage return, which readers take
        # for the end of a line: a row with one is written with every cell quoted.
        self._quoting_writer = csv.writer(out, lineterminator="\n", quoting=csv.QUOTE_ALL)

    def writerow(self, row: Iterable[Any]) -> None:
        cells = [neutralise(value) for value in row]
        carriage_return = any(isinstance(cell, str) and "\r" in cell for cell in cells)
        (self._quoting_writer if carriage_return else self._writer).writerow(cells)

    def writerows(self, rows: Iterable[Iterable[Any]]) -> None:
        for row in rows:
            self.writerow(row)


def dumps(header: Iterable[str], rows: Iterable[Iterable[Any]]) -> str:
    """A whole CSV text: ``header`` then ``rows``, every text cell neutralised."""
    out = io.StringIO()
    writer = Writer(out)
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue()


class Reader:
    """``csv.reader`` over ``text`` whose cells are restored (``restore``); ``line_num`` as csv's."""

    def __init__(self, text: str) -> None:
        self._reader = csv.reader(io.StringIO(text, newline=""))

    @property
    def line_num(self) -> int:
        return self._reader.line_num

    def __iter__(self) -> Iterator[list[str]]:
        return self

    def __next__(self) -> list[str]:
        return [restore(cell) for cell in next(self._reader)]
