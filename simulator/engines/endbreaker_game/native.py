"""Which build of the game core runs: the compiled one (``tools/build_native.py``, mypyc) only while it matches the
sources it was built from, else the plain-Python sources. No Django here.

mypyc turns ``skills`` and ``game`` into C extension modules beside their sources, and Python imports an extension
before a source of the same name. An edited source must never be shadowed by an older build, so the build writes a
stamp: a digest of every source the compiled code was typed against (the whole package, since mypyc reads the
types of the modules it calls, and ``simulator/core.py``). ``use_fresh_build_only`` runs first thing when the
package is imported: when the stamp is missing or differs, the compiled modules are loaded from their ``.py``
files instead. All or none: the two compiled modules call each other directly in C, so one compiled module beside
one source module would still run the old code.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import sys
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
PROJECT_DIR = PACKAGE_DIR.parents[2]
# In import order: game imports skills.
COMPILED = ("declarations", "rules", "strategy", "skills", "setup", "effects", "game")
GROUP = "endbreaker_native"
STAMP = PACKAGE_DIR / "native_stamp.json"
# Sources outside the package whose types the compiled modules use.
OUTSIDE_SOURCES = (PROJECT_DIR / "simulator" / "core.py",)

# Set to "source" to run the plain-Python sources although a fresh build is present (the benchmark's baseline).
FORCE_SOURCE_VARIABLE = "ENDBREAKER_ENGINE_BUILD"

# "compiled" or "source": what this process runs (set by ``use_fresh_build_only``).
mode = "source"


def source_digest() -> str:
    """A digest of every source the build depends on, and of the interpreter it was built for."""
    digest = hashlib.sha256(sys.implementation.cache_tag.encode())
    for path in sorted(PACKAGE_DIR.glob("*.py")) + list(OUTSIDE_SOURCES):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def built_files() -> list[Path]:
    """The extension modules of a build that is present (fresh or not)."""
    files = [path for name in COMPILED for path in PACKAGE_DIR.glob(f"{name}.*.so")]
    return files + list(PROJECT_DIR.glob(f"{GROUP}__mypyc.*.so"))


def build_is_fresh() -> bool:
    """A whole build is present and was made from exactly today's sources."""
    present = {path.name.split(".", 1)[0] for path in built_files()}
    if not {*COMPILED, f"{GROUP}__mypyc"} <= present:
        return False
    try:
        stamp = json.loads(STAMP.read_text())
    except (OSError, ValueError):
        return False
    return stamp.get("digest") == source_digest()


def compiled_in_use() -> bool:
    return build_is_fresh()


def write_stamp() -> None:
    STAMP.write_text(json.dumps({"digest": source_digest(), "modules": list(COMPILED)}) + "\n")


def remove_build() -> None:
    for path in built_files():
        path.unlink(missing_ok=True)
    STAMP.unlink(missing_ok=True)


def load_sources(package: str, directory: Path = PACKAGE_DIR, names: tuple[str, ...] = COMPILED) -> None:
    """Imports ``package.name`` for each name from its ``.py`` file, ahead of any extension module beside it."""
    for name in names:
        qualified = f"{package}.{name}"
        spec = importlib.util.spec_from_file_location(qualified, directory / f"{name}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[qualified] = module
        try:
            spec.loader.exec_module(module)
        except BaseException:
            del sys.modules[qualified]
            raise


def use_fresh_build_only(package: str) -> str:
    """Called by the package's ``__init__`` before it imports the compiled modules; returns the mode chosen."""
    global mode
    if build_is_fresh() and os.environ.get(FORCE_SOURCE_VARIABLE) != "source":
        mode = "compiled"
    else:
        if built_files():
            load_sources(package)
        mode = "source"
    return mode
