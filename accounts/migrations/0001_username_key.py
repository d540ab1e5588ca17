"""Each user name's confusable key, unique; filled for the users there are."""

from __future__ import annotations

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def fill(apps, schema_editor):
    from cardsite.confusables import name_key

    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    UsernameKey = apps.get_model("accounts", "UsernameKey")
    taken: set[str] = set()
    rows = []
    # The oldest account keeps a key that two existing names share; the later one gets none (it can log in
    # as before; such users are those without a key row).
    for user in User.objects.order_by("pk").only("pk", "username").iterator():
        key = name_key(user.username)
        if key not in taken:
            taken.add(key)
            rows.append(UsernameKey(user_id=user.pk, key=key))
    UsernameKey.objects.bulk_create(rows, batch_size=1000)


class Migration(migrations.Migration):
    initial = True

    dependencies = [migrations.swappable_dependency(settings.AUTH_USER_MODEL)]

    operations = [
        migrations.CreateModel(
            name="UsernameKey",
            fields=[
                (
                    "user",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        primary_key=True,
                        related_name="username_key",
                        serialize=False,
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                ("key", models.CharField(max_length=1000, unique=True, verbose_name="confusable key")),
            ],
            options={"verbose_name": "user name key", "verbose_name_plural": "user name keys"},
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
