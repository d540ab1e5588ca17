"""The map of what is missing, a card's completeness and ``is:incomplete``, as a reader meets them.

Every card here is clearly synthetic (テスト…, Test …, numbers EB1-0xx only where a run of numbers is
what is tested). Runs alike on SQLite and PostgreSQL.
"""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from cards import gamedefs
from cards.gamedefs.base import CardTotal
from cards.missing import selectors as missing_selectors
from cards.models import Game, SearchDocument
from cards.search.selectors import prepare_search
from cards.search.tokens import INCOMPLETE, facet_token
from cardsite import checks
from decks import rules as deck_rules
from simulator import engines
from simulator.core import CardNeed

from .support.checks import ids, with_engine
from .support.html import UI_LANGUAGES, get, parse, squash
from .support.missing_cards import SYNTHETIC_VALUES, import_cards, synthetic
from .users import make_user


def search_keys(query: str) -> set[str]:
    outcome = prepare_search(query, "en")
    assert outcome.error is None, outcome.error
    return {card.key for card in outcome.cards}


def missing_page(client, game: str, language: str = "en"):
    client.cookies["django_language"] = language
    return parse(get(client, f"/games/{game}/missing/"))


def gap_texts(page, section_id: str) -> list[str]:
    section = page.find("section", aria_labelledby=section_id)
    return [squash(node.text) for node in section.find_all("li", cls="gap")]


# --- a card's completeness (plain Python, every game) -----------------------------------------------


@pytest.mark.parametrize("definition", gamedefs.all_games(), ids=lambda definition: definition.slug)
def test_a_card_with_every_value_and_text_is_complete_and_each_gap_is_named(definition):
    kind, values = SYNTHETIC_VALUES[definition.slug]
    whole = definition.completeness(definition.check_values(kind, values), definition.text_languages)
    assert whole.complete and whole.expected == 1 + len(definition.kind(kind).fields)

    dropped = next(iter(values))
    values = {name: value for name, value in values.items() if name != dropped}
    partial = definition.completeness(definition.check_values(kind, values), definition.text_languages[:1])
    assert partial.unknown == (dropped,)
    assert partial.missing_languages == definition.text_languages[1:]
    assert not partial.complete


def test_an_invalid_value_is_unknown_as_on_the_card_page():
    definition = gamedefs.get_game("endbreaker")
    checked = definition.check_values("ability", {"cost": "PT", "skill": "P", "at": "strong", "attribute": "P"})
    assert definition.completeness(checked, ("ja", "zh-hant")).unknown == ("at",)


def test_a_card_of_unknown_kind_misses_its_kind_and_counts_only_the_values_it_has():
    definition = gamedefs.get_game("shadowera")
    completeness = definition.completeness(definition.check_values(None, {"cost": 2}), ("en", "ja", "zh-hant"))
    assert completeness.unknown == ("kind",) and completeness.known == ("cost",)


# --- the card page --------------------------------------------------------------------------------


@pytest.mark.parametrize("language", UI_LANGUAGES)
def test_the_card_page_says_how_complete_the_card_is_and_links_each_gap(db, client, language):
    import_cards("endbreaker", synthetic("endbreaker", "テスト欠け", drop=("at", "skill"), languages=("ja",)))
    client.cookies["django_language"] = language
    page = parse(get(client, "/games/endbreaker/cards/テスト欠け/"))
    box = page.find("section", cls="completeness")
    summary = squash(box.find(cls="completeness-summary").text)
    assert "3" in summary and "5" in summary  # kind, cost and attribute of kind, cost, skill, AT, attribute
    if language == "en":
        assert summary == "3 of 5 values known"
    links = {squash(link.text): link.attrs["href"] for link in box.find_all("a")}
    # Each gap links to the card's contribution form, at the value or the language to fill.
    assert links["AT" if language != "ja" else "ＡＴ"].endswith(
        "/contributions/games/endbreaker/cards/%E3%83%86%E3%82%B9%E3%83%88%E6%AC%A0%E3%81%91/edit/#id_field_at"
    )
    assert any(href.endswith("/edit/#text-zh-hant") for href in links.values())
    client.force_login(make_user("contributor"))
    form = parse(get(client, "/contributions/games/endbreaker/cards/テスト欠け/edit/"))
    assert form.find(id="id_field_at") and form.find(id="text-zh-hant")  # the targets are on the form


