"""The compiled build of the エンドブレイカー！SCG game core (tools/build_native.py, mypyc): it plays exactly the games
the plain-Python sources play, and an edited source is never shadowed by an older build."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from simulator.engines.endbreaker_game import native

PROJECT = Path(__file__).resolve().parent.parent

# Plays seeds × 1–4 players of the shipped strategies on the tests' synthetic set-up and prints a digest of every
# log and result, with the build that ran.
PLAY = """
import hashlib, itertools
from simulator.engines.endbreaker_game import STRATEGIES, Game, native
from tests.support.endbreaker_game import make_setup
setup = make_setup()
names = sorted(STRATEGIES)
digest = hashlib.sha256()
for seed in range(40):
    players = 1 + seed % 4
    strategies = [STRATEGIES[names[(seed + seat) % len(names)]] for seat in range(players)]
    game = Game(setup, strategies, seed)
    game.play_to_end()
    digest.update(repr((game.log, game.winners, [p.darc for p in game.players], game.battle_scores)).encode())
print(native.mode, digest.hexdigest())
"""

# Imports the package with its stamp seen as out of date (a source edited since the build), then says which file
# the game module came from.
EDITED = """
import importlib.util, sys
name = "simulator.engines.endbreaker_game.native"
spec = importlib.util.spec_from_file_location(name, "simulator/engines/endbreaker_game/native.py")
native = importlib.util.module_from_spec(spec)
sys.modules[name] = native
spec.loader.exec_module(native)
native.source_digest = lambda: "a source was edited after the build"
import simulator.engines.endbreaker_game.game as game
print(native.mode, game.__file__)
"""


def _run(script: str, **environment: str) -> list[str]:
    result = subprocess.run(
        [sys.executable, "-c", script],
        cwd=PROJECT,
        env={**os.environ, **environment},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.split()


def _need_build() -> None:
    if native.build_is_fresh():
        return
    message = "no fresh compiled build of the game core (bin/setup runs tools/build_native.py; it needs a C compiler)"
    if os.environ.get("CI"):
        pytest.fail(f"the compiled game core is required under CI: {message}")
    pytest.skip(message)


def test_the_compiled_build_plays_exactly_the_games_of_the_sources():
    _need_build()
    compiled_mode, compiled = _run(PLAY)
    source_mode, source = _run(PLAY, **{native.FORCE_SOURCE_VARIABLE: "source"})
    assert (compiled_mode, source_mode) == ("compiled", "source")
    assert compiled == source


def test_an_edited_source_runs_instead_of_the_older_build():
    _need_build()
    mode, module_file = _run(EDITED)
    assert mode == "source" and module_file.endswith("game.py")
    # Unedited, the same import takes the build.
    mode, module_file = _run(EDITED.replace("native.source_digest = ", "unused = "))
    assert mode == "compiled" and module_file.endswith(".so")


def test_the_stamp_goes_out_of_date_when_any_source_the_build_read_changes(tmp_path, monkeypatch):
    copy = tmp_path / "endbreaker_game"
    shutil.copytree(native.PACKAGE_DIR, copy, ignore=shutil.ignore_patterns("*.so", "__pycache__"))
    core = tmp_path / "core.py"
    shutil.copy(PROJECT / "simulator" / "core.py", core)
    monkeypatch.setattr(native, "PACKAGE_DIR", copy)
    monkeypatch.setattr(native, "OUTSIDE_SOURCES", (core,))
    built = native.source_digest()
    (copy / "effects.py").write_text((copy / "effects.py").read_text() + "\n# edited\n")
    after_package_edit = native.source_digest()
    core.write_text(core.read_text() + "\n# edited\n")
    assert len({built, after_package_edit, native.source_digest()}) == 3
