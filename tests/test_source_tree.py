"""Rules the source tree keeps as it grows: no module so long that a reader loses its idea, and no comment,
docstring, document or template that explains a thing by pointing at a tracker's issue number instead of saying
what it is for."""

from __future__ import annotations

import io
import os
import re
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

MAX_MODULE_LINES = 600

# Not the project's own sources.
OUTSIDE = {".venv", "node_modules", "build", "staticfiles", ".git", "cardsite.egg-info"}

# The game engines hold one game's whole rules in a module, and migrations are written by Django.
MAY_BE_LONG = ("simulator/engines/", "/migrations/")

# Test modules longer than the limit, still to be split by idea (with their shared fixtures moved to
# tests/fixtures/ and tests/support/). The list only shrinks: a module that is split must leave it.
LONG_TEST_MODULES_TO_SPLIT = {
    "tests/test_backup.py",
    "tests/test_deck_pages.py",
    "tests/test_decklist.py",
    "tests/test_endbreaker_game.py",
    "tests/test_search.py",
}


ISSUE_WORD = re.compile(r"\bissues?\s*#?\d+", re.IGNORECASE)
ISSUE_HASH = re.compile(r"(?<![\w&#/])#\d+\b(?![\w-])")


def _files(*suffixes: str) -> list[Path]:
    found = []
    for directory, subdirectories, names in os.walk(ROOT):
        subdirectories[:] = [name for name in subdirectories if name not in OUTSIDE and not name.startswith(".")]
        found.extend(Path(directory, name) for name in names if name.endswith(suffixes))
    return sorted(found)


def _relative(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def _python_prose(source: str) -> list[tuple[int, str]]:
    """The comments and docstrings of a module (a string that stands alone as a statement), by line."""
    prose = []
    previous = tokenize.NEWLINE
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT or (
            token.type == tokenize.STRING and previous in (tokenize.NEWLINE, tokenize.NL, tokenize.INDENT)
        ):
            prose.append((token.start[0], token.string))
        if token.type not in (tokenize.COMMENT, tokenize.NL):
            previous = token.type
    return prose


def _template_prose(text: str) -> list[tuple[int, str]]:
    """The comments of a template: elsewhere a hash and digits are a colour, not a reference."""
    prose = []
    for match in re.finditer(r"\{#.*?#\}|\{% comment %\}.*?\{% endcomment %\}|<!--.*?-->", text, re.DOTALL):
        prose.append((text.count("\n", 0, match.start()) + 1, match.group()))
    return prose


def _issue_references(path: Path, root: Path = ROOT) -> list[str]:
    text = path.read_text(encoding="utf-8")
    relative = path.relative_to(root).as_posix()
    found = [f"{relative}:{text.count(chr(10), 0, m.start()) + 1}: {m.group()}" for m in ISSUE_WORD.finditer(text)]
    if path.suffix == ".py":
        prose = _python_prose(text)
    elif path.suffix == ".html":
        prose = _template_prose(text)
    else:
        prose = [(number, line) for number, line in enumerate(text.splitlines(), start=1)]
    for line, chunk in prose:
        for match in ISSUE_HASH.finditer(chunk):
            found.append(f"{relative}:{line + chunk.count(chr(10), 0, match.start())}: {match.group()}")
    return found


def test_no_module_outside_the_game_engines_is_longer_than_the_limit() -> None:
    too_long = []
    split_already = set(LONG_TEST_MODULES_TO_SPLIT)
    for path in _files(".py"):
        relative = _relative(path)
        if any(part in f"/{relative}" for part in MAY_BE_LONG):
            continue
        with path.open(encoding="utf-8") as module:
            lines = sum(1 for _ in module)
        if lines > MAX_MODULE_LINES:
            split_already.discard(relative)
            if relative not in LONG_TEST_MODULES_TO_SPLIT:
                too_long.append(f"{relative}: {lines} lines")
    assert too_long == [], f"modules over {MAX_MODULE_LINES} lines; split them by idea"
    assert split_already == set(), "short enough now (or gone): remove from LONG_TEST_MODULES_TO_SPLIT"


def test_no_comment_docstring_document_or_template_cites_an_issue_number() -> None:
    cited = []
    for path in _files(".py", ".md", ".html"):
        cited.extend(_issue_references(path))
    assert cited == [], "say what the thing is for, in words, instead of citing an issue"


def test_the_issue_check_sees_references_in_each_kind_of_file(tmp_path: Path) -> None:
    # Built from pieces, so that this module does not cite what it checks for.
    issue, hash_ = "issue", "#"
    module = tmp_path / "module.py"
    module.write_text(f'"""Published decks ({issue} 14, item 5)."""\n\nLABEL = "big_darc {hash_}2"  # see {hash_}31\n')
    document = tmp_path / "page.md"
    document.write_text(f"# Decks\n\nFixed in {hash_}12.\n")
    template = tmp_path / "page.html"
    template.write_text(f'<p style="color: {hash_}223">{{# from {hash_}40 #}}</p>\n')
    plain = tmp_path / "plain.py"
    plain.write_text(f'"""A colour and a label."""\n\nLABEL = "big_darc {hash_}2"\nCOLOUR = "{hash_}223"\n')

    def references(path: Path) -> list[str]:
        return [found.split(": ", 1)[1] for found in _issue_references(path, tmp_path)]

    assert references(module) == [f"{issue} 14", f"{hash_}31"]
    assert references(document) == [f"{hash_}12"]
    assert references(template) == [f"{hash_}40"]
    assert references(plain) == []
