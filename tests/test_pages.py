"""The pages a reader sees, in each interface language (Django's test client)."""

from __future__ import annotations

import json
import re

import pytest
from django.core.management import call_command

from cards.gamedefs import all_games

from .support.html import UI_LANGUAGES, Node, get, parse, squash
from .support.seeds import DATA_DIR, SETUP_ITEM_5

# --- a small HTML tree ----------------------------------------------------------------------------


# --- helpers --------------------------------------------------------------------------------------


def seed_document(slug: str) -> dict:
    path = DATA_DIR / f"{slug}.json"
    if not path.exists():
        pytest.skip(f"{path.name} has not been written yet")
    return json.loads(path.read_text(encoding="utf-8"))


def seed_card(slug: str, key: str) -> dict:
    return next(c for c in seed_document(slug)["cards"] if c["key"] == key)


@pytest.fixture(params=UI_LANGUAGES)
def language(request) -> str:
    return request.param


@pytest.fixture
def visitor(client, language):
    """A visitor whose interface language is ``language`` (chosen earlier: the language cookie)."""
    client.cookies["django_language"] = language
    return client


def html_lang(page: Node) -> str:
    return page.find("html").attrs.get("lang")


def unknown_label(page: Node, field: str) -> str:
    cell = page.find("dd", data_field=field)
    marked = cell.find_all(cls="unknown")
    assert marked, f"the {field} field is not shown as unknown: {cell.text!r}"
    return squash(marked[0].text)


def assert_in_ui_language(label: str, english: str, language: str) -> None:
    if language == "en":
        assert label == english
    else:
        assert label and label != english, f"{english!r} is not translated into {language}"
        assert not re.search(r"[A-Za-z]", label), f"{label!r} is not in {language}"


# --- home -----------------------------------------------------------------------------------------


def test_home_lists_the_four_games(seeded_db, visitor, language):
    page = parse(get(visitor, "/"))
    assert html_lang(page) == language
    game_list = page.find("ul", cls="game-list")
    links = {node.attrs["href"] for node in game_list.find_all("a")}
    games = all_games()
    for slug in [definition.slug for definition in games]:
        assert f"/games/{slug}/" in links, slug
        assert f"/games/{slug}/cards/" in links, slug
    assert len(game_list.find_all("li", cls="game-card")) == len(games)
    titles = [squash(node.text) for node in game_list.find_all("h2")]
    assert len(titles) == len(games) and all(titles)
    assert "Shadow Era" in titles and "Epic Battles" in titles
    if language == "ja":
        # the games' own titles
        assert "エンドブレイカー！SCG" in titles and "乙女遊戯 水滸伝" in titles


def test_home_counts_the_cards_of_each_game(seeded_db, visitor):
    page = parse(get(visitor, "/"))
    for item in page.find("ul", cls="game-list").find_all("li", cls="game-card"):
        slug = item.find("a").attrs["href"].strip("/").split("/")[-1]
        path = DATA_DIR / f"{slug}.json"
        if not path.exists():
            continue
        cards = json.loads(path.read_text(encoding="utf-8"))["cards"]
        translated = sum(1 for c in cards if "zh-hant" in c.get("texts", {}))
        numbers = [int(n) for n in re.findall(r"\d+", squash(item.text))]
        assert numbers[:2] == [len(cards), translated], (slug, item.text)


# --- game page ------------------------------------------------------------------------------------


def test_game_page_shows_rules_and_counts(seeded_db, visitor, language):
    cards = seed_document("endbreaker")["cards"]
    translated = sum(1 for c in cards if "zh-hant" in c.get("texts", {}))
    assert 0 < translated < len(cards)
    page = parse(get(visitor, "/games/endbreaker/"))
    assert html_lang(page) == language
    counts = squash(page.find("section", cls="counts").find("p").text)
    assert [int(n) for n in re.findall(r"\d+", counts)] == [len(cards), translated]
    if language == "en":
        assert f"{len(cards)} cards" in counts and f"{translated} with a Chinese translation" in counts

    rules = page.find("section", cls="rules")
    paragraphs = [squash(p.text) for p in rules.find_all("p")]
    titles = [squash(h.text) for h in rules.find_all("h3")]
    assert "遊戲準備" in titles and "戰鬥階段" in titles
    assert "2. 特技卡牌堆任選９種放置在場中。" in paragraphs
    # the seed wrapped this item over two lines; the page shows it as one paragraph
    assert SETUP_ITEM_5 in paragraphs
    # its Chinese rules (seed 000) are marked as Chinese; the site's notes on the game (games.md) read in the
    # reader's language, each once
    languages = {squash(section.find("h3").text): section.attrs["lang"] for section in rules.find_all("article")}
    assert languages["遊戲準備"] == languages["[卡表]"] == "zh-hant"
    notes_title = {"ja": "発行元と内容", "zh-hant": "發行與內容", "en": "Publisher and contents"}[language]
    assert languages[notes_title] == language
    assert set(languages.values()) == {"zh-hant", language}
    assert len(rules.find_all("article")) == 10