def test_a_complete_card_says_so(db, client):
    import_cards("suikoden", synthetic("suikoden", "テスト完全"))
    client.cookies["django_language"] = "en"
    box = parse(get(client, "/games/suikoden/cards/テスト完全/")).find("section", cls="completeness")
    assert "complete" in box.classes
    assert squash(box.find(cls="completeness-summary").text) == "8 of 8 values known"
    assert not box.find_all(cls="completeness-unknown")


# --- is:incomplete --------------------------------------------------------------------------------


def test_is_incomplete_finds_cards_with_an_unknown_value_or_a_missing_text(db):
    import_cards(
        "suikoden",
        synthetic("suikoden", "テスト完全"),
        synthetic("suikoden", "テスト値なし", drop=("leader",)),
        synthetic("suikoden", "テスト訳なし", languages=("ja",)),
    )
    import_cards("epicbattles", synthetic("epicbattles", "Test Whole"))
    assert search_keys("is:incomplete") == {"テスト値なし", "テスト訳なし"}
    assert search_keys("-is:incomplete") == {"テスト完全", "Test Whole"}
    assert search_keys("is:complete game:suikoden") == {"テスト完全"}
    assert search_keys("is:incomplete -has:leader") == {"テスト値なし"}


def test_filling_the_gap_takes_the_card_out_of_is_incomplete_and_moves_the_map(db):
    import_cards("suikoden", synthetic("suikoden", "テスト値なし", drop=("leader",)))
    game = Game.objects.get(slug="suikoden")
    assert search_keys("is:incomplete") == {"テスト値なし"}
    before = missing_selectors.game_gaps(game)
    assert before.incomplete == 1 and before.unknown("land", "leader") == 1

    import_cards("suikoden", synthetic("suikoden", "テスト値なし"))
    assert search_keys("is:incomplete") == set()
    after = missing_selectors.game_gaps(game)
    assert after.incomplete == 0 and after.unknown("land", "leader") == 0


def test_an_unknown_is_value_names_incomplete_among_the_choices(db):
    outcome = prepare_search("is:missing", "en")
    assert outcome.error_code == "unknown_is" and "is:incomplete" in outcome.error


# --- the map of a game ----------------------------------------------------------------------------


def test_the_game_page_links_to_its_map(db, client):
    import_cards("endbreaker", synthetic("endbreaker", "テスト一"))
    client.cookies["django_language"] = "en"
    links = [a.attrs["href"] for a in parse(get(client, "/games/endbreaker/")).find_all("a")]
    assert "/games/endbreaker/missing/" in links


def test_the_map_counts_known_against_expected_and_lists_numbers_never_seen(db, client):
    import_cards(
        "endbreaker",
        synthetic("endbreaker", "EB1-001", number="EB1-001"),
        synthetic("endbreaker", "EB1-003", number="EB1-003", drop=("at",)),
        synthetic("endbreaker", "EB1-059", number="EB1-059"),
    )
    page = missing_page(client, "endbreaker")
    totals = gap_texts(page, "missing-cards")
    assert totals[0].startswith("All cards: 3 of 65 known")
    assert "groupsne.co.jp" in totals[0]  # the source of the total
    numbers = page.find(cls="number-gaps")
    assert squash(numbers.find("p").text) == "56 numbers from EB1-001 to EB1-059 have no card"
    listed = {squash(a.text): a.attrs["href"] for a in numbers.find_all("a")}
    assert "EB1-002" in listed and "EB1-001" not in listed and "EB1-003" not in listed
    target = urlsplit(listed["EB1-002"])
    assert target.path == "/contributions/games/endbreaker/contribute/" and parse_qs(target.query)["number"] == [
        "EB1-002"
    ]
    client.force_login(make_user("contributor"))
    form = get(client, listed["EB1-002"])
    assert 'name="number" value="EB1-002"' in form.content.decode()  # the new card's form, its number filled in


def test_a_game_without_a_known_total_says_so(db, client):
    import_cards("epicbattles", synthetic("epicbattles", "Test Fighter"))
    page = missing_page(client, "epicbattles")
    assert gap_texts(page, "missing-cards")[0] == (
        "All cards: 1 known; the total is unknown (no source gives it) Add a card"
    )
    assert "No source says which card numbers exist" in squash(page.text)


def test_the_map_counts_unknown_values_by_field_and_links_the_cards(db, client):
    import_cards(
        "suikoden",
        synthetic("suikoden", "テスト甲", drop=("leader", "hunting")),
        synthetic("suikoden", "テスト乙", drop=("leader",)),
        synthetic("suikoden", "テスト丙"),
    )
    page = missing_page(client, "suikoden")
    rows = gap_texts(page, "missing-values")
    assert "Leaders: unknown on 2 of 3 Show these cards" in rows
    assert "Hunting: unknown on 1 of 3 Show these cards" in rows
    assert "Value: unknown on 0 of 3" in rows
    section = page.find("section", aria_labelledby="missing-values")
    query = next(
        parse_qs(urlsplit(a.attrs["href"]).query)["q"][0] for a in section.find_all("a") if "leader" in a.attrs["href"]
    )
    assert search_keys(query) == {"テスト甲", "テスト乙"}  # the link lists exactly the cards concerned


