"""An editor's work beyond change sets, as editors meet it on the site and through the API: seed conflicts
settled from the review queue, a revision reverted from a card's history (refused when the card changed since
the page was loaded), a deleted card restored, and a contributor blocked.

The cards are synthetic (the 水滸伝 seed file of tests/test_seed_revisions.py, written to a temporary folder).
"""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client
from django.urls import reverse

from accounts import services as account_services
from cards.models import Card, Game, RevisionSource, SeedConflict
from cards.revisions import card_history, card_revisions
from cards.services import card_state, state_digest
from contributions import editor_actions, selectors, services
from contributions.models import ChangeSet, GameRole

from .support.clients import signed_in
from .support.seed_revisions import admin_change_attack, load, seed_file, the_card, words
from .users import make_user

pytestmark = [pytest.mark.game("suikoden"), pytest.mark.django_db]


@pytest.fixture
def conflict(tmp_path, superuser, game):
    """The seed set attack 3; the admin changed it to 5; the seed file now says 4."""
    load(seed_file(tmp_path))
    admin_change_attack(superuser, 5)
    assert load(seed_file(tmp_path, attack=4)).conflicts == 1
    return SeedConflict.objects.get()


# --- seed conflicts ---------------------------------------------------------------------------------------


def _conflict_form(html: str) -> dict[str, str]:
    form = re.search(r'<section class="seed-conflict".*?</section>', html, re.S).group(0)
    return dict(re.findall(r'<input type="hidden" name="(seen|seed_seen)" value="([^"]*)"', form))


def test_the_review_queue_shows_a_seed_conflict_with_the_seeds_value_beside_the_current_one(conflict, editor):
    html = signed_in(editor).get(reverse("contributions:review_queue")).content.decode()
    section = re.search(r'<section class="seed-conflict".*?</section>', html, re.S).group(0)
    rows = [
        tuple(words(cell).strip() for cell in row)
        for row in re.findall(r'<tr><th scope="row">(.*?)</th>\s*<td>(.*?)</td>\s*<td>(.*?)</td>', section)
    ]
    assert rows == [("Attack", "5", "4")]
    assert "Now" in words(section) and "The seed says" in words(section)
    # Only editors of the game see it: an editor of another game sees no conflict.
    other = make_user("shadowera-editor")
    GameRole.objects.create(user=other, game=Game.objects.get(slug="shadowera"), role=GameRole.Role.EDITOR)
    assert 'class="seed-conflict"' not in signed_in(other).get(reverse("contributions:review_queue")).content.decode()
    assert list(selectors.seed_conflicts(other)) == []


def test_an_editor_takes_the_seeds_value_as_a_revision_whose_source_is_the_seed(tmp_path, conflict, editor):
    client = signed_in(editor)
    form = _conflict_form(client.get(reverse("contributions:review_queue")).content.decode())
    response = client.post(
        reverse("contributions:seed_conflict_resolve", args=[conflict.pk]), {**form, "take": "seed"}, follow=True
    )
    assert "The seed&#x27;s values are taken." in response.content.decode()
    assert the_card().fields["attack"] == 4
    newest = card_revisions(the_card())[0]
    assert (newest.kind, newest.user) == (RevisionSource.Kind.SEED, "suikoden-editor")
    assert not SeedConflict.objects.exists()
    # The next start of the site finds the seed as loaded: no conflict again, nothing changes.
    summary = load(seed_file(tmp_path, attack=4))
    assert (summary.conflicts, summary.unchanged) == (0, 1)


def test_keeping_the_current_value_settles_it_for_good(tmp_path, conflict, editor):
    client = signed_in(editor)
    form = _conflict_form(client.get(reverse("contributions:review_queue")).content.decode())
    revisions = len(card_history(the_card()))
    client.post(reverse("contributions:seed_conflict_resolve", args=[conflict.pk]), {**form, "take": "current"})
    assert the_card().fields["attack"] == 5 and len(card_history(the_card())) == revisions
    assert not SeedConflict.objects.exists()
    assert load(seed_file(tmp_path, attack=4)).conflicts == 0 and the_card().fields["attack"] == 5


def test_a_seed_conflict_decided_on_a_card_changed_since_is_refused(conflict, editor, superuser):
    client = signed_in(editor)
    form = _conflict_form(client.get(reverse("contributions:review_queue")).content.decode())
    admin_change_attack(superuser, 6)
    response = client.post(
        reverse("contributions:seed_conflict_resolve", args=[conflict.pk]), {**form, "take": "seed"}, follow=True
    )
    assert "after you opened it" in response.content.decode()
    assert the_card().fields["attack"] == 6 and SeedConflict.objects.exists()


