"""Card search as a reader meets it: folding, the seed data, the index kept in step, the search page.

The parser has its own tests (test_query_parser.py) and the API its own (test_api.py). Every test
here runs alike on SQLite (FTS5) and PostgreSQL (tsvector): the same queries give the same cards.
"""

from __future__ import annotations

import html
import io
import math
import re
from urllib.parse import parse_qs, unquote, urlsplit

import pytest
from django.utils import translation

from cards import selectors
from cards.models import Card, CardText
from cards.search.highlight import highlight
from cards.search.normalize import fold
from cards.search.selectors import prepare_search
from cards.services import reindex_card

from .support.search import found, import_cards, keys, search, synthetic_card

# --- helpers -------------------------------------------------------------------------------------


def marked(text: str, terms: list[str]) -> list[str]:
    return [piece.text for piece in highlight(text, terms) if piece.matched]


def texts_by_language(key: str) -> dict[str, CardText]:
    return {text.language: text for text in CardText.objects.filter(card__key=key)}


# --- folding (plain Python) ----------------------------------------------------------------------


def test_full_width_letters_digits_and_signs_fold_like_ascii():
    assert fold("ＡＴ：＋３") == fold("AT:+3") == "at:+3"
    assert fold("ＰＰＴ") == fold("ppt")
    # folding keeps what tells values apart
    assert fold("ＡＴ：＋３") != fold("ＡＴ：＋３０")
    assert fold("PPT") != fold("PPPT")


def test_case_is_folded():
    assert fold("Bazaar") == fold("BAZAAR") == fold("bazaar")


def test_hiragana_folds_to_katakana():
    assert fold("どろー") == fold("ドロー")
    assert fold("じょぶ") == fold("ジョブ")
    assert fold("ドロー") != fold("ジョブ")


def test_half_width_kana_with_voicing_marks_fold_like_full_width():
    assert fold("ﾄﾞﾛｰ") == fold("ドロー")
    assert fold("ﾊﾟﾜｰ") == fold("パワー")


def test_simplified_chinese_folds_to_traditional():
    assert fold("职业") == fold("職業")
    assert fold("万能") == fold("萬能")
    assert fold("职业") != fold("抽牌")


def test_japanese_shinjitai_folds_to_traditional():
    assert fold("戦闘") == fold("戰鬥")  # 戦/戰 and 闘/鬥 (OpenCC alone leaves 闘 as 鬭)
    assert fold("獣") == fold("獸")


def test_highlight_marks_the_characters_as_printed():
    assert marked("このカードを「ＡＴ：＋３」する。", ["AT:+3"]) == ["ＡＴ：＋３"]
    assert marked("從牌庫一直翻牌直到有２張職業卡，將翻出的職業卡加入手牌", ["职业"]) == ["職業", "職業"]
    assert marked("[日常]「ドロー：＋２」してもよい。", ["どろー"]) == ["ドロー"]
    assert marked("[戦闘]手札のジョブ", ["戰鬥"]) == ["戦闘"]


def test_highlight_keeps_the_text_and_marks_nothing_else():
    text = "[戦闘]場の「属性：Ｔ」のカードすべてを「ＡＴ：＋１」する。"
    pieces = highlight(text, ["ＡＴ：＋１"])
    assert "".join(piece.text for piece in pieces) == text
    assert [piece.text for piece in pieces if piece.matched] == ["ＡＴ：＋１"]
    assert not any(piece.matched for piece in highlight(text, ["ドロー"]))


# --- the seed data through search_cards ----------------------------------------------------------


seeded = pytest.mark.usefixtures("seeded_db")


@seeded
def test_simplified_chinese_query_finds_traditional_text():
    result = found("职业")
    assert "EB1-010" in result
    assert "職業" in texts_by_language("EB1-010")["zh-hant"].text
    assert result == found("職業")


@seeded
def test_hiragana_query_finds_the_katakana_cards():
    result = found("どろー")
    assert {"EB1-009", "EB1-018", "EB1-059"} <= result
    assert result == found("ドロー")


@seeded
def test_shinjitai_query_finds_traditional_chinese_text():
    assert "EB1-011" in found("戦闘")
    assert found("戦闘") == found("戰鬥")


