"""Compiles the hot core of the エンドブレイカー！SCG game engine with mypyc, in place (bin/setup runs it).

The compiled modules are the same source, typed and turned into C: the same seeds play the same games. A build
stamp (``native_stamp.json`` beside the package) records a digest of every source of the package; at import the
package (``simulator.engines.endbreaker_game.native``) uses the compiled modules only while every source still
matches the stamp, so an edited source is never shadowed by an old build. Without a C compiler the build is
skipped with a message and the engine runs as plain Python.

Run: ``python tools/build_native.py`` (``--force`` rebuilds even when the stamp matches).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from simulator.engines.endbreaker_game import native  # noqa: E402


def build(force: bool = False) -> int:
    package = native.PACKAGE_DIR
    if not force and native.compiled_in_use():
        print("build_native: the compiled engine is up to date")
        return 0
    if shutil.which(os.environ.get("CC", "cc")) is None:
        print("build_native: no C compiler: the engine runs as plain Python (slower)")
        return 0
    native.remove_build()
    sources = [str(package.relative_to(ROOT) / f"{name}.py") for name in native.COMPILED]
    script = (
        "from setuptools import setup\n"
        "from mypyc.build import mypycify\n"
        f"setup(name='endbreaker_native', ext_modules=mypycify({sources!r}, opt_level='3', "
        f"group_name={native.GROUP!r}))\n"
    )
    with tempfile.TemporaryDirectory() as scratch:
        setup_file = Path(scratch) / "setup_native.py"
        setup_file.write_text(script)
        command = [sys.executable, str(setup_file), "build_ext", "--inplace", "--build-temp", scratch]
        result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    if result.returncode != 0:
        native.remove_build()
        print(result.stdout[-4000:], result.stderr[-4000:], sep="\n", file=sys.stderr)
        print("build_native: the build failed: the engine runs as plain Python (slower)", file=sys.stderr)
        return 0
    native.write_stamp()
    print(f"build_native: compiled {', '.join(native.COMPILED)}")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--force", action="store_true")
    return build(parser.parse_args().force)


if __name__ == "__main__":
    raise SystemExit(main())
