from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("readings", "0004_photo_readings_on_the_job_lifecycle")]

    operations = [
        migrations.AddField(
            model_name="readingbatch",
            name="printing",
            field=models.CharField(blank=True, default="", max_length=16),
        ),
        migrations.AddField(
            model_name="photoreading",
            name="source",
            field=models.FileField(blank=True, default="", max_length=200, upload_to=""),
        ),
    ]