@seeded
@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("林", {"林沖", "竹林"}),  # one CJK character (SQLite's trigram tokenizer finds nothing under three)
        ("砦", {"砦"}),
        ("林沖", {"林沖"}),  # two characters
        ("竹林", {"竹林"}),
        ("text:棘", {"EB1-028"}),  # one character inside a longer Chinese text
    ],
)
def test_one_and_two_character_cjk_queries_find_cards(query, expected):
    assert found(query) == expected


@seeded
def test_full_width_query_finds_the_printed_full_width_text():
    result = found("ＡＴ：＋３")
    assert "EB1-011" in result
    assert "EB1-014" not in result  # 「ＡＴ：３以上」 is not ＡＴ：＋３
    assert result == found('"AT:+3"')  # unquoted, AT:+3 is the field filter at:+3


@seeded
def test_glossary_expansion_searches_the_other_language_too():
    outcome = search("抽牌")
    assert "ドロー" in outcome.also_searched
    with_expansion = {card.key for card in outcome.cards}
    assert with_expansion >= found("ドロー")
    # text:抽牌 is not expanded: cards whose Japanese text says ドロー without a Chinese 抽牌 are extra
    assert found("text:抽牌") <= with_expansion
    untranslated_draws = {
        card.key
        for card in Card.objects.filter(texts__language="ja", texts__text__contains="ドロー").distinct()
        if "抽牌" not in getattr(texts_by_language(card.key).get("zh-hant"), "text", "")
    }
    assert untranslated_draws <= with_expansion


@seeded
def test_glossary_expansion_finds_japanese_text_whose_translation_lacks_the_word():
    import_cards(synthetic_card("[日常]「ドロー：＋１」してもよい。", text_zh="[日常] 可獲得摸牌+1。"))
    assert "EB9-001" in found("抽牌")
    assert "EB9-001" not in found("text:抽牌")


def _synthetic_term(*names: tuple[str, str]) -> None:
    from cards.models import Game, Term, TermText

    term = Term.objects.create(game=Game.objects.get(slug="endbreaker"), key="test-term")
    for language, name in names:
        TermText.objects.create(term=term, language=language, name=name)


@seeded
def test_a_glossary_term_added_in_this_process_expands_the_next_search_at_once():
    assert "ゾゾゾ" not in search("試試試").also_searched  # the glossary is now kept in this process
    _synthetic_term(("ja", "ゾゾゾ"), ("zh-hant", "試試試"))
    assert "ゾゾゾ" in search("試試試").also_searched


@seeded
def test_a_glossary_change_made_elsewhere_shows_once_the_kept_copy_expires(monkeypatch):
    from django.utils import timezone

    from cards.models import TermText
    from cards.search import glossary

    _synthetic_term(("ja", "ゾゾゾ"), ("zh-hant", "試試試"))
    assert "ゾゾゾ" in search("試試試").also_searched
    # Another process renames the term: this process hears no signal.
    TermText.objects.filter(name="ゾゾゾ").update(name="ポポポ", updated_at=timezone.now())
    assert "ゾゾゾ" in search("試試試").also_searched  # trusted for a second
    later = glossary.time.monotonic() + glossary.MEMO_SECONDS + 0.1
    monkeypatch.setattr(glossary.time, "monotonic", lambda: later)
    assert search("試試試").also_searched == ["ポポポ"]


@seeded
@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("cost:PPT", {"EB1-010"}),  # the whole value: not PPPT
        ("cost:PPPT", {"EB1-011"}),
        ("cost:ｐｐｔ", {"EB1-010"}),
        ("skill:●●", {"EB1-054"}),
        ("attack>5 game:suikoden", {"林沖", "關勝"}),
        ("attack>=7", {"關勝"}),
        ("has:payout", {"EB1-040"}),
        ("number:EB1-008", {"EB1-008"}),
        ("number:eb1-008", {"EB1-008"}),
    ],
)
def test_field_filters_find_exactly_the_cards(query, expected):
    assert found(query) == expected


@seeded
def test_has_negated_leaves_out_cards_with_a_known_value():
    result = found("-has:cost g:endbreaker")
    assert not {"EB1-008", "EB1-010", "EB1-011"} & result
    assert {"EB1-001", "EB1-009", "EB1-049"} <= result
    assert result | {"EB1-008", "EB1-010", "EB1-011"} == found("g:endbreaker")


