"""Organisation of a player's own decks: folders, tags, the archive, and "My decks" sorted and
filtered by game, folder, tag, legality and last change, on the pages and through the API; only the owner sees or
changes any of it, and organising is never a change of the deck."""

from __future__ import annotations

import re

import pytest
from rest_framework.test import APIClient

from decks import services
from decks.models import Deck, DeckFolder, DeckTag
from decks.organise import services as organise_services
from decks.services import DeckError

from .support.clients import signed_in
from .support.suikoden_cards import card, game, make_deck

pytestmark = pytest.mark.usefixtures("suikoden_cards", "english")


def legal_deck(owner, name: str) -> Deck:
    entries = [("characters", card(f"テスト人物{i:02d}"), 1) for i in range(1, 41)]
    entries += [("lands", card(f"テスト土地{i:02d}"), 1) for i in range(1, 5)]
    return make_deck(owner, name=name, entries=entries)


def listed(page: str) -> list[str]:
    """The deck names of a "My decks" page, in order."""
    return re.findall(r'<a href="/decks/\d+/">([^<]+)</a>', page)


def api_for(user) -> APIClient:
    client = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    client.force_authenticate(user)
    return client


# --- services


def test_folder_names_are_one_per_owner_after_width_and_spaces_are_evened_out(owner, other):
    organise_services.create_folder(owner, "Tournament  decks")
    with pytest.raises(DeckError, match="already have a folder named “Tournament decks”"):
        organise_services.create_folder(owner, "Ｔｏｕｒｎａｍｅｎｔ decks ")
    assert organise_services.create_folder(other, "Tournament decks").owner == other
    with pytest.raises(DeckError, match="at most 60 characters"):
        organise_services.create_folder(owner, "x" * 61)
    with pytest.raises(DeckError, match="needs a name"):
        organise_services.create_folder(owner, "  ")


def test_a_player_has_at_most_the_stated_number_of_folders(owner, monkeypatch):
    monkeypatch.setattr(organise_services, "MAX_FOLDERS", 2)
    organise_services.create_folder(owner, "one")
    organise_services.create_folder(owner, "two")
    with pytest.raises(DeckError, match="at most 2 folders"):
        organise_services.create_folder(owner, "three")
    assert DeckFolder.objects.filter(owner=owner).count() == 2


def test_deleting_a_folder_keeps_its_decks_and_renaming_refuses_a_taken_name(owner):
    deck = make_deck(owner, name="Kept")
    ideas = organise_services.create_folder(owner, "Ideas")
    organise_services.create_folder(owner, "Ready")
    organise_services.move_to_folder(deck, ideas)
    with pytest.raises(DeckError, match="already have a folder named “Ready”"):
        organise_services.rename_folder(ideas, "Ready")
    organise_services.delete_folder(ideas)
    deck.refresh_from_db()
    assert deck.folder is None and Deck.objects.filter(pk=deck.pk).exists()


def test_tags_are_set_in_order_once_each_and_a_tag_left_on_no_deck_is_removed(owner):
    one, two = make_deck(owner, name="One"), make_deck(owner, name="Two")
    organise_services.set_tags(one, organise_services.parse_tags("budget、aggro, budget ,，tournament"))
    organise_services.set_tags(two, ["aggro"])
    assert [tag.name for tag in one.tags.order_by("id")] == ["budget", "aggro", "tournament"]
    organise_services.set_tags(one, [])
    assert sorted(DeckTag.objects.filter(owner=owner).values_list("name", flat=True)) == ["aggro"]
    with pytest.raises(DeckError, match="at most 20 tags"):
        organise_services.set_tags(two, [f"t{i}" for i in range(21)])
    assert [tag.name for tag in two.tags.all()] == ["aggro"]  # nothing half-written


