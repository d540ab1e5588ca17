"""``manage.py check --deploy`` run as a server's environment would run it."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.servers import ROOT


def check_deploy(environment: dict[str, str]) -> subprocess.CompletedProcess:
    # Only what a server's environment would hold: nothing the test settings put in this process's.
    clean = {key: os.environ[key] for key in ("PATH", "HOME", "LANG") if key in os.environ}
    clean.update(environment, DJANGO_SETTINGS_MODULE="cardsite.settings")
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=clean,
        capture_output=True,
        text=True,
        timeout=120,
    )
