"""The goldfish's words as a reader of each language meets them on its pages.

The Chinese interface names the goldfish (solo test draws) 單人試轉 and keeps 模擬 for what the Japanese
interface calls シミュレーション/シミュレーター (the whole-game simulator, simulated odds, simulation runs);
Japanese and Chinese sentences are joined with no space after 。.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import fields, is_dataclass
from typing import Any

import pytest
from django.test import Client

from simulator.core import CORE_MESSAGES
from simulator.engines import get_engine

from .support.goldfish import make_deck
from .synthetic_decks import ENGINE_SLUGS

pytestmark = [pytest.mark.usefixtures("immediate_tasks"), pytest.mark.usefixtures("synthetic_cards")]

GOLDFISH_PAGES = ("goldfish", "odds", "simulate")


BLOCK = r"p|div|li|ul|ol|h[1-6]|section|article|header|footer|main|nav|form|table|tr|td|th|dl|dt|dd|details|summary|br"


def page_text(client: Client, url: str) -> str:
    """The page body's text as a browser runs it together: a block's edge breaks it, an inline tag does not."""
    response = client.get(url, follow=True)
    assert response.status_code == 200, url
    body = response.content.decode().split("</head>", 1)[1]
    body = re.sub(r"<(script|style)\b.*?</\1>", "", body, flags=re.S)
    body = re.sub(rf"</?(?:{BLOCK})\b[^>]*>", "\n¶\n", body)
    return re.sub(r"<[^>]+>", "", body)


def goldfish_pages(owner, language: str) -> dict[str, str]:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(owner)
    texts = {}
    for slug in ENGINE_SLUGS:
        deck = make_deck(slug, owner)
        for page in GOLDFISH_PAGES:
            url = f"/simulator/decks/{deck.pk}/{page}/"
            texts[url] = page_text(client, url)
    return texts


@pytest.mark.parametrize("language", ["ja", "zh-hant", "zh-hans"])
def test_goldfish_pages_join_sentences_without_a_space_after_the_full_stop(owner, language):
    pages = goldfish_pages(owner, language)
    spaced = {url: re.findall(r"[^¶\n]{0,20}。[ \t\n]+[^\s¶][^¶\n]{0,20}", text) for url, text in pages.items()}
    assert {url: found for url, found in spaced.items() if found} == {}


def missing_maps(language: str) -> dict[str, str]:
    """Each game's map of what is missing: its goldfish rows and the goldfish engine's words for what a gap blocks."""
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    return {f"/games/{slug}/missing/": page_text(client, f"/games/{slug}/missing/") for slug in ENGINE_SLUGS}


@pytest.mark.parametrize(("language", "simulate"), [("zh-hant", "模擬"), ("zh-hans", "模拟")])
def test_the_chinese_goldfish_pages_and_missing_maps_call_the_goldfish_by_one_name(owner, language, simulate):
    """模擬器 (the whole-game simulator) may be named on a map of what is missing; 模擬 alone never."""
    pages = goldfish_pages(owner, language) | missing_maps(language)
    found = {url: re.findall(rf"[^¶\n]{{0,20}}{simulate}(?!器)[^¶\n]{{0,20}}", text) for url, text in pages.items()}
    assert {url: words for url, words in found.items() if words} == {}
    assert any("單人試轉" in text or "单人试转" in text for text in missing_maps(language).values())


def chinese_words(value: Any) -> Iterator[str]:
    """Every Traditional Chinese text an engine declares, however deep its labels are kept."""
    if isinstance(value, Mapping):
        if isinstance(value.get("zh-hant"), str):
            yield value["zh-hant"]
        for item in value.values():
            if not isinstance(item, str):
                yield from chinese_words(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from chinese_words(item)
    elif is_dataclass(value):
        for item in fields(value):
            yield from chinese_words(getattr(value, item.name))


@pytest.mark.parametrize("slug", ENGINE_SLUGS)
def test_a_goldfish_engines_own_chinese_words_call_it_the_goldfish_not_a_simulation(slug):
    engine = get_engine(slug)
    parts = [engine.zones, engine.counters, engine.event_kinds, engine.messages, engine.policies, engine.card_needs]
    texts = list(chinese_words([*parts, engine.parameters, engine.turn_stats, CORE_MESSAGES]))
    assert texts and [text for text in texts if "模擬" in text] == []


@pytest.mark.parametrize("slug", ENGINE_SLUGS)
def test_a_goldfish_parameters_source_reads_as_sentences_in_every_language(slug):
    sources = [parameter.source for parameter in get_engine(slug).parameters if parameter.source]
    assert sources
    for source in sources:
        assert source["ja"].endswith("。") and source["zh-hant"].endswith("。"), source
        # A sentence begins with a capital, or with a document's title, quoted as written (「…」).
        assert source["en"].endswith(".") and (source["en"][0].isupper() or source["en"][0] == "「"), source["en"]


def test_english_goldfish_pages_keep_a_space_between_sentences(owner):
    pages = goldfish_pages(owner, "en")
    hand = " ".join(pages[url] for url in pages if url.endswith("/goldfish/"))
    assert re.search(r"The opening hand is \d+ cards\. The opponent is a goldfish", hand)
    assert re.search(r"Default \d+; from \d+ to \d+\. Source: [A-Z]", hand)
