"""What every page must be on a phone (tests/test_browser_phone.py and the pages checked like it): no sideways
scroll, a header of at most a quarter of the screen, a working "skip to content" link first, and no serious or
critical axe-core violation. axe-core (npm, node_modules/axe-core) is put into the page through the debugging
protocol, never by the site."""

from __future__ import annotations

from pathlib import Path

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"

# What a reader at the top of a page meets: how wide the document is, where the header ends, and the first
# link of the page (it must lead to the content).
LAYOUT = """() => {
  const header = document.querySelector('.site-header');
  const first = document.querySelector('body a[href]');
  const target = first && first.hash ? document.getElementById(first.hash.slice(1)) : null;
  return {
    scrollWidth: document.scrollingElement.scrollWidth,
    innerWidth: window.innerWidth,
    headerHeight: header ? header.getBoundingClientRect().height : null,
    skipLink: first ? first.hash : null,
    skipText: first ? first.textContent.trim() : null,
    skipTarget: target ? target.tagName : null,
    wide: [...document.querySelectorAll('body *')]
      .filter((element) => element.getBoundingClientRect().right > window.innerWidth + 1)
      .filter((element) => !element.closest('[data-scrolls-sideways], table, pre'))
      .slice(0, 3)
      .map((element) => element.tagName.toLowerCase() + '.' + [...element.classList].join('.')),
  };
}"""

AXE_RUN = """async () => {
  const result = await axe.run(document, {resultTypes: ['violations']});
  return result.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => violation.id + ': '
      + violation.nodes.slice(0, 3).map((node) => node.target.join(' ')).join(' | '));
}"""


# For each element, on how many lines its text stands.
TEXT_LINES = """(selector) => [...document.querySelectorAll(selector)].map((element) => {
  const range = document.createRange();
  range.selectNodeContents(element);
  const tops = [...range.getClientRects()].filter((rect) => rect.width > 0).map((rect) => Math.round(rect.top));
  return [element.textContent.trim(), new Set(tops).size];
})"""


def phone_problems(page, axe_source: str, screen_height: int = 844) -> list[str]:
    """What is wrong with the page now open at a phone's width (empty: nothing)."""
    found: list[str] = []
    layout = page.evaluate(LAYOUT)
    if layout["scrollWidth"] > layout["innerWidth"]:
        found.append(f"scrolls sideways: {layout['scrollWidth']} px wide, by {layout['wide']}")
    if layout["headerHeight"] is None or layout["headerHeight"] > screen_height / 4:
        found.append(f"header {layout['headerHeight']} px high")
    if layout["skipLink"] != "#main" or layout["skipTarget"] != "MAIN" or not layout["skipText"]:
        found.append(f"first link is not a skip link to the content: {layout}")
    page.evaluate(axe_source)  # through the debugging protocol: the page's policy does not apply
    return found + page.evaluate(AXE_RUN)
