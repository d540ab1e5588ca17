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


# Every visible control under WCAG 2.2's minimum target size (24 × 24 CSS px), named with its size: inputs, lists,
# text boxes, buttons, folding summaries and links. A link inside a sentence is exempt, as WCAG exempts it (its
# size is the line's): an inline link with words of a sentence right beside it. A control hidden until
# the keyboard reaches it (the skip link, clipped) is not on the screen to tap.
SMALL_TARGETS = """() => {
  const MINIMUM = 24;
  const hidden = (element) => {
    for (let node = element; node && node !== document.body; node = node.parentElement) {
      const css = getComputedStyle(node);
      if (css.visibility === 'hidden' || css.opacity === '0' || css.clipPath !== 'none' || css.clip !== 'auto') {
        return true;
      }
    }
    return false;
  };
  // Words of a sentence right beside the link, or beside the inline element (<strong>, <em>) that holds it alone.
  const inSentence = (link) => {
    const words = (node) => node && node.nodeType === Node.TEXT_NODE && /\\p{L}/u.test(node.textContent);
    for (let node = link; node && getComputedStyle(node).display === 'inline'; node = node.parentElement) {
      if (words(node.previousSibling) || words(node.nextSibling)) return true;
      if (node.parentElement && node.parentElement.children.length > 1) return false;
    }
    return false;
  };
  const name = (element) => {
    const words = (element.getAttribute('aria-label') || element.textContent || element.getAttribute('name')
      || element.getAttribute('type') || '').trim().replace(/\\s+/g, ' ').slice(0, 30);
    return element.tagName.toLowerCase() + [...element.classList].map((c) => '.' + c).join('') + ` "${words}"`;
  };
  const selector = 'input:not([type=hidden]), select, textarea, button, summary, a[href]';
  return [...document.querySelectorAll(selector)]
    .filter((element) => {
      const box = element.getBoundingClientRect();
      return box.width > 0 && box.height > 0 && !hidden(element);
    })
    .filter((element) => !(element.tagName === 'A' && inSentence(element)))
    .map((element) => [element, element.getBoundingClientRect()])
    .filter(([, box]) => box.width < MINIMUM - 0.01 || box.height < MINIMUM - 0.01)
    .map(([element, box]) => `${name(element)} ${Math.round(box.width)}×${Math.round(box.height)}`);
}"""
