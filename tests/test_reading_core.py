"""Reading a card's text from a photo (cards/reading): clearly synthetic cards drawn with Noto Sans CJK,
photographed (turned, in perspective, blurred, unevenly lit, JPEG), read with Tesseract, and the values the
game's declarations make recognisable proposed. Those tests need Tesseract (skipped without, a failure under
CI); the proposals on hand-made lines and the result's JSON need nothing."""

from __future__ import annotations

import difflib
import json
import subprocess
import sys
import unicodedata

import pytest

from cards.gamedefs import get_game
from cards.reading import Box, Line, Proposal, Reading, Word, languages_for, propose, read_photo
from cards.reading.ocr import second_reading
from cards.reading.synthetic import TextLine, photograph, render_card

RULE_JA = "ターン開始時、カードを１枚引く。"
RULE_ZH = "回合開始時，抽一張卡。"


def _ratio(expected: str, read: str) -> float:
    """How alike two texts are once NFKC-normalised and without spaces (difflib's ratio)."""

    def normal(text: str) -> str:
        return "".join(unicodedata.normalize("NFKC", text).split())

    return difflib.SequenceMatcher(None, normal(expected), normal(read)).ratio()


def _best_ratio(expected: str, reading: Reading) -> float:
    return max((_ratio(expected, line.text) for line in reading.lines), default=0.0)


def _by_field(proposals: list[Proposal]) -> dict[str, list[Proposal]]:
    found: dict[str, list[Proposal]] = {}
    for proposal in proposals:
        found.setdefault(proposal.field, []).append(proposal)
    return found


def _inside(box: Box, size: tuple[int, int]) -> bool:
    return min(box.left, box.top) >= 0 and box.right <= size[0] and box.bottom <= size[1]


# --- Tesseract on synthetic photos ------------------------------------------------------------------------

JA_CARD = [TextLine("テスト騎士", 40), TextLine("EB9-901", 24), TextLine("ＡＴ：＋３", 30), TextLine(RULE_JA, 24)]


@pytest.mark.parametrize(
    ("angle", "blur", "perspective"),
    [(0, 0, 0), (3, 1.0, 0.03), (-6, 1.0, 0.05), (8, 1.5, 0.04)],
    ids=["clean scan", "turned 3°", "turned -6°", "turned 8°, blurred"],
)
def test_a_photographed_card_is_read_and_its_number_and_at_proposed(tesseract_ready, angle, blur, perspective):
    game = get_game("endbreaker")
    photo = photograph(render_card(JA_CARD, language="ja"), angle=angle, blur=blur, perspective=perspective)
    reading = read_photo(photo, languages_for(game))

    assert reading.card_corners is not None  # the card's outline was found
    assert _best_ratio(RULE_JA, reading) >= 0.9, reading.text
    proposals = _by_field(propose(reading, game))
    [number] = proposals["number"]
    assert number.value == "EB9-901"
    assert "outside_declared_ranges" in number.notes  # the game's runs are EB1-001 to EB1-059
    assert [proposal.value for proposal in proposals["at"]] == [3]
    [name] = proposals["name"]
    assert _ratio("テスト騎士", name.value) >= 0.75, name.value  # one character in five may be misread

    # Each proposal shows where it was read: the number above the AT, both inside the photo and the image read.
    at = proposals["at"][0]
    assert number.box.bottom <= at.box.top
    assert number.photo_box.bottom <= at.photo_box.bottom
    for proposal in (number, at):
        assert _inside(proposal.box, reading.corrected_size)
        assert _inside(proposal.photo_box, reading.photo_size)
        assert 0 <= proposal.confidence <= 1
        assert reading.lines[proposal.lines[0]].text.strip()


def test_the_photo_box_is_where_the_text_stands_in_the_photo(tesseract_ready):
    """The number's box mapped back onto the photo lies in the card's upper half, in its left part."""
    game = get_game("endbreaker")
    photo = photograph(render_card(JA_CARD, language="ja"), angle=5, blur=1.0, perspective=0.04)
    reading = read_photo(photo, languages_for(game))
    [number] = [proposal for proposal in propose(reading, game) if proposal.field == "number"]
    assert reading.card_corners is not None
    xs = [x for x, _ in reading.card_corners]
    ys = [y for _, y in reading.card_corners]
    middle_x, middle_y = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
    assert min(xs) <= number.photo_box.left and number.photo_box.right <= middle_x
    assert min(ys) <= number.photo_box.top and number.photo_box.bottom <= middle_y


def test_a_chinese_card_is_read_in_traditional_chinese(tesseract_ready):
    game = get_game("endbreaker")
    card = render_card(
        [TextLine("測試騎士", 40), TextLine("EB9-902", 24), TextLine("ＡＴ：＋２", 30), TextLine(RULE_ZH, 24)],
        language="zh-hant",
    )
    reading = read_photo(photograph(card, angle=-3, blur=1.0, perspective=0.03), ["zh-hant"])
    assert reading.tesseract_languages == "chi_tra"  # one model: Japanese's would misread its Han characters
    assert _best_ratio(RULE_ZH, reading) >= 0.9, reading.text
    assert _best_ratio("測試騎士", reading) >= 0.9, reading.text
    proposals = _by_field(propose(reading, game))
    assert [proposal.value for proposal in proposals["number"]] == ["EB9-902"]
    assert [proposal.value for proposal in proposals["at"]] == [2]


