"""In a real browser, a newcomer's path out of each game whose database cannot yet make a legal deck: from the
home page, to learning what is missing, to adding the missing cards through the game's bulk sheet (downloaded,
filled in with kinds by their names, pasted back), to a legal deck imported from a list and a goldfish hand.

Every card added is synthetic (names "Zyx Test …", "ゼット…"). The seed cards are loaded first, as the site ships
them. Playwright drives Debian's Chromium, as the other browser tests do (tests/conftest.py).
"""

from __future__ import annotations

import csv
import io
import re

import pytest

from .users import PASSWORD, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _shadowera() -> tuple[list[dict[str, str]], str]:
    hero = {"kind": "ヒーロー", "field:faction": "Human", "field:class": "warrior", "field:health": "30"}
    rows = [{"key": "Zyx Test Hero", "name:en": "Zyx Test Hero", **hero}]
    ally = {"kind": "Ally", "field:cost": "2", "field:faction": "human", "field:class": "Warrior"}
    ally |= {"field:attack": "2", "field:health": "3"}
    rows += [{"key": f"Zyx Test Ally {n:02d}", "name:en": f"Zyx Test Ally {n:02d}", **ally} for n in range(10)]
    decklist = "Hero:\n1 Zyx Test Hero\nDeck:\n" + "".join(f"4 Zyx Test Ally {n:02d}\n" for n in range(10))
    return rows, decklist


def _suikoden() -> tuple[list[dict[str, str]], str]:
    character = {"kind": "人物", "field:colour": "白", "field:cost": "白1", "field:attack": "3", "field:defense": "2"}
    rows = [{"key": f"ゼット人物{n:02d}", "name:ja": f"ゼット人物{n:02d}", **character} for n in range(40)]
    land = {"kind": "土地", "field:value": "2", "field:leader": "1", "field:land_type": "山"}
    rows += [{"key": f"ゼット土地{n}", "name:ja": f"ゼット土地{n}", **land} for n in (1, 2)]
    decklist = (
        "人物：\n" + "".join(f"1 ゼット人物{n:02d}\n" for n in range(40)) + "土地：\n2 ゼット土地1\n2 ゼット土地2\n"
    )
    return rows, decklist


def _epicbattles() -> tuple[list[dict[str, str]], str]:
    rows = [{"key": "Zyx Test Fighter", "name:en": "Zyx Test Fighter", "kind": "角色", "field:franchise": "Tekken"}]
    attack = {"kind": "アタック", "field:position": "上段", "field:trait": "Punch", "field:damage": "2"}
    attack |= {"field:cost": "1", "field:character": "none", "field:side_deck_only": "no"}
    rows += [{"key": f"Zyx Test Strike {n:02d}", "name:en": f"Zyx Test Strike {n:02d}", **attack} for n in range(15)]
    counts = [4] * 14 + [3]  # 59 cards
    decklist = "Character:\n1 Zyx Test Fighter\nDeck:\n" + "".join(
        f"{count} Zyx Test Strike {n:02d}\n" for n, count in enumerate(counts)
    )
    return rows, decklist


def _endbreaker() -> tuple[list[dict[str, str]], str]:
    # A legal deck is possible from the seed; its abilities lack the values the goldfish reads. Nine synthetic
    # abilities with every value, beside the job piles the rules name (seed cards).
    ability = {"kind": "アビリティ", "field:cost": "PT", "field:skill": "P", "field:at": "1", "field:attribute": "P"}
    rows = [
        {"key": f"EB9-{900 + n}", "number": f"EB9-{900 + n}", "name:ja": f"ゼット技{n}", **ability} for n in range(9)
    ]
    decklist = "サプライ：\n" + "".join(f"1 EB9-{900 + n}\n" for n in range(9))
    decklist += "ジョブの山：\n1 魔獣戦士\n1 スカイランナー\n1 デモニスタ\n"
    return rows, decklist


PATHS = {"endbreaker": _endbreaker, "shadowera": _shadowera, "suikoden": _suikoden, "epicbattles": _epicbattles}
# Where the seed alone makes no legal deck (games.md: no public card list): the path starts there.
NO_LEGAL_DECK = {"shadowera", "suikoden", "epicbattles"}


