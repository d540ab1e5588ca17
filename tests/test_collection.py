"""Collections: what a player owns per game, filled by +/−, a pasted list or a CSV, used by
owned: in the search language, the builder's "only cards I own", a deck's want list and several decks checked
against one collection. Synthetic cards only (tests/synthetic_decks.py)."""

from __future__ import annotations

import csv
import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from cards.search.selectors import prepare_search
from collection import importing, selectors, services
from collection.models import MAX_OWNED, OwnedCard
from collection.rules import CollectionError
from decks import services as deck_services
from decks.models import Deck

from .support.clients import api_client, signed_in
from .synthetic_decks import card, game
from .users import make_user

pytestmark = [pytest.mark.usefixtures("english"), pytest.mark.django_db]


def owned(user, slug: str) -> dict[str, int]:
    rows = OwnedCard.objects.filter(owner=user, card__game__slug=slug, count__gte=1).select_related("card")
    return {row.card.key: row.count for row in rows}


def make_deck(owner, slug: str, entries: list[tuple[str, str, int]], **fields) -> Deck:
    return deck_services.create_deck(
        owner=owner,
        game=game(slug),
        name=fields.pop("name", "テストデッキ"),
        entries=[(zone, card(slug, key), count) for zone, key, count in entries],
        **fields,
    )


# --- services: the bounds hold on every write


def test_plus_and_minus_change_the_count_and_a_count_of_zero_leaves_no_row(cards, owner):
    ally = card("shadowera", "Test Ally 01")
    assert services.change_count(owner, ally, 1) == 1
    assert services.change_count(owner, ally, 1) == 2
    assert services.change_count(owner, ally, -1) == 1
    assert services.change_count(owner, ally, -1) == 0
    assert not OwnedCard.objects.filter(owner=owner).exists()


def test_a_count_below_zero_or_above_the_bound_is_refused_and_nothing_changes(cards, owner):
    ally = card("shadowera", "Test Ally 01")
    with pytest.raises(CollectionError, match="cannot be removed"):
        services.change_count(owner, ally, -1)
    services.set_count(owner, ally, MAX_OWNED)
    with pytest.raises(CollectionError, match=str(MAX_OWNED)):
        services.change_count(owner, ally, 1)
    for hostile in (-1, MAX_OWNED + 1, 10**30, "3", 2.5, True, None):
        with pytest.raises(CollectionError):
            services.set_count(owner, ally, hostile)
    assert owned(owner, "shadowera") == {"Test Ally 01": MAX_OWNED}


def test_import_adds_or_replaces_the_collection_of_one_game_only(cards, owner):
    services.set_count(owner, card("shadowera", "Test Ally 01"), 2)
    services.set_count(owner, card("suikoden", "901"), 4)
    services.import_counts(owner, game("shadowera"), {card("shadowera", "Test Ally 01"): 1}, "add")
    assert owned(owner, "shadowera") == {"Test Ally 01": 3}
    services.import_counts(owner, game("shadowera"), {card("shadowera", "Test Ally 02"): 2}, "replace")
    assert owned(owner, "shadowera") == {"Test Ally 02": 2}
    assert owned(owner, "suikoden") == {"901": 4}  # another game's collection is untouched


def test_an_import_that_would_pass_the_bound_writes_nothing(cards, owner):
    services.set_count(owner, card("shadowera", "Test Ally 01"), MAX_OWNED - 1)
    counts = {card("shadowera", "Test Ally 02"): 3, card("shadowera", "Test Ally 01"): 2}
    with pytest.raises(CollectionError):
        services.import_counts(owner, game("shadowera"), counts, "add")
    assert owned(owner, "shadowera") == {"Test Ally 01": MAX_OWNED - 1}
    with pytest.raises(CollectionError):
        services.import_counts(owner, game("shadowera"), {card("suikoden", "901"): 1}, "add")


# --- owned: in the search language


def keys(outcome) -> set[str]:
    assert outcome.error is None, outcome.error
    return {found.key for found in outcome.cards}