def test_a_bracketed_phase_marker_of_a_chinese_line_is_read_by_its_second_reading(tesseract_ready):
    """chi_tra reads the half-width "[" with the 日 after it as one character ("[日常]" as "[舊測"), unsurely:
    that line is read again on its own, larger (``ocr.second_reading``), and that surer reading is kept. The
    words and boxes are the second reading's, in the corrected image and the photo."""
    rule = "[日常]抽一張卡。"
    card = render_card([TextLine("測試卡", 40), TextLine("TST-001", 24), TextLine(rule, 24)], language="zh-hant")
    reading = read_photo(card, ["zh-hant"])
    texts = ["".join(unicodedata.normalize("NFKC", line.text).split()) for line in reading.lines]
    assert "[日常]抽一張卡。" in texts, reading.text
    line = reading.lines[texts.index("[日常]抽一張卡。")]
    assert line.language == "zh-hant"
    assert all(_inside(word.box, reading.corrected_size) for word in line.words)
    assert all(_inside(word.photo_box, reading.photo_size) for word in line.words)
    # chi_tra alone may misread the Latin number ("TSIT-001", unsurely); the line is still where it stands.
    number = next(line for line, text in zip(reading.lines, texts, strict=True) if text.endswith("-001"))
    assert number.box.bottom <= line.box.top  # the line stays where it stands, under the number


def test_a_line_read_surely_is_not_read_again():
    box = Box(0, 0, 10, 10)
    sure = Line("回合開始時", (Word("回合開始時", box, box, 0.9),), ((0, 5),), box, box, 0.9, language="zh-hant")
    # No unsure word: no second Tesseract call (none is needed to run this), the lines as they were.
    assert second_reading(None, [sure], ["zh-hant"]) == [sure]  # type: ignore[arg-type]


def test_a_reading_survives_its_json(tesseract_ready):
    game = get_game("endbreaker")
    reading = read_photo(photograph(render_card(JA_CARD), angle=2, blur=0.5), languages_for(game))
    stored = json.loads(json.dumps(reading.to_json(), ensure_ascii=False))
    assert Reading.from_json(stored) == reading
    proposals = propose(reading, game)
    assert [Proposal.from_json(json.loads(json.dumps(p.to_json(), ensure_ascii=False))) for p in proposals] == proposals


def test_the_languages_are_the_games_original_and_its_translations_unless_not_asked():
    assert languages_for(get_game("endbreaker"), with_translations=False) == ("ja",)
    assert languages_for(get_game("endbreaker")) == ("ja", "zh-hant")
    assert languages_for(get_game("shadowera"), with_translations=True) == ("en", "ja", "zh-hant")


@pytest.mark.parametrize("printing", ["ja", "zh-hant"])
def test_a_printing_in_a_known_language_is_read_in_that_language_alone(printing):
    assert languages_for(get_game("endbreaker"), printing=printing) == (printing,)


def test_a_printing_in_a_language_the_game_has_no_text_in_is_refused():
    with pytest.raises(ValueError, match="en"):
        languages_for(get_game("endbreaker"), printing="en")


def test_a_chinese_printing_keeps_its_traditional_forms_read_by_one_model(tesseract_ready):
    """Read with Japanese's model beside chi_tra, 戰鬥 came back as 戦門 and 擊 as 撃; chi_tra alone keeps them."""
    rule = "戰鬥中，擊破一名敵人。"
    card = render_card([TextLine("測試卡", 40), TextLine("TST-002", 24), TextLine(rule, 28)], language="zh-hant")
    languages = languages_for(get_game("endbreaker"), printing="zh-hant")
    reading = read_photo(photograph(card, angle=-2, blur=0.5), languages)
    assert reading.tesseract_languages == "chi_tra"
    assert {line.language for line in reading.lines} == {"zh-hant"}
    text = "".join(unicodedata.normalize("NFKC", reading.text).split())
    assert "戰鬥" in text and "擊" in text, reading.text
    assert "戦" not in text and "撃" not in text, reading.text


# --- proposals from hand-made lines (no Tesseract) ----------------------------------------------------------


def _line(text: str, confidence: float = 0.95, top: int = 0, height: int = 20) -> Line:
    """A line read as one word per whitespace-separated part, each part ``height`` high, side by side."""
    words: list[Word] = []
    spans: list[tuple[int, int]] = []
    position = 0
    for part in text.split(" "):
        box = Box(10 + 20 * position, top, max(1, 20 * len(part)), height)
        words.append(Word(part, box, box, confidence))
        spans.append((position, position + len(part)))
        position += len(part) + 1
    box = Box.around(word.box for word in words)
    return Line(text, tuple(words), tuple(spans), box, box, confidence)


