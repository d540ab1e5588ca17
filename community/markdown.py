"""Markdown of descriptions and comments, rendered by markdown-it-py and sanitised by nh3 (plain Python).

markdown-it-py runs in CommonMark mode with raw HTML off (written HTML comes out as text), and nh3 (ammonia)
then keeps only the tags and attributes below, links only to http, https and mailto, each marked
``rel="nofollow noopener ugc"``: whatever someone writes, no script, handler, style or frame reaches a page.
"""

from __future__ import annotations

from functools import lru_cache

import nh3
from markdown_it import MarkdownIt

ALLOWED_TAGS = {
    "p", "br", "hr", "em", "strong", "code", "pre", "blockquote", "ul", "ol", "li",
    "h3", "h4", "h5", "h6", "a", "del", "table", "thead", "tbody", "tr", "th", "td",
}  # fmt: skip
ALLOWED_ATTRIBUTES = {"a": {"href", "title"}, "ol": {"start"}, "th": {"align"}, "td": {"align"}}
URL_SCHEMES = {"http", "https", "mailto"}

_markdown = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False}).enable("table")
_markdown.enable("strikethrough")


def _demote_headings(html: str) -> str:
    # A description's "# Title" must not compete with the page's own h1 and h2.
    for level in (2, 1):
        html = html.replace(f"<h{level}>", "<h3>").replace(f"</h{level}>", "</h3>")
    return html


@lru_cache(maxsize=2048)
def render(text: str) -> str:
    """``text`` (Markdown) as safe HTML. A pure function of the text, so each process keeps its latest answers:
    a page of comments is read far more often than a comment is written."""
    html = _demote_headings(_markdown.render(text or ""))
    return nh3.clean(
        html,
        tags=ALLOWED_TAGS,
        attributes=ALLOWED_ATTRIBUTES,
        url_schemes=URL_SCHEMES,
        link_rel="nofollow noopener ugc",
    )
