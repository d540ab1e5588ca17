"""In a real browser, translation tracks as people meet them (tests/test_translation_tracks.py has the rest): a
contributor opens a synthetic エンドブレイカー card's translate page from the card page and adds a second, named
Chinese translation with its credits; an editor accepts the change set; a reader chooses the new translation
as the one shown first, and the card page shows its text with the seed's translation listed beside it; then the
editor changes the original Japanese text and the card page marks the translations stale.

Every card is synthetic (EB9-901, names marked テスト), loaded from a synthetic seed file. Playwright drives
Debian's Chromium, as the other browser tests do (tests/conftest.py), and skips without it.
"""

from __future__ import annotations

import re

import pytest

from .support.browser import signed_in_page
from .support.translation_tracks import SECOND, SEED_TRACK, load, seed_file
from .users import make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CREDITS = "テスト譯者・synthetic translator"
SECOND_TEXT = "第二譯本的譯文：抽一張牌"
SEED_TEXT = "測試譯文：抽牌＋１"


def watch_csp(page, violations: list[str]) -> None:
    """Collect the page's Content-Security-Policy violations (the console reports them)."""
    page.on("console", lambda message: violations.append(message.text) if "Content Security" in message.text else None)


def test_a_second_chinese_translation_is_added_accepted_chosen_first_and_marked_stale(live_server, browser, tmp_path):
    from playwright.sync_api import expect

    from cards.models import Game, TranslationTrack
    from cards.services import sync_games
    from contributions.models import GameRole

    sync_games()
    load(seed_file(tmp_path))
    editor = make_user("tracks-editor")
    GameRole.objects.create(user=editor, game=Game.objects.get(slug="endbreaker"), role=GameRole.Role.EDITOR)
    make_user("tracks-player")
    base = live_server.url
    card_url = f"{base}/games/endbreaker/cards/EB9-901/"
    violations: list[str] = []

    # A contributor opens the translate page from the card's Chinese text and starts a second translation.
    player = signed_in_page(browser, base, "tracks-player", "/contributions/")
    watch_csp(player, violations)
    player.goto(card_url)
    player.click("#text-zh-hant p.add-track a")
    player.wait_for_url(re.compile(r"/contributions/games/endbreaker/cards/EB9-901/translate/\?language=zh-hant$"))
    expect(player.locator("ul.track-list")).to_have_count(0)  # the seed's is the main text: no other track yet
    form = player.locator("form.stacked-form")
    expect(form.locator("select[name=language]")).to_have_value("zh-hant")
    expect(form.locator("select[name=track]")).to_have_value("new")
    form.locator("input[name=track_name]").fill(SECOND)
    form.locator("input[name=credits]").fill(CREDITS)
    form.locator("input[name=name]").fill("第二譯名")
    form.locator("textarea[name=text]").fill(SECOND_TEXT)
    form.locator("input[name=source_kind][value=own_copy]").check()
    player.click("form.stacked-form button.primary")
    player.wait_for_url(re.compile(r"/contributions/\d+/$"))
    expect(player.locator(".state")).to_have_class(re.compile("state-pending"))
    expect(player.locator(".new-track")).to_contain_text(SECOND)
    expect(player.locator(".new-track")).to_contain_text(CREDITS)
    change_set_url = player.url
    player.goto(card_url)
    expect(player.locator("#text-zh-hant article.track-text")).to_have_count(1)  # nothing shown before review

    # The editor accepts it on the change set's page.
    editor_page = signed_in_page(browser, base, "tracks-editor", "/contributions/")
    editor_page.goto(change_set_url)
    editor_page.click("button[name=decision][value=accept]")
    expect(editor_page.locator(".state")).to_have_class(re.compile("state-accepted"))
    second = TranslationTrack.objects.get(name=SECOND)

    # A reader sees the seed's translation first and the new one beside it, and chooses the new one.
    reader = browser.new_context(locale="en-US").new_page()
    watch_csp(reader, violations)
    reader.goto(card_url)
    texts = reader.locator("#text-zh-hant article.track-text")
    expect(texts).to_have_count(2)
    expect(texts.nth(0)).to_contain_text(SEED_TEXT)
    expect(texts.nth(0)).to_have_class(re.compile(r"\bpreferred\b"))
    new_one = reader.locator(f'#text-zh-hant article.track-text[data-track="{second.pk}"]')
    expect(new_one).to_contain_text(SECOND_TEXT)
    expect(new_one.locator(".track-credits")).to_contain_text(CREDITS)
    new_one.locator("p.prefer a").click()
    reader.wait_for_url(re.compile(r"/games/endbreaker/cards/EB9-901/#text-zh-hant$"))
    expect(texts.nth(0)).to_have_attribute("data-track", str(second.pk))
    expect(texts.nth(0)).to_have_class(re.compile(r"\bpreferred\b"))
    expect(texts.nth(0).locator(".track-chosen")).to_have_text("shown first")
    expect(texts.nth(0)).to_contain_text(SECOND_TEXT)
    expect(texts.nth(1)).to_contain_text(SEED_TRACK)
    expect(texts.nth(1)).to_contain_text(SEED_TEXT)
    expect(texts.nth(1).locator("p.prefer a")).to_have_text("Show this translation first")
    expect(reader.locator("#text-zh-hant p.stale-warning")).to_have_count(0)
    reader.reload()  # the choice is remembered
    expect(texts.nth(0)).to_have_attribute("data-track", str(second.pk))

    # The editor changes the original Japanese text on the card's form; it applies at once.
    editor_page.goto(f"{card_url}edit/")
    editor_page.fill("textarea[name=text_ja_text]", "テスト原文：ドロー＋２")
    editor_page.check("input[name=source_kind][value=own_copy]")
    editor_page.click("form.stacked-form button.primary")
    editor_page.wait_for_url(re.compile(r"/contributions/\d+/$"))
    expect(editor_page.locator(".state")).to_have_class(re.compile("state-accepted"))

    # The reader's card page shows the new original and both translations as stale, the chosen one still first.
    reader.goto(card_url)
    expect(reader.locator("#text-ja")).to_contain_text("テスト原文：ドロー＋２")
    expect(texts).to_have_count(2)
    expect(texts.nth(0)).to_have_attribute("data-track", str(second.pk))
    for index in range(2):
        expect(texts.nth(index)).to_have_class(re.compile(r"\bstale\b"))
        expect(texts.nth(index).locator("p.stale-warning")).to_contain_text(
            "Stale: the original text has changed since this translation was made."
        )
    assert violations == []