def _filled_sheet(sheet: str, rows: list[dict[str, str]], game: str) -> str:
    """The downloaded sheet with the new cards' rows added under it, as a player fills it in."""
    lines = list(csv.reader(io.StringIO(sheet.lstrip("\ufeff"))))
    header = lines[0]
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerows(lines)
    for row in rows:
        writer.writerow([game if column == "game" else row.get(column, "") for column in header])
    return out.getvalue()


@pytest.mark.parametrize("slug", sorted(PATHS))
def test_a_newcomer_goes_from_the_home_page_to_a_legal_deck_and_a_goldfish_hand(live_server, browser, slug):
    from django.core.management import call_command
    from playwright.sync_api import expect

    from cards.models import Game
    from contributions.models import GameRole

    call_command("loadcards", verbosity=0)
    player = make_user("zyx-newcomer")
    GameRole.objects.create(user=player, game=Game.objects.get(slug=slug), role=GameRole.Role.TRUSTED)
    rows, decklist = PATHS[slug]()
    base = live_server.url
    page = browser.new_context(locale="en-US").new_page()

    # The home page says, per game, what a player can do there today and what not yet.
    page.goto(f"{base}/")
    card = page.locator("li.game-card", has=page.locator(f"a[href='/games/{slug}/']"))
    if slug in NO_LEGAL_DECK:
        expect(card.locator("li.ability-blocked").first).to_contain_text("Build a legal deck")
    else:  # whole games are played on the values a player assumes where the database lacks them
        expect(card.locator("li.ability-possible", has_text="Play whole games")).to_contain_text(
            "possible with your assumed values"
        )
    card.locator(f"h2 a[href='/games/{slug}/']").click()

    # The game's page counts what it holds against its known size and leads to the map of what is missing.
    status = page.locator("section.game-status")
    if slug in NO_LEGAL_DECK:
        expect(status.locator("li.ability-blocked").first).to_contain_text("not possible yet")
        # Placeholder cards stand in for the cards the database lacks: a deck of them can be goldfished already.
        goldfish = status.locator("li.ability-with-placeholders")
        expect(goldfish).to_contain_text("Goldfish a deck")
        expect(goldfish).to_contain_text("possible with placeholder cards")
        expect(goldfish.locator("p.ability-how a")).to_have_attribute("href", f"/decks/new/?game={slug}")
    expect(status.locator("ul.game-totals")).to_contain_text("known")
    status.locator("a", has_text="The map of what is missing").click()
    gap = "No deck can be legal" if slug in NO_LEGAL_DECK else "is unknown on"
    expect(page.locator("section.missing-blocks")).to_contain_text(gap)

    # Log in, then fill in the game's bulk sheet and paste it back.
    page.goto(f"{base}/accounts/login/?next=/games/{slug}/")
    page.fill("input[name=username]", "zyx-newcomer")
    page.fill("input[name=password]", PASSWORD)
    page.click("form.stacked-form button[type=submit]")
    page.wait_for_url(f"{base}/games/{slug}/")
    page.locator("section.game-status a", has_text="bulk sheet").click()
    sheet_url = page.locator("a.bulk-sheet").get_attribute("href")
    sheet = page.request.get(f"{base}{sheet_url}").text()
    page.fill("textarea[name=text]", _filled_sheet(sheet, rows, slug))
    page.check("input[name=source_kind][value=own_copy]")
    page.click("button[name=action][value=preview]")
    expect(page.locator(".bulk-preview .counts")).to_contain_text(f"New cards: {len(rows)}")
    page.click("button[name=action][value=submit]")
    page.wait_for_url(re.compile(r"/contributions/\d+/$"))

    # The game's page now offers a legal deck; a list makes one, and the goldfish deals a hand from it.
    page.goto(f"{base}/games/{slug}/")
    expect(page.locator("section.game-status li.ability-possible", has_text="Build a legal deck")).to_have_count(1)
    page.goto(f"{base}/decks/import/?game={slug}")
    page.fill("input[name=name]", "Zyx newcomer deck")
    page.fill("textarea[name=text]", decklist)
    page.click("form#decklist-form button.primary")
    page.wait_for_url(re.compile(r"/decks/\d+/$"))
    expect(page.locator("#deck-verdict")).to_have_class(re.compile("verdict-legal"))
    page.click("a.goldfish-link")
    page.wait_for_url(re.compile(r"/goldfish/"))
    expect(page.locator("#gf-zone-hand li.gf-card").first).to_be_visible()