def test_only_an_editor_of_the_game_settles_a_seed_conflict(conflict):
    player = make_user("player")
    response = signed_in(player).post(
        reverse("contributions:seed_conflict_resolve", args=[conflict.pk]), {"take": "seed"}
    )
    assert response.status_code == 403
    assert SeedConflict.objects.exists() and the_card().fields["attack"] == 5


def test_the_api_lists_seed_conflicts_and_an_editor_settles_one(conflict, editor):
    token = account_services.token_create(user=editor)[1]
    api = Client(HTTP_AUTHORIZATION=f"Token {token}")
    (listed,) = api.get("/api/contributions/review-queue/seed-conflicts/?game=suikoden").json()["results"]
    assert listed["key"] == "SYN-901" and listed["current"]["fields"]["attack"] == 5
    assert listed["seed"]["fields"]["attack"] == 4
    body = {"take": "seed", "seen": "0" * 32, "seed_seen": listed["seed_digest"]}
    url = f"/api/contributions/seed-conflicts/{listed['id']}/resolve/"
    stale = api.post(url, json.dumps(body), content_type="application/json")
    assert stale.status_code == 409 and stale.json()["code"] == "card_changed_since"
    body["seen"] = listed["state_digest"]
    assert api.post(url, json.dumps(body), content_type="application/json").status_code == 204
    assert the_card().fields["attack"] == 4
    player = Client(HTTP_AUTHORIZATION=f"Token {account_services.token_create(user=make_user('player'))[1]}")
    assert player.get("/api/contributions/review-queue/seed-conflicts/").status_code == 403


# --- revert on the site -----------------------------------------------------------------------------------


def _revert_form(html: str, revision_id: int) -> dict[str, str]:
    item = re.search(rf'<li class="revision" [^>]*data-revision="{revision_id}">.*?</li>', html, re.S).group(0)
    return dict(re.findall(r'<input type="hidden" name="(revision|seen)" value="([^"]*)"', item))


def test_anyone_reads_the_history_and_an_editor_reverts_a_revision_as_a_new_one(tmp_path, superuser, editor):
    load(seed_file(tmp_path))
    admin_change_attack(superuser, 5)
    history = reverse("cards:card_history", args=["suikoden", "SYN-901"])
    assert "Revert revision" not in Client().get(history).content.decode()  # readers read; editors revert
    client = signed_in(editor)
    admin_revision = card_revisions(the_card())[0]
    form = _revert_form(client.get(history).content.decode(), admin_revision.id)
    response = client.post(reverse("contributions:card_revert", args=["suikoden", "SYN-901"]), form, follow=True)
    assert "Reverted" in response.content.decode()
    card = the_card()
    assert card.fields["attack"] == 3
    assert set(card.texts.values_list("language", flat=True)) == {"ja", "zh-hant"}
    newest = card_revisions(card)[0]
    assert (newest.kind, newest.detail, newest.user) == ("revert", str(admin_revision.id), "suikoden-editor")
    shown = words(re.search(r'<li class="revision".*?</li>', response.content.decode(), re.S).group(0))
    # What was undone: its number, date and author (the admin's revision), then who reverted it.
    assert f"revert of revision {admin_revision.id} of " in shown and ", by suikoden-editor" in shown
    assert len(card_history(card)) == 3  # nothing was deleted: the reverted revision is still there


def test_a_revert_from_a_page_loaded_before_another_change_is_refused_with_that_change_shown(
    tmp_path,
    superuser,
    editor,
):
    load(seed_file(tmp_path))
    admin_change_attack(superuser, 5)
    client = signed_in(editor)
    history = reverse("cards:card_history", args=["suikoden", "SYN-901"])
    form = _revert_form(client.get(history).content.decode(), card_revisions(the_card())[0].id)
    admin_change_attack(superuser, 7)  # meanwhile
    response = client.post(reverse("contributions:card_revert", args=["suikoden", "SYN-901"]), form, follow=True)
    html = response.content.decode()
    assert "after you opened it" in html
    assert the_card().fields["attack"] == 7
    # The page it comes back to shows the other change first.
    newest = words(re.search(r'<li class="revision".*?</li>', html, re.S).group(0))
    assert "5" in newest and "7" in newest


def test_a_revision_whose_value_a_later_one_changed_again_is_not_silently_undone(tmp_path, superuser, editor):
    load(seed_file(tmp_path))
    admin_change_attack(superuser, 5)
    admin_change_attack(superuser, 7)
    first_change = card_revisions(the_card())[1]
    with pytest.raises(services.CannotUndo):
        editor_actions.card_revert(
            editor=editor,
            game=the_card().game,
            key="SYN-901",
            revision_id=first_change.id,
            seen=state_digest(card_state(the_card())),
        )
    assert the_card().fields["attack"] == 7