def test_owned_finds_the_cards_of_the_user_who_searches(cards, owner, other):
    services.set_count(owner, card("shadowera", "Test Ally 01"), 3)
    services.set_count(owner, card("shadowera", "Test Hero 01"), 1)
    services.set_count(other, card("shadowera", "Test Ally 02"), 1)
    search = prepare_search
    assert keys(search("owned:yes", "ja", user=owner)) == {"Test Ally 01", "Test Hero 01"}
    assert keys(search("game:shadowera -owned:yes", "ja", user=owner)) == {"Test Ally 02"}
    assert keys(search("game:shadowera owned:no", "ja", user=owner)) == {"Test Ally 02"}
    assert keys(search("owned>=2", "ja", user=owner)) == {"Test Ally 01"}
    assert keys(search("owned=1", "ja", user=owner)) == {"Test Hero 01"}
    assert keys(search("game:shadowera owned<2", "ja", user=owner)) == {"Test Hero 01", "Test Ally 02"}
    assert keys(search("game:shadowera owned=0", "ja", user=owner)) == {"Test Ally 02"}
    assert keys(search("owned>99999999999999999999", "ja", user=owner)) == set()
    assert keys(search("owned:yes or テストパンチ", "ja", user=owner)) == {"Test Ally 01", "Test Hero 01", "Test Punch"}
    assert keys(search("owned:yes", "ja", user=other)) == {"Test Ally 02"}


def test_owned_without_an_account_or_with_a_bad_value_is_a_query_error(cards, owner):
    from django.contrib.auth.models import AnonymousUser

    for user in (None, AnonymousUser()):
        outcome = prepare_search("owned:yes", "en", user=user)
        assert outcome.error_code == "needs_account" and "Sign in" in outcome.error
    for query in ("owned:maybe", "owned>yes", "owned:/x/"):
        outcome = prepare_search(query, "en", user=owner)
        assert outcome.error_code == "owned_value", query


def test_owned_on_the_search_page_anonymous_gets_a_message_not_a_500(cards, client):
    response = client.get("/search/", {"q": "owned:yes"})
    assert response.status_code == 200
    assert "Sign in" in response.content.decode() or "ログイン" in response.content.decode()


# --- pasted lists and CSV files


def test_a_pasted_list_reads_like_a_decklist_and_headings_are_ignored(cards, owner):
    text = "# mine\nDeck:\n3 Test Ally 01\nテストヒーロー01\n2x 測試盟友02\nWhatever: \n1 TST-001\n"
    resolved = importing.resolve_list(game("shadowera"), text)
    assert resolved.ok, resolved.errors
    assert {found.key: count for found, count in resolved.counts.items()} == {
        "Test Ally 01": 4,
        "Test Hero 01": 1,
        "Test Ally 02": 2,
    }


def test_a_pasted_list_with_problems_gives_them_line_by_line_with_candidates(cards, owner):
    text = "2 Test Ally 01\n0 Test Ally 02\n-1 Test Ally 02\n1 Test Aly 01\n100 Test Ally 02\n"
    resolved = importing.resolve_list(game("shadowera"), text)
    found = {error.line: error.code for error in resolved.errors}
    assert found == {2: "zero-count", 3: "bad-count", 4: "unknown-card", 5: "count-too-large"}
    unknown = next(error for error in resolved.errors if error.code == "unknown-card")
    assert "Test Ally 01" in [candidate.key for candidate in unknown.candidates]
    ambiguous = importing.resolve_list(game("suikoden"), "1 テスト双子\n")
    assert [error.code for error in ambiguous.errors] == ["ambiguous"]


def test_lines_of_one_card_add_up_and_past_the_bound_are_refused(cards, owner):
    text = "99 Test Ally 01\n" * 11  # 1089 copies
    resolved = importing.resolve_list(game("shadowera"), text)
    assert [error.code for error in resolved.errors] == ["owned-too-many"]
    assert resolved.errors[0].line == 11


