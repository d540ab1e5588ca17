"""Deck pages, accounts and the htmx builder (Django's test client), on clearly synthetic cards."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from decks import selectors, services
from decks.models import Deck, DeckEntry

from .support.clients import signed_in
from .support.html import parse, squash
from .support.suikoden_cards import card, game, make_deck
from .users import PASSWORD

# --- synthetic cards ------------------------------------------------------------------------------


def snapshot(deck: Deck) -> tuple:
    """Everything a write could change about the deck."""
    deck.refresh_from_db()
    entries = sorted(DeckEntry.objects.filter(deck=deck).values_list("zone", "card__key", "count"))
    return (deck.name, deck.mode, json.dumps(deck.options, sort_keys=True), deck.visibility, deck.updated_at, entries)


def hx(client: Client, url: str, data: dict | None = None):
    """An htmx POST (or GET without data) as the builder sends it."""
    headers = {"HX-Request": "true", "HX-Current-URL": "http://testserver/decks/"}
    if data is None:
        return client.get(url, headers=headers)
    return client.post(url, data, headers=headers)


# --- accounts -------------------------------------------------------------------------------------


def test_signup_creates_an_account_and_logs_in(db):
    client = signed_in(cookie=True)
    page = parse(client.get("/accounts/signup/"))
    form = page.find("form", cls="stacked-form")
    assert form.find_all("input", name="csrfmiddlewaretoken")
    response = client.post("/accounts/signup/", {"username": "newplayer", "password1": PASSWORD, "password2": PASSWORD})
    assert response.status_code == 302
    assert response["Location"] == "/decks/"
    assert get_user_model().objects.filter(username="newplayer").exists()
    page = parse(client.get("/decks/"))
    assert squash(page.find(cls="user-name").text) == "newplayer"


def test_signup_with_mismatched_passwords_creates_nobody(db):
    client = signed_in(cookie=True)
    response = client.post("/accounts/signup/", {"username": "x", "password1": PASSWORD, "password2": "other-42xyz"})
    assert response.status_code == 200
    assert parse(response).find_all("ul", cls="errorlist")
    assert not get_user_model().objects.filter(username="x").exists()


def test_signup_goes_on_to_next(db):
    client = signed_in(cookie=True)
    response = client.post(
        "/accounts/signup/?next=/decks/new/",
        {"username": "n", "password1": PASSWORD, "password2": PASSWORD, "next": "/decks/new/"},
    )
    assert response["Location"] == "/decks/new/"
    response = client.post(
        "/accounts/signup/",
        {"username": "m", "password1": PASSWORD, "password2": PASSWORD, "next": "https://evil.example/"},
    )
    assert response["Location"] == "/decks/"


def test_login_and_logout(owner):
    client = signed_in(cookie=True)
    page = parse(client.get("/"))
    nav = page.find("nav", cls="account-nav")
    assert {squash(a.text) for a in nav.find_all("a")} >= {"My decks", "Published decks", "Log in", "Sign up"}
    assert client.get("/decks/")["Location"].startswith("/accounts/login/?next=/decks/")

    response = client.post("/accounts/login/", {"username": "owner", "password": PASSWORD})
    assert response.status_code == 302 and response["Location"] == "/decks/"
    page = parse(client.get("/decks/"))
    nav = page.find("nav", cls="account-nav")
    assert squash(nav.find(cls="user-name").text) == "owner"
    logout = nav.find("form", cls="logout-form")
    assert logout.attrs["method"] == "post" and logout.find_all("input", name="csrfmiddlewaretoken")

    assert client.get("/accounts/logout/").status_code == 405  # logging out takes a POST
    response = client.post("/accounts/logout/")
    assert response.status_code == 302 and response["Location"] == "/"
    assert client.get("/decks/").status_code == 302


def test_login_with_a_wrong_password_fails(owner):
    client = signed_in(cookie=True)
    response = client.post("/accounts/login/", {"username": "owner", "password": "wrong-password"})
    assert response.status_code == 200
    assert "_auth_user_id" not in client.session


def test_password_change(owner):
    client = signed_in(owner, cookie=True)
    assert client.get("/accounts/password_change/").status_code == 200
    new_password = "another-horse-staple-77"
    response = client.post(
        "/accounts/password_change/",
        {"old_password": PASSWORD, "new_password1": new_password, "new_password2": new_password},
    )
    assert response.status_code == 302 and response["Location"] == "/accounts/password_change/done/"
    assert client.get(response["Location"]).status_code == 200
    owner.refresh_from_db()
    assert owner.check_password(new_password)
    # Through the log-in page (the test client's login() gives authenticate() no request, which the
    # lock on failed log-ins needs).
    login = signed_in(cookie=True).post("/accounts/login/", {"username": "owner", "password": new_password})
    assert login.status_code == 302


def test_password_change_needs_the_old_password(owner):
    client = signed_in(owner, cookie=True)
    response = client.post(
        "/accounts/password_change/",
        {"old_password": "wrong", "new_password1": "a-b-c-d-1234", "new_password2": "a-b-c-d-1234"},
    )
    assert response.status_code == 200
    owner.refresh_from_db()
    assert owner.check_password(PASSWORD)


def test_forms_are_refused_without_a_csrf_token(owner, suikoden_cards):
    deck = make_deck(owner)
    client = Client(enforce_csrf_checks=True)
    client.force_login(owner)
    assert client.post("/accounts/logout/").status_code == 403
    assert client.post(f"/decks/{deck.pk}/delete/").status_code == 403
    row = card("テスト人物02")
    assert (
        client.post(f"/decks/{deck.pk}/edit/entry/", {"zone": "characters", "card": row.pk, "delta": 1}).status_code
        == 403
    )
    assert Deck.objects.filter(pk=deck.pk).exists()
    assert not deck.entries.filter(card=row).exists()


def test_every_post_form_carries_a_csrf_token(owner, suikoden_cards):
    deck = make_deck(owner, Deck.Visibility.LINK)
    client = signed_in(owner, cookie=True)
    urls = [
        "/",
        "/decks/",
        "/decks/new/",
        f"/decks/{deck.pk}/",
        f"/decks/{deck.pk}/edit/",
        f"/decks/{deck.pk}/settings/",
        f"/decks/{deck.pk}/delete/",
        "/accounts/password_change/",
    ]
    for url in urls:
        page = parse(client.get(url))
        forms = [form for form in page.find_all("form") if form.attrs.get("method", "").lower() == "post"]
        assert forms, url
        for form in forms:
            assert form.find_all("input", name="csrfmiddlewaretoken"), f"{url}: {form.attrs}"
    # htmx requests send the token in a header, from <body hx-headers>
    body = parse(client.get(f"/decks/{deck.pk}/edit/")).find("body")
    assert "X-CSRFToken" in body.attrs["hx-headers"]


# --- permissions ----------------------------------------------------------------------------------

VISIBILITIES = [Deck.Visibility.PRIVATE, Deck.Visibility.LINK]
ACTORS = ["owner", "other", "anonymous"]


def actor_client(actor: str, owner, other) -> Client:
    return signed_in({"owner": owner, "other": other, "anonymous": None}[actor], cookie=True)


# What a deck's page answers: (actor, visibility) -> status.
VIEW_STATUS = {
    ("owner", "private"): 200,
    ("owner", "link"): 200,
    ("other", "private"): 404,
    ("other", "link"): 404,  # a shared deck is seen only through its share link
    ("anonymous", "private"): 404,
    ("anonymous", "link"): 404,
}


@pytest.mark.parametrize("visibility", VISIBILITIES)
@pytest.mark.parametrize("actor", ACTORS)
def test_deck_page(actor, visibility, owner, other, suikoden_cards):
    deck = make_deck(owner, visibility)
    response = actor_client(actor, owner, other).get(f"/decks/{deck.pk}/")
    assert response.status_code == VIEW_STATUS[(actor, visibility)]
    if response.status_code == 200:
        assert squash(parse(response).find("h1").text) == deck.name
    else:
        assert deck.name not in response.content.decode()


@pytest.mark.parametrize("visibility", VISIBILITIES)
@pytest.mark.parametrize("actor", ACTORS)
def test_share_link(actor, visibility, owner, other, suikoden_cards):
    deck = make_deck(owner, visibility)
    response = actor_client(actor, owner, other).get(f"/decks/shared/{deck.share_token}/")
    # a private deck is not shared, not even to its owner through the link
    assert response.status_code == (404 if visibility == "private" else 200)
    assert actor_client(actor, owner, other).get("/decks/shared/not-a-token/").status_code == 404


def change_status(actor: str, visibility: str) -> int | str:
    """What a page or POST that changes the deck answers: the owner gets through, others 403/404."""
    if actor == "anonymous":
        return "login"
    if actor == "owner":
        return "ok"
    return 404  # a deck is never public: someone else sees it only through its share link


def assert_answer(response, expected, ok_statuses=(200, 302)) -> None:
    if expected == "login":
        assert response.status_code == 302
        assert response["Location"].startswith("/accounts/login/")
    elif expected == "ok":
        assert response.status_code in ok_statuses, response.status_code
    else:
        assert response.status_code == expected


@pytest.mark.parametrize("page", ["edit/", "settings/", "delete/", "edit/search/?q=テスト"])
@pytest.mark.parametrize("visibility", VISIBILITIES)
@pytest.mark.parametrize("actor", ACTORS)
def test_owner_only_pages(actor, visibility, page, owner, other, suikoden_cards):
    deck = make_deck(owner, visibility)
    response = actor_client(actor, owner, other).get(f"/decks/{deck.pk}/{page}")
    assert_answer(response, change_status(actor, visibility), ok_statuses=(200,))


def _posts(deck: Deck) -> dict[str, dict]:
    return {
        "edit/entry/": {"zone": "characters", "card": card("テスト人物02").pk, "delta": 1},
        "settings/": {
            "name": "changed",
            "description": "",
            "mode": "construction",
            "visibility": "link",
            "option_boxes": "1",
        },
        "delete/": {},
    }


@pytest.mark.parametrize("action", ["edit/entry/", "settings/", "delete/"])
@pytest.mark.parametrize("visibility", VISIBILITIES)
@pytest.mark.parametrize("actor", ["other", "anonymous"])
def test_changes_by_anyone_but_the_owner_are_refused(actor, visibility, action, owner, other, suikoden_cards):
    deck = make_deck(owner, visibility)
    before = snapshot(deck)
    response = actor_client(actor, owner, other).post(f"/decks/{deck.pk}/{action}", _posts(deck)[action])
    assert_answer(response, change_status(actor, visibility))
    assert Deck.objects.filter(pk=deck.pk).exists()
    assert snapshot(deck) == before


@pytest.mark.parametrize("visibility", VISIBILITIES)
def test_htmx_changes_by_anyone_but_the_owner(visibility, owner, other, suikoden_cards):
    deck = make_deck(owner, visibility)
    before = snapshot(deck)
    data = _posts(deck)["edit/entry/"]
    response = hx(signed_in(other, cookie=True), f"/decks/{deck.pk}/edit/entry/", data)
    expected = 404
    assert response.status_code == expected
    assert response["HX-Retarget"] == "#builder-message"
    message = squash(parse(response).find("p", cls="error-message").text)
    assert message == (
        "Only the owner of this deck can change it."
        if expected == 403
        else "There is no such deck, or it is not yours."
    )
    # not logged in: htmx is told to go to the login page
    response = hx(signed_in(cookie=True), f"/decks/{deck.pk}/edit/entry/", data)
    assert response.status_code == 200
    assert response["HX-Redirect"].startswith("/accounts/login/?next=/decks/")
    assert snapshot(deck) == before


def test_anonymous_post_goes_back_to_the_page_after_login(owner, suikoden_cards):
    deck = make_deck(owner, Deck.Visibility.LINK)
    response = signed_in(cookie=True).post(
        f"/decks/{deck.pk}/copy/", headers={"Referer": f"http://testserver/decks/{deck.pk}/"}
    )
    assert response["Location"] == f"/accounts/login/?next=/decks/{deck.pk}/"
    response = signed_in(cookie=True).post(f"/decks/{deck.pk}/copy/", headers={"Referer": "https://evil.example/x"})
    assert response["Location"] == "/accounts/login/"


def test_owner_changes_go_through(owner, suikoden_cards):
    deck = make_deck(owner)
    client = signed_in(owner, cookie=True)
    response = client.post(f"/decks/{deck.pk}/edit/entry/", _posts(deck)["edit/entry/"])
    assert response.status_code == 302 and response["Location"] == f"/decks/{deck.pk}/edit/"  # without htmx
    assert deck.entries.get(card__key="テスト人物02").count == 1
    response = client.post(f"/decks/{deck.pk}/settings/", _posts(deck)["settings/"])
    assert response.status_code == 302
    deck.refresh_from_db()
    assert (deck.name, deck.visibility) == ("changed", "link")


@pytest.mark.parametrize("visibility", VISIBILITIES)
@pytest.mark.parametrize("actor", ACTORS)
def test_copy(actor, visibility, owner, other, suikoden_cards):
    deck = make_deck(owner, visibility)
    client = actor_client(actor, owner, other)
    decks_before = Deck.objects.count()
    response = client.post(f"/decks/{deck.pk}/copy/")
    if actor == "anonymous":
        assert_answer(response, "login")
    elif actor == "owner":
        copy = Deck.objects.exclude(pk=deck.pk).get()
        assert response.status_code == 302 and response["Location"] == f"/decks/{copy.pk}/edit/"
        user = owner if actor == "owner" else other
        assert copy.owner == user and copy.visibility == "private"
        assert sorted(copy.entries.values_list("zone", "card__key", "count")) == sorted(
            deck.entries.values_list("zone", "card__key", "count")
        )
        return
    else:
        assert response.status_code == 404
    assert Deck.objects.count() == decks_before
    if actor == "other" and visibility == "link":
        # whoever has the link may copy the deck
        response = client.post(f"/decks/{deck.pk}/copy/", {"token": deck.share_token})
        assert response.status_code == 302
        assert Deck.objects.filter(owner=other).count() == 1
        assert client.post(f"/decks/{deck.pk}/copy/", {"token": "wrong"}).status_code == 404


def test_copy_button_only_for_logged_in_users(owner, other, suikoden_cards):
    deck = make_deck(owner, Deck.Visibility.LINK)
    url = f"/decks/shared/{deck.share_token}/"
    page = parse(signed_in(other, cookie=True).get(url))
    form = page.find("form", action=f"/decks/{deck.pk}/copy/")
    assert form.find("input", name="token").attrs["value"] == deck.share_token
    page = parse(signed_in(cookie=True).get(url))
    assert not page.find_all("form", action=f"/decks/{deck.pk}/copy/")
    assert page.find("a", href=f"/accounts/login/?next={url}")


def test_my_decks_lists_only_mine(owner, other, suikoden_cards):
    mine = make_deck(owner, name="わたしのデッキ")
    theirs = make_deck(other, Deck.Visibility.LINK, name="ほかのデッキ")
    page = parse(signed_in(owner, cookie=True).get("/decks/"))
    rows = page.find("table", cls="deck-list").find_all("tr", data_deck=str(mine.pk))
    assert rows and "3" in squash(rows[0].text)  # 1 character and 2 lands
    assert not page.find_all("tr", data_deck=str(theirs.pk))
    assert page.find("a", href="/decks/new/")


# --- new deck, settings, delete -------------------------------------------------------------------


def test_new_deck(owner, suikoden_cards):
    client = signed_in(owner, cookie=True)
    page = parse(client.get("/decks/new/?game=endbreaker"))
    assert [o.attrs["value"] for o in page.find("select", name="mode").find_all("option")] == ["default"]
    page = parse(client.get("/decks/new/?game=suikoden"))
    modes = [o.attrs["value"] for o in page.find("select", name="mode").find_all("option")]
    assert modes == ["construction", "shared", "multiplayer"]
    # the game select reloads the modes with htmx
    field = page.find("div", hx_get="/decks/new/")
    assert field.attrs["hx-select"] == "#mode-field"

    response = client.post("/decks/new/", {"game": "suikoden", "name": "  新しいデッキ ", "mode": "shared"})
    deck = Deck.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/decks/{deck.pk}/edit/"
    assert (deck.owner, deck.game.slug, deck.name, deck.mode) == (owner, "suikoden", "新しいデッキ", "shared")
    assert deck.options == {"boxes": 1}


def test_new_deck_refuses_a_mode_of_another_game(owner, suikoden_cards):
    client = signed_in(owner, cookie=True)
    response = client.post("/decks/new/", {"game": "endbreaker", "name": "x", "mode": "construction"})
    assert response.status_code == 200
    assert parse(response).find_all("ul", cls="errorlist")
    response = client.post("/decks/new/", {"game": "nogame", "name": "x"})
    assert response.status_code == 200
    assert not Deck.objects.exists()


def test_my_decks_gives_each_decks_verdict_from_the_server(owner, suikoden_cards):
    entries = [("characters", card(f"テスト人物{i:02d}"), 1) for i in range(1, 41)]
    entries += [("lands", card(f"テスト土地{i:02d}"), 1) for i in range(1, 5)]
    legal = make_deck(owner, name="合法", entries=entries)
    short = make_deck(owner, name="不足", entries=[("lands", card("テスト土地01"), 2)])
    page = parse(signed_in(owner, cookie=True).get("/decks/"))
    assert [squash(th.text) for th in page.find("table", cls="deck-list").find_all("th")][:2] == ["Name", "Verdict"]

    def verdict_of(deck: Deck) -> str:
        return squash(page.find("tr", data_deck=str(deck.pk)).find("td", cls="deck-verdict").text)

    for deck in (legal, short):
        expected = selectors.verdict(deck, "en")
        if expected.legal:
            assert verdict_of(deck) == "Legal"
        else:
            assert verdict_of(deck).startswith(f"Not legal: {len(expected.violations)} violation")
            assert expected.violations[0].message("en") in verdict_of(deck)
    assert {selectors.verdict(legal).legal, selectors.verdict(short).legal} == {True, False}


def test_a_deck_shared_by_link_is_not_called_public_in_its_breadcrumbs(owner, other, suikoden_cards):
    shared = make_deck(owner, Deck.Visibility.LINK)
    for client in (signed_in(other, cookie=True), signed_in(cookie=True)):
        crumbs = parse(client.get(f"/decks/shared/{shared.share_token}/")).find("nav", cls="breadcrumbs")
        assert "Public decks" not in squash(crumbs.text) and "Shared by link" in squash(crumbs.text)
        assert not [a for a in crumbs.find_all("a") if a.attrs.get("href", "").startswith("/decks/public/")]
    crumbs = parse(signed_in(owner, cookie=True).get(f"/decks/shared/{shared.share_token}/")).find(
        "nav", cls="breadcrumbs"
    )
    assert "My decks" in squash(crumbs.text)


def test_settings_change_mode_options_and_visibility(owner, suikoden_cards):
    deck = make_deck(owner)
    client = signed_in(owner, cookie=True)
    page = parse(client.get(f"/decks/{deck.pk}/settings/"))
    assert [o.attrs["value"] for o in page.find("select", name="option_boxes").find_all("option")] == ["1", "2", "4"]
    response = client.post(
        f"/decks/{deck.pk}/settings/",
        {"name": "改名", "description": "説明文", "mode": "construction", "visibility": "link", "option_boxes": "4"},
    )
    assert response.status_code == 302 and response["Location"] == f"/decks/{deck.pk}/"
    deck.refresh_from_db()
    assert (deck.name, deck.description, deck.visibility, deck.options) == ("改名", "説明文", "link", {"boxes": 4})
    page = parse(client.get(f"/decks/{deck.pk}/"))
    share = page.find("input", id="share-url").attrs["value"]
    assert share == f"http://testserver/decks/shared/{deck.share_token}/"
    assert squash(page.find("dl", cls="deck-options").find("dd").text) == "4"
    checklist = [squash(li.text) for li in page.find("details", cls="rule-checklist").find_all("li")]
    assert "kept At most 4 of each land" in checklist  # the four-box limit is in force
    assert signed_in(cookie=True).get(share.removeprefix("http://testserver")).status_code == 200


def test_settings_refuse_bad_values_and_write_nothing(owner, suikoden_cards):
    deck = make_deck(owner)
    before = snapshot(deck)
    client = signed_in(owner, cookie=True)
    for data in (
        {"name": "", "mode": "construction", "visibility": "private", "option_boxes": "1"},
        {"name": "x", "mode": "nomode", "visibility": "private", "option_boxes": "1"},
        {"name": "x", "mode": "construction", "visibility": "everyone", "option_boxes": "1"},
        {"name": "x", "mode": "construction", "visibility": "private", "option_boxes": "3"},
    ):
        response = client.post(f"/decks/{deck.pk}/settings/", data)
        assert response.status_code == 200
        assert parse(response).find_all("ul", cls="errorlist"), data
    assert snapshot(deck) == before


def test_delete_asks_first(owner, suikoden_cards):
    deck = make_deck(owner)
    client = signed_in(owner, cookie=True)
    page = parse(client.get(f"/decks/{deck.pk}/delete/"))
    assert deck.name in page.find("main").text
    form = page.find("form", action=f"/decks/{deck.pk}/delete/")
    assert form.attrs["method"] == "post"
    assert Deck.objects.filter(pk=deck.pk).exists()  # asking deletes nothing
    response = client.post(f"/decks/{deck.pk}/delete/")
    assert response.status_code == 302 and response["Location"] == "/decks/"
    assert not Deck.objects.filter(pk=deck.pk).exists()
    assert not DeckEntry.objects.filter(deck_id=deck.pk).exists()
    assert client.get(f"/decks/{deck.pk}/").status_code == 404


# --- the deck page --------------------------------------------------------------------------------


def test_deck_page_shows_zones_mode_options_and_verdict(owner, suikoden_cards):
    deck = make_deck(owner, Deck.Visibility.LINK)
    page = parse(signed_in(language="en", cookie=True).get(f"/decks/shared/{deck.share_token}/"))
    lands = page.find("section", id="zone-lands")
    assert squash(lands.find(cls="zone-total").text) == "2 cards"
    entry = lands.find("li", data_card="テスト土地01")
    assert squash(entry.find(cls="entry-count").text) == "2"
    assert not page.find_all("form", cls="entry-buttons")  # read-only
    info = squash(page.find(cls="deck-info").text)
    assert "Deck construction duel" in info and "Destroy all the opponent's lands" in info and "Boxes" in info
    verdict = page.find("section", id="deck-verdict")
    violations = [squash(li.text) for li in verdict.find("ul", cls="violations").find_all("li")]
    assert "Characters: 1 card (exactly 40)" in violations
    assert "Lands: 2 cards (4 to 10)" in violations


@pytest.mark.parametrize(
    ("language", "message"),
    [("ja", "土地：11枚（4〜10枚）"), ("zh-hant", "土地：11張（4至10張）"), ("en", "Lands: 11 cards (4 to 10)")],
)
def test_verdict_in_the_interface_language(language, message, owner, suikoden_cards):
    lands = [("lands", card(f"テスト土地{i:02d}"), 2) for i in range(1, 6)] + [("lands", card("テスト土地06"), 1)]
    deck = make_deck(owner, entries=lands)
    page = parse(signed_in(owner, language, cookie=True).get(f"/decks/{deck.pk}/"))
    violations = [squash(li.text) for li in page.find("ul", cls="violations").find_all("li")]
    assert message in violations


def test_unknown_values_are_reported_as_not_checked(owner, suikoden_cards):
    deck = make_deck(owner, entries=[("characters", card("テスト不明01"), 1)])
    page = parse(signed_in(owner, cookie=True).get(f"/decks/{deck.pk}/"))
    unchecked = squash(page.find("ul", cls="unchecked").text)
    assert "could not be checked" in unchecked and "テスト不明01" in unchecked


def test_a_mode_without_construction_rules(owner, suikoden_cards):
    deck = make_deck(owner)
    services.update_deck(deck, mode="shared")
    page = parse(signed_in(owner, cookie=True).get(f"/decks/{deck.pk}/"))
    verdict = page.find("section", id="deck-verdict")
    assert "verdict-none" in verdict.classes
    assert "no construction rules" in squash(verdict.text)


def test_a_legal_deck(owner, suikoden_cards):
    entries = [("characters", card(f"テスト人物{i:02d}"), 1) for i in range(1, 41)]
    entries += [("lands", card(f"テスト土地{i:02d}"), 1) for i in range(1, 5)]
    deck = make_deck(owner, entries=entries)
    page = parse(signed_in(owner, cookie=True).get(f"/decks/{deck.pk}/"))
    verdict = page.find("section", id="deck-verdict")
    assert "verdict-legal" in verdict.classes
    assert squash(verdict.find(cls="verdict-summary").text) == "Legal: the deck follows every construction rule."
    assert not verdict.find_all("ul", cls="violations")


def test_endbreaker_deck_shows_its_fixed_starting_deck(owner, suikoden_cards):
    deck = services.create_deck(owner=owner, game=game("endbreaker"), name="EB")
    page = parse(signed_in(owner, "ja", cookie=True).get(f"/decks/{deck.pk}/"))
    starting = page.find("section", id="zone-starting")
    assert "zone-fixed" in starting.classes
    assert squash(starting.find("h3").text) == "初期デッキ"
    rows = {entry.attrs["data-card"]: squash(entry.find(cls="entry-count").text) for entry in starting.find_all("li")}
    assert rows == {"EB1-001": "4", "城塞騎士": "2", "狩猟者": "2", "星霊術士": "2"}
    assert squash(starting.find(cls="zone-total").text) == "10 枚"
    # the builder shows it too, without buttons
    page = parse(signed_in(owner, "ja", cookie=True).get(f"/decks/{deck.pk}/edit/"))
    assert not page.find("section", id="zone-starting").find_all("form")


def test_deck_charts_data(owner, suikoden_cards):
    entries = [("characters", card("テスト人物01"), 1), ("characters", card("テスト人物03"), 1)]
    entries += [("characters", card("テスト不明01"), 1), ("lands", card("テスト土地01"), 2)]
    deck = make_deck(owner, entries=entries)
    page = parse(signed_in(owner, cookie=True).get(f"/decks/{deck.pk}/edit/"))
    charts = {chart["id"]: chart for chart in json.loads(page.find("script", id="deck-chart-data").text)}
    assert list(charts) == ["kind", "cost", "attack"]

    def bars(chart_id):
        return [(bar["label"], bar["count"], bar["unknown"]) for bar in charts[chart_id]["bars"]]

    assert bars("kind") == [("Character", 2, False), ("Land", 2, False), ("unknown", 1, True)]
    # the lands carry no cost: they are not counted; the card of unknown kind is "unknown"
    assert bars("cost") == [("0", 1, False), ("白1", 1, False), ("unknown", 1, True)]
    assert bars("attack") == [("1", 1, False), ("3", 1, False), ("unknown", 1, True)]
    assert page.find_all("canvas", id="chart-kind")
    charts = next(s for s in page.find_all("script") if s.attrs.get("src") == "/static/js/deck-charts.js")
    assert charts.attrs["data-chart-library"] == "/static/vendor/chart.js/dist/chart.umd.js"  # fetched after load


def test_endbreaker_charts_by_skill_and_at(owner, suikoden_cards):
    deck = services.create_deck(
        owner=owner, game=game("endbreaker"), name="EB", entries=[("supply", card("テスト特技01", "endbreaker"), 1)]
    )
    page = parse(signed_in(owner, cookie=True).get(f"/decks/{deck.pk}/"))
    charts = json.loads(page.find("script", id="deck-chart-data").text)
    assert [chart["id"] for chart in charts] == ["kind", "skill", "at"]
    assert charts[1]["bars"] == [{"label": "PP", "count": 1, "unknown": False}]


# --- the builder ----------------------------------------------------------------------------------


def _fragment(response, element_id: str):
    return parse(response).find(id=element_id)


def test_builder_add_a_card(owner, suikoden_cards):
    deck = make_deck(owner, entries=[])
    client = signed_in(owner, cookie=True)
    page = parse(client.get(f"/decks/{deck.pk}/edit/"))
    verdict_before = squash(page.find("section", id="deck-verdict").text)
    assert squash(page.find(id="deck-total").text) == "0 cards"

    land = card("テスト土地01")
    response = hx(client, f"/decks/{deck.pk}/edit/entry/", {"zone": "lands", "card": land.pk, "delta": 1})
    assert response.status_code == 200
    zone = _fragment(response, "zone-lands")
    assert zone.attrs["hx-swap-oob"] == "true"
    entry = zone.find("li", data_card="テスト土地01")
    assert squash(entry.find(cls="entry-count").text) == "1"
    assert squash(zone.find(cls="zone-total").text) == "1 card"
    verdict = _fragment(response, "deck-verdict")
    assert verdict.attrs["hx-swap-oob"] == "true"
    assert squash(verdict.text) != verdict_before
    assert "Lands: 1 card (4 to 10)" in [squash(li.text) for li in verdict.find("ul", cls="violations").find_all("li")]
    assert squash(_fragment(response, "deck-total").text) == "1 card"
    charts = json.loads(_fragment(response, "deck-chart-data").text)
    assert charts[0]["bars"] == [{"label": "Land", "count": 1, "unknown": False}]
    assert _fragment(response, "builder-message").attrs["hx-swap-oob"] == "innerHTML"
    assert deck.entries.get().count == 1


def test_builder_plus_minus_and_count(owner, suikoden_cards):
    deck = make_deck(owner)
    client = signed_in(owner, cookie=True)
    land = card("テスト土地01")
    url = f"/decks/{deck.pk}/edit/entry/"
    response = hx(client, url, {"zone": "lands", "card": land.pk, "delta": 1})
    assert squash(_fragment(response, "zone-lands").find(cls="entry-count").text) == "3"
    verdict = squash(_fragment(response, "deck-verdict").text)
    assert "テスト土地01: 3 copies (at most 2)" in verdict
    response = hx(client, url, {"zone": "lands", "card": land.pk, "delta": -1})
    assert "テスト土地01: 3 copies" not in squash(_fragment(response, "deck-verdict").text)
    response = hx(client, url, {"zone": "lands", "card": land.pk, "count": 0})
    zone = _fragment(response, "zone-lands")
    assert not zone.find_all("li", data_card="テスト土地01")
    assert squash(zone.find(cls="zone-empty").text) == "No cards yet."
    assert not deck.entries.filter(zone="lands").exists()
    # minus on a card that is not there changes nothing and is no error
    response = hx(client, url, {"zone": "lands", "card": land.pk, "delta": -1})
    assert response.status_code == 200


BAD_INPUT = [
    ({"zone": "graveyard", "delta": 1}, "“graveyard” is not a zone of this deck"),
    ({"zone": "lands", "count": -1}, "A count must be between 0 and 99."),
    ({"zone": "lands", "count": 100}, "A count must be between 0 and 99."),
    ({"zone": "lands", "delta": 0}, "Add or remove between 1 and 99 copies at a time."),
    ({"zone": "lands", "delta": "many"}, "Enter a whole number."),
    ({"zone": "lands"}, "Give either a number of copies to add or remove, or a new count."),
    ({"zone": "lands", "delta": 1, "count": 2}, "Give either a number of copies to add or remove, or a new count."),
    ({"zone": "characters", "delta": 1}, "A card of the kind “Land” cannot go in “Characters”."),
]


@pytest.mark.parametrize(("data", "message"), BAD_INPUT)
def test_builder_bad_input_says_why_and_writes_nothing(data, message, owner, suikoden_cards):
    deck = make_deck(owner)
    before = snapshot(deck)
    response = hx(
        signed_in(owner, cookie=True),
        f"/decks/{deck.pk}/edit/entry/",
        {"card": card("テスト土地01").pk, **data},
    )
    assert response.status_code == 400
    assert response["HX-Retarget"] == "#builder-message"
    assert message in squash(parse(response).find("p", cls="error-message").text)
    assert snapshot(deck) == before


def test_builder_refuses_a_card_of_another_game_or_none(owner, suikoden_cards):
    deck = make_deck(owner)
    before = snapshot(deck)
    client = signed_in(owner, cookie=True)
    url = f"/decks/{deck.pk}/edit/entry/"
    response = hx(client, url, {"zone": "characters", "card": card("テスト特技01", "endbreaker").pk, "delta": 1})
    assert response.status_code == 400
    text = squash(parse(response).find("p", cls="error-message").text)
    assert text == "テスト特技01 is a card of Endbreaker! SCG, not of this deck's game."
    response = hx(client, url, {"zone": "characters", "card": 999999, "delta": 1})
    assert response.status_code == 400 and "There is no such card." in response.content.decode()
    assert snapshot(deck) == before


def test_builder_refuses_a_fixed_zone(owner, suikoden_cards):
    deck = services.create_deck(owner=owner, game=game("endbreaker"), name="EB")
    response = hx(
        signed_in(owner, cookie=True),
        f"/decks/{deck.pk}/edit/entry/",
        {"zone": "starting", "card": card("テスト特技01", "endbreaker").pk, "delta": 1},
    )
    assert response.status_code == 400
    assert not deck.entries.exists()


def test_builder_errors_are_in_the_interface_language(owner, suikoden_cards):
    deck = make_deck(owner)
    response = hx(
        signed_in(owner, "ja", cookie=True),
        f"/decks/{deck.pk}/edit/entry/",
        {"zone": "x", "card": card("テスト土地01").pk, "delta": 1},
    )
    message = squash(parse(response).find("p", cls="error-message").text)
    assert "x" in message and "人物" in message and "zone" not in message


def test_a_misplaced_card_can_still_be_taken_out(owner, suikoden_cards):
    deck = make_deck(owner, entries=[("characters", card("テスト土地01"), 2)])  # e.g. from an import
    client = signed_in(owner, cookie=True)
    url = f"/decks/{deck.pk}/edit/entry/"
    land = card("テスト土地01").pk
    assert hx(client, url, {"zone": "characters", "card": land, "delta": 1}).status_code == 400
    assert hx(client, url, {"zone": "characters", "card": land, "delta": -1}).status_code == 200
    assert deck.entries.get().count == 1


def test_builder_search_is_scoped_to_the_deck_game(owner, suikoden_cards):
    deck = make_deck(owner)
    client = signed_in(owner, cookie=True)
    response = hx(client, f"/decks/{deck.pk}/edit/search/?q=テスト")
    assert response.status_code == 200
    page = parse(response)
    keys = [row.attrs["data-card"] for row in page.find_all("li", cls="search-row")]
    assert keys and all(not key.startswith("テスト特技") and not key.startswith("テスト職業") for key in keys)
    assert squash(page.find(cls="result-count").text) == "54 cards found"

    def zones(key):
        row = page.find("li", data_card=key)
        return [button.attrs["value"] for button in row.find_all("button", name="zone")]

    assert zones("テスト人物01") == ["characters"]
    assert zones("テスト不明01") == ["characters", "lands"]  # a card of unknown kind may go anywhere
    # the next page and the kind filter
    assert page.find("a", rel="next").attrs["hx-get"].endswith("page=2")
    page = parse(hx(client, f"/decks/{deck.pk}/edit/search/?q=テスト&kind=land"))
    assert len(page.find_all("li", cls="search-row")) == 8
    page = parse(hx(client, f"/decks/{deck.pk}/edit/search/?q=テスト土地03"))
    assert [row.attrs["data-card"] for row in page.find_all("li", cls="search-row")] == ["テスト土地03"]
    assert zones_of(page, "テスト土地03") == ["lands"]


def zones_of(page, key):
    return [button.attrs["value"] for button in page.find("li", data_card=key).find_all("button", name="zone")]


def test_builder_search_reports_a_query_error(owner, suikoden_cards):
    deck = make_deck(owner)
    page = parse(hx(signed_in(owner, cookie=True), f"/decks/{deck.pk}/edit/search/?q=(テスト"))
    assert page.find(cls="query-error")
    assert not page.find_all("li", cls="search-row")


def test_builder_page(owner, suikoden_cards):
    deck = make_deck(owner)
    page = parse(signed_in(owner, cookie=True).get(f"/decks/{deck.pk}/edit/?q=テスト人物01"))
    # the search box asks the server as one types; results come back into #search-results
    form = page.find("form", cls="builder-search-form")
    assert form.attrs["hx-target"] == "#search-results"
    box = form.find("input", name="q")
    assert box.attrs["hx-get"] == f"/decks/{deck.pk}/edit/search/"
    assert box.attrs["hx-trigger"] == "input changed delay:300ms"
    # one request at a time: a search never swaps away a button whose change is on its way
    assert page.find("div", id="builder").attrs["hx-sync"] == "this:queue all"
    assert page.find("li", data_card="テスト人物01", cls="search-row")
    zone = page.find("section", id="zone-characters")
    assert squash(zone.find(cls="zone-total").text) == "1 card"
    assert "hx-swap-oob" not in zone.attrs
    assert zone.find("form", cls="entry-buttons").attrs["hx-post"] == f"/decks/{deck.pk}/edit/entry/"
    assert page.find(id="builder-message")
    assert page.find("meta", name="htmx-config")
    assert page.find("section", id="deck-verdict") and page.find("section", id="deck-charts")


@pytest.mark.parametrize("language", ["ja", "zh-hant"])
def test_deck_pages_are_translated(language, owner, suikoden_cards):
    deck = make_deck(owner, Deck.Visibility.LINK)
    client = signed_in(owner, language, cookie=True)
    english = ["My decks", "Published decks", "Verdict", "Violations", "Add cards", "Make-up", "Cards by kind"]
    for url in (f"/decks/{deck.pk}/", f"/decks/{deck.pk}/edit/", "/decks/", f"/decks/{deck.pk}/settings/"):
        text = client.get(url).content.decode()
        for phrase in english:
            assert f">{phrase}<" not in text, f"{url}: {phrase!r} is not translated into {language}"
            assert f'"{phrase}"' not in text, f"{url}: {phrase!r} is not translated into {language}"


@pytest.mark.parametrize(("language", "marked"), [("ja", True), ("zh-hant", False), ("en", True)])
def test_win_conditions_the_site_wrote_itself_are_marked_as_its_own_translation(
    language, marked, owner, suikoden_cards
):
    # 水滸伝's win conditions are seed 002's words in Chinese; in Japanese and English the site rendered them.
    deck = make_deck(owner, Deck.Visibility.LINK)
    info = parse(signed_in(language=language, cookie=True).get(f"/decks/shared/{deck.share_token}/")).find(
        cls="deck-info"
    )
    mark = info.find(cls="win-conditions").find_all(cls="site-translation")
    assert bool(mark) is marked
    if marked:
        assert squash(mark[0].text) in {"（当サイト訳）", "(the site's own translation)"}
