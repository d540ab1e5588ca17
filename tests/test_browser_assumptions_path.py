"""In a real browser, on the site as it is served in production (tests/servers.py: gunicorn, DEBUG off, a task
worker) with only the seed's cards, a player simulates before the database is complete.

エンドブレイカー！SCG, in Japanese: the whole-game tools say the seed cannot make a game yet and lead to a deck's
assumed values; the player imports a deck of seed cards, adds assumed scenario cards (the seed lists none), fills
every missing value in bulk, compares two strategies, takes a seat and plays a game to its end by answering every
choice themselves (the page showing the skill pool and each hand card's values at every one), watches a game of two
strategies and runs a strategy search; every result names its assumptions. Shadow Era, in English: a deck of
placeholder cards only is dealt a goldfish hand that says it uses them.

No synthetic card is stored: the values are the player's assumptions, kept apart from the card data; the
placeholders are the deck's own. Simulation sizes are the smallest the forms take. The player assumes twelve
scenario cards: with fewer, the scenarios run out before the third battle and a game only stops at the turn limit
(a hundred turns of choices); with twelve, a played game ends with its third battle in about sixty answers, some
thirty clicks when each hand is played with "play my whole hand".
"""

from __future__ import annotations

import re

import pytest

from .servers import production_site
from .support.browser import wait_until_true

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "zyx-assumes-a-lot-9"
ENDBREAKER_DECK = (
    "サプライ：\n"
    + "".join(f"1 EB1-{number:03d}\n" for number in range(8, 17))
    + "ジョブの山：\n1 魔獣戦士\n1 スカイランナー\n1 デモニスタ\n"
)
# (value, kind or "" for every kind, the assumed value): the player's bulk fills, in the order the page asks.
BULK_FILLS = [
    ("cost", "scenario", "PP"),
    ("payout", "scenario", "2"),
    ("payout", "masquerade", "6-4-2-0"),
    ("damage", "", "2"),
    ("at", "", "1"),
    ("skill", "", "P"),
    ("cost", "", "P"),
]
# The button a player presses at each kind of choice (by its words); the others take the first button offered: the
# first card of the hand to play, the most expensive card the skills pay for, the first open masquerade.
SENSIBLE = {"act": "シナリオを解決する", "pick": "これ以上選ばない", "may": "はい"}
# Every hand card shows its skill and its cost (an empty hand is one "—").
HAND_VALUES_SHOWN = """[...document.querySelectorAll('.seated-hand li')].every(
    li => li.textContent.trim() === '—' || (li.textContent.includes('スキル') && li.textContent.includes('コスト')))"""


def _sign_in(browser, base: str, locale: str, then: str):
    page = browser.new_context(locale=locale).new_page()
    page.goto(f"{base}/accounts/login/?next={then}")
    page.fill("input[name=username]", "zyx-assumer")
    page.fill("input[name=password]", PASSWORD)
    page.click("form.stacked-form button[type=submit]")
    page.wait_for_url(f"{base}{then}")
    return page


def _bulk_fill(page, field: str, kind: str, value: str) -> None:
    form = page.locator("form:has(input[name=action][value=bulk])")
    form.locator("select[name=field]").select_option(field)
    form.locator("select[name=kind]").select_option(kind)
    form.locator("input[name=value]").fill(value)
    form.locator("button[type=submit]").click()
    page.wait_for_load_state()


def _answer(page, button) -> None:
    with page.expect_navigation():
        button.click()


def _play_to_the_end(page, limit: int = 200) -> list[str]:
    """Answers each choice as a player would until the game is over; returns the kinds of choice answered. A hand
    is played with "play my whole hand"; the other choices are answered one by one."""
    from playwright.sync_api import expect

    kinds: list[str] = []
    for _ in range(limit):
        choice = page.locator("#choice")
        if choice.count() == 0:
            return kinds
        kind = (choice.get_attribute("data-kind") or "").split(":")[0]
        kinds.append(kind)
        expect(choice.locator(".seated-pool")).to_contain_text("いまのスキル")
        assert page.evaluate(HAND_VALUES_SHOWN), page.locator(".seated-hand").inner_text()
        buttons = choice.locator("button[name=answer]")
        if kind in SENSIBLE:
            button = buttons.filter(has_text=SENSIBLE[kind])
        elif kind == "play":  # the hand played card after card (it stops at any question a card asks)
            assert buttons.count() > 1 and "プレイを終える" in buttons.last.inner_text()
            button = choice.locator("button[name=play_hand]", has_text="手札をすべてプレイ")
        else:
            button = buttons.first
        if kind == "gain":
            expect(button).to_contain_text("コスト")
        _answer(page, button)
    raise AssertionError(f"the game asked more than {limit} choices")