@seeded
def test_is_untranslated_finds_cards_without_a_chinese_text():
    result = found("is:untranslated g:endbreaker")
    assert "EB1-049" in result
    assert "EB1-008" not in result
    assert not CardText.objects.filter(card__key__in=result, language="zh-hant").exists()
    assert found("is:translated g:endbreaker") == found("g:endbreaker") - result


@seeded
def test_kind_in_any_language_or_by_slug_gives_the_same_cards():
    abilities = set(Card.objects.filter(game__slug="endbreaker", kind="ability").values_list("key", flat=True))
    assert len(abilities) > 10
    assert found("g:endbreaker kind:特技") == abilities
    assert found("g:endbreaker kind:アビリティ") == abilities
    assert found("g:endbreaker kind:ability") == abilities


@seeded
def test_kind_unknown_finds_cards_no_source_gives_a_kind():
    result = found("kind:unknown")
    assert "EB1-001" in result
    assert "EB1-008" not in result
    assert set(Card.objects.filter(key__in=result).values_list("kind", flat=True)) == {None}


@seeded
def test_lang_keeps_only_cards_with_a_text_in_that_language():
    result = found("lang:en")
    with_english = set(CardText.objects.filter(language="en").values_list("card__key", flat=True))
    assert result == with_english
    assert "EB1-010" not in result
    # lang: also makes bare words search that language only
    assert found("lang:en 林") == set()
    assert found("lang:zh 林") == {"林沖", "竹林"}


@seeded
@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("林沖 or 關勝", {"林沖", "關勝"}),
        ("林 -竹林", {"林沖"}),
        ("(林 or 砦) -竹林", {"林沖", "砦"}),
        ("g:suikoden -(林 or 砦)", {"丁得孫", "關勝", "008"}),  # 008: 呼延灼
        ("g:suikoden (kind:land or attack>=7)", {"砦", "竹林", "關勝"}),
    ],
)
def test_or_not_and_parentheses(query, expected):
    assert found(query) == expected


@seeded
@pytest.mark.parametrize(
    ("left", "right"),
    [("ドロー", "戦闘"), ("ドロー", "kind:ability"), ("戦闘", "has:cost"), ("ドロー", "/ドロー：＋[２３]/")],
)
def test_combinations_are_set_operations(left, right):
    a, b = found(left), found(right)
    assert a & b and a - b  # the pairs overlap without one containing the other
    assert found(f"{left} {right}") == a & b
    assert found(f"{left} -{right}") == a - b
    assert found(f"{left} or {right}") == a | b


@seeded
def test_regex_matches_the_text_as_printed():
    assert found("/ドロー：＋[２３]/") == {"EB1-009", "EB1-018", "EB1-025", "EB1-059"}
    assert found("name:/^練刺/") == {"EB1-010"}


@seeded
def test_order_by_name_both_ways():
    ascending = keys("g:suikoden order:name")
    assert ascending == ["丁得孫", "008", "林沖", "砦", "竹林", "關勝"]  # 008: 呼延灼, by its name
    assert keys("g:suikoden order:name direction:desc") == ascending[::-1]


@seeded
def test_order_by_a_number_field_puts_unknown_values_last_either_way():
    # unknown values in card order: 008 (呼延灼, numbered) first
    assert keys("g:suikoden order:attack direction:desc") == ["關勝", "林沖", "008", "丁得孫", "砦", "竹林"]
    assert keys("g:suikoden order:attack") == ["林沖", "關勝", "008", "丁得孫", "砦", "竹林"]
    everything = keys("order:attack direction:desc")
    assert everything[:2] == ["關勝", "林沖"]
    assert len(everything) == Card.objects.count()


@seeded
@pytest.mark.parametrize(
    ("query", "message_part", "position"),
    [
        ("foo:1", "foo", 0),
        ("ドロー foo:1", "foo", 4),
        ("(ドロー", "parenthesis", 0),
        ("attack>abc", "abc", 0),
        ("ドロー /[/", "regular expression", 5),
    ],
)
def test_a_bad_query_gives_an_error_with_its_position(query, message_part, position):
    with translation.override("en"):
        outcome = prepare_search(query, "ja")
    assert outcome.cards is None
    assert message_part in outcome.error
    assert outcome.error_position == position


