"""The read-only REST API under /api/: games, glossaries, card search and detail, caching, schema and docs."""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from django.contrib.staticfiles import finders
from django.db import connection
from django.test import Client
from django.urls import reverse

from cards import selectors, services
from cards.gamedefs import all_games, get_game
from cards.importing import bundle_to_document
from cards.models import Card, Game, RuleSection, Term
from cards.search import selectors as search_selectors
from cards.search.selectors import prepare_search
from cards.selectors import SearchOutcome

pytestmark = pytest.mark.usefixtures("seeded_db")

PAGE_SIZE = 50


def get_json(client: Client, url: str, status: int = 200, **params: str) -> dict:
    response = client.get(url, params)
    assert response.status_code == status, response.content.decode()
    assert response["Content-Type"].startswith("application/json")
    return response.json()


def search(client: Client, q: str | None = None, status: int = 200, **params: str) -> dict:
    if q is not None:
        params["q"] = q
    return get_json(client, "/api/cards/", status, **params)


def keys(body: dict) -> list[str]:
    return [card["key"] for card in body["results"]]


def export_document(slug: str) -> dict:
    return bundle_to_document(selectors.export_bundle(Game.objects.get(slug=slug)))


def import_document(directory: Path, document: dict) -> None:
    path = directory / f"{document['game']}.json"
    path.write_text(json.dumps(document, ensure_ascii=False), encoding="utf-8")
    services.import_files([str(path)])


# --- games --------------------------------------------------------------------------------------


def test_game_list_has_every_game_with_counts_and_declarations(client):
    body = get_json(client, "/api/games/")
    assert [game["slug"] for game in body] == [definition.slug for definition in all_games()]
    counted = {game.slug: game for game in selectors.games_with_counts()}
    for game in body:
        definition = get_game(game["slug"])
        assert game["names"] == dict(definition.names)
        assert set(game["names"]) == {"ja", "zh-hant", "en"}
        assert game["card_count"] == counted[game["slug"]].card_count > 0
        assert game["translated_count"] == counted[game["slug"]].translated_count
        assert [kind["slug"] for kind in game["kinds"]] == [kind.slug for kind in definition.kinds]
        assert [field["name"] for field in game["fields"]] == [spec.name for spec in definition.fields]
        assert game["url"].endswith(f"/api/games/{game['slug']}/")


def test_game_list_declares_field_types_labels_and_units(client):
    suikoden = next(game for game in get_json(client, "/api/games/") if game["slug"] == "suikoden")
    fields = {field["name"]: field for field in suikoden["fields"]}
    assert fields["attack"]["type"] == "integer"
    assert fields["attack"]["labels"] == {"ja": "攻撃力", "zh-hant": "攻擊力", "en": "Attack"}
    assert fields["attack"]["choices"] is None
    assert fields["value"]["unit"] == {"ja": "☆", "zh-hant": "☆", "en": "☆"}
    assert fields["value"]["description"] == "a whole number from 1 to 3"
    assert fields["colour"]["type"] == "choice"
    assert fields["colour"]["choices"] == ["白", "仁", "義", "勇", "藍"]  # 藍: seed 002's 一隻藍色人物
    kinds = {kind["slug"]: kind for kind in suikoden["kinds"]}
    assert kinds["character"]["labels"]["ja"] == "人物"
    assert "attack" in kinds["character"]["fields"]


def test_game_detail_has_rules_sections_in_each_language(client):
    body = get_json(client, "/api/games/endbreaker/")
    assert body["slug"] == "endbreaker"
    assert body["names"]["en"] == "Endbreaker! SCG"
    assert body["card_count"] == Card.objects.filter(game__slug="endbreaker").count()
    sections = RuleSection.objects.filter(game__slug="endbreaker").order_by("order", "id")
    assert [(rule["key"], rule["order"]) for rule in body["rules"]] == [(s.key, s.order) for s in sections]
    setup = next(rule for rule in body["rules"] if rule["key"] == "setup")
    assert setup["texts"]["zh-hant"]["title"] == "遊戲準備"
    assert "城塞騎士" in setup["texts"]["zh-hant"]["body"]
    assert setup["texts"]["zh-hant"]["source"]
    assert body["glossary_url"].endswith("/api/games/endbreaker/glossary/")
    assert body["cards_url"].endswith("/api/cards/?game=endbreaker")


