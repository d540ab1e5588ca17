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


PLACEHOLDER_GAMES = ["shadowera", "suikoden", "epicbattles"]  # their decks may hold placeholder cards
POSSIBLE_WITH_PLACEHOLDERS = {
    "ja": "仮カードを使えばできます",
    "zh-hant": "用暫代卡就可以",
    "en": "possible with placeholder cards",
}


def _abilities(status) -> dict[str, object]:
    """Each ability of a game's status by the words it starts with (its name)."""
    items = [node for node in status.find("ul", cls="game-abilities").children if not isinstance(node, str)]
    return {squash(next(child for child in item.children if not isinstance(child, str)).text): item for item in items}


@pytest.mark.parametrize("slug", PLACEHOLDER_GAMES)
def test_a_thin_game_can_be_goldfished_with_placeholder_cards_though_no_legal_deck_of_real_cards(
    seeded_db, client, slug
):
    abilities = _abilities(_status(client, f"/games/{slug}/"))
    goldfish = abilities["Goldfish a deck: draw opening hands, see the odds"]
    assert "ability-with-placeholders" in goldfish.classes
    assert "possible with placeholder cards" in squash(goldfish.text)
    assert "not possible yet" not in squash(goldfish.text)
    builder = goldfish.find("p", cls="ability-how").find("a")
    assert squash(builder.text) == "Make a deck and add placeholder cards in its builder"
    assert builder.attrs["href"] == f"/decks/new/?game={slug}"
    # A legal deck of real cards stays out of reach, with why and where the missing cards are mapped.
    legal = abilities["Build a legal deck"]
    assert "ability-blocked" in legal.classes
    assert "not possible yet" in squash(legal.text)
    assert f"/games/{slug}/missing/" in {node.attrs["href"] for node in legal.find_all("a")}


def test_a_goldfish_with_placeholders_lists_only_the_stored_cards_unknown_values(seeded_db, client):
    # Shadow Era stores no ally: a placeholder ally states its attack, so "no Ally card is known, so no Attack"
    # would be untrue of the goldfish a player can run; the stored cards' unknown cost still counts.
    goldfish = _abilities(_status(client, "/games/shadowera/"))["Goldfish a deck: draw opening hands, see the odds"]
    gaps = [squash(node.text) for node in goldfish.find_all("li", cls="gap")]
    assert gaps and all(gap.startswith("Goldfish: Cost is unknown on") for gap in gaps), gaps


def test_a_game_whose_decks_hold_no_placeholders_cannot_be_goldfished_before_a_legal_deck(seeded_db):
    from cards.missing import presentation, selectors
    from cards.models import Game

    game = Game.objects.get(slug="shadowera")
    status = presentation.game_status(
        game, selectors.missing_map(game), "en", has_engine=True, has_fullgame=False, has_placeholders=False
    )
    goldfish = status.abilities[2]
    assert (goldfish.possible, goldfish.state, goldfish.how) == (False, "not possible yet", None)
    assert goldfish.why_not == status.abilities[1].why_not  # the shortfalls of a legal deck


@pytest.mark.parametrize("language", UI_LANGUAGES)
def test_the_home_page_says_each_thin_game_can_be_goldfished_with_placeholders(seeded_db, client, language):
    client.cookies["django_language"] = language
    page = parse(get(client, "/"))
    for slug in PLACEHOLDER_GAMES:
        card = next(node for node in page.find_all("li", cls="game-card") if node.find_all("a", href=f"/games/{slug}/"))
        goldfish = card.find("li", cls="ability-with-placeholders")
        assert POSSIBLE_WITH_PLACEHOLDERS[language] in squash(goldfish.text)
        assert goldfish.find("p", cls="ability-how").find("a").attrs["href"] == f"/decks/new/?game={slug}"
    endbreaker = next(
        node for node in page.find_all("li", cls="game-card") if node.find_all("a", href="/games/endbreaker/")
    )
    assert not endbreaker.find_all("li", cls="ability-with-placeholders")  # its decks are choices of real piles


POSSIBLE_WITH_ASSUMPTIONS = {
    "ja": "想定値を決めればできます",
    "zh-hant": "設定假設值就可以",
    "zh-hans": "设定假设值就可以",
    "en": "possible with your assumed values",
}


@pytest.mark.parametrize("language", UI_LANGUAGES)
def test_whole_games_are_possible_with_assumed_values_where_only_card_values_are_unknown(seeded_db, client, language):
    # The seed's エンドブレイカー！SCG lacks skills, costs and AT the whole game reads: a deck plays it on the values
    # its player assumes, so the game page says how, and still lists what the database lacks.
    status = _status(client, "/games/endbreaker/", language)
    whole = status.find_all("li", cls="ability-possible")[-1]
    text = squash(whole.text)
    assert POSSIBLE_WITH_ASSUMPTIONS[language] in text
    assert whole.find("a").attrs["href"] == "/simulator/games/endbreaker/play/"
    assert whole.find("p", cls="ability-how").find("a").attrs["href"] == "/decks/new/?game=endbreaker"
    assert whole.find_all("li", cls="gap")  # the values the database lacks, each linked to its gap


def test_whole_games_are_not_possible_before_a_legal_deck(seeded_db):
    from cards.missing import presentation, selectors
    from cards.models import Game

    game = Game.objects.get(slug="shadowera")  # no legal deck: assumed values cannot stand in for missing cards
    status = presentation.game_status(game, selectors.missing_map(game), "en", has_engine=True, has_fullgame=True)
    whole = status.abilities[-1]
    assert (whole.possible, whole.state, whole.how) == (False, "not possible yet", None)
    assert whole.why_not == status.abilities[1].why_not
