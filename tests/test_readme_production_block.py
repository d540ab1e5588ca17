"""The README's "Serving in production" block is the production environment: Django's deployment checks,
at the WARNING level the block itself runs them at, are clean with exactly the variables its ``export``
lines set, nothing added."""

from __future__ import annotations

import secrets
import shlex

from .servers import ROOT
from .support.deploy import check_deploy

SECTION = "## Serving in production"


def readme_production_environment() -> dict[str, str]:
    """The variables the block's ``export`` lines set, as a shell would read them. The one placeholder a
    reader fills in, ``SECRET_KEY=…``, gets a fresh secret of the kind ``bin/run-site`` makes."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert SECTION in text, "README.md has no production block"
    section = text.split(SECTION, 1)[1].split("\n## ", 1)[0]
    environment: dict[str, str] = {}
    for line in section.splitlines():
        words = shlex.split(line.strip(), comments=True)
        if not words or words[0] != "export":
            continue
        for word in words[1:]:
            name, _, value = word.partition("=")
            environment[name] = value
    assert environment, "the production block sets no variables"
    if environment.get("SECRET_KEY") in ("…", "...", ""):
        environment["SECRET_KEY"] = secrets.token_urlsafe(50)
    return environment


def test_the_block_sets_what_a_production_site_needs():
    environment = readme_production_environment()
    for name in ("DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "SECURE_HSTS_SECONDS", "DATABASE_URL", "CACHE_URL"):
        assert name in environment
    assert environment["DEBUG"] == "0"


def test_check_deploy_is_clean_with_exactly_the_readme_block():
    result = check_deploy(readme_production_environment())
    report = result.stdout + result.stderr
    assert result.returncode == 0, report
    assert "no issues" in result.stdout, report
