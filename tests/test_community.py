"""Published decks: publishing a snapshot, the public list per game (sorted, filtered by cards
in the search language), likes and favourites, threaded comments with notifications, reports and the moderation
queue, on the pages and through the API, with the same permissions: hidden things are seen by their author and
staff only, a blocked user cannot publish or comment, and nothing anyone writes puts a script on a page."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from community import selectors, services
from community.models import Block, Comment, ModerationAction, Publication, PublicationCard, Report
from decks import services as deck_services
from decks.models import Deck
from notifications import selectors as inbox_selectors
from notifications import services as inbox_services
from notifications.models import Notification

from .support.clients import api_client, signed_in
from .support.community import make_deck
from .synthetic_decks import card, game
from .users import make_user

pytestmark = pytest.mark.usefixtures("english")

HOSTILE = '<script>alert("x")</script><img src=x onerror=alert(1)> [link](javascript:alert(1)) **bold**'


@pytest.fixture
def shadowera_cards(synthetic_cards):
    return {key: card("shadowera", key) for key in ("Test Hero 01", "Test Ally 01", "Test Ally 02")}


# --- services and selectors -------------------------------------------------------------------------


def test_publishing_makes_a_snapshot_and_republishing_a_new_current_one(owner, shadowera_cards):
    deck = make_deck(owner, shadowera_cards)
    first = services.publish(deck, user=owner, title="First", description="*one*")
    deck_services.set_count(deck, "deck", shadowera_cards["Test Ally 02"], 2)
    second = services.publish(deck, user=owner, title="Second")
    first.refresh_from_db()
    assert not first.is_current and second.is_current
    assert {"zone": "deck", "card": "Test Ally 02", "count": 2} in second.entries
    assert all(entry["card"] != "Test Ally 02" for entry in first.entries)  # the snapshot did not change
    assert set(PublicationCard.objects.filter(publication=second).values_list("card__key", flat=True)) == {
        "Test Hero 01",
        "Test Ally 01",
        "Test Ally 02",
    }
    assert list(selectors.public_list(owner, game("shadowera"))) == [second]
    deck.refresh_from_db()
    assert deck.visibility == Deck.Visibility.PRIVATE  # the deck keeps its own visibility


def test_only_the_owner_publishes_and_only_a_deck_with_cards(owner, other, shadowera_cards):
    deck = make_deck(owner, shadowera_cards)
    with pytest.raises(Exception) as refused:
        services.publish(deck, user=other, title="Mine now")
    assert type(refused.value).__name__ == "PermissionDenied"
    empty = deck_services.create_deck(owner=owner, game=game("shadowera"), name="Empty")
    with pytest.raises(services.EmptyDeck):
        services.publish(empty, user=owner, title="Nothing")
    with pytest.raises(services.CommunityError) as too_long:
        services.publish(deck, user=owner, title="Long", description="x" * (services.MAX_DESCRIPTION_LENGTH + 1))
    assert "at most 10,000 characters" in str(too_long.value)
    assert not Publication.objects.exists()


def test_filters_by_cards_included_and_excluded_in_the_search_language(owner, shadowera_cards):
    with_one = services.publish(make_deck(owner, shadowera_cards, "A", ("Test Ally 01",)), user=owner, title="A")
    with_two = services.publish(make_deck(owner, shadowera_cards, "B", ("Test Ally 02",)), user=owner, title="B")
    with_both = services.publish(
        make_deck(owner, shadowera_cards, "C", ("Test Ally 01", "Test Ally 02")), user=owner, title="C"
    )
    shadowera = game("shadowera")

    def titles(**filters):
        return {p.title for p in selectors.public_list(owner, shadowera, language="en", **filters)}

    assert titles(include='name:"Test Ally 01"') == {"A", "C"}
    assert titles(include='name:"Test Ally 01"', exclude='name:"Test Ally 02"') == {"A"}
    assert titles(exclude="kind:ally") == set()
    assert titles() == {"A", "B", "C"}
    # several cards in the query (any of them counts), and another order than the newest: the other plans
    assert titles(include="kind:ally", exclude='name:"Test Ally 01"') == {"B"}
    assert titles(include='name:"Test Ally 02"', sort="liked") == {"B", "C"}
    assert [p.title for p in selectors.public_list(owner, shadowera, include='name:"Test Ally 01"')] == ["C", "A"]
    with pytest.raises(services.CommunityError) as error:
        selectors.public_list(owner, shadowera, include="attack>=")
    assert error.value.errors and "include" in error.value.errors
    assert {with_one, with_two, with_both} == set(Publication.objects.all())


def test_sorts_by_likes_and_copies_kept_by_counters(owner, other, shadowera_cards):
    liked = services.publish(make_deck(owner, shadowera_cards, "Liked"), user=owner, title="Liked")
    copied = services.publish(make_deck(owner, shadowera_cards, "Copied"), user=owner, title="Copied")
    plain = services.publish(make_deck(owner, shadowera_cards, "Plain"), user=owner, title="Plain")
    assert services.set_like(liked, other, True) and services.set_like(liked, other, True)  # twice is once
    services.set_like(liked, owner, True)
    copy = services.copy_publication(copied, owner=other)
    assert copy.forked_from_id == copied.deck_id and copy.owner == other
    assert copy.entries.count() == 2
    shadowera = game("shadowera")
    assert selectors.public_list(other, shadowera, sort="liked").first().title == "Liked"
    assert selectors.public_list(other, shadowera, sort="copied").first().title == "Copied"
    assert selectors.public_list(other, shadowera).first().title == "Plain"
    liked.refresh_from_db()
    assert liked.like_count == 2
    assert services.toggle_like(liked, other) is False
    liked.refresh_from_db()
    assert liked.like_count == 1 and plain.like_count == 0


def test_comments_thread_and_notify_the_author_and_the_replied_to(owner, other, shadowera_cards):
    publication = services.publish(make_deck(owner, shadowera_cards), user=owner, title="Deck")
    third = make_user("third")
    top = services.add_comment(publication, author=other, body="Nice")
    reply = services.add_comment(publication, author=third, body="Agreed", parent=top)
    services.add_comment(publication, author=owner, body="Thanks", parent=top)  # the author: nobody else to tell
    threads = selectors.comment_threads(other, publication)
    assert [t.comment for t in threads] == [top]
    assert [t.comment.body for t in threads[0].replies] == ["Agreed", "Thanks"]
    kinds = sorted(Notification.objects.values_list("recipient__username", "kind"))
    # other hears of both replies; the deck's author of both comments on it, not of their own reply
    assert kinds == [("other", "reply"), ("other", "reply"), ("owner", "comment"), ("owner", "comment")]
    assert inbox_selectors.unread_count(owner) == 2
    assert inbox_services.mark_read(owner) == 2 and inbox_selectors.unread_count(owner) == 0
    publication.refresh_from_db()
    assert publication.comment_count == 3 and reply.parent == top
    with pytest.raises(services.CommunityError):
        services.add_comment(publication, author=other, body="x" * (services.MAX_COMMENT_LENGTH + 1))
    with pytest.raises(services.CommunityError):
        services.add_comment(publication, author=other, body="   ")


def test_hidden_things_are_seen_by_their_author_and_staff_only(owner, other, staff, shadowera_cards):
    publication = services.publish(make_deck(owner, shadowera_cards), user=owner, title="テスト隠し")
    comment = services.add_comment(publication, author=other, body="spam")
    services.moderate(moderator=staff, action="hide", reason="spam", comment=comment)
    services.moderate(moderator=staff, action="hide", reason="rude", publication=publication)
    anonymous = Client()
    assert anonymous.get(f"/community/decks/published/{publication.pk}/").status_code == 404
    assert signed_in(make_user("reader")).get(f"/community/decks/published/{publication.pk}/").status_code == 404
    assert publication.title not in anonymous.get("/community/games/shadowera/decks/").content.decode()
    author_page = signed_in(owner).get(f"/community/decks/published/{publication.pk}/")
    assert author_page.status_code == 200 and "spam" not in author_page.content.decode()
    staff_page = signed_in(staff).get(f"/community/decks/published/{publication.pk}/").content.decode()
    assert "spam" in staff_page and "Hidden" in staff_page
    assert api_client().get(f"/api/community/publications/{publication.pk}/").status_code == 404
    services.moderate(moderator=staff, action="restore", reason="appeal", publication=publication)
    assert anonymous.get(f"/community/decks/published/{publication.pk}/").status_code == 200
    assert [a.action for a in ModerationAction.objects.order_by("id")] == ["hide", "hide", "restore"]


def test_a_reply_to_a_hidden_comment_is_hidden_with_it_on_the_page_and_in_the_api(owner, other, staff, shadowera_cards):
    publication = services.publish(make_deck(owner, shadowera_cards), user=owner, title="テストスレッド")
    hidden = services.add_comment(publication, author=other, body="hidden parent")
    reply = services.add_comment(publication, author=owner, body="reply under it", parent=hidden)
    services.add_comment(publication, author=owner, body="deeper still", parent=reply)
    services.add_comment(publication, author=owner, body="a thread of its own")
    services.moderate(moderator=staff, action="hide", reason="spam", comment=hidden)
    reader = make_user("reader")
    page = signed_in(reader).get(f"/community/decks/published/{publication.pk}/").content.decode()
    listed = [
        c["body"]
        for c in api_client(reader).get(f"/api/community/publications/{publication.pk}/comments/").json()["results"]
    ]
    assert listed == ["a thread of its own"]
    assert "a thread of its own" in page and "reply under it" not in page and "deeper still" not in page
    # Nor can anyone but staff and the hidden comment's author reply to or report what is in its thread.
    answer = api_client(reader).post(
        f"/api/community/publications/{publication.pk}/comments/", {"body": "hi", "parent": reply.pk}, format="json"
    )
    assert answer.status_code == 404
    staff_listed = api_client(staff).get(f"/api/community/publications/{publication.pk}/comments/").json()["results"]
    assert [c["body"] for c in staff_listed] == [
        "hidden parent",
        "reply under it",
        "deeper still",
        "a thread of its own",
    ]


def test_an_author_withdraws_a_published_deck_and_may_publish_it_again(owner, other, staff, shadowera_cards):
    deck = make_deck(owner, shadowera_cards)
    first = services.publish(deck, user=owner, title="テスト撤回")
    second = services.publish(deck, user=owner, title="テスト撤回 2")
    services.add_comment(second, author=other, body="kept comment")
    # Someone else may not withdraw it, on the page or through the API.
    assert signed_in(other).post(f"/community/decks/published/{second.pk}/withdraw/").status_code == 403
    assert api_client(other).post(f"/api/community/publications/{second.pk}/withdraw/").status_code == 403
    assert not Publication.objects.filter(withdrawn_at__isnull=False).exists()  # refused: nothing written
    page = signed_in(owner).get(f"/community/decks/published/{second.pk}/").content.decode()
    assert "Withdraw" in page
    # Read by everyone first, so a cached page would show it still.
    assert Client().get(f"/community/decks/published/{second.pk}/").status_code == 200
    assert "テスト撤回 2" in Client().get("/community/games/shadowera/decks/").content.decode()
    answer = signed_in(owner).post(f"/community/decks/published/{second.pk}/withdraw/", follow=True)
    assert answer.status_code == 200 and "was withdrawn" in answer.content.decode()
    assert "Withdrawn by its author" in answer.content.decode() and "kept comment" in answer.content.decode()
    # Every snapshot of the deck is gone for everyone else, from the pages, the list and the API.
    for pk in (first.pk, second.pk):
        assert Client().get(f"/community/decks/published/{pk}/").status_code == 404
        assert signed_in(other).get(f"/community/decks/published/{pk}/").status_code == 404
        assert api_client(other).get(f"/api/community/publications/{pk}/").status_code == 404
        assert signed_in(staff).get(f"/community/decks/published/{pk}/").status_code == 200
    assert "テスト撤回" not in Client().get("/community/games/shadowera/decks/").content.decode()
    assert "テスト撤回" not in signed_in(owner).get("/community/games/shadowera/decks/").content.decode()
    assert api_client(owner).get(f"/api/community/publications/{second.pk}/").json()["withdrawn_at"] is not None
    assert api_client(owner).post(f"/api/community/publications/{second.pk}/withdraw/").status_code == 200  # idempotent
    # Publishing again is a new snapshot for everyone; the withdrawn ones stay withdrawn.
    third = services.publish(deck, user=owner, title="テスト撤回 3")
    assert Client().get(f"/community/decks/published/{third.pk}/").status_code == 200
    assert "テスト撤回 3" in Client().get("/community/games/shadowera/decks/").content.decode()
    assert Client().get(f"/community/decks/published/{first.pk}/").status_code == 404


def test_a_blocked_user_can_neither_publish_nor_comment(owner, other, staff, shadowera_cards):
    publication = services.publish(make_deck(owner, shadowera_cards), user=owner, title="Deck")
    services.moderate(moderator=staff, action="block", reason="trolling", user=other)
    with pytest.raises(services.Blocked):
        services.add_comment(publication, author=other, body="hi")
    with pytest.raises(services.Blocked):
        services.publish(make_deck(other, shadowera_cards), user=other, title="Mine")
    answer = api_client(other).post(
        f"/api/community/publications/{publication.pk}/comments/", {"body": "hi"}, format="json"
    )
    assert answer.status_code == 403 and answer.json()["code"] == "blocked"
    page = signed_in(other).post(f"/community/decks/published/{publication.pk}/comments/", {"body": "hi"})
    assert page.status_code == 403 and "blocked" in page.content.decode()
    services.moderate(moderator=staff, action="unblock", reason="apologised", user=other)
    assert services.add_comment(publication, author=other, body="sorry").pk
    assert not Block.objects.exists()


def test_moderation_needs_staff_and_a_reason(owner, other, staff, shadowera_cards):
    publication = services.publish(make_deck(owner, shadowera_cards), user=owner, title="Deck")
    with pytest.raises(Exception) as refused:
        services.moderate(moderator=other, action="hide", reason="x", publication=publication)
    assert type(refused.value).__name__ == "PermissionDenied"
    with pytest.raises(services.CommunityError):
        services.moderate(moderator=staff, action="hide", reason="  ", publication=publication)
    assert signed_in(other).get("/community/moderation/").status_code == 403
    assert api_client(other).get("/api/community/moderation/reports/").status_code == 403
    assert not ModerationAction.objects.exists()


@pytest.mark.parametrize(("language", "said"), [("en", "moderators"), ("ja", "モデレーター"), ("zh-hant", "管理員")])
def test_a_reader_refused_the_moderation_page_is_told_it_is_for_moderators(other, language, said):
    """Seen on the screenshot review: the refusal spoke of a deck's owner and of copying the deck."""
    page = signed_in(other, language).get("/community/moderation/")
    assert page.status_code == 403
    body = page.content.decode().split("</head>", 1)[1]
    assert said in body
    assert "copy" not in body and "コピー" not in body and "複製" not in body


