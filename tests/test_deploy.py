"""The production settings: Django's deployment checks name what is missing without the environment the README
gives (that they are clean with it: tests/test_readme_production_block.py)."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from .servers import ROOT
from .support.deploy import check_deploy


def test_check_deploy_names_what_a_bare_environment_lacks():
    result = check_deploy({"DEBUG": "0", "SECRET_KEY": "short"})
    assert result.returncode != 0
    report = result.stdout + result.stderr
    for problem in ("security.W004", "security.W008", "security.W009"):
        assert problem in report


def test_settings_refuse_to_start_without_a_secret_key():
    result = check_deploy({"DEBUG": "0", "SECRET_KEY": ""})
    assert result.returncode != 0
    assert "Set SECRET_KEY" in result.stderr


def test_front_end_packages_come_from_npm_and_are_never_committed():
    """package.json and its lock file are in the repository; what npm installs (node_modules, or a link to
    another checkout's) is not: a fresh clone gets its own from ``npm ci`` in bin/setup."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    tracked = subprocess.run(
        ["git", "ls-files", "--", "package.json", "package-lock.json", "node_modules"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert tracked == ["package-lock.json", "package.json"]
