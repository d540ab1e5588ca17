"""Every page in the reader's language: a crawl of the URL map.

Every named URL of the site (the API's aside) is asked for with sample arguments made from synthetic data
(a deck, its published snapshot with a comment, a change set), as an anonymous reader and as a signed-in
editor. In Japanese and in both Chinese interfaces no page shows an English sentence, except where the page
declares English (an element with ``lang="en"``: a card name whose source is English, a quoted source), in
code (``<code>``, ``<kbd>``, ``<samp>``) or as a gloss in brackets or quotes beside the reader's words
(「毎ターン(each turn)」). In English no page shows a message id left untranslated: a Japanese or Chinese
interface message, or an id that looks like a key.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path

import polib
import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from django.utils import translation

from community import services as community_services
from contributions import services as contribution_services
from decks import services as deck_services
from decks.models import Deck

from .synthetic_decks import card, game
from .users import make_editor

ROOT = Path(__file__).resolve().parent.parent

# Pages that are not a reader's (health, files, redirects of a form) are skipped by what they answer: only a
# 200 HTML page is read. These are left out because asking for them changes something or leaves the site.
NOT_ASKED = {"set_language", "logout", "api-not-found", "healthz", "media"}
GAMES = ("endbreaker", "shadowera")
CARD_OF = {"endbreaker": "EB1-011", "shadowera": "Test Hero 01"}

# Elements whose text is not the interface's words: code and what a reader typed or a script holds.
EXEMPT_TAGS = {"script", "style", "code", "kbd", "samp", "var", "pre", "textarea", "svg", "template"}
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
SHOWN_ATTRIBUTES = ("title", "placeholder", "aria-label", "alt")

# A quotation (「Rule of Four」, "Rule of Four": a source's own words) and a gloss in brackets right after the
# reader's word (毎ターン(each turn)); not a bracket after a space ("巴哈社群譯 (zh-hant, draft)" is the site's).
QUOTED = re.compile(r'「[^」]*」|『[^』]*』|“[^”]*”|"[^"]*"')
GLOSS = re.compile(r"(?<=[\u3040-\u30ff\u3400-\u9fff])[（(][^（）()]*[)）]")
# Words that are code or addresses, not English: game:suikoden, attack>5, Category:Deck, shadowera.com, games.md.
CODE_WORD = re.compile(r"\S*(?:[:<>=]|\w\.\w)\S*")
WORD = r"[A-Za-z][A-Za-z'’-]*"
LATIN_RUN = re.compile(rf"{WORD}(?:[,;]?[ \t]+{WORD})+")


def english_sentences(text: str) -> list[str]:
    """Runs of English words that read as a sentence or a phrase of the site's (two words or more, one of
    them a lower-case word), not a name (Shadow Era, Test Hero 01, Group SNE)."""
    text = CODE_WORD.sub(" ", GLOSS.sub(" ", QUOTED.sub(" ", text)))
    found = []
    for match in LATIN_RUN.finditer(text):
        words = re.split(r"[,;]?\s+", match.group(0))
        if any(re.fullmatch(r"[a-z][a-z'’-]+", word) for word in words):
            found.append(match.group(0))
    return found


class Words(HTMLParser):
    """The text a reader sees (and the attributes read aloud), each with the language the page declares."""

    def __init__(self, page_language: str) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, str, bool]] = [("", page_language, False)]
        self.found: list[tuple[str, str]] = []  # (language, text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        _tag, language, exempt = self.stack[-1]
        language = values.get("lang") or language
        exempt = exempt or tag in EXEMPT_TAGS
        if not exempt:
            for name in SHOWN_ATTRIBUTES:
                if values.get(name):
                    self.found.append((language, values[name]))
        if tag == "html":
            self.stack[0] = ("", language, False)
        elif tag not in VOID:
            self.stack.append((tag, language, exempt))

    def handle_endtag(self, tag: str) -> None:
        for index in range(len(self.stack) - 1, 0, -1):
            if self.stack[index][0] == tag:
                del self.stack[index:]
                return

    def handle_data(self, data: str) -> None:
        _tag, language, exempt = self.stack[-1]
        if not exempt and data.strip():
            self.found.append((language, data))


def page_words(html: str, language: str) -> list[tuple[str, str]]:
    parser = Words(language)
    parser.feed(html)
    return parser.found


def interface_messages() -> set[str]:
    """The Japanese and Chinese words of interface messages (what an English page must not show)."""
    found = set()
    for directory in ("ja", "zh_Hant"):
        for entry in polib.pofile(str(ROOT / "locale" / directory / "LC_MESSAGES" / "django.po")):
            text = entry.msgstr.strip()
            if len(text) >= 3 and text != entry.msgid and re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", text):
                found.add(text)
    return found


KEY_LIKE = re.compile(r"[a-z]+(?:[._][a-z]+){2,}")


def walk(patterns, prefix: str = "", namespace: str | None = None) -> Iterator[tuple[str, str, str]]:
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            inner = pattern.namespace or namespace
            yield from walk(pattern.url_patterns, prefix + str(pattern.pattern), inner)
        elif isinstance(pattern, URLPattern) and pattern.name:
            yield namespace or "", pattern.name, prefix + str(pattern.pattern)


def sample_paths(objects: dict[str, object]) -> list[tuple[str, str]]:
    """(URL name, path) for every named page, its arguments taken from ``objects``."""
    deck, publication, change_set = objects["deck"], objects["publication"], objects["change_set"]
    pk_by_namespace = {"community": publication.pk, "contributions": change_set.pk}  # type: ignore[attr-defined]
    paths = []
    for namespace, name, route in walk(get_resolver().url_patterns):
        if route.startswith(("api/", "^api", "admin/")) or name in NOT_ASKED:
            continue
        for slug in GAMES if "<slug:game>" in route else (None,):
            values = {
                "game": slug,
                "key": CARD_OF.get(slug or "", ""),
                "pk": pk_by_namespace.get(namespace, deck.pk),  # type: ignore[attr-defined]
                "token": deck.share_token,  # type: ignore[attr-defined]
                "card": card("shadowera", "Test Ally 01").pk,
                "user": objects["editor"].pk,  # type: ignore[attr-defined]
                "name": "big_darc",  # a strategy the エンドブレイカー！SCG engine ships
            }

            def fill(match: re.Match[str], values=values) -> str:
                return str(values.get(match[2], 1))

            if namespace == "community" and name == "publish":
                values["pk"] = deck.pk  # type: ignore[attr-defined]
            path = "/" + re.sub(r"<(?:(\w+):)?(\w+)>", fill, route)
            paths.append((f"{namespace}:{name}", path))
    return paths


@pytest.fixture
def crawled_site(seeded_db, synthetic_cards, owner):
    """What the sample addresses name: a shared deck, its publication with a comment, a change set, an editor."""
    editor = make_editor(game("shadowera"))
    editor.is_staff = True
    editor.save()
    with translation.override("en"):
        entries = [("hero", card("shadowera", "Test Hero 01"), 1), ("deck", card("shadowera", "Test Ally 01"), 11)]
        deck = deck_services.create_deck(
            owner=editor, game=game("shadowera"), name="テストデッキ", entries=entries, visibility=Deck.Visibility.LINK
        )
        publication = community_services.publish(deck, user=editor, title="テスト公開")
        community_services.add_comment(publication, author=owner, body="テストのコメント")
        proposed = {"key": "SE9-CRAWL", "kind": "hero", "fields": {"health": 30}, "texts": {"ja": {"name": "テスト"}}}
        change_set = contribution_services.submit_change_set(
            author=owner,
            game=game("shadowera"),
            cards=[proposed],
            source_kind="own_copy",
            tracks=[{"language": "zh-hant", "name": "テスト譯本", "credits": "テスト"}],
        )
    return {"deck": deck, "publication": publication, "change_set": change_set, "editor": editor}


def crawl(site, language: str) -> tuple[int, list[str]]:
    """How many pages were read, and what each shows wrong, as "URL name path: words"."""
    anonymous = Client(HTTP_ACCEPT_LANGUAGE=language)
    editor = Client(HTTP_ACCEPT_LANGUAGE=language)
    editor.force_login(site["editor"])
    known = interface_messages() if language == "en" else set()
    read, wrong = 0, []
    for name, path in sample_paths(site):
        for who, client in (("anonymous", anonymous), ("editor", editor)):
            response = client.get(path)
            if response.status_code == 302 and response["Location"].startswith(path + "?"):
                response = client.get(response["Location"])  # a page that puts its seed into the address
            if response.status_code != 200 or not response.get("Content-Type", "").startswith("text/html"):
                continue
            read += 1
            for shown_language, text in page_words(response.content.decode(), language):
                if language == "en":
                    words = text.strip()
                    if shown_language.startswith("en") and (words in known or KEY_LIKE.fullmatch(words)):
                        wrong.append(f"{name} {path} ({who}): {words}")
                elif not shown_language.startswith(("en", "zxx")):
                    wrong.extend(f"{name} {path} ({who}): {run}" for run in english_sentences(text))
    return read, sorted(set(wrong))


def test_the_sentence_finder_tells_a_sentence_from_a_name_and_a_gloss():
    assert english_sentences("with Tommy Walker and Broccoli") == ["with Tommy Walker and Broccoli"]
    assert english_sentences("Card table") == ["Card table"]
    assert english_sentences("Shadow Era · Test Hero 01 · Group SNE") == []
    assert english_sentences("「毎ターン(each turn)」と書かれた効果") == []
    assert english_sentences("巴哈社群譯 (zh-hant, draft)") == ["zh-hant, draft"]
    assert english_sentences('出典: 公開資料 (shadowera.com wiki, "Rule of Four"; 未確認)') == []
    assert english_sentences("例: ドロー, 职业, game:suikoden attack>5") == []
    words = page_words('<p>カード <span lang="en">Deal one damage</span> <kbd>name:foo bar</kbd></p>', "ja")
    assert [(language, text) for language, text in words if text.strip()] == [
        ("ja", "カード "),
        ("en", "Deal one damage"),
    ]


@pytest.mark.parametrize("language", ["ja", "zh-hant", "zh-hans", "en"])
def test_no_page_shows_words_of_another_language(crawled_site, language):
    read, wrong = crawl(crawled_site, language)
    assert read >= 80, read  # the crawl reached the site's pages, not only its errors
    assert wrong == [], f"{len(wrong)} found:\n" + "\n".join(wrong[:80])