def _wait_finished(page, section: str) -> None:
    wait_until_true(page, f"document.querySelector('{section}')?.dataset.status === 'done'", timeout=90)


@pytest.fixture(scope="module")
def seeded_site(tmp_path_factory):
    """The production-like site on a fresh database holding only what ``loadcards`` loads, a task worker beside
    it, and one player's account; one for the module (each test works on its own deck)."""
    with production_site(tmp_path_factory.mktemp("assumptions-site"), seed=True, workers=2, threads=4) as site:
        site.django(
            f"""
            from django.contrib.auth import get_user_model
            get_user_model().objects.create_user("zyx-assumer", "zyx@example.org", "{PASSWORD}")
            """
        )
        site.start_worker()
        yield site


def test_a_player_plays_endbreaker_on_assumed_values_and_every_result_names_them(seeded_site, browser):
    from playwright.sync_api import expect

    base = seeded_site.url
    page = _sign_in(browser, base, "ja-JP", "/games/endbreaker/")

    # The whole-game tools refuse the seed's cards as they stand, and say how to play anyway: on a deck's assumptions.
    page.click("main a[href='/simulator/games/endbreaker/compare/']")
    expect(page.locator("#setup-missing")).to_contain_text("シナリオ")
    expect(page.locator("form.compare-form button[type=submit]")).to_be_disabled()
    expect(page.locator("#setup-missing .assume-instead")).to_contain_text("データベースがそろう前に遊ぶ")
    page.locator("#setup-missing .assume-instead a", has_text="新しいデッキ").click()

    # A deck of the seed's cards (legal: the rules name its piles), imported from a list.
    page.goto(f"{base}/decks/import/?game=endbreaker")
    page.fill("input[name=name]", "ゼット想定デッキ")
    page.fill("textarea[name=text]", ENDBREAKER_DECK)
    page.click("form#decklist-form button.primary")
    page.wait_for_url(re.compile(r"/decks/\d+/$"))
    deck_path = page.url.removeprefix(base)
    expect(page.locator("#deck-verdict")).to_have_class(re.compile("verdict-legal"))

    # The deck's whole-game tools lead to its assumptions page, which names what is missing and offers it.
    page.click(f"a[href='/simulator/games/endbreaker/compare/?deck={deck_path.split('/')[2]}']")
    expect(page.locator("#setup-missing .assume-instead")).to_contain_text("このデッキで足りない値を想定")
    page.locator("#setup-missing .assume-instead a", has_text="想定値").click()
    page.wait_for_url(re.compile(r"/simulator/decks/\d+/assumptions/$"))
    cards = page.locator("form:has(input[name=action][value=cards])")
    cards.locator("select[name=kind]").select_option("scenario")
    cards.locator("input[name=count]").fill("12")
    cards.locator("button[type=submit]").click()
    page.wait_for_load_state()
    expect(page.locator("main")).to_contain_text("想定カードを 12 枚追加しました")
    for field, kind, value in BULK_FILLS:
        _bulk_fill(page, field, kind, value)
        expect(page.locator("main")).not_to_contain_text("Server Error")
    # 属性 is asked once the values above let the engine look further.
    _bulk_fill(page, "attribute", "", "P")
    page.goto(f"{base}{deck_path}")
    verdict = page.locator(".deck-whole-game-verdict")
    expect(verdict).to_contain_text("想定値")
    expect(verdict.locator("a[href*='/contributions/']")).to_have_count(0)

    # Two strategies compared on the deck: the page offers the deck as playable, the result names the assumptions.
    page.click("a:has-text('このデッキで戦略を比較')")
    expect(page.locator("#setup-missing")).to_have_count(0)
    form = page.locator("form.compare-form")
    form.locator("select[name=seat1]").select_option("big_darc")
    form.locator("select[name=seat2]").select_option("scenario_rush")
    form.locator("input[name=games]").fill("4")
    form.locator("button[type=submit]").click()
    page.wait_for_url(re.compile(r"/compare/\d+/$"))
    _wait_finished(page, "#comparison")
    expect(page.locator("#assumed-heading")).to_contain_text("想定値")
    expect(page.locator("#comparison-verdict")).to_be_visible()

    # A seat at the table against a strategy: an answer taken back, then every choice answered to the game's end.
    page.goto(f"{base}{deck_path}")
    page.click("a:has-text('このデッキで1ゲーム遊ぶ')")
    expect(page.locator("#setup-missing")).to_have_count(0)
    page.select_option("select[name=seat2]", "big_darc")
    page.click("form.stacked-form button[type=submit]")
    page.wait_for_url(re.compile(r"/play/\d+/$"))
    expect(page.locator("#assumed-heading")).to_contain_text("想定値")
    _answer(page, page.locator("#choice button[name=answer]").first)
    expect(page.locator("#choice")).to_have_attribute("data-answered", "1")
    _answer(page, page.locator("button:has-text('最後の答えを取り消す')"))
    expect(page.locator("#choice")).to_have_attribute("data-answered", "0")
    kinds = _play_to_the_end(page)
    assert {"play", "act", "thorn"} <= set(kinds), kinds
    over = page.locator("#game-over")
    expect(over).to_contain_text("3度目の戦闘でゲームが終わりました")
    expect(over).to_contain_text(re.compile(r"勝者: (あなた|ビッグダルク)|引き分け"))
    expect(over).not_to_contain_text("ターン数の上限")
    expect(page.locator("#assumed-heading")).to_contain_text("想定値")
    # The log names the strategy by its short label, without its explanation.
    expect(page.locator(".seated-log tbody")).to_contain_text("ビッグダルク")
    expect(page.locator(".seated-log tbody")).not_to_contain_text("払えるとき")

    # A game of two strategies watched to its end.
    page.goto(f"{base}{deck_path}")
    page.click("a:has-text('このデッキで1ゲーム遊ぶ')")
    page.select_option("select[name=seat1]", "big_darc")
    page.select_option("select[name=seat2]", "scenario_rush")
    page.click("form.stacked-form button[type=submit]")
    page.wait_for_url(re.compile(r"/play/\d+/$"))
    expect(page.locator("#game-over")).to_contain_text("ゲーム終了")
    expect(page.locator("#assumed-heading")).to_contain_text("想定値")

    # A strategy search, as small as the form allows, names them too.
    page.goto(f"{base}{deck_path}")
    page.click("a:has-text('このデッキで最善の戦略を探す')")
    expect(page.locator("#setup-missing")).to_have_count(0)
    page.fill("input[name=generations]", "1")
    page.fill("input[name=islands]", "1")
    page.click("main form.stacked-form button[type=submit]")
    page.wait_for_url(re.compile(r"/search/\d+/$"))
    _wait_finished(page, "#search")
    expect(page.locator("#assumed-heading")).to_contain_text("想定値")
    expect(page.locator("#search-verdict")).to_be_visible()


