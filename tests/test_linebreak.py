"""Lines broken by the rules of Japanese and Chinese typesetting (``cardsite.linebreak``), one character
one unit of width: what a printout's reader sees as where its lines end."""

from __future__ import annotations

import pytest

from cardsite.linebreak import CANNOT_END, CANNOT_START, wrap


def by_characters(text: str) -> float:
    return len(text)


@pytest.mark.parametrize(
    ("text", "width", "lines"),
    [
        # Japanese: a closing bracket, a comma and a full stop never start a line; the character before goes down.
        ("あいう」えお", 3, ["あい", "う」え", "お"]),
        ("あいう、えお", 3, ["あい", "う、え", "お"]),
        ("あいう。」えお", 3, ["あい", "う。」", "えお"]),
        # An opening bracket never ends a line: it goes down with what it opens.
        ("あい「うえ」", 3, ["あい", "「う", "え」"]),
        ("あ「い", 2, ["あ", "「い"]),
        ("ab ( cd", 4, ["ab", "( cd"]),
        # Small kana and the prolonged sound mark stay with the kana before them.
        ("あいっか", 2, ["あ", "いっ", "か"]),
        ("カードー", 2, ["カー", "ドー"]),
        # Traditional Chinese: full-width punctuation, 「」 and ！？ follow the same rules.
        ("對手失去一點！抽牌", 6, ["對手失去一", "點！抽牌"]),
        ("造成「傷害」。", 3, ["造成", "「傷", "害」。"]),
        # Latin text breaks at its spaces, and a word longer than the line is cut.
        ("deal 3 damage, draw", 8, ["deal 3", "damage,", "draw"]),
        ("abcdefghij", 4, ["abcd", "efgh", "ij"]),
        # Each line of the text starts a new line; an empty one stays.
        ("あい\n\nう", 5, ["あい", "", "う"]),
        ("", 5, [""]),
    ],
)
def test_lines_break_where_the_rules_allow(text, width, lines):
    assert wrap(text, by_characters, width) == lines


def test_no_line_starts_with_a_closing_mark_or_ends_with_an_opening_one_at_any_width():
    text = "敵に「火炎（強）」を与える。その後、山札から１枚引く！『竜』は、ダメージを受けない？「い」ー。"
    for width in range(3, 20):
        lines = wrap(text, by_characters, width)
        assert "".join(lines) == text
        for line in lines:
            assert len(line) <= width + 2  # only marks that may not start a line hang past its end
            assert line[0] not in CANNOT_START, (width, lines)
            assert line[-1] not in CANNOT_END, (width, lines)