def test_a_csv_reads_key_and_count_and_the_export_reads_back(cards, owner):
    data = "key,count\nTest Ally 01,3\nTST-001,1\nテストヒーロー01,2\nTest Ally 02,0\n".encode()
    resolved = importing.resolve_csv(game("shadowera"), data)
    assert resolved.ok, resolved.errors
    services.import_counts(owner, game("shadowera"), resolved.counts, "replace")
    assert owned(owner, "shadowera") == {"Test Ally 01": 4, "Test Hero 01": 2}
    exported = importing.export_csv(owner, game("shadowera"), "en")
    rows = list(csv.DictReader(io.StringIO(exported)))
    assert [(row["key"], row["count"]) for row in rows] == [("Test Ally 01", "4"), ("Test Hero 01", "2")]
    services.clear(owner, game("shadowera"))
    again = importing.resolve_csv(game("shadowera"), exported.encode("utf-8-sig"))
    services.import_counts(owner, game("shadowera"), again.counts, "add")
    assert owned(owner, "shadowera") == {"Test Ally 01": 4, "Test Hero 01": 2}


@pytest.mark.parametrize(
    ("data", "codes"),
    [
        (b"name;count\nTest Ally 01;1\n", [(1, "csv-header")]),
        (b"", [(1, "csv-header")]),
        (
            b"key,count\nTest Ally 01,-2\nTest Ally 01,x\nTest Ally 01,1000\n",
            [(2, "owned-negative"), (3, "bad-count"), (4, "owned-too-many")],
        ),
        (
            b"key,count\nNo Such Card,1\n,1\nTest Ally 01\n",
            [(2, "unknown-card"), (3, "csv-no-card"), (4, "csv-short-row")],
        ),
        # More digits than Python reads as a number (4,300): refused by line, not a server error.
        (
            b"key,count\nTest Ally 01," + b"9" * 5000 + b"\nTest Ally 01,-" + b"9" * 5000 + b"\n",
            [(2, "owned-too-many"), (3, "owned-negative")],
        ),
        (b"key,count\n\xff\xfe,1\n", [(None, "csv-encoding")]),
        (b"key,count\nTest\x00,1\n", [(None, "csv-encoding")]),
        (b"key,count\n" + b"Test Ally 01,0\n" * 5001, [(5002, "csv-too-many-rows")]),
        (b"key,count\n" + b"x" * 600_000, [(None, "csv-too-large")]),
        (b"key,count\n", [(None, "empty")]),
    ],
)
def test_a_bad_csv_is_refused_with_its_problems_by_line(cards, data, codes):
    resolved = importing.resolve_csv(game("shadowera"), data)
    assert [(error.line, error.code) for error in resolved.errors] == codes
    for problem in importing.problems(resolved.errors, "shadowera"):
        assert problem["message"]


# --- pages


def test_the_nav_links_my_collection_for_a_signed_in_user_only(cards, owner, client):
    assert "/collection/" not in client.get("/search/").content.decode()
    assert 'href="/collection/"' in signed_in(owner, None).get("/search/").content.decode()


def test_collection_pages_need_an_account(cards, client):
    for url in ("/collection/", "/collection/shadowera/", "/collection/shadowera/import/"):
        response = client.get(url)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"], url
    ally = card("shadowera", "Test Ally 01")
    assert client.post(f"/collection/cards/{ally.pk}/", {"delta": "1"}).status_code == 302
    assert not OwnedCard.objects.exists()


def test_plus_on_a_card_page_answers_the_servers_count(cards, owner):
    client = signed_in(owner, None)
    ally = card("shadowera", "Test Ally 01")
    page = client.get(reverse("cards:card_detail", args=["shadowera", ally.key])).content.decode()
    assert f'hx-post="/collection/cards/{ally.pk}/"' in page
    for expected in (1, 2):
        response = client.post(f"/collection/cards/{ally.pk}/", {"delta": "1"}, HTTP_HX_REQUEST="true")
        assert response.status_code == 200
        assert f'<output class="owned-count" aria-live="polite">{expected}</output>' in response.content.decode()
    response = client.post(f"/collection/cards/{ally.pk}/", {"delta": "-1"}, HTTP_HX_REQUEST="true")
    assert ">1</output>" in response.content.decode()
    assert owned(owner, "shadowera") == {"Test Ally 01": 1}


