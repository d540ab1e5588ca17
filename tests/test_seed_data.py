"""The seed data as loaded by ``loadcards``: what a reader of the site gets from the seeds.

Expected values come from the seeds themselves (read from ``../shared/seeds`` when it is
there) or from the facts the task gives; nothing is copied from the code under test.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.core.management import call_command

from cards.models import Card, CardText, Game, RuleSection, RuleText, Term, TermText

from .support.seeds import (
    DATA_DIR,
    ENDBREAKER_SEED,
    EPICBATTLES_SEED,
    SEED_DIR,
    SETUP_ITEM_5,
    SHARED_DIR,
    assert_same_as_seed_lines,
    endbreaker_seed_cards,
    read_seed,
)

SHADOWERA_SEED = SEED_DIR / "001_7887a164e89e853a.txt"
SUIKODEN_SEED = SEED_DIR / "002_ef91ed0556245f68.txt"
GAMES_MD = SHARED_DIR / "games.md"

# The cards of the seed's card table (games.md: "EB1-001, EB1-008 to EB1-028, EB1-039 to EB1-059").
EXPECTED_NUMBERS = {
    "EB1-001",
    *(f"EB1-{n:03d}" for n in range(8, 29)),
    *(f"EB1-{n:03d}" for n in range(39, 60)),
}
# Cards the rules name without a number: the starting jobs, the supply jobs and the coin card.
EXPECTED_UNNUMBERED = {"城塞騎士", "狩猟者", "星霊術士", "魔獣戦士", "スカイランナー", "デモニスタ", "1000ダルク"}
SAMPLE_NUMBERS = ["EB1-008", "EB1-009", "EB1-021", "EB1-047", "EB1-059"]


# --- reading the seeds ----------------------------------------------------------------------------


def require_data(slug: str) -> Path:
    path = DATA_DIR / f"{slug}.json"
    if not path.exists():
        pytest.skip(f"{path.name} has not been written yet")
    return path


def card_text(game: str, key: str, language: str) -> CardText | None:
    return CardText.objects.filter(card__game__slug=game, card__key=key, language=language).first()


def term_names(term: Term) -> dict[str, str]:
    return {text.language: text.name for text in term.texts.all()}


def term_named(game: str, language: str, name: str) -> Term:
    terms = list(Term.objects.filter(game__slug=game, texts__language=language, texts__name=name))
    assert len(terms) == 1, f"expected one {game} glossary term named {name!r} in {language}, found {len(terms)}"
    return terms[0]


def card_named(game: str, name: str) -> Card:
    cards = list(Card.objects.filter(game__slug=game, texts__name=name).distinct())
    assert len(cards) == 1, f"expected one {game} card named {name!r}, found {len(cards)}"
    return cards[0]


# --- エンドブレイカー！SCG --------------------------------------------------------------------------


def test_endbreaker_has_the_card_table_and_the_named_cards(seeded_db):
    cards = Card.objects.filter(game__slug="endbreaker")
    numbered = {card.number for card in cards if card.number}
    assert numbered == EXPECTED_NUMBERS
    assert len(EXPECTED_NUMBERS) == 43
    unnumbered = {card.key for card in cards if not card.number}
    assert unnumbered == EXPECTED_UNNUMBERED
    assert cards.count() == 43 + 7
    # an unnumbered card is found by its Japanese name
    for name in EXPECTED_UNNUMBERED:
        assert card_text("endbreaker", name, "ja").name == name


def test_every_card_of_the_seed_table_is_loaded(seeded_db):
    seed = endbreaker_seed_cards()
    assert set(seed) == EXPECTED_NUMBERS
    stored = dict(Card.objects.filter(game__slug="endbreaker", number__isnull=False).values_list("number", "key"))
    assert set(stored) == set(seed)
    # a printed card's key is its number
    assert all(stored[number] == number for number in seed)


@pytest.mark.parametrize("number", SAMPLE_NUMBERS)
def test_sample_card_texts_are_the_seed_text(seeded_db, number):
    seed = endbreaker_seed_cards()[number]
    ja = card_text("endbreaker", number, "ja")
    zh = card_text("endbreaker", number, "zh-hant")
    assert ja is not None and zh is not None
    assert ja.name == seed.name
    assert seed.ja, "the seed gives this card a Japanese text"
    assert_same_as_seed_lines(ja.text, seed.ja, f"{number} ja")
    assert_same_as_seed_lines(zh.text, seed.zh, f"{number} zh-hant")


def test_all_seed_table_texts_are_kept_exactly(seeded_db):
    problems = []
    for number, seed in endbreaker_seed_cards().items():
        ja = card_text("endbreaker", number, "ja")
        zh = card_text("endbreaker", number, "zh-hant")
        if ja is None or ja.name != seed.name:
            problems.append(f"{number}: Japanese name is not {seed.name!r}")
            continue
        try:
            assert_same_as_seed_lines(ja.text, seed.ja, f"{number} ja")
            assert_same_as_seed_lines(zh.text if zh else "", seed.zh, f"{number} zh-hant")
            assert (zh.notes if zh else "").replace("\n", "") == "".join(seed.notes), f"{number} notes"
        except AssertionError as error:
            problems.append(str(error).splitlines()[0])
    assert problems == []


def test_a_card_the_seed_gives_no_text_has_none(seeded_db):
    seed = endbreaker_seed_cards()
    empty = [number for number, card in seed.items() if not card.ja and not card.zh]
    assert empty, "the seed lists a card without text (EB1-049)"
    for number in empty:
        ja = card_text("endbreaker", number, "ja")
        assert ja.name == seed[number].name
        assert ja.text == ""
        assert card_text("endbreaker", number, "zh-hant") is None


def test_full_width_characters_are_kept(seeded_db):
    eb011 = card_text("endbreaker", "EB1-011", "ja").text
    assert "「ＡＴ：＋３」" in eb011
    assert "AT：+3" not in eb011 and "AT:+3" not in eb011
    assert "『１０００ダルク』" in card_text("endbreaker", "EB1-009", "ja").text
    assert "「スキル：●」" in card_text("endbreaker", "EB1-008", "ja").text
    # the translator's note is kept as printed, full-width brackets included
    assert card_text("endbreaker", "EB1-011", "zh-hant").notes == "（註：破壞就是除外的意思）"


@pytest.mark.parametrize(
    ("name", "field", "value"),
    [
        ("練刺棍", "cost", "PPT"),
        ("居合い斬り", "cost", "PT"),
        ("フェルプール", "payout", "6-4-2-0"),
        ("アルラウネ", "skill", "PTS"),
        ("フリーズランサー", "skill", "●●"),
        ("魔獣戦士", "skill", "PP"),
        ("スカイランナー", "skill", "TT"),
        ("城塞騎士", "skill", "P"),
    ],
)
def test_values_the_seed_gives(seeded_db, name, field, value):
    assert card_named("endbreaker", name).fields.get(field) == value


def test_values_no_source_gives_are_unknown(seeded_db):
    eb001 = Card.objects.get(game__slug="endbreaker", key="EB1-001")
    assert eb001.kind is None
    assert card_text("endbreaker", "EB1-001", "ja").name == "旅人の酒場"
    # no AT is public for any card: the field is absent, never 0 or ""
    for card in Card.objects.filter(game__slug="endbreaker"):
        assert "at" not in card.fields, card.key
        assert all(value not in (None, "", 0) for value in card.fields.values()), card.key
    eb008 = Card.objects.get(game__slug="endbreaker", key="EB1-008")
    assert set(eb008.fields) == {"cost"}
    eb040 = Card.objects.get(game__slug="endbreaker", key="EB1-040")
    assert "damage" not in eb040.fields and "skill" not in eb040.fields


@pytest.mark.parametrize(("ja", "zh"), [("ジョブ", "職業"), ("ドロー", "抽牌"), ("スキル", "技能點數")])
def test_glossary_pairs(seeded_db, ja, zh):
    assert term_names(term_named("endbreaker", "ja", ja))["zh-hant"] == zh
    assert term_names(term_named("endbreaker", "zh-hant", zh))["ja"] == ja


def test_glossary_has_every_entry_of_the_seed_word_list(seeded_db):
    lines = read_seed(ENDBREAKER_SEED)
    start = next(i for i, line in enumerate(lines) if line.startswith("＊避免過多日文"))
    entries = []
    for line in lines[start + 1 :]:
        if not line.strip():
            break
        ja, _, zh = line.partition("：")
        entries.append((ja, zh))
    assert len(entries) >= 10
    for ja, zh in entries:
        term = term_named("endbreaker", "ja", ja)
        chinese = term.texts.get(language="zh-hant")
        # the Chinese name plus its explanation is the seed's right-hand side
        assert (chinese.name + chinese.text).replace(" ", "") == zh.replace(" ", ""), ja


def test_rules_keep_the_seed_lines(seeded_db):
    bodies = "\n".join(RuleText.objects.filter(section__game__slug="endbreaker").values_list("body", flat=True))
    lines = bodies.split("\n")
    assert "2. 特技卡牌堆任選９種放置在場中。" in lines
    # a line the seed wrapped is one line again
    assert SETUP_ITEM_5 in lines
    assert "6. 戰鬥不能的玩家，獲得的勝利點數減半，同樣無條件捨棄至整數。" in lines


# --- loading again --------------------------------------------------------------------------------


def _snapshot() -> dict:
    cards = sorted(
        (
            card.game.slug,
            card.pk,
            card.key,
            card.number,
            card.kind,
            json.dumps(card.fields, sort_keys=True, ensure_ascii=False),
            card.source,
            tuple(sorted((t.language, t.name, t.text, t.notes, t.source) for t in card.texts.all())),
        )
        for card in Card.objects.select_related("game").prefetch_related("texts")
    )
    terms = sorted(
        (
            term.game.slug,
            term.pk,
            term.key,
            term.category,
            tuple(sorted((t.language, t.name, t.text) for t in term.texts.all())),
        )
        for term in Term.objects.select_related("game").prefetch_related("texts")
    )
    rules = sorted(
        (
            section.game.slug,
            section.key,
            section.order,
            tuple(sorted((t.language, t.title, t.body) for t in section.texts.all())),
        )
        for section in RuleSection.objects.select_related("game").prefetch_related("texts")
    )
    counts = {
        model.__name__: model.objects.count() for model in (Game, Card, CardText, Term, TermText, RuleSection, RuleText)
    }
    return {"cards": cards, "terms": terms, "rules": rules, "counts": counts}


def test_loading_twice_changes_nothing(seeded_db):
    before = _snapshot()
    eb009 = card_text("endbreaker", "EB1-009", "ja").text
    call_command("loadcards", verbosity=0)
    after = _snapshot()
    assert after["counts"] == before["counts"]
    assert after["cards"] == before["cards"]  # same rows (same ids), same values
    assert after["terms"] == before["terms"]
    assert after["rules"] == before["rules"]
    assert card_text("endbreaker", "EB1-009", "ja").text == eb009


def test_an_imported_correction_updates_that_card_in_place_and_survives_loading_the_seeds(seeded_db, tmp_path):
    document = json.loads((DATA_DIR / "endbreaker.json").read_text(encoding="utf-8"))
    card = next(c for c in document["cards"] if c["key"] == "EB1-010")
    card["texts"]["zh-hant"]["text"] = "（更正）" + card["texts"]["zh-hant"]["text"]
    path = tmp_path / "endbreaker.json"
    path.write_text(json.dumps(document, ensure_ascii=False), encoding="utf-8")
    before = _snapshot()["counts"]
    card_id = Card.objects.get(game__slug="endbreaker", key="EB1-010").pk

    call_command("importcards", str(path), verbosity=0)

    assert _snapshot()["counts"] == before
    updated = card_text("endbreaker", "EB1-010", "zh-hant")
    assert updated.card_id == card_id
    assert updated.text == card["texts"]["zh-hant"]["text"]
    # The next start of the site loads the seeds again: the seed has not changed, so the correction stands.
    call_command("loadcards", verbosity=0)
    assert card_text("endbreaker", "EB1-010", "zh-hant").text == card["texts"]["zh-hant"]["text"]
    assert _snapshot()["counts"] == before


# --- 乙女遊戯 水滸伝 --------------------------------------------------------------------------------

SUIKODEN_KEYWORDS = ["陽動", "騎馬", "射擊X", "水軍", "操舵", "強奪", "火計", "水計", "妖術", "情報", "美女", "調達"]


def test_suikoden_keywords(seeded_db):
    require_data("suikoden")
    keywords = {
        text.name
        for text in TermText.objects.filter(term__game__slug="suikoden", term__category="keyword", language="zh-hant")
    }
    missing = [name for name in SUIKODEN_KEYWORDS if name not in keywords]
    assert missing == []


def test_suikoden_keyword_texts_are_the_seed_text(seeded_db):
    require_data("suikoden")
    lines = read_seed(SUIKODEN_SEED)
    seed: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in lines:
        bracket = re.fullmatch(r"\[(.+?)\] ?(.*)", line)
        if bracket:
            current = seed.setdefault(bracket.group(1), [bracket.group(2)])
        elif current is not None and line.strip() and not re.match(r"\d+\. ", line) and line != "--":
            current.append(line)
        else:
            current = None
    assert {"陽動", "騎馬", "射擊X", "水軍", "操舵", "強奪", "火計", "水計", "妖術", "情報", "美女"} <= set(seed)
    for name, seed_lines in seed.items():
        term = Term.objects.get(game__slug="suikoden", texts__language="zh-hant", texts__name=name)
        assert term.category == "keyword", name
        stored = term.texts.get(language="zh-hant").text
        assert stored.replace("\n", "") == "".join(seed_lines), name


def test_suikoden_characters_from_the_worked_examples(seeded_db):
    require_data("suikoden")
    lin_chong = card_named("suikoden", "林沖")
    assert lin_chong.kind == "character"
    assert lin_chong.fields.get("attack") == 6
    assert "defense" not in lin_chong.fields and "intelligence" not in lin_chong.fields
    assert card_named("suikoden", "關勝").fields.get("attack") == 7
    assert card_named("suikoden", "砦").fields.get("leader") == 9
    assert card_named("suikoden", "竹林").fields.get("leader") == 3


# --- Shadow Era -----------------------------------------------------------------------------------


def test_shadowera_key_terms(seeded_db):
    require_data("shadowera")
    assert term_names(term_named("shadowera", "ja", "対象"))["en"] == "target"
    lines = read_seed(SHADOWERA_SEED)
    start = lines.index("重要用語(Key Terms)")
    key_terms = [re.fullmatch(r"「(.+)\((.+)\)」 - (.+)", line) for line in lines[start + 1 :] if line.startswith("「")]
    assert len(key_terms) == 9 and all(key_terms)
    for match in key_terms:
        ja, en, meaning = match.groups()
        term = term_named("shadowera", "ja", ja)
        assert term_names(term).get("en") == en, ja
        assert term.texts.get(language="ja").text == meaning, ja


# --- Epic Battles ---------------------------------------------------------------------------------


def test_epicbattles_chipping(seeded_db):
    require_data("epicbattles")
    chipping = term_named("epicbattles", "ja", "チッピング")
    assert term_names(chipping).get("en", "").lower() == "chipping"
    assert "削り攻撃" in chipping.texts.get(language="ja").text


def test_epicbattles_round_one_characters(seeded_db):
    require_data("epicbattles")
    line = next(line for line in read_seed(GAMES_MD) if "Round 1 sets" in line)
    franchises = {"Mortal Kombat": "mortal-kombat", "Street Fighter": "street-fighter"}
    expected = {}
    for title, slug in franchises.items():
        names = re.search(rf"{title}: ([^;(]+)", line).group(1)
        for name in names.split(","):
            expected[name.strip()] = slug
    assert len(expected) == 20
    characters = {card.key: card for card in Card.objects.filter(game__slug="epicbattles", kind="character")}
    assert set(characters) == set(expected)
    for name, slug in expected.items():
        assert characters[name].fields == {"franchise": slug}, name


# --- what the line-by-line audit found missing ---------------------------------------------------------

# The card table's kinds no source names: the abilities and masquerades between those whose kind a source names.
KIND_NAMED = {"EB1-008", "EB1-010", "EB1-011", "EB1-040", "EB1-056", "EB1-059"}


def test_kinds_inferred_from_numbering_say_so_in_their_source(seeded_db):
    cards = Card.objects.filter(game__slug="endbreaker", number__isnull=False).exclude(key="EB1-001")
    inferred = {card.key: card.kind for card in cards if "kind: inferred from numbering" in card.source}
    assert sorted(inferred.values()).count("ability") == 18 and sorted(inferred.values()).count("masquerade") == 18
    assert set(inferred) | KIND_NAMED == {card.key for card in cards}
    assert not set(inferred) & KIND_NAMED
    assert "このマスカレイドとの戦闘は" in card_text("endbreaker", "EB1-056", "ja").text  # its own text names it


def rule_texts(game: str) -> list[RuleText]:
    return list(RuleText.objects.filter(section__game__slug=game))


def test_the_card_tables_note_is_kept(seeded_db):
    line = "[卡表] （註: 只列出有特殊能力的)"
    assert line in read_seed(ENDBREAKER_SEED)
    assert any(f"{text.title} {text.body}" == line for text in rule_texts("endbreaker"))


def test_the_public_endbreaker_facts_are_kept_as_written(seeded_db):
    games_md = "\n".join(read_seed(GAMES_MD))
    facts = [text for text in rule_texts("endbreaker") if text.source.startswith("games.md")]
    english = [text for text in facts if text.language == "en"]
    kept = "\n".join(text.body for text in english)
    for fact in ("Group SNE", "2–4 players", "65 card kinds, 396 cards", "1000ダルク pile", "solo variant"):
        assert fact in kept, fact
    assert all(text.body in games_md for text in english)
    # the site's own sentences, also in its other languages, each citing the same source
    sections = {text.section_id for text in english}
    for language in ("ja", "zh-hant"):
        translated = [text for text in facts if text.language == language]
        assert {text.section_id for text in translated} == sections, language
    assert "396" in "\n".join(text.body for text in facts if text.language == "ja")


def test_each_seeds_credits_and_source_line_are_kept(seeded_db):
    for game, path, lines in (
        ("endbreaker", ENDBREAKER_SEED, ["エンドブレイカー！SCG 規則 & 卡表 - 桌遊"]),
        ("shadowera", SHADOWERA_SEED, ["Shadow Era Wiki", "公式ＨＰ記載のルールの日本語訳"]),
        ("suikoden", SUIKODEN_SEED, ["乙女遊戯 水滸伝 - 桌遊", "官網: http://www.harvest-inc.jp/special/suiko/"]),
        (
            "epicbattles",
            EPICBATTLES_SEED,
            ["ジャガーノーツのTCGカタログ", "Last Update 2023/4/8 文責：ＤＯＰ", "Trading Card Game Club JUGGERNAUTS"],
        ),
    ):
        seed = read_seed(path)
        stored = {line for text in rule_texts(game) for line in [text.title, *text.body.split("\n")]}
        for line in lines:
            assert line in seed and line in stored, (game, line)


def test_huyan_zhuo_is_a_suikoden_character_with_only_what_a_source_gives(seeded_db):
    assert '"008 呼延灼"' in "\n".join(read_seed(GAMES_MD))
    card = Card.objects.get(game__slug="suikoden", number="008")
    assert card.kind == "character" and card.fields == {}
    assert card_text("suikoden", card.key, "ja").name == "呼延灼"
    assert [text.language for text in card.texts.all()] == ["ja"]


@pytest.mark.parametrize("name", ["內政", "擊退數", "行動準備中", "縱置", "橫置", "戰果區"])
def test_suikoden_glossary_has_the_seeds_terms(seeded_db, name):
    seed = read_seed(SUIKODEN_SEED)
    term = term_named("suikoden", "zh-hant", name)
    text = term.texts.get(language="zh-hant")
    assert any(name in line for line in seed)
    for line in filter(None, text.text.split("\n")):
        assert line in seed, line


def test_epicbattles_round_is_in_the_glossary(seeded_db):
    seed = read_seed(EPICBATTLES_SEED)
    term = term_named("epicbattles", "en", "Round")
    ja = term.texts.get(language="ja")
    assert "先にゲーム（Round）で 2勝する。各ゲームの勝利条件は以下の通り。" in ja.text.split("\n")
    assert all(line in seed for line in ja.text.split("\n"))


def test_shadowera_rules_sentences_are_cited_as_rules_not_kept_as_translators_notes(seeded_db):
    seed = "\n".join(read_seed(SHADOWERA_SEED))
    assert not CardText.objects.filter(card__game__slug="shadowera").exclude(notes="").exists()
    for key in ("Bazaar", "Bad Santa", "Research"):
        source = Card.objects.get(game__slug="shadowera", key=key).source
        quoted = source.split(": ", 1)[1].rsplit("); no field values given", 1)[0]
        assert key in quoted and quoted in seed, source