def test_unknown_game_is_404_json(client):
    assert get_json(client, "/api/games/nosuchgame/", 404) == {
        "detail": "ゲーム「nosuchgame」はありません。ゲーム: endbreaker、shadowera、suikoden、epicbattles。",
        "code": "not_found",
        "errors": {},
    }
    english = client.get("/api/games/nosuchgame/", HTTP_ACCEPT_LANGUAGE="en").json()
    assert english["detail"] == "No game 'nosuchgame'. Games: endbreaker, shadowera, suikoden, epicbattles."
    assert "detail" in get_json(client, "/api/games/nosuchgame/glossary/", 404)


def test_glossary_has_terms_with_texts_per_language(client):
    body = get_json(client, "/api/games/endbreaker/glossary/")
    assert body["count"] == Term.objects.filter(game__slug="endbreaker").count()
    assert {"count", "next", "previous", "results"} <= set(body)
    job = next(term for term in body["results"] if term["key"] == "job")
    assert job["category"] == "term"
    assert job["texts"]["ja"]["name"] == "ジョブ"
    assert job["texts"]["zh-hant"]["name"] == "職業"
    assert job["texts"]["ja"]["text"] is None  # the source gives no meaning: null, not ""
    assert set(job["texts"]["ja"]) == {"name", "text", "source"}


def test_glossary_is_paginated(client):
    total = Term.objects.filter(game__slug="suikoden").count()
    assert total > 1
    first = client.get("/api/games/suikoden/glossary/?page=1").json()
    assert first["count"] == total
    if total > PAGE_SIZE:
        assert first["next"] is not None
    else:
        assert first["next"] is None
    assert first["previous"] is None
    assert len({term["key"] for term in first["results"]}) == min(total, PAGE_SIZE)


# --- card search --------------------------------------------------------------------------------


def test_simplified_chinese_query_finds_traditional_text(client):
    body = search(client, "职业")
    card = next(card for card in body["results"] if card["key"] == "EB1-010")
    assert card["texts"]["ja"]["name"] == "練刺棍"
    assert "職業" in card["texts"]["zh-hant"]["text"]
    assert body["count"] == len(body["results"])


def test_glossary_expansion_is_reported_in_also_searched(client):
    body = search(client, "ドロー")
    assert "抽牌" in body["also_searched"]
    assert body["count"] > 0


def test_field_comparison_finds_exactly_the_cards(client):
    body = search(client, "game:suikoden attack>5")
    assert body["count"] == 2
    assert sorted(card["texts"]["zh-hant"]["name"] for card in body["results"]) == ["林沖", "關勝"]
    lin_chong = next(card for card in body["results"] if card["key"] == "林沖")
    assert lin_chong["game"] == "suikoden"
    assert lin_chong["fields"] == {"attack": 6}  # only known values; unknown fields are absent
    assert lin_chong["number"] is None


