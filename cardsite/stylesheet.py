"""The site's stylesheet inlined in every page's head: a page paints from its own HTML, without waiting a round
trip (150 ms on a slow phone network, more on a real one) for static/css/site.css, which would block its first
paint (benchmarks/pages.py, docs/decisions.md).

The inlined text is made from static/css/site.css when the process starts, never kept by hand: the same rules
in the same order, without comments and spare whitespace. site.css stays the one stylesheet to edit (and the
standalone error page still links it). The Content-Security-Policy allows an inline style element by nothing but
this text's hash (cardsite.settings), so an injected style element stays refused.
"""

from __future__ import annotations

import base64
import hashlib
import re
from functools import cache
from pathlib import Path

SITE_CSS = Path(__file__).resolve().parent.parent / "static" / "css" / "site.css"

_COMMENT = re.compile(r"/\*.*?\*/", re.DOTALL)
_SPACE = re.compile(r"\s+")
# Whitespace around a block's braces and between declarations never changes what a rule means.
_TIGHT = re.compile(r" ?([{};]) ?")


def minify(text: str) -> str:
    """``text`` without comments, its whitespace runs made single spaces, none around braces and semicolons."""
    if "<" in _COMMENT.sub("", text):
        # In a style element, "</style" would end it; site.css has no use for "<" at all.
        raise ValueError("site.css: '<' outside a comment cannot go into a style element")
    return _TIGHT.sub(r"\1", _SPACE.sub(" ", _COMMENT.sub("", text))).strip()


@cache
def site_stylesheet() -> str:
    """site.css as base.html inlines it, made once per process."""
    return minify(SITE_CSS.read_text(encoding="utf-8"))


def style_hash(text: str) -> str:
    """The Content-Security-Policy source that allows a style element whose whole content is ``text``."""
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii") + "'"
