"""Helpers of the cards app's migrations that run SQL of one database vendor (the text index's tables and
triggers are each database's own)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any


def run_on(vendor: str, statements: Sequence[str]) -> Callable[[Any, Any], None]:
    """A ``RunPython`` function that executes ``statements`` on a ``vendor`` database and does nothing on others."""

    def run(apps: Any, schema_editor: Any) -> None:
        if schema_editor.connection.vendor == vendor:
            for statement in statements:
                schema_editor.execute(statement)

    return run