def test_a_card_with_several_values_of_a_list_field_counts_once(db):
    two = synthetic("shadowera", "Test Hero Two")
    two["fields"]["class"] = ["warrior", "mage"]
    import_cards("shadowera", two, synthetic("shadowera", "Test Hero One"))
    gaps = missing_selectors.game_gaps(Game.objects.get(slug="shadowera"))
    assert gaps.known(("hero",), "class") == (2, 2) and gaps.unknown("hero", "class") == 0


def test_the_map_counts_cards_without_a_text_in_each_language_of_the_game(db, client):
    import_cards(
        "shadowera",
        synthetic("shadowera", "Test Hero A", languages=("en",)),
        synthetic("shadowera", "Test Hero B", languages=("en", "ja")),
    )
    rows = gap_texts(missing_page(client, "shadowera"), "missing-texts")
    assert rows == [
        "Without a text in English (the original): 0",
        "Without a text in Japanese (a translation): 1 Show these cards",
        "Without a text in Traditional Chinese (a translation): 2 Show these cards",
    ]
    assert search_keys("game:shadowera -lang:zh-hant") == {"Test Hero A", "Test Hero B"}


def test_the_map_says_what_each_gap_blocks_from_the_games_own_modules(db, client):
    # Shadow Era with an ally and no hero: the deck rules need one hero; the goldfish reads the ally's attack.
    ally = synthetic("shadowera", "Test Ally", kind="ally")
    ally["fields"] = {"cost": 2, "faction": "human", "class": ["warrior"]}
    import_cards("shadowera", ally)
    blocks = gap_texts(missing_page(client, "shadowera"), "missing-blocks")
    assert any(
        text.startswith("No deck can be legal: “Exactly one hero” takes at least 1 different Hero card in Hero")
        and "known: 0" in text
        for text in blocks
    ), blocks
    assert any(
        text.startswith("Goldfish: Attack is unknown on 1 of 1 Ally cards — those allies deal no damage")
        for text in blocks
    ), blocks
    assert not any(text.startswith("Deck check: Faction") for text in blocks)  # the ally's faction is known

    # Epic Battles without attack cards: the goldfish deals nothing.
    import_cards("epicbattles", synthetic("epicbattles", "Test Fighter"))
    blocks = gap_texts(missing_page(client, "epicbattles"), "missing-blocks")
    assert any(
        text.startswith("Goldfish: no Attack card is known, so no Damage either — the goldfish deals no damage")
        for text in blocks
    ), blocks


def test_the_map_leaves_out_what_nothing_blocks(db, client):
    character = {"colour": "白", "cost": "白1", "attack": 3, "defense": 2, "intelligence": 1, "specialties": ["騎馬"]}
    cards = [synthetic("suikoden", f"テスト人物{n:02}", kind="character") for n in range(3)]
    for card in cards:
        card["fields"] = character
    import_cards("suikoden", *cards)
    blocks = gap_texts(missing_page(client, "suikoden"), "missing-blocks")
    assert any("40 different Character cards" in text and "known: 3" in text for text in blocks), blocks
    assert not any("Deck check" in text for text in blocks)  # every value the deck rules read is known
    assert not any("Cost is unknown" in text or "Attack is unknown" in text for text in blocks)


@pytest.mark.parametrize("language", ["ja", "zh-hant"])
def test_the_map_reads_in_the_readers_language(db, client, language):
    import_cards("endbreaker", synthetic("endbreaker", "テスト一", drop=("at",)))
    page = missing_page(client, "endbreaker", language)
    assert page.find("html").attrs["lang"] == language
    heading = squash(page.find("h1").text)
    assert heading and heading != "What is missing"
    assert "unknown on" not in squash(page.text)


def test_the_map_takes_the_same_queries_for_a_few_cards_or_many(db, client):
    game = Game.objects.get_or_create(slug="suikoden", defaults={"sort_order": 3})[0]
    import_cards("suikoden", *(synthetic("suikoden", f"テスト{n}", drop=("leader",)) for n in range(3)))
    with CaptureQueriesContext(connection) as few:
        missing_selectors.missing_map(game)
    import_cards("suikoden", *(synthetic("suikoden", f"テスト{n}", drop=("leader",)) for n in range(3, 60)))
    with CaptureQueriesContext(connection) as many:
        gaps = missing_selectors.missing_map(game)
    assert len(many) == len(few) <= 8
    assert gaps.cards == 60 and gaps.incomplete == 60


