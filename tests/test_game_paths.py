"""A path out of every game, even one whose database holds almost nothing: what a player can do there today,
how complete the game is against its known size, and where to help. Synthetic cards only; runs alike on
SQLite and PostgreSQL."""

from __future__ import annotations

import pytest

from cards.gamedefs import all_games

from .support.html import UI_LANGUAGES, get, parse, squash

SLUGS = [game.slug for game in all_games()]


def _status(client, url: str, language: str = "en"):
    client.cookies["django_language"] = language
    page = parse(get(client, url))
    return page.find("section", cls="game-status")


def test_an_empty_game_says_no_legal_deck_is_possible_and_counts_heroes_against_the_wiki(seeded_db, client):
    status = _status(client, "/games/shadowera/")
    text = squash(status.text)
    assert "Hero: 0 of 32 known" in text
    assert "Ally: 0 of 403 known" in text
    assert "shadowera.com wiki" in text
    blocked = [squash(node.text) for node in status.find_all("li", cls="ability-blocked")]
    assert any(line.startswith("Build a legal deck") for line in blocked), blocked
    hrefs = {node.attrs["href"] for node in status.find_all("a")}
    assert "/games/shadowera/missing/" in hrefs
    assert "/contributions/games/shadowera/contribute/bulk/" in hrefs
    assert "/contributions/games/shadowera/contribute/?kind=hero" in hrefs


def test_a_game_without_a_known_size_says_unknown_never_a_guess(seeded_db, client):
    text = squash(_status(client, "/games/epicbattles/").text)
    assert "the total is unknown" in text


@pytest.mark.parametrize("language", UI_LANGUAGES)
def test_the_home_page_shows_every_games_path_in_the_readers_language(seeded_db, client, language):
    client.cookies["django_language"] = language
    page = parse(get(client, "/"))
    statuses = page.find_all("section", cls="game-status")
    assert len(statuses) == len(SLUGS)
    heading = squash(statuses[0].find("h3").text)
    assert heading == {"ja": "今日できること", "zh-hant": "今天可以做的事", "en": "What you can do today"}[language]


def test_a_card_address_no_card_holds_offers_search_and_the_form_with_its_number(seeded_db, client):
    client.cookies["django_language"] = "en"
    response = get(client, "/games/endbreaker/cards/EB1-033/", status=404)
    page = parse(response)
    hrefs = {node.attrs["href"] for node in page.find("section", cls="card-not-found").find_all("a")}
    assert "/contributions/games/endbreaker/contribute/?number=EB1-033" in hrefs
    assert "/search/?q=EB1-033&game=endbreaker" in hrefs
    assert "EB1-033" in squash(page.find("h1").parent.text)


def test_a_card_address_by_its_printed_number_leads_to_the_card(db, client):
    from .support.missing_cards import import_cards, synthetic

    import_cards("suikoden", synthetic("suikoden", "テスト砦", number="901"))
    response = client.get("/games/suikoden/cards/901/")
    assert response.status_code == 302
    assert response["Location"] == "/games/suikoden/cards/%E3%83%86%E3%82%B9%E3%83%88%E7%A0%A6/"


def test_a_deck_that_fails_because_the_game_lacks_cards_says_so_and_links_the_gaps(seeded_db, client):
    from decks.models import Deck

    from .users import make_user

    owner = make_user()
    client.force_login(owner)
    client.cookies["django_language"] = "en"
    response = client.post("/decks/new/", {"game": "shadowera", "name": "Test deck", "mode": "default"})
    deck = Deck.objects.get()
    assert response.status_code == 302
    verdict = parse(get(client, f"/decks/{deck.pk}/edit/")).find("section", id="deck-verdict")
    gaps = verdict.find("ul", cls="database-gaps")
    assert "This game's database holds no Hero card yet" in squash(gaps.text)
    hrefs = {node.attrs["href"] for node in gaps.find_all("a")}
    assert {"/games/shadowera/missing/", "/contributions/games/shadowera/contribute/?kind=hero"} <= hrefs