def test_minus_at_zero_and_hostile_changes_are_a_400_and_change_nothing(cards, owner):
    client = signed_in(owner, None)
    ally = card("shadowera", "Test Ally 01")
    for data in ({"delta": "-1"}, {"delta": "5"}, {"count": "-3"}, {"count": str(10**20)}, {}, {"delta": "x"}):
        response = client.post(f"/collection/cards/{ally.pk}/", data, HTTP_HX_REQUEST="true")
        assert response.status_code == 400, data
        assert response.content.decode().strip()
    assert client.post("/collection/cards/999999/", {"delta": "1"}).status_code == 404
    assert not OwnedCard.objects.exists()


def test_anonymous_readers_see_a_sign_in_prompt_on_a_card_page(cards, client):
    page = client.get(reverse("cards:card_detail", args=["shadowera", "Test Ally 01"])).content.decode()
    body = page.split("</head>", 1)[-1]  # the head's inlined stylesheet names every class
    assert "owned-prompt" in body and "owned-control" not in body


def test_search_results_carry_the_users_counts(cards, owner):
    services.set_count(owner, card("shadowera", "Test Ally 01"), 3)
    page = signed_in(owner, None).get("/search/", {"q": "owned:yes"}).content.decode()
    assert 'data-card="Test Ally 01"' in page and ">3</output>" in page


def test_paste_import_adds_or_replaces_and_a_bad_list_saves_nothing(cards, owner):
    client = signed_in(owner, None)
    url = "/collection/shadowera/import/"
    response = client.post(url, {"text": "2 Test Ally 01\n1 Test Aly 02\n", "mode": "add"})
    assert response.status_code == 400
    page = response.content.decode()
    assert 'data-line="2"' in page and "Test Ally 02" in page
    assert not OwnedCard.objects.exists()
    assert client.post(url, {"text": "2 Test Ally 01\n", "mode": "add"}).status_code == 302
    assert client.post(url, {"text": "2 Test Ally 01\n", "mode": "add"}).status_code == 302
    assert owned(owner, "shadowera") == {"Test Ally 01": 4}
    assert client.post(url, {"text": "1 Test Hero 01\n", "mode": "replace"}).status_code == 302
    assert owned(owner, "shadowera") == {"Test Hero 01": 1}
    assert client.post(url, {"text": "1 Test Hero 01\n", "mode": "steal"}).status_code == 400


def test_csv_import_and_export_on_the_pages(cards, owner):
    client = signed_in(owner, None)
    upload = SimpleUploadedFile("mine.csv", b"key,count\nTest Ally 01,2\n", content_type="text/csv")
    assert client.post("/collection/shadowera/import-csv/", {"file": upload, "mode": "add"}).status_code == 302
    bad = SimpleUploadedFile("bad.csv", b"key,count\nTest Ally 01,-1\n", content_type="text/csv")
    response = client.post("/collection/shadowera/import-csv/", {"file": bad, "mode": "add"})
    assert response.status_code == 400 and 'data-line="2"' in response.content.decode()
    exported = client.get("/collection/shadowera/export.csv")
    assert exported["Content-Type"].startswith("text/csv")
    assert "Test Ally 01,TST-001" in exported.content.decode()
    assert owned(owner, "shadowera") == {"Test Ally 01": 2}


def test_a_users_collection_is_theirs_alone(cards, owner, other):
    services.set_count(owner, card("shadowera", "Test Ally 01"), 2)
    page = signed_in(other, None).get("/collection/shadowera/").content.decode()
    assert "Test Ally 01" not in page
    assert signed_in(other, None).get("/collection/shadowera/export.csv").content.decode() == "key,number,name,count\n"


# --- decks against the collection