@seeded
def test_an_unknown_order_is_reported_where_it_stands():
    outcome = prepare_search("ドロー order:foo", "ja")
    assert "foo" in outcome.error
    assert outcome.error_position == 4


# --- the index kept in step with the cards -------------------------------------------------------


def test_imported_cards_are_found(db):
    import_cards(
        synthetic_card("[日常]ゾルバリオンを「ドロー：＋１」する。", text_zh="[日常] 召喚龍騎士。"),
        {"key": "EB9-002", "number": "EB9-002", "kind": "job", "texts": {"ja": {"name": "試験騎士"}}},
    )
    assert found("ゾルバリオン") == {"EB9-001"}
    assert found("ぞるばりおん") == {"EB9-001"}
    assert found("龙骑士") == {"EB9-001"}  # simplified
    assert found("テスト札") == {"EB9-001"}
    assert found("試験騎士") == {"EB9-002"}
    assert found("g:endbreaker kind:job") == {"EB9-002"}


def test_a_phrase_is_found_within_one_text_never_across_two(db):
    # The name ends 札 and the Japanese text begins 札券…; the Chinese text ends 甲乙 and the Chinese name is
    # absent: a phrase spanning the end of one text and the start of the next is in no text.
    import_cards(
        synthetic_card("札券丙丁の効果。", text_zh="效果甲乙"),
        synthetic_card("丁札券丙。", key="EB9-002"),
    )
    assert found("札券") == {"EB9-001", "EB9-002"}
    assert found("札券丙") == {"EB9-001", "EB9-002"}
    assert found("札券丙丁") == {"EB9-001"}
    assert found("丁札券丙") == {"EB9-002"}
    assert found("テスト札券") == set()  # name テスト札 + text 札券…
    assert found("果甲乙") == {"EB9-001"}
    assert found("乙テ") == set()  # the Chinese text's end + a name
    assert found("。テ") == set()
    assert found("效果甲乙 or 丁札券丙") == {"EB9-001", "EB9-002"}
    assert found("name:札券") == set()
    assert found("text:札券丙") == {"EB9-001", "EB9-002"}


def test_reimport_with_changed_text_replaces_the_old_words(db):
    import_cards(synthetic_card("[日常]ゾルバリオンを公開する。"))
    assert found("ゾルバリオン") == {"EB9-001"}

    import_cards(synthetic_card("[日常]クワンティスを公開する。"))

    assert found("ゾルバリオン") == set()
    assert found("クワンティス") == {"EB9-001"}
    assert found("公開") == {"EB9-001"}  # the words both texts share still find it, once


def test_a_changed_field_value_is_found_by_the_new_value(db):
    import_cards(synthetic_card("[日常]ゾルバリオン", at=3))
    assert found("at>=5") == set()
    assert found("at:3") == {"EB9-001"}

    import_cards(synthetic_card("[日常]ゾルバリオン", at=5))

    assert found("at>=5") == {"EB9-001"}
    assert found("at:3") == set()


def test_a_deleted_card_is_no_longer_found(db):
    import_cards(synthetic_card("[日常]ゾルバリオン"), synthetic_card("[日常]ゾルバリオン", key="EB9-002"))
    assert found("ゾルバリオン") == {"EB9-001", "EB9-002"}

    Card.objects.filter(key="EB9-001").delete()

    assert found("ゾルバリオン") == {"EB9-002"}
    assert selectors.count_matches(search("ゾルバリオン")) == 1
    assert found("at:3") == {"EB9-002"}


def test_reindex_card_after_an_admin_edit(db):
    import_cards(synthetic_card("[日常]ゾルバリオン", at=3))
    card = Card.objects.get(key="EB9-001")

    # as the admin saves: the text and the fields edited in place, then the card re-indexed
    text = card.texts.get(language="ja")
    text.text = "[日常]クワンティス"
    text.save()
    CardText.objects.create(card=card, language="zh-hant", text="[日常] 召喚龍騎士。")
    card.fields = {"at": 5, "cost": "PT"}
    card.save()
    reindex_card(card)

    assert found("クワンティス") == {"EB9-001"}
    assert found("龙骑士") == {"EB9-001"}
    assert found("ゾルバリオン") == set()
    assert found("at>=5") == {"EB9-001"}
    assert found("is:translated") == {"EB9-001"}