def test_a_shadow_era_deck_of_placeholders_is_dealt_a_goldfish_hand_that_names_them(seeded_site, browser):
    from playwright.sync_api import expect

    base = seeded_site.url
    page = _sign_in(browser, base, "en-US", "/decks/new/?game=shadowera")
    page.fill("input[name=name]", "Zyx placeholder deck")
    page.click("main form button.primary")
    page.wait_for_url(re.compile(r"/decks/\d+/edit/$"))
    deck_path = page.url.removeprefix(base).removesuffix("edit/")
    page.goto(f"{base}{deck_path}")

    def add(kind: str, count: int, **values: int) -> None:
        editor = page.locator("#placeholders-edit")
        if editor.get_attribute("open") is None:
            editor.locator("summary").click()
        form = editor.locator("form[action$='/placeholders/']")
        form.locator("select[name=kind]").select_option(kind)
        form.locator("input[name=count]").fill(str(count))
        for name, value in values.items():
            form.locator(f"input[name=value_{name}]").fill(str(value))
        form.locator("button[type=submit]").click()
        page.wait_for_load_state()

    add("hero", 1)
    add("ally", 30, cost=2, attack=2, health=3)
    add("ability", 10, cost=1)
    expect(page.locator("#placeholders-edit")).to_contain_text("30×")
    expect(page.locator("main")).to_contain_text("placeholder")

    page.click("a.goldfish-link")
    page.wait_for_url(re.compile(r"/goldfish/"))
    expect(page.locator("#gf-zone-hand li.gf-card").first).to_be_visible()
    expect(page.locator(".placeholders-used")).to_contain_text("placeholder cards")