def test_a_decks_want_list_counts_copies_short_against_my_collection(cards, owner, other):
    deck = make_deck(other, "shadowera", [("hero", "Test Hero 01", 1), ("deck", "Test Ally 01", 4)], visibility="link")
    token = {"token": deck.share_token}
    services.set_count(owner, card("shadowera", "Test Ally 01"), 1)
    services.set_count(owner, card("shadowera", "Test Hero 01"), 2)
    report = selectors.needs(owner, [deck])
    assert [(need.card.key, need.needed, need.owned, need.short) for need in report.missing] == [
        ("Test Ally 01", 4, 1, 3)
    ]
    client = signed_in(owner, None)
    assert f"/collection/decks/{deck.pk}/wants/" in client.get(f"/decks/shared/{deck.share_token}/").content.decode()
    page = client.get(f"/collection/decks/{deck.pk}/wants/", token)
    assert page.status_code == 200 and 'class="short"' in page.content.decode()
    text = client.get(f"/collection/decks/{deck.pk}/wants/", {"format": "text", **token}).content.decode()
    assert text.splitlines()[1:] == ["3 TST-001 Test Ally 01"] or text.splitlines()[1:] == ["3 TST-001 テストアリー01"]
    # the want list reads back as a list: paste it into the collection once bought
    assert importing.resolve_list(game("shadowera"), text).ok
    rows = list(
        csv.DictReader(
            io.StringIO(client.get(f"/collection/decks/{deck.pk}/wants/", {"format": "csv", **token}).content.decode())
        )
    )
    assert [(row["key"], row["short"]) for row in rows] == [("Test Ally 01", "3")]


def test_a_private_deck_of_someone_else_has_no_want_list(cards, owner, other):
    deck = make_deck(other, "shadowera", [("deck", "Test Ally 01", 1)])
    assert signed_in(owner, None).get(f"/collection/decks/{deck.pk}/wants/").status_code == 404
    shared = make_deck(other, "shadowera", [("deck", "Test Ally 01", 1)], visibility="link")
    assert signed_in(owner, None).get(f"/collection/decks/{shared.pk}/wants/").status_code == 404
    url = f"/collection/decks/{shared.pk}/wants/?token={shared.share_token}"
    assert signed_in(owner, None).get(url).status_code == 200


def test_several_decks_show_where_the_copies_are_stretched_too_thin(cards, owner, other):
    one = make_deck(owner, "shadowera", [("hero", "Test Hero 01", 1), ("deck", "Test Ally 01", 3)], name="A")
    two = make_deck(owner, "shadowera", [("hero", "Test Hero 01", 1), ("deck", "Test Ally 02", 4)], name="B")
    services.set_count(owner, card("shadowera", "Test Hero 01"), 1)
    services.set_count(owner, card("shadowera", "Test Ally 01"), 3)
    services.set_count(owner, card("shadowera", "Test Ally 02"), 2)
    report = selectors.needs(owner, [one, two])
    by_key = {need.card.key: need for need in report.needs}
    assert by_key["Test Hero 01"].per_deck == [1, 1] and by_key["Test Hero 01"].stretched
    assert by_key["Test Ally 01"].short == 0
    assert by_key["Test Ally 02"].short == 2 and not by_key["Test Ally 02"].stretched
    client = signed_in(owner, None)
    page = client.get("/collection/shadowera/shared/", {"deck": [one.pk, two.pk]})
    assert page.status_code == 200
    assert 'data-card="Test Hero 01" class="stretched"' in page.content.decode()
    theirs = make_deck(other, "shadowera", [("deck", "Test Ally 01", 1)], visibility="link")
    assert client.get("/collection/shadowera/shared/", {"deck": [one.pk, theirs.pk]}).status_code == 404
    assert client.get("/collection/shadowera/shared/", {"deck": ["x"]}).status_code == 404
    assert client.get("/collection/suikoden/shared/", {"deck": [one.pk]}).status_code == 404


def test_the_builder_shows_only_owned_cards_when_asked(cards, owner):
    deck = make_deck(owner, "shadowera", [])
    services.set_count(owner, card("shadowera", "Test Ally 02"), 2)
    client = signed_in(owner, None)
    everything = client.get(f"/decks/{deck.pk}/edit/search/").content.decode()
    assert 'data-card="Test Ally 01"' in everything
    mine = client.get(f"/decks/{deck.pk}/edit/search/", {"owned": "1"}).content.decode()
    assert 'data-card="Test Ally 01"' not in mine and 'data-card="Test Ally 02"' in mine
    searched = client.get(f"/decks/{deck.pk}/edit/search/", {"q": "owned>=2"}).content.decode()
    assert 'data-card="Test Ally 02"' in searched and 'data-card="Test Ally 01"' not in searched


# --- API


def test_the_api_needs_credentials(cards):
    for url in ("/api/collection/", "/api/collection/shadowera/", "/api/collection/shadowera/export/"):
        assert api_client(None, None).get(url).status_code == 401, url
    response = api_client(None, None).post(
        "/api/collection/shadowera/add/", {"card": "Test Ally 01", "count": 1}, format="json"
    )
    assert response.status_code == 401
    assert not OwnedCard.objects.exists()