def test_organising_is_not_a_change_of_the_deck(owner):
    deck = make_deck(owner, name="Stable")
    changed, versions = deck.updated_at, deck.versions.count()
    organise_services.organise(deck, folder=organise_services.create_folder(owner, "F"), tags=["x"], archived=True)
    deck.refresh_from_db()
    assert deck.updated_at == changed and deck.versions.count() == versions
    assert deck.archived_at is not None and deck.folder.name == "F"


def test_another_players_folder_is_refused(owner, other):
    deck = make_deck(owner)
    theirs = organise_services.create_folder(other, "Theirs")
    with pytest.raises(DeckError, match="not one of yours"):
        organise_services.move_to_folder(deck, theirs)


# --- pages


def test_my_decks_filters_by_game_folder_tag_legality_and_archive_and_sorts(owner):
    legal = legal_deck(owner, "Legal one")
    draft = make_deck(owner, name="Draft")
    old = make_deck(owner, name="Old")
    services.create_deck(owner=owner, game=game("shadowera"), name="Shadow")
    ready = organise_services.create_folder(owner, "Ready")
    organise_services.organise(legal, folder=ready, tags=["tournament"])
    organise_services.organise(draft, tags=["budget"])
    organise_services.organise(old, archived=True)
    client = signed_in(owner, cookie=True)

    everything = client.get("/decks/").content.decode()
    assert set(listed(everything)) == {"Legal one", "Draft", "Shadow"}  # the archived deck is left out
    body = everything.split("</head>", 1)[-1]  # the head's inlined stylesheet holds the mark itself
    assert "#tournament" in body and "▸" not in body  # tags shown; the folder mark is CSS
    assert listed(client.get("/decks/?game=shadowera").content.decode()) == ["Shadow"]
    assert listed(client.get(f"/decks/?folder={ready.pk}").content.decode()) == ["Legal one"]
    assert set(listed(client.get("/decks/?folder=none").content.decode())) == {"Draft", "Shadow"}
    assert listed(client.get("/decks/?tag=budget").content.decode()) == ["Draft"]
    assert listed(client.get("/decks/?legality=legal").content.decode()) == ["Legal one"]
    assert "Legal one" not in listed(client.get("/decks/?legality=illegal").content.decode())
    assert listed(client.get("/decks/?archive=archived").content.decode()) == ["Old"]
    assert listed(client.get("/decks/?sort=name&archive=all").content.decode()) == sorted(
        ["Legal one", "Draft", "Old", "Shadow"]
    )
    services.update_deck(draft, description="touched")  # a change: it becomes the newest
    assert listed(client.get("/decks/").content.decode())[0] == "Draft"
    assert listed(client.get("/decks/?sort=oldest_change").content.decode())[-1] == "Draft"
    narrowed = client.get("/decks/?tag=nothing-has-this").content.decode()
    assert "No deck matches these filters." in narrowed and "Clear the filters" in narrowed


def test_a_changed_filter_answers_the_list_alone_for_htmx(owner):
    make_deck(owner, name="Only")
    response = signed_in(owner, cookie=True).get("/decks/?sort=name", HTTP_HX_REQUEST="true")
    assert "<html" not in response.content.decode() and listed(response.content.decode()) == ["Only"]


def test_a_stale_or_odd_query_opens_the_page_unfiltered(owner):
    make_deck(owner, name="Here")
    page = signed_in(owner, cookie=True).get("/decks/?folder=abc&sort=nonsense&legality=maybe&archive=x")
    assert page.status_code == 200 and listed(page.content.decode()) == ["Here"]


