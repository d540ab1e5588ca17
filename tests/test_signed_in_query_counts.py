"""Pages of signed-in readers, whom the page cache does not serve (benchmarks/load.py's rows marked *): each
is read in a fixed number of database queries, whatever the number of cards in the deck or of comments under
it. A query per card or per comment (N+1) would make a bigger deck or a longer discussion slower to read."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from community import services as community
from decks import services

from .support.clients import signed_in
from .support.suikoden_cards import card, game
from .users import make_user

pytestmark = pytest.mark.usefixtures("suikoden_cards")


def deck_of(owner, characters: int):
    entries = [("characters", card(f"テスト人物{i:02d}"), 1) for i in range(1, characters + 1)]
    entries += [("lands", card(f"テスト土地{i:02d}"), 2) for i in range(1, 1 + characters // 5)]
    return services.create_deck(owner=owner, game=game("suikoden"), name=f"{characters}枚", entries=entries)


def queries(client: Client, path: str) -> int:
    client.get(path)  # the first read fills what a process keeps (glossary, rules); the second is measured
    with CaptureQueriesContext(connection) as captured:
        response = client.get(path)
    assert response.status_code == 200, (path, response.status_code)
    return len(captured)


PAGES = {
    "builder search": "/decks/{deck}/edit/search/?q=テスト",
    "owner's deck page": "/decks/{deck}/",
    "builder": "/decks/{deck}/edit/",
    "goldfish hand": "/simulator/decks/{deck}/goldfish/?seed=1",
}


@pytest.mark.parametrize("page", PAGES)
def test_an_owner_s_page_takes_as_many_queries_for_a_big_deck_as_for_a_small_one(page):
    owner = make_user("owner")
    client = signed_in(owner, "ja", cookie=True)
    small, big = deck_of(owner, 3), deck_of(owner, 40)
    assert queries(client, PAGES[page].format(deck=big.pk)) == queries(client, PAGES[page].format(deck=small.pk))


def discussed(owner, reader, comments: int):
    publication = community.publish(deck_of(owner, 5 + comments), user=owner, title=f"{comments}件")
    for index in range(comments):
        comment = community.add_comment(publication, author=(owner, reader)[index % 2], body=f"コメント{index}")
        community.add_comment(publication, author=(reader, owner)[index % 2], body=f"返信{index}", parent=comment)
    return publication


def test_a_published_deck_takes_as_many_queries_with_many_comments_as_with_one():
    owner, reader = make_user("owner"), make_user("reader")
    client = signed_in(reader, "ja", cookie=True)
    quiet, busy = discussed(owner, reader, 1), discussed(owner, reader, 12)
    assert queries(client, f"/community/decks/published/{busy.pk}/") == queries(
        client, f"/community/decks/published/{quiet.pk}/"
    )
