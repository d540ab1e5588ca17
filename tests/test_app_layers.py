"""The apps stand on floors: a lower app never imports a higher one, the plain-Python cores import no Django
(pyproject's [tool.importlinter] contracts), and no app imports a private name of another."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

from .support.sources import parsed

ROOT = Path(__file__).resolve().parent.parent
APPS = ("cardsite", "accounts", "cards", "decks", "collection", "contributions", "community", "simulator", "readings")


def test_the_import_contracts_hold():
    lint_imports = Path(sys.executable).parent / "lint-imports"
    done = subprocess.run(
        [str(lint_imports), "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr


def _private_names_taken(path: Path, app: str) -> list[str]:
    found = []
    for node in ast.walk(parsed(path)):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            home = node.module.split(".")[0]
            if home in APPS and home != app:
                found += [
                    f"{path.relative_to(ROOT)}:{node.lineno} {node.module}.{alias.name}"
                    for alias in node.names
                    if alias.name.startswith("_")
                ]
    return found


def test_no_app_imports_another_apps_private_name():
    taken = [
        name
        for app in APPS
        for path in sorted((ROOT / app).rglob("*.py"))
        if "migrations" not in path.parts
        for name in _private_names_taken(path, app)
    ]
    assert taken == [], "make the name public in its app, or move it below both apps"
