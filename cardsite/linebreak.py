"""Breaking text into lines of a given width, by the rules of Japanese and Chinese typesetting (plain Python).

Japanese and Chinese have no spaces to break at: a line may end after almost any character. Almost, because
of *kinsoku* (JIS X 4051; the W3C's "Requirements for Japanese Text Layout" and "for Chinese Text Layout"
say the same for Chinese): no line starts with a closing bracket or a mark of punctuation (``」``, ``、``,
``。``, ``！``…), nor with a small kana or the prolonged sound mark, and no line ends with an opening bracket
(``「``, ``（``…). Latin text inside breaks at its spaces, as English does.

ReportLab's own splitter (``reportlab.lib.textsplit``) hangs one closing mark in the margin but lets a line
end with an opening bracket and does not know the full-width ``！？``, so the rule table is kept here.

The width is measured by the caller (``measure``), so one function serves the PDFs (ReportLab's string
width) and the pictures (Pillow's text length).
"""

from __future__ import annotations

from collections.abc import Callable

# No line starts with these: closing brackets and quotes, punctuation, iteration and prolonged-sound marks,
# small kana, and the marks that belong to the number before them.
CANNOT_START = frozenset(
    ")]}）］｝〕〉》」』】〙〗〟’”｠»"
    "、。，．・：；？！‼⁇⁈⁉,.:;?!"
    "ー々〻ヽヾゝゞ〳〴〵"
    "ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶㇰㇱㇲㇳㇴㇵㇶㇷㇸㇹㇺㇻㇼㇽㇾㇿ"
    "‐゠–〜～…‥"
    "℃％‰°′″"
)
# No line ends with these: opening brackets and quotes.
CANNOT_END = frozenset("([{（［｛〔〈《「『【〘〖〝‘“｟«")


def _is_spaced_script(character: str) -> bool:
    """Whether the character belongs to a script that separates its words with spaces (Latin, digits…):
    such a run is one unbreakable unit. CJK characters, kana and full-width forms are each a unit of their own."""
    return not character.isspace() and ord(character) < 0x2E80


def _units(paragraph: str) -> list[str]:
    """The paragraph cut where a line may break; spaces are units of their own (a line may end at them)."""
    units: list[str] = []
    glue_next = False  # the last unit ends with an opening bracket: the next character joins it
    for character in paragraph:
        joins_previous = bool(units) and (
            glue_next
            or character in CANNOT_START
            or (_is_spaced_script(character) and _is_spaced_script(units[-1][-1]))
        )
        if joins_previous and (glue_next or not character.isspace()):
            units[-1] += character
        else:
            units.append(character)
        glue_next = character in CANNOT_END
    return units


def _cut(unit: str, measure: Callable[[str], float], width: float) -> list[str]:
    """A unit wider than the whole line, cut character by character (a long URL, a name with no break), still
    never before a closing mark nor after an opening one: those hang past the line's end instead."""
    pieces, piece = [], ""
    for character in unit:
        breakable = character not in CANNOT_START and piece[-1:] not in CANNOT_END
        if piece and breakable and measure(piece + character) > width:
            pieces.append(piece)
            piece = character
        else:
            piece += character
    return [*pieces, piece] if piece else pieces


def wrap(text: str, measure: Callable[[str], float], width: float) -> list[str]:
    """``text`` as lines no wider than ``width`` (as ``measure`` measures), each paragraph (a line of ``text``)
    starting a new line; a line breaks only where the rules above allow, and a line's spaces at its ends are
    dropped. An empty paragraph is an empty line."""
    lines: list[str] = []
    for paragraph in text.splitlines() or [""]:
        line = ""
        for unit in _units(paragraph):
            if unit.isspace():
                if line:
                    line += unit
                continue
            if measure(line + unit) <= width:
                line += unit
                continue
            if line.strip():
                lines.append(line.rstrip())
            line = ""
            if measure(unit) > width:
                *whole, line = _cut(unit, measure, width)
                lines.extend(whole)
            else:
                line = unit
        lines.append(line.rstrip())
    return lines