def test_card_shape_and_links(client):
    card = search(client, "game:endbreaker number:EB1-010")["results"][0]
    assert set(card) == {"game", "key", "number", "kind", "fields", "invalid", "source", "texts", "url", "html_url"}
    assert card["invalid"] == {}
    assert card["kind"] == "ability"
    assert card["fields"] == {"cost": "PPT"}
    assert list(card["texts"]) == ["ja", "zh-hant"]  # languages in the order ja, zh-hant, en; none invented
    assert set(card["texts"]["ja"]) == {"name", "text", "notes", "source"}
    assert urlsplit(card["url"]).path == "/api/cards/endbreaker/EB1-010/"
    html_path = urlsplit(card["html_url"]).path
    assert html_path == reverse("cards:card_detail", args=["endbreaker", "EB1-010"])
    assert client.get(html_path).status_code == 200
    detail = get_json(client, urlsplit(card["url"]).path)
    # The detail adds the fingerprint a change set sends back as `seen` (contributions).
    stored = Card.objects.get(game__slug="endbreaker", key="EB1-010")
    assert detail.pop("state_digest") == services.state_digest(services.card_state(stored))
    # and every text in a translation track: here the seed's Chinese, its language's main track (as in `texts`)
    (seed_track,) = detail.pop("translations")
    assert seed_track["track"] == "seed 000" and seed_track["main"] and not seed_track["stale"]
    assert seed_track["text"] == card["texts"]["zh-hant"]["text"]
    assert detail.pop("images") == []  # no picture of the card yet (contributions)
    assert detail == card


def test_non_ascii_card_url_round_trips(client):
    card = search(client, "game:endbreaker 城塞騎士")["results"]
    knight = next(row for row in card if row["key"] == "城塞騎士")
    assert get_json(client, urlsplit(knight["url"]).path)["key"] == "城塞騎士"


@pytest.mark.parametrize("key", ["城塞騎士", "1000ダルク", "EB1-010"])
def test_card_detail(client, key):
    body = get_json(client, f"/api/cards/endbreaker/{key}/")
    stored = Card.objects.get(game__slug="endbreaker", key=key)
    assert body["key"] == key
    assert body["game"] == "endbreaker"
    assert body["number"] == stored.number
    assert body["kind"] == stored.kind
    assert body["fields"] == stored.fields
    assert set(body["texts"]) == set(stored.texts.values_list("language", flat=True))


def test_unknown_card_is_404_json(client):
    assert "detail" in get_json(client, "/api/cards/endbreaker/NO-SUCH-CARD/", 404)
    assert "detail" in get_json(client, "/api/cards/nosuchgame/EB1-010/", 404)


def test_syntax_error_is_400_with_position(client):
    body = search(client, "foo:1", status=400)
    assert body["position"] == 0
    assert body["query"] == "foo:1"
    assert body["parameter"] == "q"
    assert "foo" in body["detail"]


def test_a_number_too_large_for_the_database_is_400_not_500(client):
    body = search(client, "職業 at>=99999999999999999999", status=400)
    assert body["position"] == 3
    assert body["reason"] == "number_too_large"
    assert "大きすぎる" in body["detail"]  # the site's language when the request names none


def test_unclosed_parenthesis_is_400(client):
    body = search(client, "(abc", status=400)
    assert body["query"] == "(abc"
    assert isinstance(body["position"], int)
    assert body["detail"]


def test_error_position_counts_in_the_query_as_sent(client):
    assert search(client, "  foo:1", status=400)["position"] == 2
    assert search(client, "職業 foo:1", status=400)["position"] == 3


def test_empty_query_lists_every_card_by_game_then_number(client):
    body = search(client, "")
    assert body["count"] == Card.objects.count()
    assert body["also_searched"] == []
    expected = Card.objects.order_by("game__sort_order", "sort_key", "pk").values_list("game__slug", "key")
    assert [(card["game"], card["key"]) for card in body["results"]] == list(expected[:PAGE_SIZE])
    assert search(client)["count"] == body["count"]  # no q at all is the same as an empty one


def test_pagination_links(client):
    total = Card.objects.count()
    assert total > PAGE_SIZE  # the seed data fills more than one page
    first = search(client, "")
    assert first["count"] == total
    assert first["previous"] is None
    assert len(first["results"]) == PAGE_SIZE
    second = get_json(client, urlsplit(first["next"]).path + "?" + urlsplit(first["next"]).query)
    assert second["count"] == total
    assert second["previous"] is not None
    assert (second["next"] is None) == (total <= 2 * PAGE_SIZE)
    seen = [(card["game"], card["key"]) for card in first["results"] + second["results"]]
    assert len(set(seen)) == len(seen)  # no card on both pages