def test_game_page_counts_kinds(seeded_db, visitor):
    page = parse(get(visitor, "/games/endbreaker/"))
    counts = {}
    for item in page.find("ul", cls="kind-counts").find_all("li"):
        kind = item.find("a").attrs["href"].split("kind=")[1]
        counts[kind] = int(squash(item.text).rsplit(":", 1)[1])
    # EB1-008 to EB1-028 are abilities, the six named jobs are jobs, EB1-001's kind is unknown
    assert counts["ability"] == 21
    assert counts["job"] == 6
    assert counts["unknown"] == 1
    assert sum(counts.values()) == len(seed_document("endbreaker")["cards"])


# --- card list ------------------------------------------------------------------------------------


def _row_names(node: Node) -> list[set[str]]:
    """For each row of the card list, the card's names shown (in the reader's language and the others)."""
    rows = []
    for row in node.find("tbody").find_all("tr"):
        cell = row.find_all("td")[1]
        names = {squash(cell.find("a").text)} | {squash(span.text) for span in cell.find_all("span", cls="alt-name")}
        rows.append(names)
    return rows


def _has(rows: list[set[str]], name: str) -> bool:
    return any(name in names for names in rows)


def test_card_list_filters_by_kind(seeded_db, visitor, language):
    page = parse(get(visitor, "/games/endbreaker/cards/?kind=ability"))
    assert html_lang(page) == language
    rows = _row_names(page)
    assert _has(rows, "練刺棍")
    assert not _has(rows, "フェルプール")
    assert len(rows) == 21

    masquerades = _row_names(parse(get(visitor, "/games/endbreaker/cards/?kind=masquerade")))
    assert _has(masquerades, "フェルプール") and not _has(masquerades, "練刺棍")

    unknown = _row_names(parse(get(visitor, "/games/endbreaker/cards/?kind=unknown")))
    assert len(unknown) == 1 and "旅人の酒場" in unknown[0]


def test_card_list_is_ordered_by_number(seeded_db, client):
    page = parse(get(client, "/games/endbreaker/cards/"))
    rows = page.find("tbody").find_all("tr")
    numbers = [squash(row.find_all("td")[0].text) for row in rows]
    printed = [n for n in numbers if re.fullmatch(r"EB\d+-\d{3}", n)]
    assert len(printed) == 43
    assert printed == sorted(printed)
    # the printed cards come first, then the cards without a number
    assert numbers[: len(printed)] == printed
    assert len(rows) == len(seed_document("endbreaker")["cards"])


def test_card_list_htmx_partial_is_only_the_rows(seeded_db, visitor):
    response = get(visitor, "/games/endbreaker/cards/?kind=ability", HX_Request="true")
    body = response.content.decode()
    assert "<html" not in body and "<header" not in body and "language-select" not in body
    page = parse(response)
    rows = _row_names(page)
    assert _has(rows, "練刺棍") and not _has(rows, "フェルプール")
    assert len(rows) == 21


def _not_reused_for_the_other_kind(response) -> bool:
    vary = {value.strip().lower() for value in response.get("Vary", "").split(",")}
    return "hx-request" in vary or "no-store" in response.get("Cache-Control", "")


def test_partial_and_full_card_list_are_cached_apart(seeded_db, client):
    partial = get(client, "/games/endbreaker/cards/?kind=ability", HX_Request="true")
    full = get(client, "/games/endbreaker/cards/?kind=ability")
    assert _not_reused_for_the_other_kind(partial)
    assert _not_reused_for_the_other_kind(full)


