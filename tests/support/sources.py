"""Reading the project's own source files as syntax trees, for the tests that check its layout."""

from __future__ import annotations

import ast
import threading
from pathlib import Path


def parsed(path: Path, attempts: int = 3) -> ast.Module:
    """``path``'s syntax tree. CPython 3.11 keeps the AST constructor's recursion depth once per interpreter, not
    per thread, so a tree built while another thread builds one (``traceback`` parses a line to place its carets
    when any thread formats an exception) can fail with "SystemError: AST constructor recursion depth mismatch"
    (CPython gh-106905). The tree is parsed in a thread of its own and, on that error alone, parsed again."""
    for attempt in range(attempts):
        try:
            return _parsed_in_a_thread(path)
        except SystemError as error:
            if "recursion depth mismatch" not in str(error) or attempt == attempts - 1:
                raise
    raise AssertionError("unreachable")


def _parsed_in_a_thread(path: Path) -> ast.Module:
    found: list[ast.Module] = []
    failed: list[BaseException] = []

    def parse() -> None:
        try:
            found.append(ast.parse(path.read_text(encoding="utf-8"), filename=str(path)))
        except BaseException as error:  # handed back to the caller's thread
            failed.append(error)

    worker = threading.Thread(target=parse, name=f"parse {path.name}")
    worker.start()
    worker.join()
    if failed:
        raise failed[0]
    return found[0]