def test_the_api_adds_removes_sets_and_lists(cards, owner):
    client = api_client(owner, None)
    add = client.post("/api/collection/shadowera/add/", {"card": "Test Ally 01", "count": 3}, format="json")
    assert add.status_code == 200 and add.json() == {"card": "Test Ally 01", "count": 3}
    remove = client.post("/api/collection/shadowera/remove/", {"card": "Test Ally 01", "count": 1}, format="json")
    assert remove.json()["count"] == 2
    assert client.post(
        "/api/collection/shadowera/set/", {"card": "Test Hero 01", "count": 5}, format="json"
    ).json() == {
        "card": "Test Hero 01",
        "count": 5,
    }
    listed = client.get("/api/collection/shadowera/").json()
    assert (listed["cards"], listed["copies"]) == (2, 7)
    assert [(row["card"], row["count"]) for row in listed["owned"]] == [("Test Hero 01", 5), ("Test Ally 01", 2)] or [
        (row["card"], row["count"]) for row in listed["owned"]
    ] == [("Test Ally 01", 2), ("Test Hero 01", 5)]
    overview = {row["game"]: row for row in client.get("/api/collection/").json()}
    assert overview["shadowera"]["copies"] == 7 and overview["suikoden"]["copies"] == 0
    assert "Test Hero 01" in client.get("/api/collection/shadowera/export/").json()["csv"]


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        ("add", {"card": "Test Ally 01", "count": -1}, "count"),
        ("add", {"card": "Test Ally 01", "count": 0}, "count"),
        ("add", {"card": "Test Ally 01", "count": 10**30}, "count"),
        ("add", {"card": "Test Ally 01", "count": "3"}, "count"),
        ("set", {"card": "Test Ally 01", "count": 1000}, "count"),
        ("add", {"card": "No Such Card", "count": 1}, "card"),
        ("add", {"card": "901", "count": 1}, "card"),  # a card of another game
        ("remove", {"card": "Test Ally 01", "count": 1}, "count"),  # owned 0 times
    ],
)
def test_hostile_api_changes_are_400_naming_the_field_and_change_nothing(cards, owner, path, body, field):
    response = api_client(owner, None).post(f"/api/collection/shadowera/{path}/", body, format="json")
    assert response.status_code == 400
    assert field in response.json()["errors"]
    assert not OwnedCard.objects.exists()


def test_an_unknown_game_is_a_404(cards, owner):
    assert api_client(owner, None).get("/api/collection/nosuchgame/").status_code == 404
    response = api_client(owner, None).post("/api/collection/nosuchgame/add/", {"card": "x", "count": 1}, format="json")
    assert response.status_code == 404


def test_api_imports_give_the_problems_line_by_line_and_save_nothing(cards, owner):
    client = api_client(owner, None)
    bad = client.post(
        "/api/collection/shadowera/import/list/", {"text": "2 Test Ally 01\n1 Test Aly 02\n"}, format="json"
    )
    assert bad.status_code == 400
    body = bad.json()
    assert body["code"] == "invalid_list"
    assert [(p["line"], p["code"]) for p in body["problems"]] == [(2, "unknown-card")]
    assert "Test Ally 02" in body["problems"][0]["candidates"]
    assert not OwnedCard.objects.exists()
    good = client.post("/api/collection/shadowera/import/list/", {"text": "2 Test Ally 01\n"}, format="json")
    assert good.status_code == 200 and good.json()["imported"] == 2
    csv_body = {"csv": "key,count\nTest Hero 01,1\n", "mode": "replace"}
    replaced = client.post("/api/collection/shadowera/import/csv/", csv_body, format="json")
    assert replaced.status_code == 200 and replaced.json()["copies"] == 1
    assert owned(owner, "shadowera") == {"Test Hero 01": 1}
    broken = client.post("/api/collection/shadowera/import/csv/", {"csv": "nonsense"}, format="json")
    assert broken.status_code == 400 and broken.json()["problems"][0]["code"] == "csv-header"
    wrong_mode = client.post("/api/collection/shadowera/import/list/", {"text": "1 x", "mode": "x"}, format="json")
    assert wrong_mode.status_code == 400 and "mode" in wrong_mode.json()["errors"]