def test_page_beyond_the_last_is_404(client):
    assert "detail" in search(client, "", status=404, page="999")


def test_game_parameter_limits_the_search(client):
    body = search(client, "", game="suikoden")
    assert body["count"] == Card.objects.filter(game__slug="suikoden").count()
    assert {card["game"] for card in body["results"]} == {"suikoden"}


def test_unknown_game_parameter_is_400(client):
    body = search(client, "x", status=400, game="nosuchgame")
    assert body["parameter"] == "game"
    assert body["position"] is None
    assert "nosuchgame" in body["detail"]


# A bad ?lang= is refused as on every endpoint (tests/test_api_language_parameter.py).
@pytest.mark.parametrize(("parameter", "value"), [("order", "colour"), ("dir", "sideways")])
def test_bad_display_parameter_is_400(client, parameter, value):
    body = search(client, "game:suikoden", status=400, **{parameter: value})
    assert body["parameter"] == parameter
    assert body["position"] is None
    assert body["query"] == "game:suikoden"


def test_order_and_direction_parameters(client):
    ascending = search(client, "game:suikoden has:attack", order="attack")
    descending = search(client, "game:suikoden has:attack", order="attack", dir="desc")
    attacks = [card["fields"]["attack"] for card in ascending["results"]]
    assert attacks == sorted(attacks)
    assert [card["fields"]["attack"] for card in descending["results"]] == sorted(attacks, reverse=True)


def test_order_by_name_uses_the_lang_parameter(client):
    body = search(client, "game:suikoden", order="name", lang="zh-hant")
    # by the name in that language, else by the card's name in another (呼延灼, 008, has only its Japanese name)
    names = [
        next(
            text["name"]
            for language in ("zh-hant", "ja", "en")
            if (text := card["texts"].get(language, {})).get("name")
        )
        for card in body["results"]
    ]
    assert names == sorted(names)
    assert "呼延灼" in names and "林沖" in names


def test_database_error_is_400_not_500(client, monkeypatch):
    broken = Card.objects.extra(where=["no_such_column = 1"])  # a query every database rejects

    def failing_search(query, *args, **kwargs):
        return SearchOutcome(query=query, cards=broken)

    monkeypatch.setattr(search_selectors, "prepare_search", failing_search)
    body = search(client, "anything", status=400)
    assert body["detail"]
    assert body["query"] == "anything"
    # The failed search left the connection usable (a savepoint was rolled back).
    assert Card.objects.exists()


@pytest.mark.skipif(connection.vendor != "postgresql", reason="only PostgreSQL rejects this Python regex")
def test_regex_postgresql_rejects_is_400(client):
    body = search(client, "/(?P<x>a)/", status=400)
    assert body["query"] == "/(?P<x>a)/"
    assert Card.objects.exists()


def test_search_matches_the_selector(client):
    """The view adds nothing to the search: same cards as the search itself finds."""
    query = "game:endbreaker t:ability"
    outcome = prepare_search(query, "ja")
    assert outcome.cards is not None
    body = search(client, query)
    assert body["count"] == outcome.cards.count()
    assert sorted(keys(body)) == sorted(card.key for card in outcome.cards[:PAGE_SIZE])


# --- caching ------------------------------------------------------------------------------------

ENDPOINTS = [
    "/api/games/",
    "/api/games/endbreaker/",
    "/api/games/endbreaker/glossary/",
    "/api/cards/?q=%E8%81%B7%E6%A5%AD",
    "/api/cards/endbreaker/EB1-010/",
]


@pytest.mark.parametrize("url", ENDPOINTS)
def test_etag_and_not_modified(client, url):
    first = client.get(url)
    assert first.status_code == 200
    etag = first["ETag"]
    assert re.fullmatch(r'"[0-9a-f]+"', etag)
    assert "no-cache" in first["Cache-Control"]
    again = client.get(url, headers={"if-none-match": etag})
    assert again.status_code == 304
    assert again["ETag"] == etag
    assert again.content == b""
    assert client.get(url, headers={"if-none-match": '"something-else"'}).status_code == 200


