"""Where a game prints what on its cards: the regions a reading reads one by one, declared per game here.

A region is a share of the straightened card (0–1 of its width and height, the printed border included), with
the page segmentation that suits what is printed there: a single line (Tesseract's psm 7) for the name band, a
block of lines (psm 6) for the text box, a single word (psm 8) for the number corner. A game with no layout of
its own has ``DEFAULT_LAYOUT``. Keyed by the game's slug (the slug registry of ``cards.gamedefs``): one place,
no test of a game's name elsewhere.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Region:
    """A share of the card: ``left``/``top`` to ``right``/``bottom``, each 0–1 of the card's width/height."""

    left: float
    top: float
    right: float
    bottom: float
    segmentation: int  # Tesseract's --psm for what is printed there

    def pixels(self, width: int, height: int) -> tuple[int, int, int, int]:
        """(left, top, right, bottom) in an image of ``width`` × ``height``, clipped to it."""
        return (
            max(0, round(self.left * width)),
            max(0, round(self.top * height)),
            min(width, round(self.right * width)),
            min(height, round(self.bottom * height)),
        )

    def holds(self, x: float, y: float) -> bool:
        """Whether the point (as shares of the card) lies inside."""
        return self.left <= x <= self.right and self.top <= y <= self.bottom


@dataclass(frozen=True)
class CardLayout:
    name: Region  # the name band: one line, printed a little taller than the text (1.1–1.2×)
    text: Region  # the text box: labelled abilities ([日常], [戦闘]), rules text
    number: Region | None = None  # the number corner; None for printings that carry no number
    # Labels printed in brackets at the start of an ability ("[日常]"): restored when read with a bracket lost or
    # a look-alike (``symbols.restore``). Each game's own; none by default.
    bracket_labels: tuple[str, ...] = ()


# The synthetic cards of the tests and the benchmark (``synthetic.render_layout_card``) are drawn from these
# shares too, so the two cannot drift apart.
DEFAULT_LAYOUT = CardLayout(
    name=Region(0.04, 0.04, 0.96, 0.14, segmentation=7),
    text=Region(0.04, 0.52, 0.96, 0.97, segmentation=6),
    number=Region(0.04, 0.14, 0.50, 0.20, segmentation=7),
)

LAYOUTS: dict[str, CardLayout] = {
    "endbreaker": CardLayout(
        name=DEFAULT_LAYOUT.name,
        text=DEFAULT_LAYOUT.text,
        number=None,  # the Japanese printings carry no number: only the name finds the card
        bracket_labels=("日常", "戦闘", "日常・戦闘"),
    ),
}


def layout_for(slug: str) -> CardLayout:
    """The card layout of the game registered as ``slug`` (``DEFAULT_LAYOUT`` when it declares none)."""
    return LAYOUTS.get(slug, DEFAULT_LAYOUT)