def test_only_an_editor_of_the_game_reverts(tmp_path, superuser):
    load(seed_file(tmp_path))
    admin_change_attack(superuser, 5)
    form = {"revision": card_revisions(the_card())[0].id, "seen": state_digest(card_state(the_card()))}
    url = reverse("contributions:card_revert", args=["suikoden", "SYN-901"])
    assert signed_in(make_user("player")).post(url, form).status_code == 403
    assert the_card().fields["attack"] == 5


# --- nothing is deleted without a revision that restores it ----------------------------------------------


def test_a_card_deleted_in_the_admin_is_restored_by_an_editor_with_its_history(tmp_path, superuser, editor):
    load(seed_file(tmp_path))
    admin_change_attack(superuser, 5)
    card_id = the_card().pk
    admin = Client()
    admin.force_login(superuser)
    assert admin.post(f"/admin/cards/card/{card_id}/delete/", {"post": "yes"}).status_code == 302
    assert not Card.objects.filter(key="SYN-901").exists()

    page = Client().get(reverse("contributions:deleted_cards", args=["suikoden"])).content.decode()
    assert "SYN-901" in page and "Restore</button>" not in page  # anyone sees it; an editor restores it
    client = signed_in(editor)
    page = client.get(reverse("contributions:deleted_cards", args=["suikoden"])).content.decode()
    action = re.search(r'<form method="post" action="([^"]+/restore/)"', page).group(1)
    response = client.post(action, follow=True)
    assert "Restored" in response.content.decode()
    card = the_card()
    assert card.pk == card_id and card.fields["attack"] == 5
    assert card.texts.get(language="ja").name == "合成人物甲"
    kinds = [revision.kind for revision in card_revisions(card)]
    assert kinds == ["restore", "admin", "seed"]  # its history goes on where it stopped
    assert "SYN-901" not in client.get(reverse("contributions:deleted_cards", args=["suikoden"])).content.decode()


# --- blocking a contributor ------------------------------------------------------------------------------


def _suikoden_card(key: str = "SYN-950") -> dict:
    return {
        "key": key,
        "number": "950",
        "kind": "character",
        "fields": {"attack": 2},
        "texts": {"ja": {"name": "合成人物丙"}},
        "source": "test",
    }


def test_an_editor_blocks_a_contributor_from_their_change_set_and_their_next_one_is_refused(game, editor):
    player = make_user("player")
    change_set = services.submit_change_set(
        author=player, game=game, cards=[_suikoden_card()], source_kind=ChangeSet.SourceKind.OWN_COPY
    )
    page = reverse("contributions:change_set", args=[change_set.pk])
    assert "block-author" not in signed_in(player).get(page).content.decode()  # only editors block
    client = signed_in(editor)
    html = client.get(page).content.decode()
    action = re.search(r'<section class="block-author">.*?action="([^"]+)"', html, re.S).group(1)
    response = client.post(action, {"action": "block", "note": "spam", "next": page}, follow=True)
    assert response.redirect_chain[-1][0] == page
    assert "is blocked" in words(response.content.decode())
    assert selectors.is_blocked(player, game) and not selectors.may_contribute(player, game)

    # The blocked user is told why, on the form and through the service (the API's path).
    refused = signed_in(player).get(reverse("contributions:card_new", args=["suikoden"]))
    assert refused.status_code == 403
    assert "blocked your contributions" in refused.content.decode()
    with pytest.raises(services.NotAllowed, match="blocked your contributions"):
        services.submit_change_set(
            author=player, game=game, cards=[_suikoden_card("SYN-951")], source_kind=ChangeSet.SourceKind.OWN_COPY
        )
    # Other games are not concerned.
    assert selectors.may_contribute(player, Game.objects.get(slug="shadowera"))

    client.post(action, {"action": "unblock", "next": page})
    assert selectors.may_contribute(player, game)


def test_an_editor_cannot_block_another_editor_nor_can_a_player_block_anyone(game, editor):
    other_editor = make_user("other-editor")
    GameRole.objects.create(user=other_editor, game=game, role=GameRole.Role.EDITOR)
    player = make_user("player")
    url = reverse("contributions:user_block", args=["suikoden", other_editor.pk])
    assert signed_in(editor).post(url, {"action": "block"}).status_code == 403
    assert (
        signed_in(player)
        .post(reverse("contributions:user_block", args=["suikoden", editor.pk]), {"action": "block"})
        .status_code
        == 403
    )
    assert selectors.may_review(other_editor, game) and selectors.may_contribute(editor, game)
