"""Every page carries the site's stylesheet in its head, so that a phone paints it without waiting a round trip
for a render-blocking stylesheet (benchmarks/pages.py); the Content-Security-Policy allows that one style
element by its hash, and the inlined rules are site.css's own, in its order."""

from __future__ import annotations

import base64
import hashlib
import re

import pytest

from cardsite.stylesheet import SITE_CSS, minify, site_stylesheet

STYLE = re.compile(r"<style>(.*?)</style>", re.DOTALL)


def _declarations(css: str) -> list[str]:
    """Every selector and declaration of ``css`` in order, spaces dropped: what a browser reads from it."""
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.DOTALL)
    return [re.sub(r"\s+", "", part) for part in re.split(r"[{};]", css) if part.strip()]


def test_the_inlined_sheet_is_site_css_rule_for_rule_without_comments():
    source = SITE_CSS.read_text(encoding="utf-8")
    inlined = site_stylesheet()
    assert _declarations(inlined) == _declarations(source)
    assert "/*" not in inlined
    assert len(inlined) < len(source) * 0.85  # comments and indentation gone


def test_minify_keeps_what_the_rules_mean():
    css = """/* a comment { with braces } */
@media (max-width: 40rem) {
  .site-header a:hover,
  .brand  > span {
    font-family: "Noto Sans CJK JP",  sans-serif;
    grid-template-columns: minmax(0, 1fr)
      2fr;
  }
}
"""
    assert minify(css) == (
        '@media (max-width: 40rem){.site-header a:hover, .brand > span{font-family: "Noto Sans CJK JP", sans-serif;'
        "grid-template-columns: minmax(0, 1fr) 2fr;}}"
    )


def test_a_sheet_that_could_close_its_style_element_is_refused():
    with pytest.raises(ValueError, match="style element"):
        minify("a::after { content: '</style><script>'; }")


@pytest.mark.parametrize("path", ["/", "/search/syntax/", "/accounts/login/", "/decks/"])
def test_pages_inline_the_sheet_and_the_policy_allows_exactly_it(seeded_db, client, path):
    response = client.get(path, follow=True)
    assert response.status_code == 200
    html = response.content.decode()
    styles = STYLE.findall(html)
    assert styles == [site_stylesheet()], "one style element, site.css's rules"
    digest = base64.b64encode(hashlib.sha256(styles[0].encode()).digest()).decode()
    policy = response["Content-Security-Policy"]
    style_sources = re.search(r"style-src ([^;]+)", policy)
    assert style_sources is not None
    assert style_sources.group(1).split() == ["'self'", f"'sha256-{digest}'"]
    assert "unsafe-inline" not in policy
    # Nothing in the head waits for a stylesheet from the network before the first paint.
    assert not re.search(r"<link[^>]+rel=\"stylesheet\"", html)
