"""Seed files and community changes: every write of a card is a revision (django-reversion) with its source,
and loading the seed files again (as every start of the site does) never overwrites a change made since.

The seed files here are synthetic (clearly fake cards of the 水滸伝 game), written to a temporary folder.
"""

from __future__ import annotations

import re

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from cards.models import Card, CardText, RevisionSource, SeedConflict
from cards.revisions import card_history

from .support.seed_revisions import admin_change_attack, load, seed_file, the_card, words

pytestmark = pytest.mark.django_db


def test_loading_the_same_seed_again_changes_nothing_and_makes_no_revision(tmp_path):
    path = seed_file(tmp_path)
    first = load(path)
    assert (first.created, first.unchanged) == (1, 0)
    again = load(path)
    assert (again.created, again.updated, again.unchanged, again.conflicts) == (0, 0, 1, 0)
    (revision,) = card_history(the_card())
    assert revision.revision.source.kind == RevisionSource.Kind.SEED
    assert revision.revision.source.detail == "suikoden.json"


def test_an_editors_change_to_a_seed_card_survives_loading_the_seeds_again(tmp_path, superuser):
    path = seed_file(tmp_path)
    load(path)
    admin_change_attack(superuser, 5)
    assert the_card().fields["attack"] == 5
    summary = load(path)  # as the next start of the site does
    assert the_card().fields["attack"] == 5
    assert summary.unchanged == 1 and summary.conflicts == 0
    newest, oldest = card_history(the_card())
    assert newest.revision.source.kind == RevisionSource.Kind.ADMIN and newest.revision.user == superuser
    assert oldest.revision.source.kind == RevisionSource.Kind.SEED
    assert newest.field_dict["fields"]["attack"] == 5 and oldest.field_dict["fields"]["attack"] == 3


def test_a_changed_seed_applies_to_a_card_nobody_changed(tmp_path):
    load(seed_file(tmp_path))
    summary = load(seed_file(tmp_path, attack=4, name_zh="合成人物乙"))
    assert summary.updated == 1 and summary.conflicts == 0
    card = the_card()
    assert card.fields["attack"] == 4 and card.texts.get(language="zh-hant").name == "合成人物乙"
    assert len(card_history(card)) == 2
    assert not SeedConflict.objects.exists()


def test_a_changed_seed_of_a_card_changed_since_is_kept_for_an_editor(tmp_path, superuser):
    load(seed_file(tmp_path))
    admin_change_attack(superuser, 5)
    summary = load(seed_file(tmp_path, attack=4))
    assert summary.conflicts == 1 and summary.updated == 0
    assert the_card().fields["attack"] == 5  # the editor's change stands
    conflict = SeedConflict.objects.get(card=the_card())
    assert conflict.base["fields"]["attack"] == 3 and conflict.seed["fields"]["attack"] == 4
    # And again at the next start: still one conflict, still nothing overwritten.
    assert load(seed_file(tmp_path, attack=4)).conflicts == 1
    assert SeedConflict.objects.count() == 1 and the_card().fields["attack"] == 5


def test_an_editor_can_bring_a_card_back_to_an_earlier_revision(tmp_path, superuser):
    load(seed_file(tmp_path))
    admin_change_attack(superuser, 5)
    seed_revision = card_history(the_card())[-1]
    seed_revision.revision.revert(delete=True)
    card = the_card()
    assert card.fields["attack"] == 3
    assert set(card.texts.values_list("language", flat=True)) == {"ja", "zh-hant"}


def test_a_deleted_card_can_be_recovered_from_its_last_revision(tmp_path):
    load(seed_file(tmp_path))
    the_card().delete()
    assert not Card.objects.filter(key="SYN-901").exists() and not CardText.objects.filter(name="合成人物甲").exists()
    from reversion.models import Version

    (deleted,) = Version.objects.get_deleted(Card)
    deleted.revision.revert()
    assert the_card().texts.get(language="ja").name == "合成人物甲"


def test_loadcards_reports_what_it_kept(tmp_path, superuser, monkeypatch, capsys):
    from cards.management.commands import loadcards

    monkeypatch.setattr(loadcards, "DATA_DIR", tmp_path)
    seed_file(tmp_path)
    call_command("loadcards")
    admin_change_attack(superuser, 5)
    seed_file(tmp_path, attack=4)
    call_command("loadcards")
    captured = capsys.readouterr()
    assert "1 cards changed since their seed was loaded were kept" in captured.err
    assert the_card().fields["attack"] == 5


def page(path: str, language: str) -> str:
    response = Client().get(path, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    return response.content.decode()


def test_the_card_page_says_where_each_value_came_from_and_links_its_history(tmp_path, superuser):
    load(seed_file(tmp_path))
    admin_change_attack(superuser, 5)
    card = the_card()
    html = page(reverse("cards:card_detail", args=["suikoden", card.key]), "en")

    def value_and_origin(field: str) -> tuple[str, str]:
        value = re.search(rf'<dd id="value-{field}" data-field="{field}">(.*?)</dd>', html, re.S).group(1)
        origin = re.search(rf'<dd class="origin" data-origin-of="{field}">(.*?)</dd>', html, re.S).group(1)
        return words(value).strip(), words(origin)

    assert value_and_origin("attack") == ("5", "admin, by synthetic-editor")
    assert value_and_origin("colour")[1] == "seed data (suikoden.json)"
    assert reverse("cards:card_history", args=["suikoden", card.key]) in html


def test_a_cards_history_lists_every_revision_with_its_source_and_what_it_changed(tmp_path, superuser):
    load(seed_file(tmp_path))
    admin_change_attack(superuser, 5)
    history = reverse("cards:card_history", args=["suikoden", the_card().key])
    html = page(history, "en")
    newest, oldest = re.findall(r'<li class="revision".*?</li>', html, re.S)
    assert "admin, by synthetic-editor" in words(newest) and "seed data (suikoden.json)" in words(oldest)
    # The editor's revision changed the attack alone, from 3 to 5.
    rows = [
        tuple(words(cell).strip() for cell in row)
        for row in re.findall(r'<tr><th scope="row">(.*?)</th>\s*<td>(.*?)</td>\s*<td>(.*?)</td>', newest)
    ]
    assert rows == [("Attack", "3", "5")]
    # The seed's revision gave every value: the texts too, and nothing was there before.
    assert "合成人物甲" in oldest and "not given" in oldest
    # In the reader's language.
    ja = page(history, "ja")
    assert "synthetic-editor" in ja and "admin, by" not in ja and "Attack" not in ja


def test_a_seed_card_loaded_before_revisions_were_kept_gets_the_seed_as_its_first_revision(tmp_path):
    from reversion.models import Revision

    from cards.models import SeedState

    path = seed_file(tmp_path)
    load(path)
    Revision.objects.all().delete()  # as a database made before this site kept revisions
    SeedState.objects.all().delete()
    assert card_history(the_card()) == []
    summary = load(path)
    assert summary.unchanged == 1 and summary.conflicts == 0
    (first,) = card_history(the_card())
    assert first.revision.source.kind == RevisionSource.Kind.SEED and first.field_dict["fields"]["attack"] == 3