# --- the pages ----------------------------------------------------------------------------------------


def test_publish_like_comment_report_and_hide_through_the_pages(owner, other, staff, shadowera_cards):
    deck = make_deck(owner, shadowera_cards)
    deck_page = signed_in(owner).get(f"/decks/{deck.pk}/").content.decode()
    assert f'href="/community/decks/{deck.pk}/publish/"' in deck_page
    published = signed_in(owner).post(
        f"/community/decks/{deck.pk}/publish/", {"title": "My list", "description": "**Strong**"}
    )
    publication = Publication.objects.get()
    assert published.status_code == 302 and published["Location"] == f"/community/decks/published/{publication.pk}/"
    assert (
        f'href="/community/decks/published/{publication.pk}/"'
        in signed_in(owner).get(f"/decks/{deck.pk}/").content.decode()
    )
    assert (
        signed_in(other).get(f"/community/decks/{deck.pk}/publish/").status_code == 404
    )  # a private deck of someone else

    reader = signed_in(other)
    page = reader.get(f"/community/decks/published/{publication.pk}/").content.decode()
    assert "<strong>Strong</strong>" in page and "Test Ally 01" in page
    liked = reader.post(f"/community/decks/published/{publication.pk}/like/", HTTP_HX_REQUEST="true")
    assert liked.status_code == 200 and 'aria-pressed="true"' in liked.content.decode()
    reader.post(f"/community/decks/published/{publication.pk}/favourite/")
    assert "My list" in reader.get("/community/decks/published/favourites/").content.decode()
    reader.post(f"/community/decks/published/{publication.pk}/comments/", {"body": "Great deck"})
    comment = Comment.objects.get()
    assert "1" in signed_in(owner).get("/").content.decode().split("Notifications", 1)[1][:80]
    notes = signed_in(owner).get("/notifications/").content.decode()
    assert "other commented on “My list”" in notes
    reader.post(f"/community/decks/published/{publication.pk}/report/", {"reason": "spam", "note": "ads"})
    queue = signed_in(staff).get("/community/moderation/").content.decode()
    assert "ads" in queue and "My list" in queue
    report = Report.objects.get()
    signed_in(staff).post(
        "/community/moderation/act/",
        {"action": "hide", "publication": publication.pk, "report": report.pk, "reason": "ads"},
    )
    report.refresh_from_db()
    assert report.resolved_at is not None and Publication.objects.get().hidden
    log = signed_in(staff).get("/community/moderation/").content.decode()
    assert "ads" in log.split("Moderation log", 1)[1]
    assert Client().get(f"/community/decks/published/{publication.pk}/").status_code == 404
    assert comment.pk


