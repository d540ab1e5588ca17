"""PostgreSQL: search documents keep their folded texts in the row, where a phrase's needle is tested
(cards.search.tokens, cards.search.backends).

The column is stored MAIN (compressed if need be, kept in the row unless the row would not fit a page),
so that testing a candidate does not read out of TOAST, as the table's other columns are (migration 0006).
Filling it changes no token, so the postings' update trigger, which would rewrite every document's
postings, is off while it runs. SQLite leaves the column NULL: FTS5 reads phrases from its own index.
"""

from django.db import migrations, models

from cards.migration_sql import run_on as _on

_BATCH = 1000


def fill_phrase_texts(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    from cards.search.indexing import card_columns
    from cards.search.tokens import phrase_text

    card_model = apps.get_model("cards", "Card")
    cards = card_model.objects.filter(search_document__isnull=False).prefetch_related("texts").order_by("pk")
    with schema_editor.connection.cursor() as cursor:
        cursor.execute("ALTER TABLE cards_searchdocument DISABLE TRIGGER cards_searchposting_update")
        batch: list[tuple[int, str]] = []
        for card in cards.iterator(chunk_size=_BATCH):
            batch.append((card.pk, phrase_text(card_columns(card))))
            if len(batch) >= _BATCH:
                _update(cursor, batch)
                batch = []
        if batch:
            _update(cursor, batch)
        cursor.execute("ALTER TABLE cards_searchdocument ENABLE TRIGGER cards_searchposting_update")


def _update(cursor, rows: list[tuple[int, str]]) -> None:
    values = ", ".join(["(%s, %s)"] * len(rows))
    cursor.execute(
        f"UPDATE cards_searchdocument AS d SET phrase_text = v.text FROM (VALUES {values}) AS v(card_id, text)"
        " WHERE d.card_id = v.card_id",
        [value for row in rows for value in row],
    )


class Migration(migrations.Migration):
    dependencies = [("cards", "0016_storedimage_perceptual_hash")]

    operations = [
        migrations.AddField(
            model_name="searchdocument",
            name="phrase_text",
            field=models.TextField(blank=True, null=True),
        ),
        migrations.RunPython(
            _on("postgresql", ["ALTER TABLE cards_searchdocument ALTER COLUMN phrase_text SET STORAGE MAIN"]),
            migrations.RunPython.noop,
        ),
        migrations.RunPython(fill_phrase_texts, migrations.RunPython.noop),
    ]
