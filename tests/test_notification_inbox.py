"""One inbox for every kind of news: a decision on a change set and a comment on a published deck land in the
same list and the same unread count in the navigation, are marked read together, and are e-mailed as the user
chose for each kind (decisions by default, comments only when asked for)."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from community import services as community_services
from contributions import services as contribution_services
from contributions.models import ChangeSet
from decks import services as deck_services
from notifications.models import Notification

from .support.clients import signed_in
from .synthetic_decks import card, game
from .users import make_editor

pytestmark = pytest.mark.django_db


@pytest.fixture
def owner_with_email(owner):
    owner.email = "owner@example.com"
    owner.save()
    return owner


def _rejected_change_set(owner_with_email, key: str = "SE9-INBOX") -> ChangeSet:
    shadowera = game("shadowera")
    change_set = contribution_services.submit_change_set(
        author=owner_with_email,
        game=shadowera,
        cards=[
            {
                "key": key,
                "kind": "hero",
                "fields": {"faction": "human", "class": ["warrior"], "ability_cost": 2, "health": 30},
                "texts": {"en": {"name": "Test Inbox Hero"}},
                "source": "test",
            }
        ],
        source_kind=ChangeSet.SourceKind.OWN_COPY,
    )
    editor = make_editor(shadowera, f"editor-{key}")
    contribution_services.reject_change_set(editor=editor, change_set_id=change_set.pk, reason="Test reason.")
    return change_set


def _commented_publication(owner_with_email, commenter):
    entries = [("hero", card("shadowera", "Test Hero 01"), 1), ("deck", card("shadowera", "Test Ally 01"), 3)]
    deck = deck_services.create_deck(
        owner=owner_with_email, game=game("shadowera"), name="Test inbox deck", entries=entries
    )
    publication = community_services.publish(deck, user=owner_with_email, title="Test inbox deck")
    community_services.add_comment(publication, author=commenter, body="Test comment")
    return publication


def _navigation_count(client: Client) -> int | None:
    found = re.search(r'class="unread-count"[^>]*>(\d+)<', client.get("/").content.decode())
    return int(found.group(1)) if found else None


def test_a_decision_and_a_comment_share_one_inbox_one_count_and_one_mark_all_read(
    owner_with_email, other, synthetic_cards, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        change_set = _rejected_change_set(owner_with_email)
        _commented_publication(owner_with_email, other)
    client = signed_in(owner_with_email)
    assert _navigation_count(client) == 2
    inbox = client.get("/notifications/").content.decode()
    assert f"Your change set #{change_set.pk} of" in inbox and "was rejected" in inbox
    assert "other commented on “Test inbox deck”" in inbox
    assert f'href="/contributions/{change_set.pk}/"' in inbox
    # the contributions page, which had its own inbox, leads to this one
    assert 'href="/notifications/"' in client.get("/contributions/").content.decode()

    api = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    api.force_authenticate(owner_with_email)
    listed = api.get("/api/notifications/").json()["results"]
    assert sorted(item["kind"] for item in listed) == ["change_set", "comment"]
    by_kind = {item["kind"]: item for item in listed}
    assert by_kind["change_set"]["verb"] == "rejected" and by_kind["change_set"]["change_set"] == change_set.pk
    assert by_kind["comment"]["actor"] == "other" and by_kind["comment"]["publication"] is not None

    assert client.post("/notifications/read/").status_code == 302
    assert _navigation_count(client) is None
    assert not Notification.objects.filter(recipient=owner_with_email, read_at__isnull=True).exists()


def test_the_old_names_of_the_inbox_still_lead_to_it(owner_with_email, other, synthetic_cards):
    _commented_publication(owner_with_email, other)
    client = signed_in(owner_with_email)
    page = client.get(reverse("community:notifications"), follow=True)
    assert page.redirect_chain == [("/notifications/", 301)]
    assert page.status_code == 200 and "other commented on" in page.content.decode()
    marked = client.post(reverse("community:mark_read"), follow=True)
    assert marked.redirect_chain[0] == ("/notifications/read/", 308)
    assert _navigation_count(client) is None


def test_e_mail_follows_each_kinds_preference(
    owner_with_email, other, synthetic_cards, django_capture_on_commit_callbacks
):
    # By default a decision on a change set is e-mailed and a comment is not.
    with django_capture_on_commit_callbacks(execute=True):
        _rejected_change_set(owner_with_email)
        _commented_publication(owner_with_email, other)
    assert [message.to for message in mail.outbox] == [["owner@example.com"]]
    # in the site's language, as before
    assert "#" in mail.outbox[0].subject and "Test reason." in mail.outbox[0].body

    client = signed_in(owner_with_email)
    settings_page = client.get("/notifications/settings/").content.decode()
    assert 'value="change_set" checked' in settings_page and 'value="comment" checked' not in settings_page
    client.post("/notifications/settings/", {"email": ["comment"]})
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        _rejected_change_set(owner_with_email, "SE9-INBOX2")
        _commented_publication(owner_with_email, other)
    assert len(mail.outbox) == 1 and "Test inbox deck" in mail.outbox[0].subject
    assert "Test comment" in mail.outbox[0].body
    # the inbox has every one of them all the same
    assert Notification.objects.filter(recipient=owner_with_email).count() == 4


def test_deleting_what_a_notification_is_about_deletes_the_notification(owner_with_email, other, synthetic_cards):
    publication = _commented_publication(owner_with_email, other)
    assert Notification.objects.filter(recipient=owner_with_email).count() == 1
    publication.delete()
    assert not Notification.objects.filter(recipient=owner_with_email).exists()


def test_an_inbox_is_its_owners_alone(owner_with_email, other, synthetic_cards):
    _commented_publication(owner_with_email, other)
    (notification,) = Notification.objects.filter(recipient=owner_with_email)
    signed_in(other).post("/notifications/read/", {"id": notification.pk})
    notification.refresh_from_db()
    assert notification.read_at is None
    assert "Test inbox deck" not in signed_in(other).get("/notifications/").content.decode()
    assert Client().get("/notifications/").status_code == 302
