"""Moves every contribution notice into the one inbox (``notifications.Notification``), then drops ``Notice``.

Nothing is lost: recipient, change set (the target), event (the verb), date and read state. A notice kept only
whether it was read, not when: a read one is taken as read when it was made. The reviewer who decided the change
set becomes the actor. Reversible: going back copies the change-set notifications into notices again."""

from django.db import migrations

BATCH = 1000


def notices_into_notifications(apps, schema_editor):
    Notice = apps.get_model("contributions", "Notice")
    Notification = apps.get_model("notifications", "Notification")
    ContentType = apps.get_model("contenttypes", "ContentType")
    target_type, _ = ContentType.objects.get_or_create(app_label="contributions", model="changeset")
    batch = []
    for notice in Notice.objects.select_related("change_set").order_by("pk").iterator(chunk_size=BATCH):
        batch.append(
            Notification(
                recipient_id=notice.user_id,
                actor_id=notice.change_set.decided_by_id,
                kind="change_set",
                verb=notice.event,
                target_type=target_type,
                target_id=notice.change_set_id,
                created_at=notice.created_at,
                read_at=notice.created_at if notice.read else None,
            )
        )
        if len(batch) >= BATCH:
            Notification.objects.bulk_create(batch)
            batch = []
    Notification.objects.bulk_create(batch)


def notifications_into_notices(apps, schema_editor):
    Notice = apps.get_model("contributions", "Notice")
    Notification = apps.get_model("notifications", "Notification")
    ContentType = apps.get_model("contenttypes", "ContentType")
    target_type = ContentType.objects.filter(app_label="contributions", model="changeset").first()
    if target_type is None:
        return
    rows = Notification.objects.filter(kind="change_set", target_type=target_type).order_by("pk")
    for row in rows.iterator(chunk_size=BATCH):
        notice = Notice.objects.create(
            user_id=row.recipient_id, change_set_id=row.target_id, event=row.verb, read=row.read_at is not None
        )
        # created_at is auto_now_add: set the old date after the insert.
        Notice.objects.filter(pk=notice.pk).update(created_at=row.created_at)
    rows.delete()


class Migration(migrations.Migration):
    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ("contributions", "0003_change_set_tracks"),
        ("notifications", "0001_initial"),
    ]

    operations = [
        migrations.RunPython(notices_into_notifications, notifications_into_notices),
        migrations.DeleteModel(name="Notice"),
    ]
