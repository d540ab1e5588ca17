"""Readers of Simplified Chinese: the interface in 简体中文, chosen from the browser; the card data's Traditional
texts shown converted (and marked as converted) while they stay Traditional in the database; search in
Simplified characters."""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client

from cards.models import CardText
from cardsite.labels import ShownName, pick, picked_language
from tests.users import make_user

SIMPLIFIED_BROWSER = "zh-CN,zh;q=0.9"


def page_of(path: str, client: Client | None = None) -> str:
    response = (client or Client()).get(path, HTTP_ACCEPT_LANGUAGE=SIMPLIFIED_BROWSER)
    assert response.status_code == 200
    return response.content.decode()


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_the_interface_speaks_simplified_chinese(seeded_db):
    page = page_of("/games/endbreaker/")
    assert '<html lang="zh-hans"' in page
    assert "简体中文" in page
    words = text_of(page)
    assert "搜索卡片" in page  # the search box's placeholder, 搜尋卡片 in Traditional
    # The seed's title is data, shown as written (Traditional) wherever a source is named; the interface's words
    # around it are Simplified.
    words = html.unescape(words).replace("エンドブレイカー！SCG 規則 & 卡表 - 桌遊", "")
    assert "規則" not in words and "规则" in words
    client = Client()
    client.force_login(make_user("reader"))
    assert "退出登录" in text_of(page_of("/", client))  # a reviewed word (OpenCC's tw2sp gives 注销)


def test_a_cards_traditional_text_is_shown_converted_and_marked_while_stored_traditional(seeded_db):
    page = page_of("/games/endbreaker/cards/EB1-011/")
    article = re.search(r'<article class="track-text[^"]*"[^>]*lang="zh-hans"[^>]*>(.*?)</article>', page, re.S)
    assert article is not None
    assert 'data-converted-from="zh-hant"' in article.group(0)
    shown = text_of(article.group(1))
    assert "剑冲击" in shown and "劍衝擊" not in shown
    assert "由繁体自动转换" in shown
    stored = CardText.objects.get(card__key="EB1-011", language="zh-hant", track__main=True)
    assert stored.name == "劍衝擊"
    # a Traditional reader still reads the stored text, with no note
    traditional = Client().get("/games/endbreaker/cards/EB1-011/", HTTP_ACCEPT_LANGUAGE="zh-TW").content.decode()
    assert "劍衝擊" in traditional and "由繁體自動轉換" not in traditional


def test_the_game_pages_rules_are_converted_and_marked(seeded_db):
    page = page_of("/games/endbreaker/")
    rules = page[page.index('<section class="rules">') :]
    assert "游戏准备" in text_of(rules) and "遊戲準備" not in text_of(rules)
    assert 'data-converted-from="zh-hant"' in rules


def test_search_takes_simplified_input_and_names_results_converted(seeded_db):
    page = page_of("/search/?q=剑冲击")
    assert "/games/endbreaker/cards/EB1-011/" in page
    assert "剑冲击" in text_of(page)


def test_search_results_show_the_matched_traditional_text_converted_as_the_card_page_does(seeded_db):
    page = page_of("/search/?q=ドロー")
    snippets = re.findall(r'<div class="snippet" lang="zh-han[st]"[^>]*>.*?</div>', page, re.S)
    assert snippets, "no Chinese text among the matched texts"
    shown = text_of(" ".join(snippets))
    assert "可获得" in shown and "獲得" not in shown and "戰鬥" not in shown
    assert all('lang="zh-hans" data-converted-from="zh-hant"' in snippet for snippet in snippets)
    assert "<mark>抽牌</mark>" in " ".join(snippets)  # the match is still marked after the conversion
    traditional = Client().get("/search/?q=ドロー", HTTP_ACCEPT_LANGUAGE="zh-TW").content.decode()
    assert "可獲得<mark>抽牌</mark>" in traditional


def test_a_name_picks_the_converted_traditional_label():
    labels = {"ja": "ジョブ", "zh-hant": "職業", "en": "Job"}
    assert pick(labels, "zh-hans") == "职业"
    assert picked_language(labels, "zh-hans") == "zh-hans"
    assert pick({"ja": "ジョブ", "en": "Job"}, "zh-hans") == "Job"  # no Traditional text: as before
    assert pick(labels, "zh-hant") == "職業"


@pytest.mark.parametrize("accept", ["zh-CN", "zh-SG", "zh-Hans", "zh-Hans-CN"])
def test_a_simplified_browser_gets_the_simplified_interface(db, accept):
    page = Client().get("/", HTTP_ACCEPT_LANGUAGE=accept).content.decode()
    assert '<html lang="zh-hans"' in page


def test_a_converted_name_is_marked_on_the_page():
    from cards.templatetags.cardtags import in_its_language

    marked = str(in_its_language(ShownName("剑冲击", "zh-hans", converted_from="zh-hant")))
    assert 'data-converted-from="zh-hant"' in marked and "剑冲击" in marked