@pytest.mark.parametrize("slug", [game.slug for game in gamedefs.all_games()])
def test_every_game_has_a_map_page(db, client, slug):
    import_cards(slug, synthetic(slug, "テスト地図"))
    page = missing_page(client, slug)
    assert squash(page.find("h1").text) == "What is missing"


# --- the declarations the map reads, checked at start-up ------------------------------------------


def test_the_deck_rules_say_which_cards_no_legal_deck_can_do_without():
    needed = {(r.zone.slug, r.different) for r in deck_rules.get_rules("shadowera").card_requirements()}
    assert needed == {("hero", 1), ("deck", 10)}  # 40 with the hero, at most 4 copies: 10 different cards
    needed = {(r.zone.slug, r.different) for r in deck_rules.get_rules("suikoden").card_requirements()}
    assert ("characters", 40) in needed  # one box: one copy of each character


def test_an_engine_reading_a_field_its_cards_lack_is_refused(monkeypatch):
    engine = engines.get_engine("epicbattles")
    bad = CardNeed("health", ("attack",), {"ja": "なし", "zh-hant": "無", "en": "nothing"})
    with_engine(monkeypatch, "epicbattles", card_needs=(*engine.card_needs, bad))
    found = checks.games_fit_together()
    assert ids(found) == {"cardsite.E007"} and "health" in found[0].msg


def test_a_card_total_of_a_kind_the_game_lacks_is_refused(monkeypatch):
    import dataclasses

    definition = gamedefs.get_game("suikoden")
    changed = dataclasses.replace(
        definition, card_totals=(CardTotal(3, {"ja": "テスト", "zh-hant": "測試", "en": "test"}, kind="dragon"),)
    )
    registered = gamedefs.all_games()
    monkeypatch.setattr(gamedefs, "all_games", lambda: [changed if g.slug == "suikoden" else g for g in registered])
    assert ids(checks.games_fit_together()) == {"cardsite.E007"}


@pytest.mark.django_db(transaction=True)
def test_a_database_made_before_the_facet_finds_its_incomplete_cards_after_migrating():
    from django.db.migrations.executor import MigrationExecutor

    before, after = ("cards", "0010_revision_source_contribution"), ("cards", "0011_search_incomplete_facet")
    executor = MigrationExecutor(connection)
    try:
        import_cards("suikoden", synthetic("suikoden", "テスト値なし", drop=("leader",)))
        document = SearchDocument.objects.get(card__key="テスト値なし")
        document.document = document.document.replace(facet_token("is", INCOMPLETE), "")
        document.save()
        assert search_keys("is:incomplete") == set()  # as a document written before the facet
        executor.migrate([before])
        MigrationExecutor(connection).migrate([after])
        # the migrations after it (which the code reads) leave the search documents alone
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
        assert search_keys("is:incomplete") == {"テスト値なし"}
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_on_a_phone_the_map_fits_the_screen_and_leads_to_the_cards_and_their_gaps(live_server, browser):
    from django.core.management import call_command

    call_command("loadcards", verbosity=0)
    context = browser.new_context(locale="ja-JP", viewport={"width": 390, "height": 844}, is_mobile=True)
    page = context.new_page()
    try:
        for game in ("endbreaker", "shadowera", "suikoden", "epicbattles"):
            page.goto(f"{live_server.url}/games/{game}/")
            page.click(f"a[href='/games/{game}/missing/']")
            page.wait_for_url(f"**/games/{game}/missing/")
            assert page.evaluate("document.documentElement.scrollWidth") <= 390, game
        # endbreaker: the unknown AT of the abilities, listed by a search, each card showing what it lacks
        page.goto(f"{live_server.url}/games/endbreaker/missing/")
        page.locator("section[aria-labelledby=missing-values] a[href*='has%3Aat']").first.click()
        page.wait_for_url("**/search/?q=*")
        page.locator("#results a[href*='/games/endbreaker/cards/'], a[href*='/games/endbreaker/cards/']").first.click()
        page.wait_for_url("**/games/endbreaker/cards/**")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        href = page.locator("section.completeness a[href$='#id_field_at']").get_attribute("href")
        assert href.endswith("/edit/#id_field_at")  # the card's contribution form, at the value
    finally:
        context.close()