def test_the_list_sorts_filters_and_pages(owner, shadowera_cards):
    for number in range(30):
        services.publish(
            make_deck(owner, shadowera_cards, f"Deck {number:02d}"), user=owner, title=f"Deck {number:02d}"
        )
    services.publish(make_deck(owner, shadowera_cards, "Other", ("Test Ally 02",)), user=owner, title="Other allies")
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    first = client.get("/community/games/shadowera/decks/").content.decode()
    assert "Other allies" in first and 'rel="next"' in first and "Deck 05" not in first
    second = client.get("/community/games/shadowera/decks/?page=2").content.decode()
    assert "Deck 05" in second and 'rel="prev"' in second
    filtered = client.get('/community/games/shadowera/decks/?exclude=name:"Test Ally 01"').content.decode()
    assert "Other allies" in filtered and "Deck 05" not in filtered
    broken = client.get("/community/games/shadowera/decks/?include=attack>=")
    # After the head, whose inlined stylesheet names every class.
    assert broken.status_code == 400 and "error-message" in broken.content.decode().split("</head>", 1)[-1]
    assert client.get("/community/games/shadowera/decks/?sort=nonsense").status_code == 400
    too_long = client.get("/community/games/shadowera/decks/?include=" + "x" * 501)
    assert too_long.status_code == 400 and "at most 500 characters" in too_long.content.decode()
    assert client.get("/community/games/nonsense/decks/").status_code == 404
    assert client.get("/decks/public/")["Location"] == "/community/decks/published/"  # the old page moved here