def test_htmx_history_restore_gets_the_whole_page(seeded_db, client):
    response = get(
        client, "/games/endbreaker/cards/?kind=ability", HX_Request="true", HX_History_Restore_Request="true"
    )
    page = parse(response)
    assert page.find_all("select", id="language-select")
    assert page.find_all("nav", cls="kind-filter")


def test_card_list_full_page_without_htmx(seeded_db, client):
    body = get(client, "/games/endbreaker/cards/?kind=ability").content.decode()
    assert "<html" in body and 'id="card-rows"' in body


# --- card page ------------------------------------------------------------------------------------


def printed(node: Node) -> str:
    """The text as printed on the card: without the glossary explanations, which open only on a tap."""
    return "".join(
        child if isinstance(child, str) else "" if "term-gloss" in child.classes else printed(child)
        for child in node.children
    )


def test_card_page_shows_original_and_translation_side_by_side(seeded_db, visitor, language):
    page = parse(get(visitor, "/games/endbreaker/cards/EB1-009/"))
    assert html_lang(page) == language
    texts = page.find("div", cls="card-texts")
    sections = [node for node in texts.find_all("section") if "lang" in node.attrs]
    assert [node.attrs["lang"] for node in sections][:2] == ["ja", "zh-hant"]
    ja, zh = sections[0], sections[1]
    expected = seed_card("endbreaker", "EB1-009")["texts"]
    assert [squash(printed(p)) for p in ja.find_all("p", cls="rules-line")] == expected["ja"]["text"].split("\n")
    assert [squash(printed(p)) for p in zh.find_all("p", cls="rules-line")] == [
        squash(line) for line in expected["zh-hant"]["text"].split("\n")
    ]
    assert "シールドガード" in squash(page.find("h1").text)


def test_card_page_marks_unknown_values(seeded_db, visitor, language):
    page = parse(get(visitor, "/games/endbreaker/cards/EB1-008/"))
    label = unknown_label(page, "at")
    assert_in_ui_language(label, "unknown", language)
    assert squash(page.find("dd", data_field="cost").text) == "PT"
    assert not page.find("dd", data_field="cost").find_all(cls="unknown")


def test_unknown_label_differs_between_languages(seeded_db, client):
    labels = {}
    for language in UI_LANGUAGES:
        client.cookies["django_language"] = language
        labels[language] = unknown_label(parse(get(client, "/games/endbreaker/cards/EB1-008/")), "at")
    assert labels["en"] == "unknown"
    assert labels["ja"] != labels["en"] and labels["zh-hant"] != labels["en"]


def test_interface_labels_follow_the_language(seeded_db, client):
    kind_labels = {}
    for language in UI_LANGUAGES:
        client.cookies["django_language"] = language
        page = parse(get(client, "/games/endbreaker/cards/EB1-008/"))
        kind_labels[language] = squash(page.find("dl", cls="card-fields").find("dt").text)
    assert kind_labels["en"] == "Kind"
    assert len(set(kind_labels.values())) == 3, kind_labels


def test_card_kind_is_named_in_the_interface_language(seeded_db, client):
    # the seed's glossary: アビリティ = 特技
    expected = {"ja": "アビリティ", "zh-hant": "特技"}
    for language, label in expected.items():
        client.cookies["django_language"] = language
        page = parse(get(client, "/games/endbreaker/cards/EB1-010/"))
        assert squash(page.find("dl", cls="card-fields").find("dd").text) == label


def test_card_of_unknown_kind_says_so(seeded_db, visitor, language):
    page = parse(get(visitor, "/games/endbreaker/cards/EB1-001/"))
    kind = squash(page.find("dl", cls="card-fields").find("dd").text)
    if language == "en":
        assert "unknown" in kind
    else:
        assert kind and not re.search(r"[A-Za-z]", kind)


def test_card_page_marks_glossary_terms(seeded_db, visitor):
    page = parse(get(visitor, "/games/endbreaker/cards/EB1-008/"))
    ja = page.find("section", lang="ja")
    marked = terms(ja)
    # the seed's glossary: スキル = 技能點數
    assert any(text == "スキル" and "技能點數" in title for text, title in marked), marked
    # the Chinese text marks its terms with the Japanese word
    zh_page = parse(get(visitor, "/games/endbreaker/cards/EB1-009/"))
    zh = zh_page.find("section", lang="zh-hant")
    marked = terms(zh)
    assert any(text == "抽牌" and "ドロー" in title for text, title in marked), marked


