"""Every word in the reader's language: the catalogues are complete and current, and the messages that
used to be English everywhere (query syntax errors, deck errors, citations of sources, plurals) are not."""

from __future__ import annotations

import importlib.util
import json
import re
import shutil
from pathlib import Path

import polib
import pytest
from django.core.management import call_command
from django.test import Client
from django.utils import translation

from cards.citations import cite
from cards.gamedefs import all_games, get_game
from cards.search.ast import QuerySyntaxError
from cards.search.messages import MESSAGES
from cards.search.parser import parse
from cards.selectors import query_error_message

ROOT = Path(__file__).resolve().parent.parent
TRANSLATED = {"ja": "ja", "zh_Hant": "zh-hant", "zh_Hans": "zh-hans"}
PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]|\{(\w+)\}")


def catalogue(directory: str) -> polib.POFile:
    return polib.pofile(str(ROOT / "locale" / directory / "LC_MESSAGES" / "django.po"))


def live_entries(directory: str) -> list[polib.POEntry]:
    return [entry for entry in catalogue(directory) if not entry.obsolete]


@pytest.mark.parametrize("directory", TRANSLATED)
def test_every_message_is_translated_and_none_is_fuzzy(directory):
    missing = [entry.msgid for entry in live_entries(directory) if not entry.translated() or "fuzzy" in entry.flags]
    assert missing == [], f"{len(missing)} untranslated in {directory}: {missing[:10]}"


@pytest.mark.parametrize("directory", TRANSLATED)
def test_translations_keep_every_placeholder(directory):
    """A translation that drops or misspells %(name)s would show the wrong value or fail to render."""
    wrong = []
    for entry in live_entries(directory):
        wanted = set(PLACEHOLDER.findall(entry.msgid))
        forms = entry.msgstr_plural.values() if entry.msgid_plural else [entry.msgstr]
        for form in forms:
            if set(PLACEHOLDER.findall(form)) != wanted and not (entry.msgid_plural and "count" not in form):
                wrong.append((entry.msgid, form))
    assert wrong == []


@pytest.mark.parametrize("directory", TRANSLATED)
def test_the_compiled_catalogue_is_the_one_in_the_repository(directory):
    """The site reads the compiled .mo: a string translated in the .po but not compiled would show in English."""
    language = TRANSLATED[directory]
    stale = []
    with translation.override(language):
        for entry in live_entries(directory):
            if entry.msgid_plural or not entry.msgstr:
                continue
            if entry.msgctxt:
                shown = translation.pgettext(entry.msgctxt, entry.msgid)
            else:
                shown = translation.gettext(entry.msgid)
            if shown != entry.msgstr:
                stale.append(entry.msgid)
    assert stale == [], "run manage.py compilemessages"


def test_the_simplified_catalogue_is_the_traditional_one_converted():
    """locale/zh_Hans is made from locale/zh_Hant (tools/make_zh_hans.py): a message added to the Traditional
    catalogue and not converted would read in English to a Simplified Chinese reader."""
    spec = importlib.util.spec_from_file_location("make_zh_hans", ROOT / "tools" / "make_zh_hans.py")
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    made = {(entry.msgctxt, entry.msgid): (entry.msgstr, entry.msgstr_plural) for entry in tool.build()}
    kept = {(entry.msgctxt, entry.msgid): (entry.msgstr, entry.msgstr_plural) for entry in live_entries("zh_Hans")}
    assert kept == made, "run tools/make_zh_hans.py"
    assert kept[(None, "Log out")][0] == "退出登录"  # a reviewed word, not tw2sp's 注销
    assert kept[(None, "Simplified Chinese")][0] == "简体中文"


def unlisted_messages(tmp_path: Path, settings, extra: dict[str, str] | None = None) -> list:
    """The messages makemessages finds in a copy of the code (plus ``extra`` files) that the catalogues lack."""
    copy = tmp_path / "site"
    ignore = shutil.ignore_patterns(
        ".venv", "node_modules", "staticfiles", "var", ".git", "__pycache__", "*.mo", "test-artifacts"
    )
    shutil.copytree(ROOT, copy, ignore=ignore, symlinks=True)
    for name, text in (extra or {}).items():
        (copy / name).write_text(text, encoding="utf-8")
    settings.LOCALE_PATHS = [copy / "locale"]  # makemessages writes to the first locale path
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(copy)
        call_command("makemessages", locale=["ja"], verbosity=0, no_obsolete=True, ignore_patterns=["tests/*"])
    found = {(entry.msgctxt, entry.msgid) for entry in polib.pofile(str(copy / "locale/ja/LC_MESSAGES/django.po"))}
    known = {(entry.msgctxt, entry.msgid) for entry in live_entries("ja")}
    return sorted(found - known, key=str)


def test_the_catalogues_hold_every_message_the_code_marks(tmp_path, settings):
    """makemessages run over a copy of the code finds no message the catalogues lack: a string marked for
    translation and not added to the catalogues fails here, before a reader sees it in English."""
    new_code = {
        "cards/_new_view.py": "from django.utils.translation import gettext as _\n_('A message nobody translated')\n",
        "templates/_new.html": "{% load i18n %}{% translate 'Another new message' %}",
    }
    assert unlisted_messages(tmp_path / "with-new", settings, new_code) == [
        (None, "A message nobody translated"),
        (None, "Another new message"),
    ]
    assert unlisted_messages(tmp_path / "as-is", settings) == []


