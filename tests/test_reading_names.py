"""Finding a card by its name and restoring the symbols the game prints (cards/reading: layout, confusions,
symbols), on hand-made lines; and the name band of a synthetic card drawn as the game's layout places things,
read with Tesseract (skipped without)."""

from __future__ import annotations

import dataclasses

from cards.gamedefs import get_game
from cards.reading import Box, Line, Word, propose, read_photo
from cards.reading.confusions import closest_name, name_distance
from cards.reading.layout import DEFAULT_LAYOUT, layout_for
from cards.reading.symbols import restore
from cards.reading.synthetic import photograph, render_layout_card

NAMES = [(1, "テスト戦闘ブーツ"), (2, "テスト闘気"), (3, "テストドラゴン"), (4, "測試戰靴"), (5, "テストトラゴン改")]


def _line(text: str, *, top: int = 0, height: int = 20, region: str = "") -> Line:
    """A line read as one word per character, each ``height`` high, side by side."""
    words = tuple(
        Word(char, Box(10 + 20 * index, top, 20, height), Box(10 + 20 * index, top, 20, height), 0.9)
        for index, char in enumerate(text)
    )
    spans = tuple((index, index + 1) for index in range(len(text)))
    box = Box.around(word.box for word in words)
    return Line(text, words, spans, box, box, 0.9, language="ja", region=region)


def test_a_name_read_with_known_confusions_finds_its_card():
    assert closest_name("テスト澤闘ブーツ", NAMES).key == 1  # 戦 read as 澤
    assert closest_name("テストトラゴン", NAMES).key == 3  # ド read as ト: the nearer of two names
    assert closest_name("測試戰靴", NAMES).key == 4  # the Chinese name finds the same card as any other
    assert name_distance("テスト澤闘", "テスト戦闘") < name_distance("テスト開闘", "テスト戦闘")


def test_a_name_near_no_card_or_as_near_to_two_finds_none():
    assert closest_name("まったく別の名前", NAMES) is None
    assert closest_name("テ", NAMES) is None
    assert closest_name("テストX", [(1, "テストA"), (2, "テストB")]) is None


HAN_NAMES = [(1, "甲乙練刺棍"), (2, "甲乙戊刺梶"), (3, "丙丁試験剣"), (4, "丁戊"), (5, "測試居合")]


def test_a_han_name_read_with_one_or_two_han_characters_swapped_finds_its_card_when_no_other_is_as_near():
    assert closest_name("甲乙便刺己", HAN_NAMES) is None  # as near to two names: no card
    assert closest_name("甲乙丙刺棍", HAN_NAMES).key == 1  # one swap from 1, two from 2
    assert closest_name("丙丁試驗劍", HAN_NAMES).key == 3  # two Han characters read as others
    # Half the name or more swapped (a card the database lacks sharing a prefix), a name of two characters,
    # a length changed: no card.
    assert closest_name("測試盾牌", HAN_NAMES) is None
    assert closest_name("テスト新騎士", [(1, "テスト居合い")]) is None  # two swaps and a kana for a Han character
    assert closest_name("丁己", HAN_NAMES) is None
    assert closest_name("丙丁試驗劍棒", HAN_NAMES) is None


def test_the_name_bands_reading_is_the_proposed_name_and_a_bracketed_body_line_never_is():
    game = get_game("endbreaker")
    lines = [_line("テスト剣士", top=20, region="name"), _line("[戦闘]テスト", top=80, height=30)]
    assert [p.value for p in propose(lines, game) if p.field == "name"] == ["テスト剣士"]
    # Without a name band: the bracket makes the body line tallest, yet the name is the line printed large.
    lines = [
        _line("テスト剣士", top=20, height=22),
        _line("[戦闘]テスト", top=80, height=25),
        _line("テスト本文", top=120),
        _line("テスト本文", top=150),
    ]
    assert [p.value for p in propose(lines, game) if p.field == "name"] == ["テスト剣士"]


def test_signs_and_bracketed_labels_are_restored_and_the_proposal_shows_it():
    layout = layout_for("endbreaker")
    lines = restore([_line("澤闘]1「ダメージ：一3」"), _line("AT:十2")], layout)
    assert [line.text for line in lines] == ["[戦闘]「ダメージ：-3」", "AT:+2"]
    assert lines[0].corrections == (("澤闘]1", "[戦闘]"), ("一", "-"))
    # Each word still holds its own characters.
    assert all(
        lines[0].text[start:end] == word.text for word, (start, end) in zip(lines[0].words, lines[0].spans, strict=True)
    )
    [at] = [p for p in propose(lines, get_game("endbreaker")) if p.field == "at"]
    assert at.value == 2 and at.corrections == (("十", "+"),) and "symbols_restored" in at.notes
    # 十 inside a word is a character, not a sign.
    assert restore([_line("十字架の2枚")], layout)[0].text == "十字架の2枚"


def test_a_full_stop_wrapped_onto_its_own_line_is_joined_to_the_line_before():
    layout = DEFAULT_LAYOUT
    lone = dataclasses.replace(_line("oO", top=40), box=Box(10, 40, 20, 20))
    lines = restore([_line("テスト本文", top=0), lone, _line("次の行", top=80)], layout)
    assert [line.text for line in lines] == ["テスト本文。", "次の行"]
    assert lines[0].corrections == (("oO", "。"),)
    # A 0 standing on its own at the first line, or in a line of other text, stays.
    assert [line.text for line in restore([_line("0"), _line("AT 0")], layout)] == ["0", "AT 0"]