def test_nothing_anyone_writes_puts_a_script_on_a_page(owner, other, shadowera_cards):
    deck = make_deck(owner, shadowera_cards)
    signed_in(owner).post(
        f"/community/decks/{deck.pk}/publish/", {"title": "<script>x</script>", "description": HOSTILE}
    )
    publication = Publication.objects.get()
    signed_in(other).post(f"/community/decks/published/{publication.pk}/comments/", {"body": HOSTILE})
    for client in (Client(), signed_in(owner)):
        page = client.get(f"/community/decks/published/{publication.pk}/").content.decode()
        assert "<script>alert" not in page and "<script>x" not in page
        assert "onerror" not in page.replace("onerror=alert(1)&gt;", "")
        assert 'href="javascript' not in page and "<strong>bold</strong>" in page
    detail = api_client().get(f"/api/community/publications/{publication.pk}/").json()
    assert "<script" not in detail["description_html"] and "<strong>bold</strong>" in detail["description_html"]


def test_hostile_input_is_a_clear_4xx(owner, other, shadowera_cards):
    publication = services.publish(make_deck(owner, shadowera_cards), user=owner, title="Deck")
    client = signed_in(other)
    assert (
        client.post(
            f"/community/decks/published/{publication.pk}/comments/", {"body": "x", "parent": "abc"}
        ).status_code
        == 404
    )
    assert (
        client.post(
            f"/community/decks/published/{publication.pk}/comments/", {"body": "x", "parent": "99999"}
        ).status_code
        == 404
    )
    assert (
        client.post(f"/community/decks/published/{publication.pk}/report/", {"reason": "nonsense"}).status_code == 400
    )
    assert client.post(f"/community/decks/published/{publication.pk}/comments/", {"body": "a\x00b"}).status_code == 400
    long = client.post(f"/community/decks/published/{publication.pk}/comments/", {"body": "x" * 6000})
    assert long.status_code == 400 and "at most 5000 characters" in long.content.decode()
    assert client.get("/community/decks/published/999999/").status_code == 404
    assert Client().post(f"/community/decks/published/{publication.pk}/like/").status_code == 302  # to the login page
    assert not Comment.objects.exists()