def test_reindexcards_brings_back_a_lost_index(db):
    from django.core.management import call_command

    from cards.models import CardFieldValue, SearchDocument

    import_cards(synthetic_card("[日常]ゾルバリオン", key="EB9-002", at=4), synthetic_card("[日常]ゾルバリオン", at=1))
    SearchDocument.objects.all().delete()  # as after restoring the cards without their index
    CardFieldValue.objects.all().delete()
    assert page_keys("ゾルバリオン") == []

    out = io.StringIO()
    call_command("reindexcards", stdout=out)

    assert "2 cards indexed" in out.getvalue()
    assert page_keys("ゾルバリオン") == ["EB9-001", "EB9-002"]
    assert page_keys("at>=2") == ["EB9-002"]


def test_a_card_with_several_values_of_a_field_is_counted_once(db):
    import_cards(
        {
            "key": "試験甲",
            "kind": "character",
            "fields": {"specialties": ["騎馬", "水軍"]},
            "texts": {"zh-hant": {"name": "試験甲"}},
        },
        game="suikoden",
    )
    outcome = search("has:specialties")
    assert [card.key for card in outcome.cards] == ["試験甲"]
    assert selectors.count_matches(outcome) == 1


# --- the search page -----------------------------------------------------------------------------


def get_search(client, **params):
    headers = params.pop("headers", {})
    response = client.get("/search/", params, HTTP_ACCEPT_LANGUAGE="en", headers=headers)
    assert response.status_code == 200
    return response, response.content.decode()