def terms(section: Node) -> set[tuple[str, str]]:
    """Each marked term (a button that opens its explanation, on a tap too) with its explanation."""
    found = set()
    for term in section.find_all("span", cls="term"):
        button, gloss = term.find("button", cls="term-word"), term.find("span", cls="term-gloss")
        assert button.attrs["aria-controls"] == gloss.attrs["id"] and button.attrs["aria-expanded"] == "false"
        found.add((squash(button.text), squash(gloss.text)))
    return found


@pytest.mark.parametrize(
    "url", ["/", "/games/endbreaker/", "/games/endbreaker/cards/EB1-008/", "/search/?q=zz", "/accounts/login/", "/x/"]
)
def test_every_page_has_a_favicon(seeded_db, client, url):
    from django.contrib.staticfiles import finders

    response = client.get(url)
    icons = [link for link in parse(response).find_all("link") if link.attrs.get("rel") == "icon"]
    assert len(icons) == 1, url
    assert icons[0].attrs["href"] == "/static/favicon.svg" and finders.find("favicon.svg")


def test_card_page_links_to_previous_and_next(seeded_db, client):
    page = parse(get(client, "/games/endbreaker/cards/EB1-028/"))
    assert page.find("a", rel="next").attrs["href"] == "/games/endbreaker/cards/EB1-039/"
    assert page.find("a", rel="prev").attrs["href"] == "/games/endbreaker/cards/EB1-027/"
    first = parse(get(client, "/games/endbreaker/cards/EB1-001/"))
    assert not first.find_all("a", rel="prev")
    assert first.find("a", rel="next").attrs["href"] == "/games/endbreaker/cards/EB1-008/"
    # following "next" from the first card visits every card once, in list order
    seen, url = [], "/games/endbreaker/cards/EB1-001/"
    while url:
        seen.append(url)
        following = parse(get(client, url)).find_all("a", rel="next")
        url = following[0].attrs["href"] if following else None
        assert len(seen) <= 100
    listed = [
        row.find("a").attrs["href"]
        for row in parse(get(client, "/games/endbreaker/cards/")).find("tbody").find_all("tr")
    ]
    assert seen == listed


def test_card_page_of_an_unnumbered_card(seeded_db, client):
    page = parse(get(client, "/games/endbreaker/cards/魔獣戦士/"))
    assert "魔獣戦士" in squash(page.find("h1").text)
    assert squash(page.find("dd", data_field="skill").text) == "PP"


@pytest.mark.parametrize(
    "url",
    [
        "/games/endbreaker/cards/EB9-999/",
        "/games/nosuchgame/",
        "/games/nosuchgame/cards/",
        "/games/nosuchgame/cards/EB1-008/",
        "/games/shadowera/cards/EB1-008/",
    ],
)
def test_unknown_card_or_game_is_not_found(seeded_db, client, url):
    get(client, url, status=404)


def test_glossary_page(seeded_db, visitor):
    page = parse(get(visitor, "/games/endbreaker/glossary/"))
    rows = page.find("table", cls="glossary").find("tbody").find_all("tr")
    cells = [[squash(td.text) for td in row.find_all("td")] for row in rows]
    assert any(row[1] == "ジョブ" and row[2] == "職業" for row in cells), cells


# --- choosing the language ------------------------------------------------------------------------


def test_default_language_is_japanese(seeded_db, client):
    assert html_lang(parse(get(client, "/"))) == "ja"


@pytest.mark.parametrize(
    ("accept", "expected"),
    [
        ("zh-Hant", "zh-hant"),
        ("zh-TW,zh;q=0.9", "zh-hant"),
        ("zh-HK", "zh-hant"),
        ("en-US,en;q=0.8", "en"),
        ("ja-JP", "ja"),
        ("zh-CN,zh;q=0.9", "zh-hans"),
        ("zh-SG", "zh-hans"),
        ("zh-Hans", "zh-hans"),
    ],
)
def test_accept_language_header_chooses_the_language(seeded_db, client, accept, expected):
    page = parse(get(client, "/games/endbreaker/cards/EB1-008/", Accept_Language=accept))
    assert html_lang(page) == expected