def test_full_width_values_are_folded_as_the_search_folds():
    game = get_game("endbreaker")
    proposals = _by_field(propose([_line("ＡＴ：＋３"), _line("スキル：ＰＰＴ"), _line("コスト：●●")], game))
    assert [proposal.value for proposal in proposals["at"]] == [3]
    assert proposals["at"][0].read == "ＡＴ：＋３"
    assert [proposal.value for proposal in proposals["skill"]] == ["PPT"]
    assert [proposal.value for proposal in proposals["cost"]] == ["●●"]
    assert not any(proposal.low_confidence for proposal in proposals["at"] + proposals["skill"])


def test_a_word_that_merely_contains_a_label_proposes_nothing():
    proposals = propose([_line("attack the other player"), _line("AT is unknown")], get_game("endbreaker"))
    assert [proposal for proposal in proposals if proposal.field == "at"] == []


def test_a_label_inside_a_longer_one_is_the_longer_ones():
    proposals = _by_field(propose([_line("能力コスト：２")], get_game("shadowera"), kind="hero"))
    assert [proposal.value for proposal in proposals["ability_cost"]] == [2]
    assert "cost" not in proposals


def test_look_alike_characters_are_corrected_and_marked_low():
    game = get_game("endbreaker")
    proposals = _by_field(propose([_line("EB1-O12"), _line("AT:十4")], game))
    [number] = proposals["number"]
    assert number.value == "EB1-012"
    assert number.low_confidence and "characters_corrected" in number.notes
    assert "outside_declared_ranges" not in number.notes
    [at] = proposals["at"]
    assert at.value == 4 and at.low_confidence

    # The colon of spaced full-width text read as letters (ＡＴ：＋３ as "AT SI土3").
    [at] = propose([_line("AT SI土3")], game)
    assert (at.field, at.value, at.low_confidence, at.read) == ("at", 3, True, "AT SI土3")


def test_low_confidence_follows_the_threshold():
    game = get_game("endbreaker")
    lines = [_line("EB1-003", confidence=0.7)]
    [number] = propose(lines, game)
    assert number.low_confidence and number.confidence == pytest.approx(0.7)
    [number] = propose(lines, game, low_confidence_below=0.6)
    assert not number.low_confidence


def test_a_value_the_field_refuses_is_not_proposed():
    proposals = propose([_line("価値：７"), _line("価値：２")], get_game("suikoden"), kind="land")
    assert [(proposal.field, proposal.value) for proposal in proposals] == [("value", 2)]


def test_choices_by_their_labels_and_glossary_terms():
    game = get_game("suikoden")
    proposals = _by_field(
        propose([_line("得意能力：騎馬・射擊２"), _line("調達 を持つ")], game, kind="character", terms=["調達"])
    )
    [specialties] = proposals["specialties"]
    assert specialties.value == ["騎馬", "射擊2"]  # 射擊 printed with its X
    assert [proposal.value for proposal in proposals["keyword"]] == ["調達"]

    faction = _by_field(propose([_line("陣営：ヒューマン")], get_game("shadowera")))["faction"]
    assert [proposal.value for proposal in faction] == ["human"]


def test_a_line_that_is_a_kind_proposes_the_kind_and_a_rules_text_naming_it_does_not():
    lines = [_line("【ジョブ】"), _line("相手のジョブを１枚破壊する。"), _line("Thorn")]
    proposals = propose(lines, get_game("endbreaker"))
    assert [(proposal.value, proposal.lines) for proposal in proposals if proposal.field == "kind"] == [
        ("job", (0,)),
        ("thorn", (2,)),
    ]


def test_the_name_is_the_top_most_of_the_largest_lines():
    lines = [
        _line("small print", top=0, height=12),
        _line("テスト剣士", top=20, height=40),
        _line("EB9-903", top=70),
        _line("テスト本文", top=100),
    ]
    proposals = _by_field(propose(lines, get_game("endbreaker")))
    assert [proposal.value for proposal in proposals["name"]] == ["テスト剣士"]
    assert proposals["name"][0].lines == (1,)


def test_the_reading_core_does_not_import_django():
    code = "import sys, cards.reading, cards.reading.synthetic; print('django' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "False"


def test_a_picture_without_a_card_outline_is_read_whole(tesseract_ready):
    """A cut-out scan with no border or table round it: no card is found, the whole picture is read."""
    from PIL import Image, ImageDraw, ImageFont

    from cards.reading.synthetic import noto_cjk_path

    picture = Image.new("RGB", (560, 200), "white")
    ImageDraw.Draw(picture).text((30, 70), RULE_JA, fill="black", font=ImageFont.truetype(noto_cjk_path(), 30))
    reading = read_photo(picture, ["ja"])
    assert reading.card_corners is None
    assert _best_ratio(RULE_JA, reading) >= 0.9, reading.text
    [line] = [line for line in reading.lines if _ratio(RULE_JA, line.text) >= 0.9]
    assert _inside(line.photo_box, reading.photo_size) and line.photo_box.top >= 50