def _text(fragment: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", fragment)).split())


def result_count(page: str) -> str:
    match = re.search(r'<p class="result-count">(.*?)</p>', page, re.S)
    assert match, "the page shows no result count"
    return _text(match.group(1))


def row_keys(page: str) -> list[str]:
    """The cards listed, by the key in each row's link."""
    body = re.search(r"<tbody>(.*?)</tbody>", page, re.S)
    if not body:
        return []
    links = re.findall(r'<a href="/games/[^/]+/cards/([^"]+)/"[^>]*>', body.group(1))  # [^>]*: lang="…"
    return [unquote(html.unescape(key)) for key in links]


def marks(page: str) -> list[str]:
    return [_text(mark) for mark in re.findall(r"<mark>(.*?)</mark>", page, re.S)]


def pagination_link(page: str, rel: str) -> dict[str, list[str]]:
    match = re.search(rf'<a rel="{rel}" href="([^"]+)"', page)
    assert match, f"no {rel} link"
    return parse_qs(urlsplit(html.unescape(match.group(1))).query)


@seeded
def test_search_page_shows_the_count_and_marks_what_matched(client):
    _response, page = get_search(client, q="职业")
    expected = keys("职业")
    assert result_count(page).startswith(f"{len(expected)} cards found")
    assert "also searched: ジョブ" in result_count(page)
    assert row_keys(page) == expected
    assert "練刺棍" in page
    assert "職業" in marks(page)  # the Chinese text as printed, found by the simplified query
    assert "ジョブ" in marks(page)
    assert 'value="职业"' in page  # the query stays in the box


@seeded
def test_a_search_that_finds_nothing_says_so_with_the_query(client):
    _response, page = get_search(client, q="zzqx")
    assert "No cards match “zzqx”." in _text(page)
    body = page.split("</head>", 1)[-1]  # the head's inlined stylesheet names every class
    assert 'class="hint"' not in body and "result-count" not in body
    _response, scoped = get_search(client, q="zzqx", game="shadowera", headers={"HX-Request": "true"})
    assert "No cards match “zzqx”. Only Shadow Era was searched." in _text(scoped)


@seeded
def test_the_empty_search_page_gives_a_hint_not_a_verdict(client):
    _response, page = get_search(client)
    assert 'class="hint"' in page and "No cards match" not in page


@seeded
def test_search_page_marks_full_width_text(client):
    _response, page = get_search(client, q="ＡＴ：＋３")
    assert "EB1-011" in row_keys(page)
    assert "ＡＴ：＋３" in marks(page)


@seeded
def test_game_parameter_scopes_the_search(client):
    _response, everywhere = get_search(client, q="kind:unknown")
    assert set(row_keys(everywhere)) == {"EB1-001", "Bad Santa", "Bazaar"}

    _response, page = get_search(client, q="kind:unknown", game="shadowera")
    assert set(row_keys(page)) == {"Bad Santa", "Bazaar"}
    assert result_count(page).startswith("2 cards found")
    assert 'name="game" value="shadowera" checked' in page  # the scope can be unticked


@seeded
def test_pagination_links_keep_the_query(client):
    query = "-kind:unknown"
    every_key = keys(query)
    assert len(every_key) > 50

    _response, first = get_search(client, q=query)
    assert result_count(first).startswith(f"{len(every_key)} cards found")
    assert row_keys(first) == every_key[:50]
    following = pagination_link(first, "next")
    assert following["q"] == [query]

    _response, second = get_search(client, q=following["q"][0], page=following["page"][0])
    assert row_keys(second) == every_key[50:]
    assert pagination_link(second, "prev")["q"] == [query]


@seeded
def test_pagination_links_keep_the_game_scope(client):
    # the seed has 49 endbreaker cards of a known kind: two more make a second page
    import_cards(synthetic_card("[日常]ゾルバリオン"), synthetic_card("[日常]ゾルバリオン", key="EB9-002"))
    in_scope = keys("-kind:unknown g:endbreaker")
    assert len(in_scope) > 50

    _response, page = get_search(client, q="-kind:unknown", game="endbreaker")
    following = pagination_link(page, "next")
    assert following["game"] == ["endbreaker"]
    _response, second = get_search(client, **{name: values[0] for name, values in following.items()})
    assert row_keys(second) == in_scope[50:]


@seeded
def test_pagination_links_keep_the_sort_menu_choice(client):
    in_order = keys("-kind:unknown", order="name", direction="desc")
    _response, first = get_search(client, q="-kind:unknown", order="name", dir="desc")
    assert row_keys(first) == in_order[:50]
    following = pagination_link(first, "next")
    _response, second = get_search(client, **{name: values[0] for name, values in following.items()})
    assert row_keys(second) == in_order[50:]


@seeded
def test_a_regex_matching_several_languages_counts_the_card_once(client):
    _response, page = get_search(client, q="/練刺棍/")
    assert row_keys(page) == ["EB1-010"]
    assert result_count(page).startswith("1 card found")


@seeded
def test_htmx_request_gets_only_the_results(client):
    response, fragment = get_search(client, q="职业", headers={"HX-Request": "true"})
    assert "<html" not in fragment
    assert 'id="search-input"' not in fragment
    assert row_keys(fragment) == keys("职业")
    assert "職業" in marks(fragment)
    vary = {value.strip().lower() for value in response["Vary"].split(",")}
    assert "hx-request" in vary


@seeded
def test_htmx_history_restore_gets_the_whole_page(client):
    response, page = get_search(client, q="职业", headers={"HX-Request": "true", "HX-History-Restore-Request": "true"})
    assert "<html" in page
    assert 'id="search-input"' in page
    assert row_keys(page) == keys("职业")
    assert "hx-request" in {value.strip().lower() for value in response["Vary"].split(",")}


@seeded
def test_plain_request_gets_the_whole_page_and_varies_on_htmx(client):
    response, page = get_search(client, q="职业")
    assert "<html" in page and 'id="search-input"' in page
    assert "hx-request" in {value.strip().lower() for value in response["Vary"].split(",")}


@seeded
@pytest.mark.parametrize(
    ("query", "before", "at"),
    [
        ("foo:1", "", "f"),
        ("ドロー foo:1", "ドロー ", "f"),
        ("(ドロー", "", "("),
        ("ドロー /[/", "ドロー /", "["),
        ("ドロー at>=x", "ドロー ", "a"),
        ("ドロー at>=99999999999999999999", "ドロー ", "a"),
    ],
)
@pytest.mark.parametrize("htmx", [False, True])
def test_search_page_shows_a_bad_query_with_the_place_marked(client, query, before, at, htmx):
    headers = {"HX-Request": "true"} if htmx else {}
    _response, page = get_search(client, q=query, headers=headers)
    alert = re.search(r'<div class="query-error" role="alert">(.*?)</div>', page, re.S)
    assert alert, "no error shown"
    message = prepare_search(query, "ja").error
    assert html.escape(message) in alert.group(1)
    pointer = re.search(r"<code>(.*?)</code>", alert.group(1), re.S).group(1)
    assert pointer == f"{html.escape(before)}<mark>{html.escape(at)}</mark>{html.escape(query[len(before) + 1 :])}"
    assert row_keys(page) == []


ORDER_QUERIES = [
    "game:suikoden",
    "g:endbreaker -kind:job",
    "kind:ability ドロー",
    "(ドロー or 職業) -kind:masquerade",
    "has:cost",
    "-has:cost g:endbreaker",
    "lang:en",
    "/日常/",
    "/日常/ -kind:job",
]


def page_keys(query: str, page: int = 1, per_page: int = 10, **options) -> list[str]:
    """The keys on one page of results, as the search page and the API read them."""
    outcome = search(query, **options)
    return [card.key for card in selectors.SearchPaginator(outcome, per_page).get_page(page).object_list]


@pytest.mark.parametrize("query", ORDER_QUERIES)
@pytest.mark.parametrize("direction", ["asc", "desc"])
def test_every_way_of_reading_a_page_shows_the_same_cards(seeded_db, monkeypatch, query, direction):
    """A page read from the text index, by sorting the matches or by walking the cards in order is the same page."""
    from dataclasses import replace

    from cards.search import backends

    def pages(index: bool, walk: bool) -> list[list[str]]:
        monkeypatch.setattr(backends, "walk_in_order", lambda matches, total, floor=None: walk)
        monkeypatch.setattr(backends, "walk_pays", lambda *arguments, **options: walk)
        # PostgreSQL decides in its statement, from the bounds: walk always (any match) or never.
        bounds = (-1.0, 0.0) if walk else (math.inf, 0.0)
        monkeypatch.setattr(backends, "walk_bounds", lambda *arguments, **options: bounds)
        outcome = search(query, direction=direction)
        if not index:
            outcome = replace(outcome, ids=replace(outcome.ids, expression=None))
        paginator = selectors.SearchPaginator(outcome, 3)
        return [[card.key for card in paginator.page(number).object_list] for number in paginator.page_range]

    in_number_order = [key for page in pages(index=False, walk=False) for key in page]
    assert in_number_order == keys(query, direction=direction), "pages differ from the search's own order"
    assert len(in_number_order) > 3, f"{query!r} should fill more than a page"
    assert pages(index=True, walk=False) == pages(index=False, walk=False)
    assert pages(index=True, walk=True) == pages(index=False, walk=False)
    assert pages(index=False, walk=True) == pages(index=False, walk=False)


def test_cards_added_between_others_take_their_place_in_number_order(db):
    import_cards(
        synthetic_card("[日常]ゾルバリオン", key="EB9-010"), synthetic_card("[日常]ゾルバリオン", key="EB9-030")
    )
    import_cards(synthetic_card("[日常]ゾルバリオン", key="EB9-020"))
    import_cards(
        synthetic_card("[日常]ゾルバリオン", key="EB9-001"), synthetic_card("[日常]ゾルバリオン", key="EB9-099")
    )

    expected = ["EB9-001", "EB9-010", "EB9-020", "EB9-030", "EB9-099"]
    assert page_keys("ゾルバリオン") == expected
    assert page_keys("ゾルバリオン", direction="desc") == expected[::-1]
    assert page_keys("ゾルバリオン", page=2, per_page=2) == ["EB9-020", "EB9-030"]


def test_when_no_gap_is_left_every_card_gets_a_new_place(db, monkeypatch):
    from cards.search import indexing

    monkeypatch.setattr(indexing, "POSITION_GAP", 1)
    import_cards(synthetic_card("[日常]ゾルバリオン", key="EB9-010"))
    import_cards(synthetic_card("[日常]ゾルバリオン", key="EB9-030"))
    import_cards(synthetic_card("[日常]ゾルバリオン", key="EB9-020"))  # between positions 1 and 2

    assert page_keys("ゾルバリオン") == ["EB9-010", "EB9-020", "EB9-030"]
    assert page_keys("ゾルバリオン", direction="desc") == ["EB9-030", "EB9-020", "EB9-010"]


def test_a_renumbered_card_moves_to_its_new_place(db):
    import_cards(*(synthetic_card("[日常]ゾルバリオン", key=f"EB9-00{index}") for index in range(1, 4)))
    card = Card.objects.get(key="EB9-001")
    card.number = "EB9-005"
    card.save()
    reindex_card(card)

    assert [card.number for card in search("ゾルバリオン").cards] == ["EB9-002", "EB9-003", "EB9-005"]
    assert page_keys("ゾルバリオン") == ["EB9-002", "EB9-003", "EB9-001"]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("at>=4", ["EB9-004", "EB9-005", "EB9-006"]),
        ("at<2", ["EB9-000", "EB9-001"]),
        ("at>0 -at:4", ["EB9-001", "EB9-002", "EB9-003", "EB9-005", "EB9-006"]),
        ("at>5 or at<=0", ["EB9-000", "EB9-006"]),
        ("-(at>2)", ["EB9-000", "EB9-001", "EB9-002", "EB9-099"]),
        ("at>=2 at<=3", ["EB9-002", "EB9-003"]),
        ("at>=-1 at<1", ["EB9-000"]),
        ("at>20", []),
    ],
)
@pytest.mark.parametrize("way", ["at-least tokens", "values above the token limit", "field values table"])
def test_comparisons_find_the_same_cards_every_way(db, monkeypatch, query, expected, way):
    """A comparison is an "at least" token, a list of values past the tokens' limit, or a range in the field values."""
    from cards.search import compiler, tokens

    if way != "at-least tokens":
        monkeypatch.setattr(tokens, "AT_LEAST_LIMIT", 2)
        monkeypatch.setattr(compiler, "AT_LEAST_LIMIT", 2)
    if way == "field values table":
        monkeypatch.setattr(compiler, "MAX_VALUES_IN_EXPRESSION", 1)
    cards = [synthetic_card("[日常]ゾルバリオン", at=at, key=f"EB9-00{at}") for at in range(7)]
    unknown = synthetic_card("[日常]ゾルバリオン", key="EB9-099")
    del unknown["fields"]["at"]
    import_cards(*cards, unknown)

    assert keys(query) == page_keys(query) == expected


