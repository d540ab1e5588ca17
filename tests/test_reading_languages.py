"""Reading a card in its game's original language and its translation language: a card of
エンドブレイカー！ (original Japanese, translated into Traditional Chinese) showing both is read in Japanese, and
its Chinese lines again in Chinese; each line keeps its language. Clearly synthetic cards drawn with Noto Sans
CJK; needs Tesseract (skipped without, a failure under CI, as tests/test_reading_core.py)."""

from __future__ import annotations

import difflib
import unicodedata

import pytest

from cards.gamedefs import get_game
from cards.reading import Box, Line, Reading, Word, languages_for, read_photo
from cards.reading.synthetic import TextLine, photograph, render_card

RULE_JA = "ターン開始時、カードを１枚引く。"
RULES_ZH = ["回合開始時，抽一張卡。", "選擇對手的一張卡，將其破壞。"]


def _ratio(expected: str, read: str) -> float:
    def normal(text: str) -> str:
        return "".join(unicodedata.normalize("NFKC", text).split())

    return difflib.SequenceMatcher(None, normal(expected), normal(read)).ratio()


def _line_for(expected: str, reading: Reading) -> Line:
    return max(reading.lines, key=lambda line: _ratio(expected, line.text))


@pytest.mark.parametrize("face", ["ja", "zh-hant"], ids=["Japanese face", "Chinese face"])
@pytest.mark.parametrize(("angle", "blur"), [(0, 0), (3, 1.0)], ids=["scan", "photo"])
def test_a_card_showing_both_languages_keeps_each_lines_language(tesseract_ready, face, angle, blur):
    lines = [TextLine("テスト騎士", 40), TextLine(RULE_JA, 24), *(TextLine(rule, 24) for rule in RULES_ZH)]
    card = render_card(lines, language=face)
    reading = read_photo(photograph(card, angle=angle, blur=blur), languages_for(get_game("endbreaker")))

    assert reading.tesseract_languages == "jpn+chi_tra"
    japanese = _line_for(RULE_JA, reading)
    assert japanese.language == "ja" and _ratio(RULE_JA, japanese.text) >= 0.85, reading.text
    assert _line_for("テスト騎士", reading).language == "ja"
    for rule in RULES_ZH:
        chinese = _line_for(rule, reading)
        assert chinese.language == "zh-hant", (chinese.language, chinese.text)
        assert _ratio(rule, chinese.text) >= 0.85, chinese.text


def test_a_card_in_its_original_language_alone_is_read_once(tesseract_ready):
    card = render_card([TextLine("テスト騎士", 40), TextLine("EB9-901", 24), TextLine("ＡＴ：＋３", 30),
                        TextLine(RULE_JA, 24)], language="ja")  # fmt: skip
    reading = read_photo(photograph(card, angle=-3, blur=1.0), languages_for(get_game("endbreaker")))
    assert reading.tesseract_languages == "jpn"  # no line of Chinese: no second reading
    assert {line.language for line in reading.lines} == {"ja"}
    assert _ratio(RULE_JA, _line_for(RULE_JA, reading).text) >= 0.85


def test_a_lines_language_survives_its_json_and_an_older_reading_has_none():
    box = Box(0, 0, 10, 10)
    line = Line("回合開始時", (Word("回合開始時", box, box, 0.9),), ((0, 5),), box, box, 0.9, language="zh-hant")
    assert Line.from_json(_json(line)).language == "zh-hant"
    older = _json(line)
    del older["language"]
    assert Line.from_json(older).language == ""


def _json(line: Line) -> dict:
    from dataclasses import asdict

    return asdict(line)