def test_switching_language_with_the_switcher(seeded_db, client):
    page = parse(get(client, "/games/endbreaker/cards/EB1-008/"))
    form = page.find("form", cls="language-switcher")
    options = form.find("select", id="language-select").find_all("option")
    assert {option.attrs["value"] for option in options} == {*UI_LANGUAGES, "zh-hans"}
    assert "简体中文" in [squash(option.text) for option in options]
    hidden = [node for node in form.find_all("input") if node.attrs.get("name") == "next"]
    assert hidden and hidden[0].attrs["value"] == "/games/endbreaker/cards/EB1-008/"
    before = unknown_label(page, "at")

    response = client.post(form.attrs["action"], {"language": "zh-hant", "next": hidden[0].attrs["value"]})
    assert response.status_code == 302
    assert response["Location"] == "/games/endbreaker/cards/EB1-008/"

    page = parse(get(client, response["Location"]))
    assert html_lang(page) == "zh-hant"
    assert parse(get(client, "/")).find("html").attrs["lang"] == "zh-hant"  # the choice is remembered
    client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    page = parse(get(client, "/games/endbreaker/cards/EB1-008/"))
    assert html_lang(page) == "en"
    assert unknown_label(page, "at") == "unknown" != before


# --- a key with a slash --------------------------------------------------------------------------


def test_a_card_whose_name_has_a_slash_is_listed_and_shown(db, client, tmp_path):
    """A name may hold "/" (a key may not: it is part of the card's address); the list links to the card."""
    path = tmp_path / "slash.json"
    document = {
        "game": "epicbattles",
        "cards": [{"key": "High-Low Guard", "kind": "block", "texts": {"en": {"name": "High/Low Guard"}}}],
    }
    path.write_text(json.dumps(document), encoding="utf-8")
    call_command("importcards", str(path), verbosity=0)
    page = parse(get(client, "/games/epicbattles/cards/"))
    link = page.find("tbody").find("a").attrs["href"]
    assert "High/Low Guard" in squash(parse(get(client, link)).find("h1").text)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "franchise", "traits"),
    [("ja", "モータルコンバット", "パンチ"), ("zh-hant", "真人快打", "拳擊"), ("en", "Mortal Kombat", "Punch")],
)
def test_choice_values_read_in_the_readers_language(client, language, franchise, traits):
    """A stored choice (``mortal-kombat``, ``punch``) is shown by its name, on the card page and in a deck."""
    from .synthetic_decks import load_synthetic_cards

    load_synthetic_cards()
    client.cookies["django_language"] = language
    character = parse(get(client, "/games/epicbattles/cards/Test-Zero/"))
    assert squash(character.find("dd", data_field="franchise").text) == franchise
    attack = parse(get(client, "/games/epicbattles/cards/Test Punch/"))
    assert squash(attack.find("dd", data_field="trait").text) == traits
    assert "mortal-kombat" not in character.text and "punch" not in attack.text.replace("Punch", "")


def test_a_translation_without_a_name_shows_the_original_name_marked_as_untranslated(seeded_db, visitor, language):
    # The seed's Chinese card table heads each text with the Japanese name (EB1-009 シールドガード).
    page = parse(get(visitor, "/games/endbreaker/cards/EB1-009/"))
    name = page.find("section", lang="zh-hant").find("p", cls="text-name")
    assert name.find("span", lang="ja").text == "シールドガード"
    mark = squash(name.find("small", cls="untranslated").text)
    assert (
        mark
        == {"ja": "（原語の名前・未翻訳）", "zh-hant": "（原文名稱，未翻譯）", "en": "(original name, not translated)"}[
            language
        ]
    )


def test_a_kind_no_source_names_says_it_was_inferred_from_numbering(seeded_db, visitor, language):
    page = parse(get(visitor, "/games/endbreaker/cards/EB1-009/"))
    source = squash(page.find("p", cls="source").text)
    assert {"ja": "番号からの推定", "zh-hant": "由編號推定", "en": "inferred from numbering"}[language] in source
