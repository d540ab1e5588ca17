"""Moves every notification of the public deck space into the one inbox (``notifications.Notification``), then
drops ``community.Notification``. Nothing is lost: recipient, actor, kind (comment or reply, also the verb),
publication (the target), comment (the action object), date and read date. Reversible."""

from django.db import migrations

BATCH = 1000


def into_inbox(apps, schema_editor):
    Old = apps.get_model("community", "Notification")
    Notification = apps.get_model("notifications", "Notification")
    ContentType = apps.get_model("contenttypes", "ContentType")
    publication_type, _ = ContentType.objects.get_or_create(app_label="community", model="publication")
    comment_type, _ = ContentType.objects.get_or_create(app_label="community", model="comment")
    batch = []
    for old in Old.objects.order_by("pk").iterator(chunk_size=BATCH):
        batch.append(
            Notification(
                recipient_id=old.recipient_id,
                actor_id=old.actor_id,
                kind=old.kind,
                verb=old.kind,
                target_type=publication_type,
                target_id=old.publication_id,
                action_object_type=comment_type if old.comment_id else None,
                action_object_id=old.comment_id,
                created_at=old.created_at,
                read_at=old.read_at,
            )
        )
        if len(batch) >= BATCH:
            Notification.objects.bulk_create(batch)
            batch = []
    Notification.objects.bulk_create(batch)


def out_of_inbox(apps, schema_editor):
    Old = apps.get_model("community", "Notification")
    Notification = apps.get_model("notifications", "Notification")
    ContentType = apps.get_model("contenttypes", "ContentType")
    publication_type = ContentType.objects.filter(app_label="community", model="publication").first()
    if publication_type is None:
        return
    rows = Notification.objects.filter(kind__in=["comment", "reply"], target_type=publication_type)
    Old.objects.bulk_create(
        Old(
            recipient_id=row.recipient_id,
            actor_id=row.actor_id,
            kind=row.kind,
            publication_id=row.target_id,
            comment_id=row.action_object_id,
            created_at=row.created_at,
            read_at=row.read_at,
        )
        for row in rows.order_by("pk")
        if row.actor_id is not None  # the old model needed an actor
    )
    rows.delete()


class Migration(migrations.Migration):
    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ("community", "0002_publication_withdrawn_at"),
        ("notifications", "0001_initial"),
    ]

    operations = [
        migrations.RunPython(into_inbox, out_of_inbox),
        migrations.DeleteModel(name="Notification"),
    ]
