"""One layout for every feature: a package with the same file names, and features that use each other only
through their reads and writes (``selectors``, ``services``), never through another's pages, forms or API."""

import ast
from pathlib import Path

import pytest

from .support.sources import parsed

ROOT = Path(__file__).resolve().parent.parent
# The apps (the ground, cardsite, holds no feature: its api_*.py are helpers of every app's API).
APPS = ["accounts", "notifications", "cards", "decks", "community", "collection", "contributions", "readings"]
APPS += ["simulator"]
ROLES = ("views", "api", "urls", "forms", "services", "selectors", "serializers")
PUBLIC_ROLES = {"services", "selectors"}
FEATURES = {
    "simulator": ["goldfish", "assumptions", "comparisons", "strategies", "seated", "searches", "setups"],
    "cards": ["images", "search", "reading"],
    "decks": ["decklists", "organise", "versions", "printing"],
    "contributions": ["images"],
}


def modules(app: str) -> list[Path]:
    return [path for path in (ROOT / app).rglob("*.py") if "migrations" not in path.parts]


def test_the_features_are_packages():
    for app, features in FEATURES.items():
        for feature in features:
            assert (ROOT / app / feature / "__init__.py").exists(), f"{app}/{feature}"


@pytest.mark.parametrize("app", APPS)
def test_no_module_names_its_role_in_its_file_name(app):
    """``views_images.py``, ``comparison_views.py``, ``urls_decklist.py``: such a module belongs in a feature
    package as ``images/views.py`` (one naming order: the feature, then the role)."""
    odd = [
        str(path.relative_to(ROOT))
        for path in modules(app)
        for role in ROLES
        if path.stem != role and (path.stem.startswith(f"{role}_") or path.stem.endswith(f"_{role}"))
    ]
    assert odd == []


def imported_modules(path: Path) -> list[tuple[int, str]]:
    """Every module a file imports, as absolute dotted names (``from . import x`` names ``package.x``)."""
    package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
    found = []
    for node in ast.walk(parsed(path)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parts, base] if base else parts)
            found += [(node.lineno, f"{base}.{alias.name}") for alias in node.names] + [(node.lineno, base)]
    return found


@pytest.mark.parametrize("app", sorted(FEATURES))
def test_a_feature_reaches_another_only_through_its_reads_and_writes(app):
    reaches = []
    for feature in FEATURES[app]:
        for path in (ROOT / app / feature).rglob("*.py"):
            for line, name in imported_modules(path):
                parts = name.split(".")
                if len(parts) < 3 or parts[0] != app or parts[1] == feature or parts[1] not in FEATURES[app]:
                    continue
                if parts[2] in ROLES and parts[2] not in PUBLIC_ROLES:
                    reaches.append(f"{path.relative_to(ROOT)}:{line} imports {'.'.join(parts[:3])}")
    assert reaches == []