def test_etag_depends_on_the_request(client):
    etags = {client.get(url)["ETag"] for url in ENDPOINTS}
    assert len(etags) == len(ENDPOINTS)
    japanese = client.get("/api/cards/?q=x", headers={"accept-language": "ja"})["ETag"]
    english = client.get("/api/cards/?q=x", headers={"accept-language": "en"})["ETag"]
    assert japanese != english


def test_syntax_error_response_has_an_etag_too(client):
    response = client.get("/api/cards/?q=foo:1")
    assert response.status_code == 400
    assert response["ETag"]


def test_etag_changes_when_a_card_is_imported(client, tmp_path):
    url = "/api/cards/endbreaker/EB1-010/"
    before = client.get(url)
    list_before = client.get("/api/games/")["ETag"]
    document = export_document("endbreaker")
    record = next(card for card in document["cards"] if card["key"] == "EB1-010")
    record["texts"]["zh-hant"]["notes"] = "changed by the API test"
    import_document(tmp_path, document)

    after = client.get(url, headers={"if-none-match": before["ETag"]})
    assert after.status_code == 200
    assert after["ETag"] != before["ETag"]
    assert after.json()["texts"]["zh-hant"]["notes"] == "changed by the API test"
    assert client.get("/api/games/")["ETag"] != list_before


def test_etag_changes_when_a_glossary_text_is_edited_in_place(client, tmp_path):
    url = "/api/games/endbreaker/glossary/"
    before = client.get(url)["ETag"]
    document = export_document("endbreaker")
    job = next(term for term in document["terms"] if term["key"] == "job")
    job["texts"]["zh-hant"]["name"] = "職務"  # same length, same row: only the content changes
    import_document(tmp_path, document)

    after = client.get(url, headers={"if-none-match": before})
    assert after.status_code == 200
    job = next(term for term in after.json()["results"] if term["key"] == "job")
    assert job["texts"]["zh-hant"]["name"] == "職務"


def test_etag_is_stable_while_nothing_changes(client):
    url = "/api/cards/?q=game:suikoden"
    assert client.get(url)["ETag"] == client.get(url)["ETag"]


# --- schema and docs ----------------------------------------------------------------------------


def test_schema_documents_the_api(client):
    response = client.get("/api/schema/")
    assert response.status_code == 200
    text = response.content.decode()
    for path in ("/api/cards/:", "/api/cards/{game}/{key}/:", "/api/games/:", "/api/games/{game}/glossary/:"):
        assert path in text
    assert "QueryError" in text
    assert "also_searched" in text
    assert "ETag" in client.get("/api/schema/").headers


def test_schema_json_lists_query_parameters_and_400(client):
    schema = client.get("/api/schema/?format=json").json()
    operation = schema["paths"]["/api/cards/"]["get"]
    assert {parameter["name"] for parameter in operation["parameters"]} >= {"q", "game", "order", "dir", "page"}
    assert "400" in operation["responses"]


def test_docs_page_uses_no_external_scripts(client):
    response = client.get("/api/docs/")
    assert response.status_code == 200
    html = response.content.decode()
    sources = re.findall(r"""<(?:script|link)\b[^>]*?(?:src|href)=["']([^"']+)["']""", html)
    assert any("swagger-ui-bundle.js" in source for source in sources)
    for source in sources:
        assert not re.match(r"(?i)(https?:)?//", source), source
    # Every local asset is a static file that exists (node_modules/swagger-ui-dist, served under vendor/).
    for source in sources:
        if source.startswith("/static/"):
            assert finders.find(source.removeprefix("/static/")), source
    script = client.get("/api/docs/?script=")
    assert script.status_code == 200
    assert "/api/schema/" in script.content.decode()
