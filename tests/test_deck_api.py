"""The deck API under /api/decks/: CRUD, entries, verdicts, unsaved validation, permissions, bad bodies."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from knox.models import AuthToken

from decks import services
from decks.models import Deck, DeckEntry

from .support.deck_api import Api, make_deck, rows, url
from .synthetic_decks import card, game
from .users import PASSWORD

pytestmark = pytest.mark.usefixtures("cards")


def make_user(name: str):
    return get_user_model().objects.create_user(name, password=PASSWORD)


AUTH = pytest.mark.parametrize("auth", ["session", "token"])


def state() -> tuple:
    """Everything the API could write, to compare before and after a refused request."""
    decks = tuple(Deck.objects.order_by("pk").values_list("pk", "name", "description", "mode", "visibility"))
    entries = tuple(DeckEntry.objects.order_by("pk").values_list("deck_id", "zone", "card_id", "count"))
    options = tuple(json.dumps(d.options, sort_keys=True) for d in Deck.objects.order_by("pk"))
    return decks, entries, options


SUIKODEN_BODY = {
    "game": "suikoden",
    "name": "テスト水滸伝",
    "description": "synthetic",
    "mode": "construction",
    "options": {"boxes": 2},
    "visibility": "link",
    "entries": [
        {"zone": "characters", "card": "901", "count": 1},
        {"zone": "characters", "card": "テスト人物03", "count": 1},
        {"zone": "lands", "card": "903", "count": 2},
    ],
}


# --- create, read, list ------------------------------------------------------------------------------


@AUTH
def test_create_and_retrieve(alice, auth):
    api = Api(alice, auth)
    response = api.post(url(), SUIKODEN_BODY, HTTP_ACCEPT_LANGUAGE="zh-hant")
    assert response.status_code == 201, response.content
    body = response.json()
    deck = Deck.objects.get(pk=body["id"])
    assert response["Location"].endswith(f"/api/decks/{deck.pk}/")
    assert deck.owner == alice
    assert (body["game"], body["name"], body["mode"], body["options"], body["visibility"]) == (
        "suikoden",
        "テスト水滸伝",
        "construction",
        {"boxes": 2},
        "link",
    )
    assert body["owner"] == "alice"
    assert body["is_owner"] is True
    assert body["share_token"] == deck.share_token
    assert body["card_count"] == 4
    assert body["entries"] == [
        {"zone": "characters", "card": "901", "number": "901", "name": "測試林沖", "count": 1},
        {"zone": "characters", "card": "テスト人物03", "number": None, "name": "テスト人物03", "count": 1},
        {"zone": "lands", "card": "903", "number": "903", "name": "測試土地01", "count": 2},
    ]
    again = api.get(url(deck), HTTP_ACCEPT_LANGUAGE="en").json()
    assert again["entries"][0]["name"] == "テスト林沖"  # no English name: the original's
    assert api.get(url(deck), {"lang": "zh-hant"}).json()["entries"][0]["name"] == "測試林沖"


def test_create_with_defaults(alice):
    response = Api(alice).post(url(), {"game": "suikoden", "name": "最小"})
    assert response.status_code == 201, response.content
    body = response.json()
    assert (body["mode"], body["options"], body["visibility"], body["entries"]) == (
        "construction",
        {"boxes": 1},
        "private",
        [],
    )


@AUTH
def test_list_own(alice, bob, auth):
    mine_private = make_deck(alice, name="alice private")
    mine_link = make_deck(alice, Deck.Visibility.LINK, name="alice link")
    make_deck(bob, name="bob private")
    make_deck(bob, Deck.Visibility.LINK, name="bob link")
    api = Api(alice, auth)
    names = {deck["name"] for deck in api.get(url()).json()["results"]}
    assert names == {mine_private.name, mine_link.name}  # decks are never public: others' are not listed
    mine = api.get(url(), {"mine": "1"}).json()
    assert {deck["name"] for deck in mine["results"]} == {mine_private.name, mine_link.name}
    assert mine["count"] == 2
    listed = {deck["name"]: deck for deck in api.get(url()).json()["results"]}
    assert listed["alice link"]["share_token"] == mine_link.share_token
    assert listed["alice private"]["card_count"] == 5


def test_list_by_game_and_anonymous(alice):
    make_deck(alice, Deck.Visibility.LINK, name="shadow")
    services.create_deck(owner=alice, game=game("suikoden"), name="suiko", visibility=Deck.Visibility.LINK)
    make_deck(alice, name="hidden")
    anonymous = Api()
    assert anonymous.get(url()).json()["results"] == []  # decks are never public
    assert {d["name"] for d in Api(alice).get(url()).json()["results"]} == {"shadow", "suiko", "hidden"}
    assert [d["name"] for d in Api(alice).get(url(), {"game": "suikoden"}).json()["results"]] == ["suiko"]
    bad = anonymous.get(url(), {"game": "nope"})
    assert bad.status_code == 400
    # No language asked for: the site's own (Japanese), lists in Japanese style.
    assert bad.json()["errors"] == {
        "game": ["ゲーム「nope」はありません。ゲーム: endbreaker、shadowera、suikoden、epicbattles。"]
    }
    assert anonymous.get(url(), {"mine": "1"}).status_code == 401


def test_a_json_export_feeds_a_create(alice, client):
    deck = make_deck(alice, Deck.Visibility.LINK)
    exported = json.loads(client.get(f"/decks/shared/{deck.share_token}/export.json").content)
    body = {
        "game": exported["game"],
        "name": "copy",
        "mode": exported["mode"],
        "options": exported["options"],
        "entries": [
            {"zone": zone, "card": entry["key"], "count": entry["count"]}
            for zone, entries in exported["zones"].items()
            for entry in entries
        ],
    }
    response = Api(alice, "token").post(url(), body)
    assert response.status_code == 201, response.content
    assert rows(Deck.objects.get(pk=response.json()["id"])) == rows(deck)


# --- change and delete ------------------------------------------------------------------------------------


@AUTH
def test_patch_fields(alice, auth):
    deck = make_deck(alice)
    api = Api(alice, auth)
    response = api.patch(
        url(deck), {"name": "新しい名前", "description": "説明", "options": {"copies": 2}, "visibility": "link"}
    )
    assert response.status_code == 200, response.content
    deck.refresh_from_db()
    assert (deck.name, deck.description, deck.options, deck.visibility) == ("新しい名前", "説明", {"copies": 2}, "link")
    assert rows(deck) == {("hero", "Test Hero 01", 1), ("deck", "Test Ally 01", 4)}  # entries untouched


@AUTH
def test_patch_and_put_entries(alice, auth):
    deck = make_deck(alice)
    api = Api(alice, auth)
    new = [{"zone": "deck", "card": "Test Ally 02", "count": 3}, {"zone": "hero", "card": "Test Hero 01", "count": 1}]
    response = api.patch(url(deck), {"entries": new})
    assert response.status_code == 200, response.content
    assert rows(deck) == {("deck", "Test Ally 02", 3), ("hero", "Test Hero 01", 1)}
    response = api.put(url(deck), {"name": "PUT", "entries": new[:1]})
    assert response.status_code == 200, response.content
    assert rows(deck) == {("deck", "Test Ally 02", 3)}
    assert response.json()["name"] == "PUT"
    missing = api.put(url(deck), {"name": "no entries"}, HTTP_ACCEPT_LANGUAGE="en")
    assert missing.json()["errors"] == {"entries": ["This field is required."]}
    # The entries sub-resource: PUT replaces, PATCH sets counts (0 removes), GET lists.
    response = api.put(url(deck, "entries/"), {"entries": new})
    assert response.status_code == 200, response.content
    assert {(e["zone"], e["card"], e["count"]) for e in response.json()} == {
        ("deck", "Test Ally 02", 3),
        ("hero", "Test Hero 01", 1),
    }
    response = api.patch(
        url(deck, "entries/"),
        {
            "entries": [
                {"zone": "deck", "card": "Test Ally 02", "count": 0},
                {"zone": "deck", "card": "TestAlly01x", "count": 1},
            ]
        },
    )
    assert response.status_code == 400
    assert rows(deck) == {("deck", "Test Ally 02", 3), ("hero", "Test Hero 01", 1)}
    response = api.patch(
        url(deck, "entries/"),
        {
            "entries": [
                {"zone": "deck", "card": "Test Ally 02", "count": 0},
                {"zone": "deck", "card": "Test Ally 01", "count": 2},
            ]
        },
    )
    assert response.status_code == 200, response.content
    assert rows(deck) == {("deck", "Test Ally 01", 2), ("hero", "Test Hero 01", 1)}
    assert len(api.get(url(deck, "entries/")).json()) == 2


@AUTH
def test_delete(alice, auth):
    deck = make_deck(alice)
    assert Api(alice, auth).delete(url(deck)).status_code == 204
    assert not Deck.objects.filter(pk=deck.pk).exists()
    assert not DeckEntry.objects.filter(deck_id=deck.pk).exists()


# --- verdicts -------------------------------------------------------------------------------------------------


@AUTH
def test_validate_a_deck(alice, auth):
    deck = make_deck(alice)
    api = Api(alice, auth)
    response = api.get(url(deck, "validate/"), {"lang": "en"})
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["legal"] is False
    assert body["checked"] is True
    assert body["totals"] == [
        {"zone": "hero", "label": "Hero", "count": 1},
        {"zone": "deck", "label": "Deck", "count": 4},
    ]
    sizes = [f for f in body["findings"] if f["rule"] == "shadowera.size"]
    assert sizes == [
        {
            "rule": "shadowera.size",
            "kind": "violation",
            "message": "Deck with the hero: 5 cards (40 to 80)",
            "cards": [],
        }
    ]
    assert api.post(url(deck, "validate/")).json() == api.get(url(deck, "validate/")).json()
    japanese = api.post(url(deck, "validate/"), HTTP_ACCEPT_LANGUAGE="ja").json()
    assert {f["message"] for f in japanese["findings"] if f["rule"] == "shadowera.size"} == {
        "ヒーローを含むデッキ：5枚（40〜80枚）"
    }
    assert api.get(url(deck, "validate/"), {"lang": "zh-hant"}).json()["totals"][0]["label"] == "英雄"


def test_validate_a_legal_deck(alice):
    entries = [("hero", card("shadowera", "Test Hero 01"), 1)]
    entries += [("deck", card("shadowera", key), 4) for key in ("Test Ally 01", "Test Ally 02")]
    deck = services.create_deck(owner=alice, game=game("shadowera"), name="x", entries=entries)
    body = Api(alice).get(url(deck, "validate/"), {"lang": "en"}).json()
    assert [f["rule"] for f in body["findings"]] == ["shadowera.size"]
    services.set_count(deck, "deck", card("shadowera", "Test Ally 01"), 39)
    services.update_deck(deck, options={"copies": 4})
    body = Api(alice).get(url(deck, "validate/"), {"lang": "en"}).json()
    assert [f["rule"] for f in body["findings"]] == ["shadowera.copies"]
    assert body["findings"][0]["cards"] == ["Test Ally 01"]


def test_validate_an_unsaved_deck(alice):
    before = state()
    body = {
        "game": "epicbattles",
        "entries": [
            {"zone": "character", "card": "Test-Zero", "count": 1},
            {"zone": "deck", "card": "Test Punch", "count": 4},
            {"zone": "deck", "card": "Test Punch", "count": 1},
            {"zone": "side", "card": "Test Side Guard", "count": 1},
        ],
    }
    for api in (Api(), Api(alice), Api(alice, "token")):
        response = api.post(url(None, "validate/"), body, HTTP_ACCEPT_LANGUAGE="en")
        assert response.status_code == 200, response.content
        verdict = response.json()
        assert verdict["legal"] is False
        assert verdict["totals"] == [
            {"zone": "character", "label": "Character", "count": 1},
            {"zone": "deck", "label": "Deck", "count": 5},
            {"zone": "side", "label": "Side deck", "count": 1},
        ]
        rules = {f["rule"] for f in verdict["findings"]}
        assert {"epicbattles.deck-size", "epicbattles.copies", "epicbattles.side-size"} <= rules
    assert state() == before
    bad = Api().post(
        url(None, "validate/"), {"game": "epicbattles", "entries": [{"zone": "deck", "card": "Nope", "count": 1}]}
    )
    assert bad.status_code == 400
    assert bad.json()["errors"] == {"entries[0].card": ["Epic Battlesにカード「Nope」はありません。"]}
    assert state() == before


def test_validate_a_mode_without_checks(alice):
    body = {"game": "suikoden", "mode": "shared", "entries": []}
    verdict = Api().post(url(None, "validate/"), body).json()
    assert (verdict["legal"], verdict["checked"], verdict["findings"]) == (False, False, [])


# --- permissions -----------------------------------------------------------------------------------------------


@AUTH
def test_private_deck_is_not_found_for_others(alice, bob, auth):
    deck = make_deck(alice)
    before = state()
    api = Api(bob, auth)
    for response in (
        api.get(url(deck)),
        api.get(url(deck, "entries/")),
        api.get(url(deck, "validate/")),
        api.post(url(deck, "validate/")),
        api.patch(url(deck), {"name": "taken"}),
        api.put(url(deck), {"name": "taken", "entries": []}),
        api.put(url(deck, "entries/"), {"entries": []}),
        api.patch(url(deck, "entries/"), {"entries": []}),
        api.delete(url(deck)),
        api.get(url(deck), {"token": "wrong"}),
    ):
        assert response.status_code == 404, (response.request, response.content)
    assert api.get(url(99999)).status_code == 404
    assert state() == before


@AUTH
def test_shared_deck_is_read_only_for_others(alice, bob, auth):
    deck = make_deck(alice, Deck.Visibility.LINK)
    before = state()
    api = Api(bob, auth)
    token = f"?token={deck.share_token}"
    assert api.get(url(deck) + token).status_code == 200
    assert api.get(url(deck) + token).json()["share_token"] is None
    assert api.get(url(deck, "validate/") + token).status_code == 200
    assert api.post(url(deck, "validate/") + token).status_code == 200
    for response in (
        api.patch(url(deck) + token, {"name": "taken"}),
        api.put(url(deck) + token, {"name": "taken", "entries": []}),
        api.put(url(deck, "entries/") + token, {"entries": []}),
        api.patch(url(deck, "entries/") + token, {"entries": []}),
        api.delete(url(deck) + token),
    ):
        assert response.status_code == 403, (response.request, response.content)
    assert state() == before


@AUTH
def test_link_deck_needs_its_token(alice, bob, auth):
    deck = make_deck(alice, Deck.Visibility.LINK)
    before = state()
    api = Api(bob, auth)
    assert api.get(url(deck)).status_code == 404
    assert api.patch(url(deck), {"name": "taken"}).status_code == 404
    assert api.get(url(deck), {"token": deck.share_token}).status_code == 200
    assert api.get(url(deck, "validate/"), {"token": deck.share_token}).status_code == 200
    assert api.patch(url(deck) + f"?token={deck.share_token}", {"name": "taken"}).status_code == 403
    assert state() == before


def test_anonymous_may_read_shared_decks_and_write_nothing(alice):
    private = make_deck(alice)
    public = make_deck(alice, Deck.Visibility.LINK)
    before = state()
    api = Api()
    assert api.get(url(public), {"token": public.share_token}).status_code == 200
    assert api.get(url(private)).status_code == 404
    for response in (
        api.post(url(), SUIKODEN_BODY),
        api.patch(url(public), {"name": "taken"}),
        api.put(url(public), {"name": "taken", "entries": []}),
        api.delete(url(public)),
        api.put(url(public, "entries/"), {"entries": []}),
        api.patch(url(private), {"name": "taken"}),
        api.delete(url(private)),
    ):
        assert response.status_code == 401, (response.request, response.content)
        assert response["WWW-Authenticate"] == "Token"
    assert state() == before


def test_bad_token_is_refused(alice):
    deck = make_deck(alice, Deck.Visibility.LINK)
    response = Api().get(url(deck), HTTP_AUTHORIZATION="Token not-a-token")
    assert response.status_code == 401


def test_obtain_a_token_and_use_it(alice):
    client = Client()
    response = client.post("/api/accounts/token/", {"username": "alice", "password": PASSWORD})
    assert response.status_code == 201
    key = response.json()["token"]
    assert AuthToken.objects.get(user=alice).token_key == key[:15] == response.json()["token_key"]
    created = client.post(
        url(), json.dumps(SUIKODEN_BODY), content_type="application/json", HTTP_AUTHORIZATION=f"Token {key}"
    )
    assert created.status_code == 201
    assert client.post("/api/accounts/token/", {"username": "alice", "password": "wrong"}).status_code == 400


def test_session_writes_need_the_csrf_token_and_token_writes_do_not(alice):
    before = state()
    api = Api(alice, "session", enforce_csrf_checks=True)
    response = api.post(url(), SUIKODEN_BODY)
    assert response.status_code == 403
    assert "CSRF" in response.json()["detail"]
    assert state() == before
    token_api = Api(alice, "token", enforce_csrf_checks=True)
    assert token_api.post(url(), SUIKODEN_BODY).status_code == 201


# --- bad bodies: 400, naming the field, nothing written ------------------------------------------------------


BAD_CREATES = [
    ({"name": "x"}, {"game": ["This field is required."]}),
    ({"game": "nope", "name": "x"}, {"game": ["No game 'nope'. Games: endbreaker, shadowera, suikoden, epicbattles."]}),
    ({"game": "suikoden", "name": "   "}, {"name": ["This field may not be blank."]}),
    (
        {"game": "suikoden", "name": "x", "mode": "solo"},
        {"mode": ["'solo' is not a mode of Otome Yuugi Suikoden (modes: construction, shared, multiplayer)."]},
    ),
    ({"game": "suikoden", "name": "x", "options": {"boxes": 3}}, {"options": ["boxes must be one of 1, 2, 4."]}),
    (
        {"game": "suikoden", "name": "x", "options": {"sleeves": 1}},
        {"options": ["'sleeves' is not an option of Otome Yuugi Suikoden (options: boxes)."]},
    ),
    ({"game": "suikoden", "name": "x", "visibility": "secret"}, {"visibility": ['"secret" is not a valid choice.']}),
    (
        {"game": "suikoden", "name": "x", "entries": {"zone": "characters"}},
        {"entries": ['Expected a list of items but got type "dict".']},
    ),
    (
        {
            "game": "suikoden",
            "name": "x",
            "entries": [
                {"zone": "characters", "card": "901", "count": 1},
                {"zone": "characters", "card": "nope", "count": 1},
            ],
        },
        {"entries[1].card": ["No card 'nope' in Otome Yuugi Suikoden."]},
    ),
    (
        {"game": "suikoden", "name": "x", "entries": [{"zone": "deck", "card": "901", "count": 1}]},
        {"entries[0].zone": ["'deck' is not a zone of Otome Yuugi Suikoden decks (zones: characters, lands)."]},
    ),
    (
        {"game": "endbreaker", "name": "x", "entries": [{"zone": "starting", "card": "EB9-001", "count": 1}]},
        {
            "entries[0].zone": [
                "'starting' is fixed by the game and holds no entries (zones: supply, jobs, masquerades)."
            ]
        },
    ),
    (
        {"game": "suikoden", "name": "x", "entries": [{"zone": "characters", "card": "901", "count": 0}]},
        {"entries[0].count": ["Ensure this value is greater than or equal to 1."]},
    ),
    (
        {"game": "suikoden", "name": "x", "entries": [{"zone": "characters", "card": "901", "count": 100}]},
        {"entries[0].count": ["Ensure this value is less than or equal to 99."]},
    ),
    (
        {"game": "suikoden", "name": "x", "entries": [{"zone": "characters", "card": "901"}]},
        {"entries[0].count": ["This field is required."]},
    ),
    (
        {
            "game": "suikoden",
            "name": "x",
            "entries": [
                {"zone": "characters", "card": "901", "count": 60},
                {"zone": "characters", "card": "901", "count": 40},
            ],
        },
        {"entries[1].count": ["100 copies of 901 in Characters in all; at most 99."]},
    ),
    (
        # A card of another game is unknown in this one.
        {"game": "suikoden", "name": "x", "entries": [{"zone": "characters", "card": "Test Punch", "count": 1}]},
        {"entries[0].card": ["No card 'Test Punch' in Otome Yuugi Suikoden."]},
    ),
    (
        # Every problem at once.
        {"game": "suikoden", "name": "x", "mode": "solo", "entries": [{"zone": "x", "card": "y", "count": 1}]},
        {
            "mode": ["'solo' is not a mode of Otome Yuugi Suikoden (modes: construction, shared, multiplayer)."],
            "entries[0].zone": ["'x' is not a zone of Otome Yuugi Suikoden decks (zones: characters, lands)."],
            "entries[0].card": ["No card 'y' in Otome Yuugi Suikoden."],
        },
    ),
]


@pytest.mark.parametrize(("body", "errors"), BAD_CREATES)
def test_bad_create_bodies(alice, body, errors):
    before = state()
    response = Api(alice, "token").post(url(), body, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400, response.content
    answer = response.json()
    assert answer["errors"] == errors
    for path in errors:
        assert path in answer["detail"]
    assert state() == before


def test_not_json(alice):
    response = Api(alice, "token").post(url(), None, data="{", content_type="application/json")
    assert response.status_code == 400
    assert state() == ((), (), ())


@AUTH
def test_bad_changes_write_nothing(alice, auth):
    deck = make_deck(alice)
    before = state()
    api = Api(alice, auth)
    api.headers["HTTP_ACCEPT_LANGUAGE"] = "en"
    cases = [
        (
            api.patch(url(deck), {"name": "changed", "entries": [{"zone": "deck", "card": "nope", "count": 1}]}),
            {"entries[0].card": ["No card 'nope' in Shadow Era."]},
        ),
        (
            api.patch(url(deck), {"visibility": "link", "options": {"copies": 7}}),
            {"options": ["copies must be one of 1, 2, 3, 4."]},
        ),
        (
            api.patch(url(deck), {"game": "suikoden"}),
            {"game": ["A deck's game cannot be changed (this deck is of Shadow Era)."]},
        ),
        (api.patch(url(deck), {"name": ""}), {"name": ["This field may not be blank."]}),
        (
            api.put(url(deck), {"name": "changed", "entries": [{"zone": "hero", "card": "Test Hero 01", "count": -1}]}),
            {"entries[0].count": ["Ensure this value is greater than or equal to 1."]},
        ),
        (
            api.put(url(deck, "entries/"), {"entries": [{"zone": "side", "card": "Test Hero 01", "count": 1}]}),
            {"entries[0].zone": ["'side' is not a zone of Shadow Era decks (zones: hero, deck)."]},
        ),
        (
            api.patch(
                url(deck, "entries/"),
                {
                    "entries": [
                        {"zone": "deck", "card": "Test Ally 01", "count": 1},
                        {"zone": "deck", "card": "Test Ally 01", "count": 2},
                    ]
                },
            ),
            {"entries[1]": ["The same zone and card as entries[0]."]},
        ),
        (api.put(url(deck, "entries/"), [{"zone": "deck", "card": "Test Ally 01", "count": 1}]), None),
    ]
    for response, errors in cases:
        assert response.status_code == 400, response.content
        if errors is not None:
            assert response.json()["errors"] == errors
    assert state() == before


def test_schema_documents_the_deck_api(client):
    response = client.get("/api/schema/", HTTP_ACCEPT="application/json")
    assert response.status_code == 200
    paths = json.loads(response.content)["paths"]
    for path in (
        "/api/decks/",
        "/api/decks/{id}/",
        "/api/decks/{id}/entries/",
        "/api/decks/{id}/validate/",
        "/api/decks/validate/",
        "/api/accounts/token/",
    ):
        assert path in paths
    assert {"get", "put", "patch", "delete"} <= set(paths["/api/decks/{id}/"])
    assert {"get", "put", "patch"} <= set(paths["/api/decks/{id}/entries/"])
    assert {"get", "post"} <= set(paths["/api/decks/{id}/validate/"])