def test_the_deck_page_organises_for_its_owner_alone(owner, other):
    deck = make_deck(owner, visibility=Deck.Visibility.LINK, name="Shown")
    client = signed_in(owner, cookie=True)
    saved = client.post(
        f"/decks/{deck.pk}/organise/", {"folder": "new", "new_folder": "Secret folder", "tags": "mine-only, budget"}
    )
    assert saved.status_code == 302
    page = client.get(f"/decks/{deck.pk}/").content.decode()
    assert "Secret folder" in page and 'value="budget, mine-only"' in page  # shown in alphabetical order
    seen_by_other = signed_in(other, cookie=True).get(f"/decks/shared/{deck.share_token}/").content.decode()
    assert "Shown" in seen_by_other
    assert "Secret folder" not in seen_by_other and "mine-only" not in seen_by_other
    assert signed_in(other, cookie=True).post(f"/decks/{deck.pk}/organise/", {"archived": "1"}).status_code == 404
    private = make_deck(owner, name="Private")
    assert signed_in(other, cookie=True).post(f"/decks/{private.pk}/organise/", {"archived": "1"}).status_code == 404
    deck.refresh_from_db()
    assert deck.archived_at is None


def test_an_organising_error_is_shown_and_nothing_is_changed(owner):
    deck = make_deck(owner)
    client = signed_in(owner, cookie=True)
    response = client.post(f"/decks/{deck.pk}/organise/", {"folder": "new", "new_folder": "", "tags": "a"}, follow=True)
    assert "A folder needs a name." in response.content.decode()
    assert not deck.tags.exists() and not DeckFolder.objects.exists()


@pytest.mark.parametrize("menu", ["", "none"])
def test_a_typed_folder_name_is_kept_without_choosing_new_folder_in_the_menu(owner, menu):
    deck = make_deck(owner)
    client = signed_in(owner, cookie=True)
    data = {"folder": menu, "new_folder": "Typed only", "tags": ""}
    client.post(f"/decks/{deck.pk}/organise/", data)
    deck.refresh_from_db()
    assert deck.folder is not None and deck.folder.name == "Typed only"
    other_deck = make_deck(owner, name="Second")
    client.post(f"/decks/{other_deck.pk}/organise/", data)  # the same name again: the same folder, not a refusal
    other_deck.refresh_from_db()
    assert other_deck.folder == deck.folder and DeckFolder.objects.count() == 1


def test_archiving_hides_a_deck_from_my_decks_but_its_link_still_opens(owner, other):
    deck = make_deck(owner, visibility=Deck.Visibility.LINK, name="Archived one")
    client = signed_in(owner, cookie=True)
    client.post(f"/decks/{deck.pk}/organise/", {"archived": "1"})
    assert "Archived one" not in listed(client.get("/decks/").content.decode())
    assert signed_in(other, cookie=True).get(f"/decks/shared/{deck.share_token}/").status_code == 200
    client.post(f"/decks/{deck.pk}/organise/", {"archived": "0"})
    assert "Archived one" in listed(client.get("/decks/").content.decode())


def test_the_folders_page_makes_renames_and_deletes(owner, other):
    client = signed_in(owner, cookie=True)
    client.post("/decks/folders/", {"action": "create", "name": "Alpha"})
    folder = DeckFolder.objects.get(owner=owner)
    client.post("/decks/folders/", {"action": "rename", "folder": folder.pk, "name": "Beta"})
    folder.refresh_from_db()
    assert folder.name == "Beta"
    refused = signed_in(other, cookie=True).post(
        "/decks/folders/", {"action": "delete", "folder": folder.pk}, follow=True
    )
    assert "not one of yours" in refused.content.decode() and DeckFolder.objects.filter(pk=folder.pk).exists()
    client.post("/decks/folders/", {"action": "delete", "folder": folder.pk})
    assert not DeckFolder.objects.exists()


def test_the_pages_speak_the_readers_language(owner):
    deck = make_deck(owner)
    assert "フォルダ" in signed_in(owner, "ja", cookie=True).get("/decks/").content.decode()
    assert "整理" in signed_in(owner, "zh-hant", cookie=True).get(f"/decks/{deck.pk}/").content.decode()


# --- API