# --- the API ------------------------------------------------------------------------------------------


def test_the_api_publishes_lists_likes_comments_and_reports(owner, other, staff, shadowera_cards):
    deck = make_deck(owner, shadowera_cards)
    made = api_client(owner).post("/api/community/publications/", {"deck": deck.pk, "title": "API deck"}, format="json")
    assert made.status_code == 201, made.json()
    pk = made.json()["id"]
    assert made["Location"].endswith(f"/api/community/publications/{pk}/") and made.json()["deck"] == deck.pk
    assert api_client(other).post("/api/community/publications/", {"deck": deck.pk}, format="json").status_code == 404
    listed = api_client().get("/api/community/publications/?game=shadowera&include=name:%22Test%20Ally%2001%22").json()
    assert [p["id"] for p in listed["results"]] == [pk]
    assert api_client().get("/api/community/publications/?exclude=kind:ally").json()["results"] == []
    assert api_client().get("/api/community/publications/?include=attack%3E%3D").status_code == 400
    assert api_client().get(f"/api/community/publications/{pk}/").json()["deck"] is None  # not the author's
    like = api_client(other).put(f"/api/community/publications/{pk}/like/")
    assert like.json() == {"on": True, "like_count": 1, "favourite_count": 0}
    assert api_client(other).put(f"/api/community/publications/{pk}/like/").json()["like_count"] == 1
    assert api_client(other).put(f"/api/community/publications/{pk}/favourite/").json()["favourite_count"] == 1
    favourites = api_client(other).get("/api/community/publications/?favourites=true").json()["results"]
    assert [p["id"] for p in favourites] == [pk] and favourites[0]["liked"] and favourites[0]["favourite"]
    assert api_client(other).delete(f"/api/community/publications/{pk}/like/").json()["like_count"] == 0
    assert api_client().put(f"/api/community/publications/{pk}/like/").status_code == 401
    top = api_client(other).post(f"/api/community/publications/{pk}/comments/", {"body": "Hi"}, format="json").json()
    reply = api_client(owner).post(
        f"/api/community/publications/{pk}/comments/", {"body": "Yo", "parent": top["id"]}, format="json"
    )
    assert reply.status_code == 201 and reply.json()["parent"] == top["id"]
    assert [c["body"] for c in api_client().get(f"/api/community/publications/{pk}/comments/").json()["results"]] == [
        "Hi",
        "Yo",
    ]
    notes = api_client(owner).get("/api/notifications/").json()["results"]
    assert [(n["kind"], n["actor"]) for n in notes] == [("comment", "other")]
    assert api_client(owner).post("/api/notifications/read/", {}, format="json").json() == {"marked": 1}
    copied = api_client(other).post(f"/api/community/publications/{pk}/copy/")
    assert copied.status_code == 201 and Deck.objects.get(pk=copied.json()["id"]).forked_from_id == deck.pk
    reported = api_client(other).post(f"/api/community/publications/{pk}/reports/", {"reason": "spam"}, format="json")
    assert reported.status_code == 201
    queue = api_client(staff).get("/api/community/moderation/reports/").json()["results"]
    assert [r["id"] for r in queue] == [reported.json()["id"]]
    acted = api_client(staff).post(
        "/api/community/moderation/actions/",
        {"action": "hide", "report": reported.json()["id"], "reason": "spam"},
        format="json",
    )
    assert acted.status_code == 201 and acted.json()["publication"] == pk
    assert api_client().get(f"/api/community/publications/{pk}/").status_code == 404
    assert api_client(owner).get(f"/api/community/publications/{pk}/").json()["hidden"] is True
    assert api_client(staff).get("/api/community/moderation/reports/").json()["results"] == []
    assert [a["action"] for a in api_client(staff).get("/api/community/moderation/actions/").json()["results"]] == [
        "hide"
    ]
    blocked = api_client(staff).post(
        "/api/community/moderation/actions/", {"action": "block", "user": "other", "reason": "spam"}, format="json"
    )
    assert blocked.status_code == 201 and Block.objects.filter(user=other).exists()
    assert (
        api_client(other)
        .post("/api/community/moderation/actions/", {"action": "hide", "publication": pk, "reason": "x"}, format="json")
        .status_code
        == 403
    )
    assert get_user_model().objects.filter(username="other").exists()


@pytest.mark.parametrize(("language", "said"), [("en", "Add to favourites"), ("ja", "お気に入りに追加")])
def test_an_empty_favourites_page_says_how_to_add_one(other, language, said):
    """Seen on the screenshot review: the empty list said only that there were no favourites."""
    body = signed_in(other, language).get("/community/decks/published/favourites/").content.decode()
    body = body.split("</head>", 1)[1]
    assert said in body and 'href="/community/decks/published/"' in body