def test_the_name_printed_little_larger_than_the_text_is_read_from_its_band(tesseract_ready):
    layout = layout_for("endbreaker")
    card = render_layout_card(
        "テストシールドガード", ["[日常]「ドロー：＋２」してもよい。", "テスト本文を読む。"], layout=layout
    )
    for picture in (card, photograph(card, angle=4, blur=1.0, perspective=0.03)):
        reading = read_photo(picture, ["ja"], layout=layout)
        [name] = [p for p in propose(reading, get_game("endbreaker")) if p.field == "name"]
        assert closest_name(name.value, [(1, "テストシールドガード"), (2, "テストシールド")]).key == 1
        assert reading.lines[name.lines[0]].region == "name"


def _name_proposal(value: str):
    box = Box(0, 0, 10, 10)
    from cards.reading import Proposal

    return Proposal("name", value, value, (0,), box, box, 0.9, False)


def test_a_card_is_matched_by_a_name_read_with_misread_characters_in_any_of_its_scripts(synthetic_cards):
    from cards.models import Game
    from readings.services import match_card

    game = Game.objects.get(slug="endbreaker")
    # ド read as ト, no number: the search finds nothing by that name, the reader's confusions do.
    card, matched_by = match_card(game, [_name_proposal("テストシールト")], ui_language="ja")
    assert card is not None and card.key == "EB9-002" and matched_by == "name"
    # The Traditional Chinese name finds the same card as the Japanese one, a character misread.
    card, _ = match_card(game, [_name_proposal("測試假靣")], ui_language="ja")
    assert card is not None and card.key == "EB9-004"
    # A name near none of the game's: no card.
    assert match_card(game, [_name_proposal("まったく別のカード")], ui_language="ja") == (None, "")


def test_a_chinese_printing_quoting_its_japanese_name_in_katakana_has_the_name_read_in_japanese(tesseract_ready):
    layout = layout_for("endbreaker")
    card = render_layout_card(
        "テストシールドガード", ["[日常]可獲得測試抽牌+2", "測試本文的一行。"], language="zh-hant", layout=layout
    )
    reading = read_photo(card, ["zh-hant", "ja"], layout=layout)
    [name] = [p for p in propose(reading, get_game("endbreaker")) if p.field == "name"]
    assert closest_name(name.value, [(1, "テストシールドガード"), (2, "テストシールド")]).key == 1
    assert reading.lines[name.lines[0]].language == "ja"
    assert "jpn" in reading.tesseract_languages


def test_a_symbol_of_a_list_of_letters_read_with_its_look_alike_digit_is_the_letter_alone():
    layout = layout_for("endbreaker")
    lines = restore([_line("將技能P、T、5S全變成技能B。"), _line("技能P,8B,T")], layout)
    assert [line.text for line in lines] == ["將技能P、T、S全變成技能B。", "技能P,B,T"]
    assert lines[0].corrections == (("5S", "S"),)
    # A digit and a letter outside a list of letters, or not alike, are left as read.
    kept = ["可獲得1000元2張", "技能5S", "P、T、7S", "AT+5"]
    assert [line.text for line in restore([_line(text) for text in kept], layout)] == kept


def _read_line(words: list[tuple[str, int, int, float]], language: str) -> Line:
    """A line of (text, left, right, confidence) words, 30 pixels high."""
    made = tuple(
        Word(text, Box(left, 100, right - left, 30), Box(left, 100, right - left, 30), sure)
        for text, left, right, sure in words
    )
    spans, position = [], 0
    for word in made:
        spans.append((position, position + len(word.text)))
        position += len(word.text)
    box = Box.around(word.box for word in made)
    confidence = sum(word.confidence for word in made) / len(made)
    return Line("".join(word.text for word in made), made, tuple(spans), box, box, confidence, language=language)


def test_katakana_quoted_in_a_chinese_line_is_taken_from_the_japanese_reading_and_the_chinese_kept():
    import numpy as np

    from cards.reading.linework import splice as _splice
    from cards.reading.preprocess import Prepared

    prepared = Prepared(np.full((400, 900), 255, dtype=np.uint8), (900, 400), None, np.eye(3))
    # chi_tra: the katakana as unsure strokes and letters, ー as 一, the Chinese right.
    chinese = _read_line(
        [("二", 38, 113, 0.25), ("了", 85, 131, 0.0), ("KRK/A", 131, 240, 0.0), ("一", 288, 347, 0.81),
         ("以", 346, 385, 0.96), ("外", 384, 423, 0.96), ("卡", 467, 509, 0.96), ("片", 508, 550, 0.46)],
        "zh-hant",
    )  # fmt: skip
    # jpn: the katakana right, the Chinese worse (卡片 as 本月).
    japanese = _read_line(
        [("テス", 38, 113, 0.91), ("ト", 131, 155, 0.93), ("ハ", 164, 198, 0.91), ("マー", 247, 322, 0.96),
         ("以外", 328, 407, 0.95), ("本", 460, 490, 0.58), ("月", 496, 524, 0.0)],
        "ja",
    )  # fmt: skip
    spliced = _splice(chinese, [japanese], prepared)
    assert spliced is not None and spliced.text.replace(" ", "") == "テストハマー以外卡片"
    assert spliced.language == "zh-hant"
    # A sure Han character is never given to a kana word of the same place; no kana read: nothing to splice.
    sure = _read_line([("除", 10, 40, 0.95), ("了", 40, 70, 0.95), ("工", 80, 110, 0.9)], "zh-hant")
    assert _splice(sure, [_read_line([("ェ", 80, 110, 0.93)], "ja")], prepared) is None
    assert _splice(chinese, [_read_line([("本月", 460, 524, 0.99)], "ja")], prepared) is None
