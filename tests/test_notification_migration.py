"""An upgraded database keeps every notice and notification: contributions' notices and the published decks'
notifications move into the one inbox with their recipient, actor, target, date and read state."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from notifications import selectors
from notifications.models import Notification

BEFORE = [("contributions", "0003_change_set_tracks"), ("community", "0002_publication_withdrawn_at")]
AFTER = [("contributions", "0004_notices_into_notifications"), ("community", "0003_notifications_into_inbox")]
MADE = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
READ = datetime(2026, 1, 3, 0, 0, 0, tzinfo=UTC)


@pytest.mark.django_db(transaction=True)
def test_an_upgrade_moves_every_old_notice_and_notification_into_the_one_inbox(executor):
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    User = old.get_model("auth", "User")
    author = User.objects.create(username="test-migrated-author")
    reviewer = User.objects.create(username="test-migrated-reviewer")
    game, _ = old.get_model("cards", "Game").objects.get_or_create(slug="shadowera")
    ChangeSet = old.get_model("contributions", "ChangeSet")
    Notice = old.get_model("contributions", "Notice")
    decided = ChangeSet.objects.create(game=game, author=author, status="rejected", decided_by=reviewer, reason="r")
    unread = Notice.objects.create(user=author, change_set=decided, event="rejected", read=False)
    read = Notice.objects.create(user=author, change_set=decided, event="accepted", read=True)
    Notice.objects.filter(pk__in=[unread.pk, read.pk]).update(created_at=MADE)
    Publication = old.get_model("community", "Publication")
    publication = Publication.objects.create(author=author, game=game, title="Test migrated deck")
    comment = old.get_model("community", "Comment").objects.create(
        publication=publication, author=reviewer, body="Test comment"
    )
    OldNotification = old.get_model("community", "Notification")
    OldNotification.objects.create(
        recipient=author, actor=reviewer, kind="comment", publication=publication, comment=comment, created_at=MADE
    )
    OldNotification.objects.create(
        recipient=author, actor=reviewer, kind="reply", publication=publication, created_at=MADE, read_at=READ
    )

    after = MigrationExecutor(connection)
    after.migrate(AFTER)
    latest = MigrationExecutor(connection)
    latest.migrate(latest.loader.graph.leaf_nodes())

    rows = Notification.objects.filter(recipient_id=author.pk).order_by("kind", "verb")
    assert [(row.kind, row.verb, row.target_id, row.actor_id) for row in rows] == [
        ("change_set", "accepted", decided.pk, reviewer.pk),
        ("change_set", "rejected", decided.pk, reviewer.pk),
        ("comment", "comment", publication.pk, reviewer.pk),
        ("reply", "reply", publication.pk, reviewer.pk),
    ]
    assert all(row.created_at == MADE for row in rows)
    assert [row.read_at is not None for row in rows] == [True, False, False, True]
    assert rows.get(kind="reply").read_at == READ
    assert rows.get(kind="comment").action_object_id == comment.pk
    assert selectors.unread_count(rows[0].recipient) == 2
    # the code of today reads them: each says what it is about and leads there
    page = selectors.page_of(rows[0].recipient, 1)
    assert all(item.url for item in page.items)
    assert any("Test migrated deck" in item.text for item in page.items)