# --- messages that were English on every page


@pytest.mark.parametrize("code", sorted(MESSAGES))
@pytest.mark.parametrize("language", ["ja", "zh-hant"])
def test_every_query_error_reads_in_the_readers_language(code, language):
    params = {name: "x" for pair in PLACEHOLDER.findall(MESSAGES[code]) for name in pair if name}
    error = QuerySyntaxError(code, 0, **params)
    with translation.override(language):
        shown = query_error_message(error)
    assert shown != error.message
    # words typed in queries
    syntax = r"\b(?:asc|desc|translated|untranslated|incomplete|complete|true|false|unknown|owned|VALUE)\b"
    assert not re.search(r"[A-Za-z]{4,}", re.sub(syntax, "", shown))


def test_a_query_error_lists_its_choices_in_the_readers_style():
    with pytest.raises(QuerySyntaxError) as raised:
        parse('order:name "abc')
    assert raised.value.code == "unclosed_quote"
    with translation.override("zh-hant"):
        assert query_error_message(raised.value) == "引號沒有關閉。"
    error = QuerySyntaxError("unknown_field", 0, field="foo", fields=["game", "name"])
    with translation.override("ja"):
        assert query_error_message(error) == "項目「foo」はありません。項目: game、name。"
    with translation.override("en"):
        assert query_error_message(error) == "Unknown field 'foo'. Fields: game, name."


@pytest.mark.django_db
def test_the_search_page_shows_a_syntax_error_in_chinese(client: Client):
    page = client.get("/search/", {"q": "(テスト"}, HTTP_ACCEPT_LANGUAGE="zh-hant")
    text = page.content.decode()
    assert "此處開啟的括號缺少對應的「)」。" in text
    assert "Missing closing parenthesis" not in text


def _seed_sources() -> set[tuple[str, str]]:
    sources: set[tuple[str, str]] = set()

    def walk(value, game: str) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                if key == "source" and isinstance(item, str):
                    sources.add((game, item))
                else:
                    walk(item, game)
        elif isinstance(value, list):
            for item in value:
                walk(item, game)

    for path in (ROOT / "cards" / "data").glob("*.json"):
        walk(json.loads(path.read_text(encoding="utf-8")), path.stem)
    return sources


# What a citation quotes stays as written: web addresses, wiki page names, the English titles of the
# sections quoted from seed 001 and the card names in its sentences, card numbers and skill letters.
QUOTED = re.compile(
    r"[\w.-]+\.(?:com|jp|md)\b|Category:\w+|Wikipedia|wiki\b|\"Rule of Four\"|More About Abilities|DRAW"
    r"|Bazaar|Bad Santa|Research"
    r"|\w+_\w+|(?<![A-Za-z0-9])EB\d-\d{3}(?!\d)|(?<![A-Za-z])[PTSB]+(?![A-Za-z])"
)


@pytest.mark.parametrize("language", ["ja", "zh-hant"])
def test_every_seed_citation_reads_in_the_readers_language(language):
    """A card's source is data, quoted as transcribed; the words of the citation around it are translated."""
    sources = _seed_sources()
    assert len(sources) > 40
    english = {}
    with translation.override(language):
        for game, source in sorted(sources):
            shown = cite(source, get_game(game), language)
            for document in get_game(game).documents:  # a document's title is shown as written
                shown = shown.replace(document.shown, "")
            leftover = re.findall(r"[A-Za-z]{2,}", QUOTED.sub("", shown))
            if leftover:
                english[source] = (shown, leftover)
    assert english == {}


def test_a_citation_names_the_source_document_by_its_title_and_the_field():
    with translation.override("ja"):
        shown = cite("cost: seed 000 worked example (居合斬(PT)); games.md", get_game("endbreaker"), "ja")
    assert shown == "コスト: 「エンドブレイカー！SCG 規則 & 卡表 - 桌遊」 解説例 (居合斬(PT)); 公開情報"
    with translation.override("en"):
        assert cite("seed 001 (ドローフェイズ(DRAW))", get_game("shadowera"), "en") == (
            "「Shadow Era Wiki」ルール (ドローフェイズ(DRAW))"
        )


def test_a_citation_of_the_notes_on_the_games_names_the_notes_own_source():
    """The project's notes on the games are no document a reader can find: a citation shows what they cite."""
    with translation.override("en"):
        assert cite("games.md (shadowera.com wiki, Category:Deck)", get_game("shadowera"), "en") == (
            "shadowera.com wiki, Category:Deck"
        )
        assert cite("games.md (seed; fan rules site)", get_game("epicbattles"), "en") == (
            "「ジャガーノーツのTCGカタログ」Epic Battles; fan rules site"
        )
        # Where the note names no source, nothing narrower than the public sources applies.
        assert cite("kind: games.md (the 1000ダルク coin card)", get_game("endbreaker"), "en") == (
            "Kind: public sources (the 1000ダルク coin card)"
        )


def test_every_game_names_itself_in_every_language():
    for definition in all_games():
        assert set(definition.names) >= {"ja", "zh-hant", "en"}, definition.slug
