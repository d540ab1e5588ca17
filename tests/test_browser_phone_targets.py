"""Every control a player taps on a phone (390 × 844) is a target of at least 24 × 24 CSS px, WCAG 2.2's minimum
target size (2.5.8): the inputs, lists, text boxes, buttons and folding summaries, and every link that is not a
few words inside a sentence (WCAG exempts those: their size is the line's). Seen on a phone: the card search's
sort list was about 20 px tall. Checked in Japanese and English on the main pages a player uses, signed in as the
owner of a synthetic deck. Synthetic cards only."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import override_settings

from cards.models import Card
from community import services as community_services
from community.selectors import PAGE_SIZE
from decks.models import Deck

from .support.browser import signed_in_phone
from .support.goldfish import make_deck
from .support.phone import SMALL_TARGETS
from .support.tasks import IMMEDIATE
from .synthetic_decks import load_synthetic_cards
from .users import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

READERS = {"ja": "ja-JP", "en": "en-US"}


def _pages(deck: Deck) -> list[tuple[str, str]]:
    """(what, address) of the pages a player uses most."""
    card = Card.objects.filter(game__slug="suikoden").order_by("pk").first()
    assert card is not None
    return [
        ("home", "/"),
        ("a game", "/games/suikoden/"),
        ("search results", "/search/?q=テスト"),
        ("a card", f"/games/suikoden/cards/{card.key}/"),
        ("the builder", f"/decks/{deck.pk}/edit/"),
        ("a deck", f"/decks/{deck.pk}/"),
        ("the goldfish hand", f"/simulator/decks/{deck.pk}/goldfish/?seed=7&turn=3"),
        ("odds, with a group's chips", f"/simulator/decks/{deck.pk}/odds/calculate/?group_a=901&a=1&b=0&turn=3"),
        ("published decks, with their pages", "/community/decks/published/"),
        ("my decks", "/decks/"),
        ("add a card", "/contributions/games/suikoden/contribute/"),
    ]


@pytest.mark.parametrize("language", READERS)
@override_settings(TASKS=IMMEDIATE)
def test_every_control_is_big_enough_to_tap_on_a_phone(live_server, browser, language):
    from cards.services import sync_games

    sync_games()
    load_synthetic_cards()
    owner = get_user_model().objects.create_user("tapping-owner", password=PASSWORD)
    deck = make_deck("suikoden", owner, visibility=Deck.Visibility.PRIVATE)
    for number in range(PAGE_SIZE + 1):  # a second page of published decks: the list shows its page links
        community_services.publish(make_deck("suikoden", owner), user=owner, title=f"テスト公開デッキ{number}")

    page = signed_in_phone(browser, live_server.url, owner.username, READERS[language])
    problems: dict[str, list[str]] = {}
    try:
        for what, path in _pages(deck):
            page.goto(live_server.url + path)
            page.wait_for_load_state("networkidle")
            assert page.locator("main").count() == 1, f"{what}: {path} did not open"
            small = page.evaluate(SMALL_TARGETS)
            if what.startswith("odds"):
                assert page.locator(".chip-remove").count(), "no chip on the odds page"
            if what.startswith("published"):
                assert page.locator(".pagination a").count(), "no page links on the published decks"
            if small:
                problems[what] = small
        page.goto(live_server.url + "/")
        page.click(".site-menu-button")  # the folded menu: the games, the account's links, the language list
        in_menu = [target for target in page.evaluate(SMALL_TARGETS) if target not in problems.get("home", [])]
        if in_menu:
            problems["the opened menu"] = in_menu
    finally:
        page.context.close()
    assert problems == {}, "targets under 24 × 24 px:\n" + "\n".join(
        f"{what}: {', '.join(small)}" for what, small in problems.items()
    )