@pytest.mark.parametrize("limit", [16, 3])
def test_a_word_finds_the_longer_words_it_begins_however_long(db, monkeypatch, limit):
    """Word beginnings are indexed up to a length; a longer query word is looked up by prefix in each column."""
    from cards.search import tokens

    monkeypatch.setattr(tokens, "WORD_PREFIX_LIMIT", limit)
    import_cards(
        synthetic_card("[日常]Zorbalion strikes", key="EB9-001"), synthetic_card("[日常]Zorbal strikes", key="EB9-002")
    )

    assert page_keys("zor") == page_keys("ZORBAL") == ["EB9-001", "EB9-002"]
    assert page_keys("zorbali") == page_keys("Zorbalion") == ["EB9-001"]
    assert page_keys("zorbalions") == page_keys("orbal") == []
    assert page_keys("zorbal -zorbali") == ["EB9-002"]


@seeded
def test_a_results_page_holds_the_cards_as_stored():
    """The page reader (no select/prefetch_related) gives the cards, games and texts the ORM gives."""
    stored = list(Card.objects.select_related("game").prefetch_related("texts").order_by("sort_key", "id")[:30])

    read = selectors.cards_in_order([card.pk for card in stored])

    def snapshot(card: Card) -> tuple:
        fields = {field.attname: getattr(card, field.attname) for field in Card._meta.concrete_fields}
        texts = [(text.pk, text.language, text.name, text.text, text.notes, text.source) for text in card.texts.all()]
        return fields, card.game.slug, card.game.pk, texts, str(card)

    assert [snapshot(card) for card in read] == [snapshot(card) for card in stored]
    assert all(not card._state.adding and card._state.db == "default" for card in read)
