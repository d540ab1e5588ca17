"""The seated エンドブレイカー！SCG game page on a phone, as a player meets it: a game in progress (asked which
card to gain) and a finished game, both played with a deck's assumed values. Each must fit 390 px without
sideways scroll, keep its header to a quarter of the screen and show axe-core no serious or critical violation
(colour contrast of the gain buttons included), in Japanese and English. Synthetic cards only (the gappy pool
of tests/fixtures/simulator.py: the seed's gaps, filled by assumptions)."""

from __future__ import annotations

import pytest

from simulator.assumptions import services as assumptions
from simulator.models import SeatedGame

from .support.browser import signed_in_phone
from .support.phone import AXE, TEXT_LINES, phone_problems
from .support.table_decks import JOBS, NINE, table_deck
from .users import make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAY = "/simulator/games/endbreaker/play/"


def _assume_every_missing_value(owner, deck) -> None:
    """What a player does with the seed's cards only: four assumed scenario cards, then every missing value."""
    scenarios = assumptions.add_assumed_cards(owner, deck, "scenario", 4)
    assumptions.fill_every(owner, deck, [(key, "at") for key in (*NINE, *JOBS)], "2", "at")
    assumptions.fill_every(owner, deck, [(key, "cost") for key in scenarios], "PT", "cost")
    assumptions.fill_every(owner, deck, [(key, "payout") for key in scenarios], "2", "payout")


def _answered_until(seated: SeatedGame, fullgame, kind: str | None) -> None:
    """Answer the game's choices on the server until it asks ``kind`` (None: to the end): play and resolve what
    the game offers, gaining whenever it may."""
    from simulator.seated.selectors import advanced

    for _ in range(2000):
        pending = advanced(seated, fullgame).pending
        if pending is None or pending.kind == kind:
            break
        options = pending.options
        if kind is None:
            seated.answers.append("resolve" if "resolve" in options else options[0])
        else:
            seated.answers.append("gain" if "gain" in options else options[0])
    seated.save()


@pytest.mark.parametrize("language", ["ja-JP", "en-US"])
def test_the_seated_game_in_progress_and_over_fits_a_phone_and_passes_axe(gappy_pool, live_server, browser, language):
    from simulator.shared.selectors import fullgame_or_404

    owner = make_user("seated-phone")
    deck = table_deck(owner, "テスト卓", NINE)
    _assume_every_missing_value(owner, deck)
    page = signed_in_phone(browser, live_server.url, owner.username, language)
    axe_source = AXE.read_text(encoding="utf-8")
    problems: dict[str, list[str]] = {}
    try:
        page.goto(f"{live_server.url}{PLAY}?deck={deck.pk}")
        page.select_option("select[name=seat1]", "person")
        page.select_option("select[name=deck]", str(deck.pk))
        page.click("form.stacked-form button[type=submit]")
        page.wait_for_url(f"{live_server.url}{PLAY}*/")
        seated = SeatedGame.objects.get()
        assert seated.assumptions, "the game was not played with the deck's assumed values"
        seated.seed = 11  # a game that reaches its third battle
        seated.save()
        _game, fullgame = fullgame_or_404("endbreaker")
        for what, kind in (("asked which card to gain", "gain"), ("the game over", None)):
            _answered_until(seated, fullgame, kind)
            page.goto(f"{live_server.url}{PLAY}{seated.pk}/")
            page.wait_for_load_state("networkidle")
            shown = page.locator("#choice").get_attribute("data-kind") if kind else None
            assert shown == kind and page.locator("#game-over").count() == (kind is None), what
            if language == "ja-JP":  # the log's events break only between words (スキル/変更 did)
                labels = page.evaluate(TEXT_LINES, ".seated-log td.event-kind")
                found = [f"{text} on {lines} lines" for text, lines in labels if lines > 1 and " " not in text]
                if found or not labels:
                    problems[f"{what}, the log"] = found or ["no event in the log"]
            if found := phone_problems(page, axe_source):
                problems[what] = found
    finally:
        page.context.close()
    assert problems == {}, "\n".join(f"{what}: {found}" for what, found in problems.items())
