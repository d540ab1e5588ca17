"""In a real browser, the Shadow Era contribution flow end to end: a new player signs up and contributes a hero
through the card form and allies through a pasted table; an editor accepts both change sets from the review
queue; the player builds a deck of them, sees it legal, and deals a goldfish sample hand.

Every card is synthetic (keys SE9-…, names "Zyx Test …"). Playwright drives Debian's Chromium, as the other
browser tests do (tests/conftest.py).
"""

from __future__ import annotations

import re

import pytest

from .users import PASSWORD, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ALLIES = 10  # four copies each, with the hero: the 40-card deck Shadow Era asks for


def _ally_table() -> str:
    rows = ["game\tkey\tkind\tfield:cost\tfield:faction\tfield:class\tfield:attack\tfield:health\tname:en"]
    rows += [
        f"shadowera\tSE9-A{index:02d}\tally\t{1 + index % 3}\thuman\twarrior\t{2 + index % 2}\t3"
        f"\tZyx Test Ally {index:02d}"
        for index in range(ALLIES)
    ]
    return "\n".join(rows) + "\n"


def test_contribute_review_accept_and_build_a_legal_deck(live_server, browser):
    from playwright.sync_api import expect

    from cards.models import Card, Game
    from cards.services import sync_games
    from contributions.models import GameRole

    sync_games()
    editor = make_user("zyx-editor")
    GameRole.objects.create(user=editor, game=Game.objects.get(slug="shadowera"), role=GameRole.Role.EDITOR)
    base = live_server.url
    player_context = browser.new_context(locale="en-US")
    page = player_context.new_page()

    # Sign up, then add the hero through the card form generated from the game's declarations.
    page.goto(f"{base}/accounts/signup/")
    page.fill("input[name=username]", "zyx-player")
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.click("form.stacked-form button[type=submit]")
    page.wait_for_url(f"{base}/decks/")
    page.goto(f"{base}/contributions/games/shadowera/contribute/")
    page.select_option("#kind-choice", "hero")
    page.click("form.kind-chooser button[type=submit]")
    page.wait_for_url(re.compile(r"kind=hero"))
    page.fill("input[name=key]", "SE9-HERO")
    page.select_option("select[name=field_faction]", "human")
    page.check("input[name=field_class][value=warrior]")
    page.fill("input[name=field_health]", "30")
    page.fill("input[name=text_en_name]", "Zyx Test Hero")
    page.check("input[name=source_kind][value=own_copy]")
    page.click("form.stacked-form button.primary")
    page.wait_for_url(re.compile(r"/contributions/\d+/$"))
    expect(page.locator(".state")).to_have_class(re.compile("state-pending"))

    # The allies by pasting a table: preview first, then submit as one change set.
    page.goto(f"{base}/contributions/games/shadowera/contribute/bulk/")
    page.fill("textarea[name=text]", _ally_table())
    page.check("input[name=source_kind][value=own_copy]")
    page.click("button[name=action][value=preview]")
    expect(page.locator(".bulk-preview .counts")).to_contain_text(f"New cards: {ALLIES}")
    page.click("button[name=action][value=submit]")
    page.wait_for_url(re.compile(r"/contributions/\d+/$"))
    assert not Card.objects.filter(key__startswith="SE9-").exists()  # waiting for an editor

    # An editor logs in and accepts both change sets from the review queue.
    editor_page = browser.new_context(locale="en-US").new_page()
    editor_page.goto(f"{base}/accounts/login/?next=/contributions/review/")
    editor_page.fill("input[name=username]", "zyx-editor")
    editor_page.fill("input[name=password]", PASSWORD)
    editor_page.click("form.stacked-form button[type=submit]")
    editor_page.wait_for_url(f"{base}/contributions/review/")
    queue = editor_page.locator("table.change-sets tbody tr")
    expect(queue).to_have_count(2)
    for _change_set in range(2):
        editor_page.locator("table.change-sets tbody tr a").first.click()
        editor_page.click("button[name=decision][value=accept]")
        expect(editor_page.locator(".state")).to_have_class(re.compile("state-accepted"))
        editor_page.goto(f"{base}/contributions/review/")
    expect(queue).to_have_count(0)
    assert Card.objects.filter(key__startswith="SE9-").count() == ALLIES + 1

    # The player is told, builds a deck of the new cards from a list, sees it legal, and deals a sample hand.
    page.goto(f"{base}/contributions/")
    expect(page.locator("body")).to_contain_text("accepted")
    page.goto(f"{base}/decks/import/")
    page.select_option("select[name=game]", "shadowera")
    page.fill("input[name=name]", "Zyx Test Deck")
    decklist = "Hero:\n1 Zyx Test Hero\nDeck:\n" + "".join(f"4 Zyx Test Ally {index:02d}\n" for index in range(ALLIES))
    page.fill("textarea[name=text]", decklist)
    page.click("form.stacked-form button.primary")
    page.wait_for_url(re.compile(r"/decks/\d+/$"))
    expect(page.locator("#deck-verdict")).to_have_class(re.compile("verdict-legal"))
    page.click("a.goldfish-link")
    page.wait_for_url(re.compile(r"/goldfish/"))
    expect(page.locator("#gf-zone-hand li.gf-card")).to_have_count(6)  # Shadow Era deals six
    page.click("#goldfish-next")
    expect(page.locator("#goldfish")).to_have_attribute("data-turn", "1")
    player_context.close()
