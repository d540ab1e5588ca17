"""What a signed-out player reads on the card pages, in each interface language: found by looking at the
screenshots of every page (docs/testing.md, "Looking at every page")."""

from __future__ import annotations

from django.test import Client

from .support.html import parse, squash
from .support.missing_cards import import_cards


def _card(key: str, names: dict[str, str]) -> dict:
    return {
        "key": key,
        "number": key,
        "kind": "ability",
        "fields": {"at": 1, "cost": "PT"},
        "source": "test",
        "texts": {language: {"name": name, "source": "test"} for language, name in names.items()},
    }


def _names_in_list(language: str, key: str) -> list[str]:
    """The names the card list shows in ``key``'s row, the link first, in the order shown."""
    page = parse(Client().get("/games/endbreaker/cards/", HTTP_ACCEPT_LANGUAGE=language))
    for row in page.find("tbody").find_all("tr"):
        cells = row.find_all("td")
        if squash(cells[0].text) == key:
            spans = cells[1].find_all("span", cls="alt-name")
            return [squash(cells[1].find("a").text)] + [squash(span.text) for span in spans]
    raise AssertionError(f"no row for {key}")


def test_the_card_list_writes_each_name_once_for_a_simplified_chinese_reader(db):
    # A Japanese name the Chinese text keeps (as the seeds' 練刺棍), and one it translates
    import_cards(
        "endbreaker",
        _card("EB9-961", {"ja": "試驗札", "zh-hant": "試驗札"}),
        _card("EB9-962", {"ja": "テスト札", "zh-hant": "測試劍"}),
    )
    # The Traditional name, converted, is the link; it is not repeated in Traditional, and the Japanese
    # name spelt like it is not shown twice
    assert _names_in_list("zh-hans", "EB9-961") == ["试验札"]
    assert _names_in_list("zh-hans", "EB9-962") == ["测试剑", "テスト札"]
    # The other interfaces are as they were: the link, then each other name not spelt like it
    assert _names_in_list("zh-hant", "EB9-961") == ["試驗札"]
    assert _names_in_list("zh-hant", "EB9-962") == ["測試劍", "テスト札"]
    assert _names_in_list("ja", "EB9-962") == ["テスト札", "測試劍"]
    assert _names_in_list("en", "EB9-962") == ["テスト札", "測試劍"]


def test_the_search_syntax_shows_a_simplified_word_finding_its_traditional_form():
    page = Client().get("/search/syntax/", HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode().split("</head>", 1)[1]
    # The example is a Simplified word finding the Traditional one: converting both read "职业 finds 职业"
    assert "输入 职业 会找到 職業" in page
    assert "简体字会转为繁体字：找到 職業" in page
    assert "找到 职业" not in page
