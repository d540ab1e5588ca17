"""A revert's (and a restore's) entry in a card's history says what it undid: the revision's number, when it
was made and by whom, in the reader's language, on the history page and in the history API alike."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import translation
from django.utils.formats import date_format
from django.utils.timezone import localtime

from cards.models import Card

from .support.clients import token_client as api
from .support.editor_work import DELETED, HISTORY, KEY, REVERT, post, write
from .users import make_editor

pytestmark = [pytest.mark.game("suikoden"), pytest.mark.django_db]


def _revert_newest(game, editor):
    author = make_editor(game, "synthetic-author")
    write(editor, game, 2)
    write(author, game, 5)
    client = api(editor)
    history = client.get(HISTORY).json()
    undone = history["revisions"][0]
    response = post(client, REVERT, {"revision": undone["id"], "seen": history["state_digest"]})
    assert response.status_code == 200, response.json()
    return undone


def _when(iso: str, language: str) -> str:
    from django.utils.dateparse import parse_datetime

    with translation.override(language):
        return date_format(localtime(parse_datetime(iso)), "SHORT_DATETIME_FORMAT")


@pytest.mark.parametrize("language", ["en", "ja", "zh-hant"])
def test_the_history_api_says_which_revision_was_reverted_when_and_by_whom(game, editor, language):
    undone = _revert_newest(game, editor)
    newest = api(language=language).get(HISTORY).json()["revisions"][0]
    assert newest["source_kind"] == "revert"
    source = newest["source"]
    assert str(undone["id"]) in source
    assert "synthetic-author" in source and "suikoden-editor" in source
    assert _when(undone["date"], language) in source


def test_the_history_page_says_it_too(game, editor):
    undone = _revert_newest(game, editor)
    page = Client(HTTP_ACCEPT_LANGUAGE="en").get(f"/games/suikoden/cards/{KEY}/history/")
    assert page.status_code == 200
    text = page.content.decode()
    assert f'revision <span class="name" lang="zxx">{undone["id"]}</span> of' in text
    assert "synthetic-author" in text


def test_a_restore_names_the_revision_it_came_back_from(game, editor):
    write(editor, game, 2)
    Card.objects.get(key=KEY).delete()
    (deleted,) = api().get(DELETED).json()
    assert post(api(editor), f"{DELETED}{deleted['version_id']}/restore/").status_code == 201
    newest, before = api().get(HISTORY).json()["revisions"][:2]
    assert newest["source_kind"] == "restore"
    assert str(before["id"]) in newest["source"] and _when(before["date"], "en") in newest["source"]
