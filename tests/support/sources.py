"""Reading the project's own source files as syntax trees, for the tests that check its layout."""

from __future__ import annotations

import ast
import threading
from pathlib import Path


def parsed(path: Path) -> ast.Module:
    """``path``'s syntax tree, parsed in a thread of its own: CPython 3.11's AST constructor can misjudge its
    recursion depth in a thread whose counters other work has moved ("SystemError: AST constructor recursion
    depth mismatch", CPython gh-106905, met once in a whole run); a fresh thread starts at a known depth."""
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
