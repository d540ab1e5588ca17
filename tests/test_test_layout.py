"""The test suite's own layout: no test module imports another, and each fixture is defined once.

A helper two test modules share lives in tests/support/, a fixture in tests/fixtures/ (loaded by
tests/conftest.py). A test module that defines a fixture of a shared name would quietly replace the shared
one for its own tests, so that the same name means two things; one that imports another test module runs
the other's module-level code and ties the two together.
"""

from __future__ import annotations

import ast
from pathlib import Path

from .support.sources import parsed

TESTS = Path(__file__).resolve().parent


def _test_modules() -> list[Path]:
    return sorted(TESTS.glob("test_*.py"))


def _imported_modules(tree: ast.Module) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:
                names = [module] if module else [alias.name for alias in node.names]
                found += [(node.lineno, f"tests.{name}") for name in names]
            else:
                found.append((node.lineno, module))
        elif isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
    return found


def _is_test_module(name: str) -> bool:
    parts = name.split(".")
    return len(parts) >= 2 and parts[0] == "tests" and (parts[1].startswith("test_") or parts[1] == "conftest")


def _fixtures(tree: ast.Module) -> list[tuple[int, str]]:
    """The module-level functions decorated as fixtures (``@pytest.fixture`` with or without arguments)."""
    found = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            for decorator in node.decorator_list:
                target = decorator.func if isinstance(decorator, ast.Call) else decorator
                if ast.unparse(target) in ("pytest.fixture", "fixture"):
                    found.append((node.lineno, node.name))
    return found


def test_no_test_module_imports_another_test_module():
    offences = [
        f"{path.name}:{line} imports {module}"
        for path in _test_modules()
        + sorted((TESTS / "support").glob("*.py"))
        + sorted((TESTS / "fixtures").glob("*.py"))
        for line, module in _imported_modules(parsed(path))
        if _is_test_module(module)
    ]
    assert not offences, "move what they share to tests/support/ or tests/fixtures/:\n" + "\n".join(offences)


def test_each_fixture_is_defined_once():
    shared: dict[str, str] = {}
    offences = []
    for path in sorted((TESTS / "fixtures").glob("*.py")):
        for line, name in _fixtures(parsed(path)):
            if name in shared:
                offences.append(f"fixtures/{path.name}:{line} defines {name} again (also in {shared[name]})")
            shared[name] = f"fixtures/{path.name}"
    local: dict[str, str] = {}
    for path in [*_test_modules(), TESTS / "conftest.py", *sorted((TESTS / "support").glob("*.py"))]:
        for line, name in _fixtures(parsed(path)):
            if name in shared:
                offences.append(f"{path.name}:{line} redefines the shared fixture {name} ({shared[name]})")
            elif name in local:
                offences.append(
                    f"{path.name}:{line} defines {name}, as {local[name]} does: share it in tests/fixtures/"
                )
            local.setdefault(name, path.name)
    assert not offences, "\n".join(offences)


def test_the_checks_find_what_they_look_for():
    """The two checks above catch an offence written each way they could be."""
    imports = ast.parse("from .test_pages import parse\nfrom tests.test_search import found\nimport tests.conftest\n")
    assert [m for _line, m in _imported_modules(imports) if _is_test_module(m)] == [
        "tests.test_pages",
        "tests.test_search",
        "tests.conftest",
    ]
    assert not [
        m for _line, m in _imported_modules(ast.parse("from .support.html import parse\n")) if _is_test_module(m)
    ]
    fixtures = ast.parse(
        "@pytest.fixture\ndef game(db): ...\n@pytest.fixture(autouse=True)\ndef x(): ...\ndef y(): ...\n"
    )
    assert [name for _line, name in _fixtures(fixtures)] == ["game", "x"]