def test_api_want_list_of_a_public_deck_is_against_my_own_collection(cards, owner, other):
    deck = make_deck(other, "shadowera", [("deck", "Test Ally 01", 3)], visibility="link")
    services.set_count(other, card("shadowera", "Test Ally 01"), 3)  # the deck's owner owns them all
    services.set_count(owner, card("shadowera", "Test Ally 01"), 1)
    wants = api_client(owner, None).get(f"/api/collection/decks/{deck.pk}/wants/", {"token": deck.share_token}).json()
    assert wants["copies_short"] == 2
    assert [(c["card"], c["needed"], c["owned"], c["short"]) for c in wants["cards"]] == [("Test Ally 01", 3, 1, 2)]
    assert "2 TST-001" in wants["text"]
    private = make_deck(other, "shadowera", [("deck", "Test Ally 01", 3)])
    assert api_client(owner, None).get(f"/api/collection/decks/{private.pk}/wants/").status_code == 404
    assert api_client(None, None).get(f"/api/collection/decks/{deck.pk}/wants/").status_code == 401


def test_api_shared_check_takes_my_decks_of_the_game_only(cards, owner, other):
    one = make_deck(owner, "shadowera", [("deck", "Test Ally 01", 2)], name="A")
    two = make_deck(owner, "shadowera", [("deck", "Test Ally 01", 2)], name="B")
    services.set_count(owner, card("shadowera", "Test Ally 01"), 2)
    answer = (
        api_client(owner, None)
        .post("/api/collection/shadowera/shared/", {"decks": [one.pk, two.pk]}, format="json")
        .json()
    )
    assert answer["copies_short"] == 2
    assert answer["cards"][0]["per_deck"] == [2, 2] and answer["cards"][0]["stretched"] is True
    theirs = make_deck(other, "shadowera", [("deck", "Test Ally 01", 1)], visibility="link")
    for decks in ([one.pk, theirs.pk], [one.pk, 10**12]):
        response = api_client(owner, None).post("/api/collection/shadowera/shared/", {"decks": decks}, format="json")
        assert response.status_code == 404
    assert (
        api_client(owner, None).post("/api/collection/suikoden/shared/", {"decks": [one.pk]}, format="json").status_code
        == 404
    )
    too_many = api_client(owner, None).post(
        "/api/collection/shadowera/shared/", {"decks": [one.pk] * 11}, format="json"
    )
    assert too_many.status_code == 400


# --- admin and concurrency


def test_the_admin_refuses_a_count_past_the_bound(cards, owner):
    from django.contrib.auth import get_user_model

    staff = get_user_model().objects.create_superuser("staff-collector", password="staff-password-1234")
    client = Client()
    client.force_login(staff)
    ally = card("shadowera", "Test Ally 01")
    data = {"owner": owner.pk, "card": ally.pk, "count": MAX_OWNED + 1}
    response = client.post("/admin/collection/ownedcard/add/", data)
    assert response.status_code == 200 and str(MAX_OWNED) in response.content.decode()
    assert not OwnedCard.objects.exists()
    assert client.post("/admin/collection/ownedcard/add/", {**data, "count": 3}).status_code == 302
    assert owned(owner, "shadowera") == {"Test Ally 01": 3}


@pytest.mark.django_db(transaction=True)
def test_simultaneous_plus_ones_lose_nothing_on_postgresql(synthetic_cards):
    from concurrent.futures import ThreadPoolExecutor

    from django.db import connection, connections

    if connection.vendor != "postgresql":
        pytest.skip("row locks between connections: PostgreSQL (SQLite serialises writers at BEGIN)")
    user = make_user("racer")
    ally = card("shadowera", "Test Ally 01")

    def plus_one(_index: int) -> int:
        try:
            return services.change_count(user, ally, 1)
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=8) as pool:
        answers = sorted(pool.map(plus_one, range(20)))
    assert answers == list(range(1, 21))
    assert OwnedCard.objects.get(owner=user, card=ally).count == 20
