"""Which release of the site a process serves: a short fingerprint of its code, templates, catalogues and static
files, for what is kept in the shared cache across requests and must not outlive the code that made it.

A page kept by ``cardsite.pagecache`` is HTML rendered by one release's templates and code, naming that release's
static files and carrying the Content-Security-Policy of its stylesheet. After a deploy the new processes must not
answer with the old release's pages (whose static files may be gone), nor the old processes, while both run,
with the new one's. Sessions and rate limits do not depend on the release and are kept as they are.

``RELEASE`` in the environment (a deployment's commit, say) names the release; without it, the fingerprint is
made from the files themselves once per process (about 600 files, a hundredth of a second), so every process and
machine serving the same files agrees on it.
"""

from __future__ import annotations

import functools
import hashlib
import os
from pathlib import Path

from django.conf import settings

# What a release's answers are made of. Tests, benchmarks, tools and docs serve nothing; the rest is the site.
_SUFFIXES = (".py", ".html", ".txt", ".mo", ".css", ".js", ".svg")
_NOT_SERVED = {"node_modules", "var", "staticfiles", "tests", "benchmarks", "tools", "docs", "media"}


@functools.cache
def identity() -> str:
    """This process's release: ``RELEASE`` from the environment, else a fingerprint of the served files."""
    named = os.environ.get("RELEASE", "").strip()
    if named:
        return named
    root = Path(settings.BASE_DIR)
    digest = hashlib.sha256()
    for directory, subdirectories, files in os.walk(root):
        subdirectories[:] = sorted(
            name for name in subdirectories if name not in _NOT_SERVED and not name.startswith((".", "__"))
        )
        for name in sorted(files):
            if name.endswith(_SUFFIXES) or name == "package-lock.json":
                path = Path(directory, name)
                digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]