def test_the_api_shows_organisation_to_the_owner_and_changes_it_in_one_request(owner, other):
    deck = make_deck(owner, visibility=Deck.Visibility.LINK)
    folder = organise_services.create_folder(owner, "API folder")
    api = api_for(owner)
    changed = api.patch(
        f"/api/decks/{deck.pk}/", {"folder": folder.pk, "tags": ["one", "two"], "archived": True}, format="json"
    )
    assert changed.status_code == 200, changed.json()
    assert changed.json()["organisation"] == {
        "folder": folder.pk,
        "folder_name": "API folder",
        "tags": ["one", "two"],
        "archived": True,
    }
    assert api_for(other).get(f"/api/decks/{deck.pk}/?token={deck.share_token}").json()["organisation"] is None


def test_the_api_refuses_another_players_folder_and_writes_nothing(owner, other):
    deck = make_deck(owner)
    theirs = organise_services.create_folder(other, "Theirs")
    refused = api_for(owner).patch(f"/api/decks/{deck.pk}/", {"name": "Renamed", "folder": theirs.pk}, format="json")
    assert refused.status_code == 400 and "folder" in refused.json()["errors"]
    deck.refresh_from_db()
    assert deck.name != "Renamed" and deck.folder is None


def test_a_tag_of_white_space_alone_is_refused_by_its_place_and_nothing_is_written(owner):
    """The schema states it too (tests/test_api_schema.py): what trimming leaves blank is no tag."""
    deck = make_deck(owner)
    organise_services.organise(deck, tags=["keep"])
    refused = api_for(owner).patch(
        f"/api/decks/{deck.pk}/", {"name": "Renamed", "tags": ["new", "\r", "\u3000"]}, format="json"
    )
    assert refused.status_code == 400 and set(refused.json()["errors"]) == {"tags[1]", "tags[2]"}
    deck.refresh_from_db()
    assert deck.name != "Renamed" and list(deck.tags.values_list("name", flat=True)) == ["keep"]


def test_the_api_lists_my_decks_filtered_and_sorted(owner):
    legal, draft = legal_deck(owner, "Legal"), make_deck(owner, name="Draft")
    organise_services.organise(draft, tags=["budget"], archived=True)
    api = api_for(owner)

    def names(query: str) -> list[str]:
        response = api.get(f"/api/decks/?mine=1&{query}")
        assert response.status_code == 200, response.json()
        return [deck["name"] for deck in response.json()["results"]]

    assert set(names("")) == {"Legal", "Draft"}  # the API lists archived decks unless asked not to
    assert names("archived=active") == ["Legal"]
    assert names("tag=budget") == ["Draft"]
    assert names("legality=legal") == ["Legal"]
    assert names("ordering=name") == ["Draft", "Legal"]
    assert names("folder=none&ordering=name") == ["Draft", "Legal"]
    # Filtering by the owner's own organisation lists the user's own decks, and needs credentials.
    assert [deck["name"] for deck in api.get("/api/decks/?tag=budget").json()["results"]] == ["Draft"]
    anonymous = APIClient(HTTP_ACCEPT_LANGUAGE="ja").get("/api/decks/?tag=budget")
    assert anonymous.status_code == 401 and "自分のデッキ" in anonymous.json()["detail"]
    assert legal.pk


def test_the_folders_api_is_the_owners_alone(owner, other):
    api = api_for(owner)
    made = api.post("/api/decks/folders/", {"name": "Mine"}, format="json")
    assert made.status_code == 201 and made.json()["name"] == "Mine" and made.json()["deck_count"] == 0
    pk = made.json()["id"]
    assert api.post("/api/decks/folders/", {"name": "Mine"}, format="json").status_code == 409
    assert api.patch(f"/api/decks/folders/{pk}/", {"name": "Renamed"}, format="json").json()["name"] == "Renamed"
    stranger = api_for(other)
    assert stranger.get(f"/api/decks/folders/{pk}/").status_code == 404
    assert stranger.delete(f"/api/decks/folders/{pk}/").status_code == 404
    assert stranger.get("/api/decks/folders/").json() == []
    assert APIClient().get("/api/decks/folders/").status_code in (401, 403)
    assert api.delete(f"/api/decks/folders/{pk}/").status_code == 204
